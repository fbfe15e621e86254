"""The grid view: one metric of one domain over two axes (e.g. method × backbone, built
from the domain's report); a place no combination fills is "not evaluated", never 0."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from generator.models.profile import Grid, Metric
from generator.pages.blocks.cells import groups_note
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields, whole
from generator.pages.blocks.measures import Figure, figure, figure_cell, label
from generator.pages.blocks.render import Page
from generator.pages.blocks.tables import Cell
from generator.pages.blocks.text import escape_html
from generator.pages.context import VersionContext
from generator.pages.views.parts import (
    NOT_EVALUATED,
    axis_values,
    carried_note,
    channels_note,
    combinations,
    rank_text,
    runs_mark,
    scope_lead,
    shown_scope,
    slug,
    sub_line,
    view_page,
)
from generator.protocol.order import First, best_first
from generator.score.results import CombinationScores, ScopeResult


def _metric(ctx: VersionContext, view: Grid) -> Metric:
    declared = ctx.release.metric(view.metric)
    return declared if declared is not None else ctx.release.outcome(view.domain)


@dataclass(frozen=True)
class GridData:
    """What a grid shows: the scope, its metric, and the combination at each place."""

    domain: str
    metric: Metric
    scope: ScopeResult | None
    scores: Mapping[str, CombinationScores]  # the scope's, by combination
    place: Mapping[tuple[str, str], str]  # (row value, column value) -> combination
    carried: frozenset[str]  # combinations that carry state across tasks


def grid_cell(ctx: VersionContext, grid: GridData, col: str, row: str) -> Cell:
    """The figure of the combination at (``row``, ``col``), its rank in the scope (only where
    the figure is the domain's outcome, which ranks order) and its carried-state label; "not
    evaluated" where no combination sits."""
    combo = grid.place.get((row, col))
    if combo is None:
        return Cell(NOT_EVALUATED)
    c = grid.scores.get(combo)
    if c is None:
        text = "withheld" if grid.scope is None else NOT_EVALUATED
        return Cell(text + sub_line("", combo in grid.carried), html=True)
    cell = figure_cell(grid.metric, c, figure(ctx.release, grid.domain, c, grid.metric))
    # a rank orders the domain's outcome: beside another metric it would say nothing of it
    ranked = grid.metric.id in (ctx.release.outcome(grid.domain).id, "task_score")
    rank = rank_text(c.rank, c.rank_worst or c.rank) if ranked and c.rank is not None else ""
    return Cell(escape_html(cell.text) + sub_line(rank, combo in grid.carried), cell.sort, True)


def _grid_fields(ctx: VersionContext, grid: GridData, col: str) -> tuple[Field[str], ...]:
    """A grid column's download fields: the combination, its figure unscaled, its status."""

    def combo(row: str) -> str | None:
        return grid.place.get((row, col))

    def fig(row: str) -> Figure | None:
        c = grid.scores.get(combo(row) or "")
        return None if c is None else figure(ctx.release, grid.domain, c, grid.metric)

    def status(row: str) -> str:
        c = grid.scores.get(combo(row) or "")
        return NOT_EVALUATED if c is None else c.status

    key = slug(col)
    return (
        Field(f"{key}_combination", combo),
        *estimate_fields(key, fig),
        Field(f"{key}_status", status),
    )


def grid_spec(ctx: VersionContext, grid: GridData, axis: str, cols: Sequence[str]) -> Spec[str]:
    """A row per value of the row axis (``axis``: its title), a column per value of the other."""
    first: First = best_first(grid.metric.higher)
    return Spec(
        (
            Column(axis, whole),
            *(Column(v, whole, partial(grid_cell, ctx, grid, v), first=first) for v in cols),
        ),
        (Field(slug(axis), whole), *(f for v in cols for f in _grid_fields(ctx, grid, v))),
    )


def grid_page(ctx: VersionContext, view: Grid) -> Page:
    """The grid's page: the metric of every combination at its place on the two axes."""
    infos = [c for c in combinations(ctx).values() if {view.rows, view.columns} <= set(c.axes)]
    rows, cols = axis_values(infos, view.rows), axis_values(infos, view.columns)
    scope = shown_scope(ctx, view.domain, {})
    grid = GridData(
        view.domain,
        _metric(ctx, view),
        scope,
        {} if scope is None else {c.combination: c for c in scope.combinations},
        {(c.axes[view.rows], c.axes[view.columns]): c.id for c in infos},
        frozenset(c.id for c in infos if c.carried_state is not None),
    )
    titles = {a.id: a.title for a in ctx.release.profile.axes}
    row_axis, col_axis = titles.get(view.rows, view.rows), titles.get(view.columns, view.columns)
    figures = [
        figure(ctx.release, view.domain, c, grid.metric)
        for k, c in grid.scores.items()
        if k in grid.place.values()
    ]
    groups = [] if scope is None else scope.comparison_groups
    stats = ctx.release.statistics
    note = (
        f"{label(grid.metric)}. A place no combination fills is “{NOT_EVALUATED}”; nothing "
        "is filled in or counted as 0. Rank: among the scope's combinations"
        + (" of one comparison group" if len(groups) > 1 else "")
        + f", as their paired differences allow (significant at {stats.confidence:.0%})."
        + runs_mark(ctx, figures)
    )
    if len(groups) > 1:
        note += " " + groups_note(ctx, groups)
    if not grid.metric.comparable:
        note += (
            f" {grid.metric.title}: counted in each model's own tokenizer, so compared only "
            "between places whose models share one (§4.2(2))."
        )
    if grid.carried:
        note += " " + carried_note()
    note += channels_note(ctx, view.domain, grid.metric)
    caption = f"{view.title} ({row_axis} × {col_axis})"
    table = grid_spec(ctx, grid, row_axis, cols).table(view.id, caption, rows, note)
    lead = scope_lead(ctx, view.domain, scope)
    return view_page(ctx, view, lead, [table], [label(grid.metric)])
