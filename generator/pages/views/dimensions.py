"""The dimensions view: the judged dimensions of one domain per combination, and the judged
overall apart (a figure of its own, never recomputed from them), on the Judge items' own
scale (e.g. 0–10), one table per group of combinations that may be compared (a factor that
varies by design, such as the judge, §4.1) — EnterpriseBench's Table 3."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from generator.models.profile import Dimensions, Metric
from generator.pages.blocks.cells import combo_cell, groups_note
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields, whole
from generator.pages.blocks.measures import MISSING, Figure, figure_text
from generator.pages.blocks.render import Page
from generator.pages.blocks.tables import Cell
from generator.pages.blocks.text import escape
from generator.pages.context import VersionContext
from generator.pages.views.parts import (
    carried_note,
    combinations,
    runs_mark,
    scope_lead,
    shown_scope,
    slug,
    view_page,
)
from generator.score.results import CombinationScores


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
            return Cell(MISSING[c.status])
        return Cell(figure_text(metric, e), e.value)

    return show


def dimensions_spec(
    ctx: VersionContext, view: Dimensions, dims: Sequence[tuple[str, str]], judged: bool = True
) -> Spec[CombinationScores]:
    """A row per combination: each judged dimension, then the judged overall, with intervals."""
    levels = max_levels(ctx, view.domain)
    top = f" (0–{next(iter(levels))})" if len(levels) == 1 else " (g/G)"
    metric = judged_metric("Judged", levels)
    one_level = next(iter(levels)) if len(levels) == 1 else None

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
            *(
                (Column("Overall, judged" + top, whole, _judged(metric, overall), first="desc"),)
                if judged
                else ()
            ),
        ),
        (
            Field("combination", lambda c: c.combination),
            Field("status", lambda c: c.status),
            # Figures are downloaded as g/G; the page shows them × G when the items share G.
            Field("max_level", lambda c: one_level, "integer"),
            *(f for d, _ in dims for f in estimate_fields(d, dim(d))),
            *(estimate_fields("overall", overall) if judged else ()),
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
    judged = any(c.overall is not None for c in rows)
    spec = dimensions_spec(ctx, view, dims, judged)
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
        note = f"Each dimension is the mean over tasks of its Judge items' level, {shown}"
        note += (
            "; the overall is judged on its own, never recomputed from the dimensions."
            if judged
            else "; no overall is judged, and none is computed from the dimensions."
        )
        note += runs_mark(ctx, figures)
        if len(groups) > 1:
            note += " " + groups_note(ctx, groups)
        if any(
            c.combination in combinations(ctx) and combinations(ctx)[c.combination].carried_state
            for c in members
        ):
            note += " " + carried_note(marked=False)
        caption = f"{view.title} — {heading}" if len(groups) > 1 else view.title
        tables.append(spec.table(f"{view.id}-{slug(heading)}", caption, members, note))
        headings.append(heading)
    lead = scope_lead(ctx, view.domain, scope)
    if len(groups) > 1:
        lead += " Combinations are compared only within a table: " + escape(
            "a factor of the evaluation varies between them by design (§4.1)."
        )
    return view_page(ctx, view, lead, tables, headings)
