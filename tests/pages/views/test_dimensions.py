"""The dimensions view against the report of the EnterpriseBench-shaped example: each judged
dimension and the judged overall apart on the Judge items' scale, a table per comparison
group."""

from __future__ import annotations

import html
import math
import re

from generator.models.profile import Dimensions
from generator.pages import VersionContext
from generator.pages.blocks.tables import Cell
from generator.pages.views.dimensions import dimensions_page, dimensions_spec, max_levels
from generator.pages.views.parts import shown_scope


def _text(cell: Cell) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", cell.text))


def _first(text: str) -> float:
    return float(text.split("\u00a0")[0].replace(",", ""))


def _dimensions(ctx: VersionContext) -> Dimensions:
    return next(v for v in ctx.release.profile.views if isinstance(v, Dimensions))


def test_dimensions_on_the_items_scale_and_the_overall_apart(
    enterprise: VersionContext,
) -> None:
    view = _dimensions(enterprise)
    page = dimensions_page(enterprise, view)
    scope = shown_scope(enterprise, view.domain, {})
    assert scope is not None
    groups = scope.comparison_groups or [[c.combination for c in scope.combinations]]
    assert len(page.tables) == len(groups)
    (top,) = max_levels(enterprise, view.domain)
    scores = {c.combination: c for c in scope.combinations}
    apart = 0
    for table, group in zip(page.tables, groups, strict=True):
        assert sorted(r.record["combination"] for r in table.rows) == sorted(group)
        assert table.columns[-1].startswith("Overall, judged")
        for row in table.rows:
            c = scores[row.record["combination"]]
            assert c.overall is not None
            assert c.overall.value is not None
            dims = list(c.dimensions)
            assert dims
            shown = [_first(_text(cell)) for cell in row.cells[1:]]
            ordered = dims_in_order(enterprise, dims)
            assert sorted(ordered) == sorted(dims)
            for got, d in zip(shown[:-1], ordered, strict=True):
                value = c.dimensions[d].value
                assert value is not None
                assert math.isclose(got, value * top, abs_tol=0.06)
            assert math.isclose(shown[-1], c.overall.value * top, abs_tol=0.06)
            assert row.record["overall"] == c.overall.value
            mean = sum(e.value or 0 for e in c.dimensions.values()) / len(dims)
            apart += not math.isclose(row.record["overall"], mean)
    assert apart  # the judged overall is not the mean of the dimensions


def dims_in_order(ctx: VersionContext, present: list[str]) -> list[str]:
    return [d.id for d in ctx.release.profile.dimensions if d.id in present]


def test_without_a_judged_overall_no_overall_column(enterprise: VersionContext) -> None:
    """Where no task judges an overall, the view shows the dimensions alone: it never
    computes one from them."""
    view = _dimensions(enterprise)
    scope = shown_scope(enterprise, view.domain, {})
    assert scope is not None
    dims = [(d.id, d.title) for d in enterprise.release.profile.dimensions]
    with_overall = dimensions_spec(enterprise, view, dims)
    without = dimensions_spec(enterprise, view, dims, judged=False)
    assert len(with_overall.columns) == len(without.columns) + 1
    assert len(without.headers) == len(with_overall.headers) - 1
    assert any(h.startswith("Overall") for h in with_overall.headers)
    assert not any(h.startswith("Overall") for h in without.headers)
    assert "overall" not in {f.name for f in without.fields}


def test_downloads_keep_g_over_g_and_say_the_max_level(enterprise: VersionContext) -> None:
    view = _dimensions(enterprise)
    page = dimensions_page(enterprise, view)
    levels = max_levels(enterprise, view.domain)
    rows = 0
    for table in page.tables:
        assert table.id != f"{view.id}-1"  # named by its group
        for row in table.rows:
            rows += 1
            assert row.record["max_level"] == (next(iter(levels)) if len(levels) == 1 else None)
            assert 0 <= row.record["overall"] <= 1
    assert rows == 10  # 4 methods × 3 backbones, two cells not evaluated
