"""The grid, dimensions and resources views, each a page built from one domain's report.

- grid: one metric of the domain over two axes (e.g. method × backbone); a place no
  combination fills is "not evaluated";
- dimensions: the judged dimensions per combination, and the judged overall apart (never
  recomputed from them), on the Judge items' own scale (e.g. 0–10), one table per group
  of combinations that may be compared (a factor that varies by design, §4.1);
- resources: per combination the domain's outcome and the view's resource metrics (as
  EnterpriseBench's Table 9), token counts compared only within one tokenizer (§4.2(2)).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from markupsafe import Markup

from generator.models.profile import Dimensions, Grid, Metric, Resources
from generator.pages.boards import (
    NOT_EVALUATED,
    axis_values,
    carried_note,
    combinations,
    public_note,
    rank_text,
    shown_scope,
    slug,
    sub_line,
)
from generator.pages.cells import combo_cell, groups_note, release_notice, runs_note
from generator.pages.columns import Column, Field, First, Spec, estimate_fields, whole
from generator.pages.context import VersionContext
from generator.pages.downloads import described
from generator.pages.measures import MEANS, MISSING, Figure, figure, figure_cell, figure_text, label
from generator.pages.outcome import cells_column
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.tables import Cell, Table
from generator.pages.text import escape, escape_html, spelled
from generator.score.results import CombinationInfo, CombinationScores, ScopeResult


def _page(
    ctx: VersionContext,
    view: Grid | Dimensions | Resources,
    lead: str,
    tables: list[Table],
    headings: Sequence[str],
) -> Page:
    tables = described(ctx, tables, ("views",), (("view", view.id), ("domain", view.domain)))
    sections = [
        {"heading": h, "lead": "", "table": t.id} for h, t in zip(headings, tables, strict=True)
    ]
    markdown = render(
        environment(),
        "view.md.j2",
        title=view.title,
        notice=release_notice(ctx),
        lead=Markup(lead),
        sections=sections,
        tables=tables_html(tables, view.id),
    )
    return Page(f"views/{view.id}.md", view.title, markdown, tuple(tables), wide=True)


def _scope_lead(ctx: VersionContext, domain: str, scope: ScopeResult | None) -> str:
    """Which tasks of the domain the view rests on."""
    title = next(d.title for d in ctx.release.domains if d.id == domain)
    link = f"[{escape(title)}](../{escape(domain)}/index.md)"
    if scope is None:
        return f"Not published: the {link} domain has no published scope."
    if scope.scope.group == "public":
        return f"Over the {spelled(scope.tasks)} public tasks of the {link} domain. " + escape(
            public_note()
        )
    return f"Over the {spelled(scope.tasks)} tasks of the {link} domain."


def _runs(ctx: VersionContext, figures: Sequence[Figure | None]) -> str:
    """The † note, when one of the figures' intervals covers run noise only."""
    shown = [e for e in figures if e is not None and e.low is not None]
    if any(e.interval == "runs" for e in shown):
        return " " + runs_note(ctx.release.statistics.min_tasks_to_resample)
    return ""


# The grid --------------------------------------------------------------------------------


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
    """The figure of the combination at (``row``, ``col``), its rank in the scope and its
    carried-state label; "not evaluated" where no combination sits."""
    combo = grid.place.get((row, col))
    if combo is None:
        return Cell(NOT_EVALUATED)
    c = grid.scores.get(combo)
    if c is None:
        text = "withheld" if grid.scope is None else NOT_EVALUATED
        return Cell(text + sub_line("", combo in grid.carried), html=True)
    cell = figure_cell(grid.metric, c, figure(ctx.release, grid.domain, c, grid.metric))
    rank = rank_text(c.rank, c.rank_worst or c.rank) if c.rank is not None else ""
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
    first: First = "desc" if grid.metric.higher else "asc"
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
        + _runs(ctx, figures)
    )
    if len(groups) > 1:
        note += " " + groups_note(groups, ctx.release.varying())
    if grid.carried:
        note += " " + carried_note()
    caption = f"{view.title} ({row_axis} × {col_axis})"
    table = grid_spec(ctx, grid, row_axis, cols).table(view.id, caption, rows, note)
    lead = _scope_lead(ctx, view.domain, scope)
    return _page(ctx, view, lead, [table], [label(grid.metric)])


# Dimensions ------------------------------------------------------------------------------


