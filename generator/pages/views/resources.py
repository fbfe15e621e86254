"""The resources view: per combination the domain's outcome and the view's resource metrics
(calls, tokens per run), EnterpriseBench's Table 9; token counts compared only within one
tokenizer (§4.2(2))."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.models.profile import Metric, Resources
from generator.pages.blocks.cells import combo_cell
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields
from generator.pages.blocks.measures import MEANS, Figure, figure, figure_cell, label
from generator.pages.blocks.outcome import cells_column
from generator.pages.blocks.render import Page
from generator.pages.blocks.tables import Cell
from generator.pages.context import VersionContext
from generator.pages.views.parts import (
    carried_note,
    combinations,
    runs_mark,
    scope_lead,
    shown_scope,
    view_page,
)
from generator.protocol.order import best_first
from generator.score.results import CombinationInfo, CombinationScores


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
        return best_first(metric.higher)

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
    note += runs_mark(
        ctx,
        [figure(ctx.release, view.domain, c, ctx.release.outcome(view.domain)) for c in rows]
        + figures,
    )
    if any(infos[c.combination].carried_state for c in rows):
        note += " " + carried_note(marked=False)
    table = spec.table(view.id, view.title, rows, note)
    lead = scope_lead(ctx, view.domain, scope)
    return view_page(ctx, view, lead, [table], ["Per combination"])
