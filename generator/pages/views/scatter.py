"""The scatter view: one point per combination of a domain, a resource (a money cost, tokens,
time) against the outcome, each with its interval, and the Pareto frontier of the
combinations no other beats on both (§4.2(2)). Money is compared across models (one
frontier); a count in each model's own tokenizer gets one frontier per tokenizer.

Every figure is the report's (the measured resource's mean over tasks and its interval, as
the resources view shows it); the frontier is the report's
(:func:`generator.score.declared.scatter_frontier`), drawn (:mod:`.scatter_points`) and
listed here; a table beside the chart holds every point's values.
"""

from __future__ import annotations

from collections.abc import Sequence

from generator.models.profile import Metric
from generator.models.views import Scatter
from generator.pages.blocks.cells import combo_cell, display_names, groups_note
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields
from generator.pages.blocks.measures import Figure, figure_cell, figure_text, label, scaled
from generator.pages.blocks.render import Page
from generator.pages.blocks.tables import Cell
from generator.pages.blocks.text import escape, spelled
from generator.pages.context import VersionContext
from generator.pages.views.parts import (
    carried_note,
    channels_note,
    combinations,
    runs_mark,
    scope_lead,
    view_page,
)
from generator.pages.views.scatter_points import (
    Point,
    ScatterData,
    front_of,
    place,
    scatter_charts,
    scatter_data,
)
from generator.protocol.order import best_first
from generator.score.results import CombinationScores

#: A table of more points than this is folded under the chart (the chart says the rest).
FOLD_AFTER = 8


def frontier_sentences(ctx: VersionContext, data: ScatterData) -> list[str]:
    """The answer in words: per frontier, the combinations on it (or why there is none)."""
    names = display_names(ctx)
    out = []
    for group in sorted({p.group for p in data.points}):
        head = f"Pareto frontier{', ' + group if group else ''}: "
        front = front_of(data, group)
        if not front:
            out.append(head + "none (fewer than two combinations measured on the same tasks).")
            continue
        said = [
            f"{names.get(p.combination.combination, p.combination.combination)} "
            f"({data.y.title} {figure_text(data.y, p.y)}, {data.x.title} "
            f"{figure_text(data.x, p.x)})"
            for p in front
        ]
        out.append(head + " · ".join(said) + ".")
    return out


def spread(data: ScatterData) -> str:
    """What the chart spans, in words (for a reader who does not see it); a resource that
    compares only within a tokenizer, per tokenizer."""

    def span(metric: Metric, points: list[Point], of: str) -> str:
        values = [float(getattr(p, of).value or 0) for p in points]
        low, high = min(values), max(values)
        return f"from {scaled(metric, low, None, None)} to {scaled(metric, high, None, None)}"

    x, y, points = data.x, data.y, list(data.points)
    if x.comparable:
        across = f"{x.title} per run ranges {span(x, points, 'x')}"
    else:
        tokenizers = sorted({p.group.split(", ")[0] for p in points})
        per = [
            f"{t} {span(x, [p for p in points if p.group.split(', ')[0] == t], 'x')}"
            for t in tokenizers
        ]
        across = f"{x.title} per run ranges, {'; '.join(per)}"
    return f"Across the points, {across}; {y.title} {span(y, points, 'y')}."


def scatter_spec(ctx: VersionContext, data: ScatterData) -> Spec[Point]:
    """A row per point: the combination, its frontier, both figures with their intervals."""
    infos = combinations(ctx)
    x, y = data.x, data.y
    tokenizer: tuple[Column[Point], ...] = (
        ()
        if x.comparable
        else (Column("Tokenizer", lambda p: infos[p.combination.combination].tokenizer),)
    )

    def shown(metric: Metric, e: Figure, c: CombinationScores) -> Cell:
        return figure_cell(metric, c, e)

    return Spec(
        (
            Column(
                "Combination", lambda p: p.combination.combination, lambda k: combo_cell(ctx, k, 1)
            ),
            *tokenizer,
            Column(
                label(y),
                lambda p: p,
                lambda p: shown(y, p.y, p.combination),
                first=best_first(y.higher),
            ),
            Column(
                label(x, "per run"),
                lambda p: p,
                lambda p: shown(x, p.x, p.combination),
                first=best_first(x.higher),
            ),
            Column("Pareto frontier", lambda p: place(p, x)),
            Column("Tasks", lambda p: p.y.tasks, lambda n: Cell(f"{n:,}", n)),
        ),
        (
            Field("combination", lambda p: p.combination.combination),
            Field("tokenizer", lambda p: infos[p.combination.combination].tokenizer),
            *estimate_fields(y.id, lambda p: p.y),
            *estimate_fields(x.id, lambda p: p.x),
            Field("frontier", lambda p: p.group),
            Field("pareto", lambda p: p.on_front, "boolean"),
            Field("tasks", lambda p: p.y.tasks, "integer"),
        ),
    )