def max_levels(ctx: VersionContext, domain: str) -> set[int]:
    """The max levels (G) of the domain's Judge items that name a dimension or the overall."""
    return {
        j.max_level
        for t in ctx.catalog.tasks
        if t.domain == domain
        for j in t.scoring.judge_items
        if j.dimension is not None or j.overall
    }


def judged_metric(title: str, levels: set[int]) -> Metric:
    """A judged figure (g/G) as a metric: shown as g/G × G when the items share one G."""
    top = next(iter(levels)) if len(levels) == 1 else None
    scale = 1.0 / top if top is not None and top != 1 else None
    return Metric(id="judged", title=title, direction="higher", scale=scale)


def _judged(
    metric: Metric, get: Callable[[CombinationScores], Figure | None]
) -> Callable[[CombinationScores], Cell]:
    def show(c: CombinationScores) -> Cell:
        e = get(c)
        if e is None or e.value is None:
            return Cell(MISSING[c.status] if c.status != "scored" else "—")
        return Cell(figure_text(metric, e), e.value)

    return show


def dimensions_spec(
    ctx: VersionContext, view: Dimensions, dims: Sequence[tuple[str, str]]
) -> Spec[CombinationScores]:
    """A row per combination: each judged dimension, then the judged overall, with intervals."""
    levels = max_levels(ctx, view.domain)
    top = f" (0–{next(iter(levels))})" if len(levels) == 1 else " (g/G)"
    metric = judged_metric("Judged", levels)

    def combo(k: str) -> Cell:
        return combo_cell(ctx, k, 1)

    def dim(d: str) -> Callable[[CombinationScores], Figure | None]:
        return lambda c: c.dimensions.get(d)

    def overall(c: CombinationScores) -> Figure | None:
        return c.overall

    return Spec(
        (
            Column("Combination", lambda c: c.combination, combo),
            *(Column(t + top, lambda c: c, _judged(metric, dim(d)), first="desc") for d, t in dims),
            Column("Overall, judged" + top, lambda c: c, _judged(metric, overall), first="desc"),
        ),
        (
            Field("combination", lambda c: c.combination),
            Field("status", lambda c: c.status),
            *(f for d, _ in dims for f in estimate_fields(d, dim(d))),
            *estimate_fields("overall", overall),
        ),
    )


def _group_heading(ctx: VersionContext, group: list[str], n: int, of: int) -> str:
    """A comparison group's heading: the Judge its combinations share, if they share one."""
    judges = {ctx.frame.bundles[k].evaluator.judge_model for k in group if k in ctx.frame.bundles}
    if len(judges) == 1 and "evaluator" in ctx.release.varying():
        return f"Judged by {judges.pop()}"
    return f"Comparison group {n} of {of}"


def dimensions_page(ctx: VersionContext, view: Dimensions) -> Page:
    """The judged dimensions of every combination, one table per comparison group."""
    scope = shown_scope(ctx, view.domain, {})
    rows = [] if scope is None else scope.combinations
    present = {d for c in rows for d in c.dimensions}
    dims = [(d.id, d.title) for d in ctx.release.profile.dimensions if d.id in present]
    groups = (scope.comparison_groups if scope else []) or [[c.combination for c in rows]]
    spec = dimensions_spec(ctx, view, dims)
    levels = max_levels(ctx, view.domain)
    shown = (
        f"on the items' scale, 0–{next(iter(levels))} (g/G × {next(iter(levels))})"
        if len(levels) == 1
        else "as g/G (the items' levels differ)"
    )
    tables, headings = [], []
    for n, group in enumerate(groups, 1):
        members = [c for c in rows if c.combination in group]
        heading = _group_heading(ctx, group, n, len(groups))
        figures = [e for c in members for e in (c.overall, *c.dimensions.values())]
        note = (
            f"Each dimension is the mean over tasks of its Judge items' level, {shown}; the "
            "overall is judged on its own, never recomputed from the dimensions."
            + _runs(ctx, figures)
        )
        if len(groups) > 1:
            note += " " + groups_note(groups, ctx.release.varying())
        if any(
            c.combination in combinations(ctx) and combinations(ctx)[c.combination].carried_state
            for c in members
        ):
            note += " " + carried_note(marked=False)
        caption = f"{view.title} — {heading}" if len(groups) > 1 else view.title
        tables.append(spec.table(f"{view.id}-{n}", caption, members, note))
        headings.append(heading)
    lead = _scope_lead(ctx, view.domain, scope)
    if len(groups) > 1:
        lead += " Combinations are compared only within a table: " + escape(
            "a factor of the evaluation varies between them by design (§4.1)."
        )
    return _page(ctx, view, lead, tables, headings)


