"""Tables declared as data: one Spec gives a table's headers, cells and download records."""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from generator.load import Inputs
from generator.pages import VersionContext, version_context
from generator.pages.blocks.columns import (
    Column,
    Field,
    Spec,
    estimate_fields,
    only,
    sorted_as,
)
from generator.pages.blocks.differences import differences_spec
from generator.pages.blocks.tables import Cell
from generator.pages.combination.card_tables import (
    EFFICIENCY,
    failures_spec,
    placed,
    reliability_points,
    reliability_spec,
    scores_spec,
)
from generator.pages.domain.business import business_spec, failure_spec
from generator.pages.domain.results import scope_spec
from generator.pages.domain.usage import usage_spec
from generator.pages.home.contamination import gap_spec
from generator.pages.task.card import SCORING, results_spec
from generator.score.results import Estimate
from generator.score.version import score_version


class Item(NamedTuple):
    name: str
    size: int | None
    estimate: Estimate | None


SPEC: Spec[Item] = Spec(
    (
        Column("Name", lambda i: i.name),
        Column(
            "Size", lambda i: i.size, sorted_as(lambda v: f"{v} kB"), lambda i: i.size is not None
        ),
    ),
    (
        Field("name", lambda i: i.name),
        *only(lambda i: i.size is not None, (Field("size", lambda i: i.size, "integer"),)),
        *estimate_fields("estimate", lambda i: i.estimate),
    ),
)


def test_a_spec_gives_headers_cells_and_records_from_one_declaration() -> None:
    e = Estimate(value=0.5, low=0.25, high=0.75, tasks=4)
    table = SPEC.table("t", "Items", [Item("a", 3, e), Item("b", None, None)])
    assert table.columns == ("Name", "Size")
    first, second = table.rows
    assert first.cells == (Cell("a"), Cell("3 kB", 3))
    assert second.cells == (Cell("b"), Cell("—"))  # a column's `when` dashes the cell
    assert first.record == {
        "name": "a",
        "size": 3,
        "estimate": e.value,
        "estimate_low": e.low,
        "estimate_high": e.high,
        "estimate_interval": e.interval,
    }
    # A field's `when` leaves it out of the row; the CSV still has every column.
    assert second.record == {
        "name": "b",
        "estimate": None,
        "estimate_low": None,
        "estimate_high": None,
    }
    assert table.to_csv().splitlines()[0].split(",") == list(first.record)


@pytest.mark.parametrize(
    ("kind", "good", "bad"),
    [
        ("string", "x", 1),
        ("integer", 3, 1.5),
        ("number", 1.5, True),
        ("boolean", False, 0),
        ("array", ["x"], "x"),
        ("object", {"a": 1}, [1]),
    ],
)
def test_a_field_accepts_its_type_and_null(kind: Any, good: object, bad: object) -> None:
    field: Field[Any] = Field("f", lambda r: r, kind)
    assert field.accepts(good)
    assert field.accepts(None)
    assert not field.accepts(bad)


def _rows(ctx: VersionContext) -> list[tuple[Spec[Any], Any]]:
    """Every declared table of the version's domain pages, result cards and tasks, with
    each item it makes a row of."""
    stats = ctx.release.statistics
    found: list[tuple[Spec[Any], Any]] = []
    for report in ctx.reports.values():
        for scope in report.scopes:
            found += [(scope_spec(ctx, 1), c) for c in scope.combinations]
            found += [(scope_spec(ctx, 1, scope), c) for c in scope.combinations]
            found += [(usage_spec(ctx), c) for c in scope.combinations if c.status == "scored"]
            found += [(business_spec(ctx), c) for c in scope.combinations if c.business]
            found += [(failure_spec(ctx), c) for c in scope.combinations if c.status == "scored"]
            differences = differences_spec(
                stats.min_tasks_to_order, stats.min_tasks_to_resample, stats.confidence
            )
            found += [(differences, d) for d in scope.differences]
        found += [(gap_spec(ctx), row) for row in report.contamination]
    for combo in ctx.frame.bundles:
        scopes = list(placed(ctx, combo))
        found += [(scores_spec(ctx, stats.confidence), p) for p in scopes]
        found += [(EFFICIENCY, p) for p in scopes if p.whole_domain]
        found += [(failures_spec(ctx), p) for p in scopes if p.whole_domain]
        points = reliability_points(ctx, combo)
        found += [(reliability_spec(stats.confidence), p) for p in points]
    for task in ctx.public_tasks():
        found += [(SCORING, i) for i in (*task.scoring.rule_items, *task.scoring.judge_items)]
        found += [(results_spec(ctx, task.domain), r) for r in ctx.task_rows.get(task.id, [])]
    return found


def test_every_declared_field_holds_its_type_in_the_example(inputs: Inputs) -> None:
    checked = 0
    for loaded in inputs.releases:
        ctx = version_context(score_version(loaded), inputs.cards)
        for spec, item in _rows(ctx):
            row = spec.row(item)
            assert len(row.cells) == len(spec.headers)
            types = {f.name: f for f in spec.fields}
            assert row.record
            for name, value in row.record.items():
                assert types[name].accepts(value), (name, value, types[name].type)
            checked += 1
    assert checked


def test_a_column_s_first_click_order_reaches_its_table() -> None:
    spec = Spec((Column("x", lambda r: r, first="desc"), Column("y", lambda r: r)), ())
    assert spec.table("t", "T", [1]).first == ("desc", None)
