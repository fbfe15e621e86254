"""The grid, dimensions and resources views against the reports of the EnterpriseBench-shaped
example: every place of the grid filled from its combination or said 'not evaluated'; each
judged dimension and the judged overall apart on the items' scale; resources per combination
with tokens compared within a tokenizer."""

from __future__ import annotations

import html
import math
import re
from itertools import product

from generator.models.profile import Dimensions, Grid, Resources
from generator.pages import VersionContext
from generator.pages.boards import (
    MARK,
    NOT_EVALUATED,
    axis_values,
    combinations,
    shown_scope,
    slug,
)
from generator.pages.cells import CARRIED
from generator.pages.declared import view_pages
from generator.pages.grids import dimensions_page, grid_page, max_levels, resources_page
from generator.pages.tables import Cell


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
            for got, d in zip(shown[:-1], dims_in_order(enterprise, dims), strict=True):
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


def test_resources_per_combination_tokens_within_a_tokenizer(
    enterprise: VersionContext,
) -> None:
    view = next(v for v in enterprise.release.profile.views if isinstance(v, Resources))
    page = resources_page(enterprise, view)
    (table,) = page.tables
    scope = shown_scope(enterprise, view.domain, {})
    assert scope is not None
    scores = {c.combination: c for c in scope.combinations}
    infos = combinations(enterprise)
    records = [r.record for r in table.rows]
    assert sorted(r["combination"] for r in records) == sorted(scores)
    tokenizers = [r["tokenizer"] for r in records]
    assert tokenizers == sorted(tokenizers)  # grouped by tokenizer
    for r in records:
        c = scores[r["combination"]]
        assert r["tokenizer"] == infos[c.combination].tokenizer
        for m in view.metrics:
            if m in c.measures:
                assert r[m] == c.measures[m].value
                assert r[f"{m}_low"] == c.measures[m].low
            elif c.efficiency is not None:
                assert r[m] == getattr(c.efficiency, m)
    domain = next(d for d in enterprise.release.domains if d.id == view.domain)
    if domain.aggregate.over == "cells":  # the mean over cells beside the mean over tasks
        assert any(h.startswith("Mean over cells") for h in table.columns)
        for r in records:
            c = scores[r["combination"]]
            assert r["cell_mean"] == (c.cell_mean.value if c.cell_mean else None)
    tokens = [m for m in enterprise.release.metrics if m.id in view.metrics and not m.comparable]
    assert tokens
    assert "tokenizer" in table.note
    assert all(m.title in table.note for m in tokens)


def test_a_note_explains_the_carried_state_label_its_table_uses(
    enterprise: VersionContext,
) -> None:
    seen = set()
    for page in view_pages(enterprise):
        for table in page.tables:
            cells = " ".join(c.text for r in table.rows for c in r.cells)
            marked = MARK in cells
            assert (f"{MARK} {CARRIED}:" in table.note) == marked
            if not marked and CARRIED in cells:
                assert f"“{CARRIED}”:" in table.note
                seen.add("label")
            seen.add("mark" if marked else "none")
    assert {"mark", "label"} <= seen
