"""The grid view against the report of the EnterpriseBench-shaped example: every place of the
grid filled from its combination's figure (scaled, downloads unscaled) or 'not evaluated'."""

from __future__ import annotations

import html
import math
import re
from itertools import product

from generator.models.profile import Grid
from generator.pages import VersionContext
from generator.pages.blocks.tables import Cell
from generator.pages.views.grids import grid_page
from generator.pages.views.parts import (
    MARK,
    NOT_EVALUATED,
    axis_values,
    combinations,
    shown_scope,
    slug,
)


def _text(cell: Cell) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", cell.text))


def _first(text: str) -> float:
    return float(text.split("\u00a0")[0].replace(",", ""))


def test_a_grid_place_is_its_combination_s_figure_or_not_evaluated(
    enterprise: VersionContext,
) -> None:
    grids = [v for v in enterprise.release.profile.views if isinstance(v, Grid)]
    assert grids
    empty = 0
    for view in grids:
        page = grid_page(enterprise, view)
        (table,) = page.tables
        infos = list(combinations(enterprise).values())
        rows, cols = axis_values(infos, view.rows), axis_values(infos, view.columns)
        assert list(table.columns[1:]) == cols
        assert [r.record[slug(table.columns[0])] for r in table.rows] == rows
        place = {(c.axes[view.rows], c.axes[view.columns]): c for c in infos}
        scope = shown_scope(enterprise, view.domain, {})
        assert scope is not None
        scores = {c.combination: c for c in scope.combinations}
        metric = enterprise.release.metric(view.metric) or enterprise.release.outcome(view.domain)
        for (i, r), (j, col) in product(enumerate(rows), enumerate(cols)):
            row = table.rows[i]
            text = _text(row.cells[j + 1])
            info = place.get((r, col))
            if info is None:
                assert text == NOT_EVALUATED
                assert row.record[f"{slug(col)}_status"] == NOT_EVALUATED
                empty += 1
                continue
            assert (MARK in text) == (info.carried_state is not None)
            c = scores[info.id]
            if c.status != "scored":
                assert text.startswith(c.status.replace("-", " "))
                continue
            assert c.task_score is not None
            assert c.task_score.value is not None
            value = c.task_score.value
            assert row.record[slug(col)] == value
            assert math.isclose(_first(text), value / (metric.scale or 1), rel_tol=0.06)
    assert empty  # the example leaves places of its grid empty


def test_a_grid_of_tokens_says_they_compare_within_a_tokenizer(
    enterprise: VersionContext,
) -> None:
    view = next(v for v in enterprise.release.profile.views if isinstance(v, Grid))
    tokens = next(m for m in enterprise.release.metrics if not m.comparable)
    (table,) = grid_page(enterprise, view.model_copy(update={"metric": tokens.id})).tables
    assert "tokenizer" in table.note
    (plain,) = grid_page(enterprise, view).tables
    assert "tokenizer" not in plain.note


def test_a_grid_of_another_metric_than_the_outcome_shows_no_rank(
    enterprise: VersionContext,
) -> None:
    """Ranks order the domain's outcome: beside model calls they would say nothing of them."""
    calls = Grid(
        kind="grid",
        id="calls",
        title="Calls",
        domain="qa",
        metric="model_calls",
        rows="method",
        columns="backbone",
    )
    outcome = Grid(
        kind="grid", id="score", title="Score", domain="qa", rows="method", columns="backbone"
    )

    def texts(view: Grid) -> str:
        page = grid_page(enterprise, view)
        return " ".join(_text(c) for t in page.tables for r in t.rows for c in r.cells)

    assert "rank" in texts(outcome)
    assert "rank" not in texts(calls)