def _note(ctx: VersionContext, view: Scatter, data: ScatterData) -> str:
    x, y = data.x, data.y
    note = (
        f"{x.title}: per run, the mean over the valid runs of each task, averaged over tasks, "
        f"as the runs record it; {y.title} as the domain's tables give it. Each with its "
        f"{ctx.release.statistics.confidence:.0%} interval over resampled tasks. The frontier "
        f"holds the combinations no other beats on both ({y.direction} {y.title} and "
        f"{x.direction} {x.title} are better), among those measured on every task of the scope."
    )
    if not x.comparable:
        note += (
            f" {x.title}: counted in each model's own tokenizer, so compared only within one: "
            "one frontier per tokenizer (§4.2(2))."
        )
    elif x.currency:
        note += f" Money in {x.currency}, compared across models: one frontier."
    if data.scope is not None and len(data.scope.comparison_groups) > 1:
        note += " " + groups_note(ctx, data.scope.comparison_groups)
    if any(p.x.low is None for p in data.points):
        note += " A figure without an interval is a mean the report gives without one."
    if data.missing:
        note += f" Not drawn, without both figures: {', '.join(data.missing)}."
    if view.log_x:
        note += off_the_log_axis(data)
    note += channels_note(ctx, view.domain, y)
    bundles = ctx.frame.bundles
    if any(
        p.combination.combination in bundles
        and bundles[p.combination.combination].carried_state is not None
        for p in data.points
    ):
        note += " " + carried_note(marked=False)
    figures: Sequence[Figure | None] = [f for p in data.points for f in (p.x, p.y)]
    return note + runs_mark(ctx, figures)


def off_the_log_axis(data: ScatterData) -> str:
    """Which points a logarithmic axis cannot draw (a resource of 0 or less), said in the
    table's note: the table still gives them."""
    off = [p.combination.combination for p in data.points if float(p.x.value or 0) <= 0]
    if not off:
        return ""
    return (
        f" On the logarithmic axis, a point at {data.x.title} 0 cannot be drawn: "
        f"{', '.join(off)}, given in this table."
    )


def scatter_page(ctx: VersionContext, view: Scatter) -> Page:
    """The scatter's page: the frontier in words, the chart, and its data in a table."""
    data = scatter_data(ctx, view)
    lead = scope_lead(ctx, view.domain, data.scope)
    if data.points:
        x, y = data.x, data.y
        fronts = (
            "one frontier per tokenizer, as tokens are counted in each model's own"
            if not x.comparable
            else f"money in {x.currency}, compared across models"
            if x.currency
            else "compared across models"
        )
        lead += (
            f"\n\n{spelled(len(data.points)).capitalize()} combinations, {escape(y.title)} "
            f"against {escape(x.title)} per run ({escape(fronts)}):\n\n"
            + "\n".join(f"- {escape(s)}" for s in frontier_sentences(ctx, data))
            + "\n\n"
            + escape(spread(data))
        )
    rows = sorted(data.points, key=lambda p: (p.group, float(p.x.value or 0)))
    table = scatter_spec(ctx, data).table(view.id, view.title, rows, _note(ctx, view, data))
    charts = [str(c) for c in scatter_charts(ctx, view, data)] if data.points else []
    folded = f"Data of the chart ({spelled(len(rows))} points)" if len(rows) > FOLD_AFTER else ""
    return view_page(
        ctx,
        view,
        lead,
        [table],
        [f"{data.y.title} against {data.x.title}"],
        leads=["".join(charts)],
        folded=[folded],
        charts=bool(charts),
    )