# Resources -------------------------------------------------------------------------------


def resources_spec(
    ctx: VersionContext, view: Resources, infos: dict[str, CombinationInfo]
) -> Spec[CombinationScores]:
    """A row per combination: its tokenizer, the domain's outcome, each resource metric."""
    outcome = ctx.release.outcome(view.domain)
    metrics = [m for m in (ctx.release.metric(i) for i in view.metrics) if m is not None]
    # The mean over cells beside the mean over tasks, where the domain declares it (§4.2).
    cells = cells_column(ctx, view.domain, ctx.release.statistics.confidence)

    def get(metric: Metric) -> Callable[[CombinationScores], Figure | None]:
        return lambda c: figure(ctx.release, view.domain, c, metric)

    def shown(metric: Metric) -> Callable[[CombinationScores], Cell]:
        return lambda c: figure_cell(metric, c, get(metric)(c))

    def first(metric: Metric) -> Any:
        return "desc" if metric.higher else "asc"

    def header(metric: Metric) -> str:
        within = "" if metric.comparable else ", within a tokenizer"
        return label(metric, "per run") + within

    def downloaded(metric: Metric) -> tuple[Field[CombinationScores], ...]:
        """A mean the report gives without an interval downloads as its value alone."""
        if metric.id in MEANS:
            return (Field(metric.id, lambda c: getattr(c.efficiency, metric.id, None), "number"),)
        return estimate_fields(metric.id, get(metric))

    return Spec(
        (
            Column("Combination", lambda c: c.combination, lambda k: combo_cell(ctx, k, 1)),
            Column("Tokenizer", lambda c: infos[c.combination].tokenizer),
            Column(label(outcome), lambda c: c, shown(outcome), first=first(outcome)),
            *cells,
            *(Column(header(m), lambda c: c, shown(m), first=first(m)) for m in metrics),
            Column(
                "Tasks",
                lambda c: c.coverage.valid_tasks if c.coverage else 0,
                lambda n: Cell(f"{n:,}", n),
            ),
        ),
        (
            Field("combination", lambda c: c.combination),
            Field("tokenizer", lambda c: infos[c.combination].tokenizer),
            Field("status", lambda c: c.status),
            *estimate_fields(outcome.id, get(outcome)),
            *(estimate_fields("cell_mean", lambda c: c.cell_mean) if cells else ()),
            *(f for m in metrics for f in downloaded(m)),
            Field("tasks", lambda c: c.coverage.valid_tasks if c.coverage else None, "integer"),
            Field("carried_state", lambda c: infos[c.combination].carried_state),
        ),
    )


def resources_page(ctx: VersionContext, view: Resources) -> Page:
    """The resources the domain's runs spent, per combination, grouped by tokenizer."""
    scope = shown_scope(ctx, view.domain, {})
    infos = combinations(ctx)
    rows = [] if scope is None else [c for c in scope.combinations if c.combination in infos]
    rows.sort(key=lambda c: (infos[c.combination].tokenizer, c.combination))
    metrics = [m for m in (ctx.release.metric(i) for i in view.metrics) if m is not None]
    spec = resources_spec(ctx, view, infos)
    tokens = [m.title for m in metrics if not m.comparable]
    figures = [figure(ctx.release, view.domain, c, m) for c in rows for m in metrics]
    note = (
        "Per run, the mean over the valid runs of each task, averaged over tasks, as the runs "
        "record them (adaptation overhead included where the method spends it)."
    )
    if tokens:
        note += (
            f" {', '.join(tokens)}: counted in each model's own tokenizer, so compared only "
            "between rows of one tokenizer (§4.2(2)); rows are grouped by tokenizer."
        )
    if any(e is not None and e.low is None for e in figures):
        note += " A figure without an interval is a mean the report gives without one."
    note += _runs(
        ctx,
        [figure(ctx.release, view.domain, c, ctx.release.outcome(view.domain)) for c in rows]
        + figures,
    )
    if any(infos[c.combination].carried_state for c in rows):
        note += " " + carried_note(marked=False)
    table = spec.table(view.id, view.title, rows, note)
    lead = _scope_lead(ctx, view.domain, scope)
    return _page(ctx, view, lead, [table], ["Per combination"])
