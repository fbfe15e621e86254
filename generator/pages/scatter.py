"""The scatter view: one point per combination of a domain, a resource (a money cost, tokens,
time) against the outcome, each with its interval, and the Pareto frontier of the
combinations no other beats on both (§4.2(2)). Money is compared across models (one
frontier); a count in each model's own tokenizer gets one frontier per tokenizer.

Every figure is the report's (the measured resource's mean over tasks and its interval, as
the resources view shows it); the frontier is the engine's
(:func:`generator.score.ranking.frontier`), drawn and listed; a table beside the chart holds
every point's values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from generator.models.profile import Metric
from generator.models.views import Scatter
from generator.pages.cells import combo_cell, display_names, groups_note
from generator.pages.charts import GREY, Series, chart, labels, style_of
from generator.pages.columns import Column, Field, Spec, estimate_fields
from generator.pages.context import VersionContext
from generator.pages.effcharts import DASHES, PARETO
from generator.pages.measures import Figure, figure, figure_cell, figure_text, label, scaled
from generator.pages.render import Page
from generator.pages.tables import Cell
from generator.pages.text import escape, scale_label, spelled
from generator.pages.viewparts import (
    carried_note,
    combinations,
    runs_mark,
    scope_lead,
    shown_scope,
    slug,
    view_page,
)
from generator.score.ranking import frontier
from generator.score.results import CombinationScores, ScopeResult

#: A table of more points than this is folded under the chart (the chart says the rest).
FOLD_AFTER = 8


@dataclass(frozen=True)
class Point:
    """A combination's point: its figures of both metrics, the frontier it is compared on
    (its tokenizer where the resource is counted in one, its comparison group where settings
    vary by design; empty: the one frontier) and its place on it (None: not compared)."""

    combination: CombinationScores
    x: Figure
    y: Figure
    group: str
    on_front: bool | None


@dataclass(frozen=True)
class ScatterData:
    """What a scatter shows: the scope, its two metrics, its points and who is left out."""

    scope: ScopeResult | None
    x: Metric
    y: Metric
    points: tuple[Point, ...]
    missing: tuple[str, ...]  # published combinations without both figures


def _metrics(ctx: VersionContext, view: Scatter) -> tuple[Metric, Metric]:
    x = ctx.release.metric(view.x)
    outcome = ctx.release.outcome(view.domain)
    # the task score of a domain is its outcome, under the outcome's own title and scale
    y = outcome if view.y in ("task_score", outcome.id) else ctx.release.metric(view.y)
    y = y or outcome
    assert x is not None, f"{view.x!r} is not a metric (the check refuses it)"
    return x, y


def _groups(ctx: VersionContext, scope: ScopeResult, x: Metric) -> dict[str, str]:
    """Each combination's frontier: its tokenizer unless the resource compares across
    models, and its comparison group where there are several."""
    infos = combinations(ctx)
    index = {n: i for i, names in enumerate(scope.comparison_groups) for n in names}
    several = len(scope.comparison_groups) > 1
    out = {}
    for c in scope.combinations:
        parts = [] if x.comparable else [f"tokenizer {infos[c.combination].tokenizer}"]
        if several:
            parts.append(f"comparison group {index.get(c.combination, 0) + 1}")
        out[c.combination] = ", ".join(parts)
    return out


def scatter_data(ctx: VersionContext, view: Scatter) -> ScatterData:
    """The points of the view's scope and their frontiers. Only combinations measured on
    every task of the scope are compared (as the engine's frontier of tokens); a frontier
    needs two of them."""
    x, y = _metrics(ctx, view)
    scope = shown_scope(ctx, view.domain, {})
    if scope is None:
        return ScatterData(None, x, y, (), ())
    groups = _groups(ctx, scope, x)
    drawn = []
    for c in scope.combinations:
        fx, fy = figure(ctx.release, view.domain, c, x), figure(ctx.release, view.domain, c, y)
        if fx is not None and fy is not None and fx.value is not None and fy.value is not None:
            drawn.append((c, fx, fy))
    compared = {
        c.combination: (float(fy.value or 0), float(fx.value or 0))
        for c, fx, fy in drawn
        if c.coverage is not None and c.coverage.complete and not c.coverage.not_covered
    }
    front = frontier(compared, groups, y.higher, x.higher)
    peers = {g: sum(groups[n] == g for n in compared) for g in set(groups.values())}
    points = tuple(
        Point(
            c,
            fx,
            fy,
            groups[c.combination],
            (c.combination in front)
            if c.combination in compared and peers[groups[c.combination]] > 1
            else None,
        )
        for c, fx, fy in drawn
    )
    shown = {p.combination.combination for p in points}
    missing = tuple(
        c.combination
        for c in scope.combinations
        if c.combination not in shown and c.status != "withheld"
    )
    return ScatterData(scope, x, y, points, missing)


def front_of(data: ScatterData, group: str) -> list[Point]:
    """The group's frontier, least resource first (most, where more of it is better)."""
    on = [p for p in data.points if p.group == group and p.on_front]
    return sorted(on, key=lambda p: (float(p.x.value or 0), p.combination.combination))


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


def _axis_title(metric: Metric) -> str:
    """An axis title short enough for a phone: the metric and its display scale or unit."""
    shown = scale_label(metric.scale, metric.bounds.high, metric.bounds.low)
    unit = shown or metric.unit or metric.currency
    return f"{metric.title} ({unit})" if unit else metric.title


def _scaled(metric: Metric, value: float | None) -> float:
    return float(value or 0) / (metric.scale or 1.0)


def _series(ctx: VersionContext, data: ScatterData, points: Sequence[Point]) -> list[Series]:
    """A series per point (its combination's colour and marker on every chart of the
    version), then a grey line per frontier of two points or more."""
    style = style_of(list(ctx.frame.bundles))
    names = labels({k: b.combination.title for k, b in ctx.frame.bundles.items()})
    x, y = data.x, data.y
    out = []
    for p in points:
        k = p.combination.combination
        xs, ys = p.x, p.y
        hover = (
            names.get(k, k),
            f"{y.title}: {figure_text(y, ys)}",
            f"{x.title}: {figure_text(x, xs)}",
            *([p.group] if p.group else []),
            f"Pareto frontier: {PARETO[p.on_front]}",
        )
        out.append(
            Series(
                names.get(k, k),
                (_scaled(x, xs.value),),
                (_scaled(y, ys.value),),
                None if ys.low is None else (_scaled(y, ys.low),),
                None if ys.high is None else (_scaled(y, ys.high),),
                color=style.get(k, (GREY, "circle"))[0],
                symbol=style.get(k, (GREY, "circle"))[1],
                hover=(hover,),
                x_low=None if xs.low is None else (_scaled(x, xs.low),),
                x_high=None if xs.high is None else (_scaled(x, xs.high),),
            )
        )
    groups = sorted({p.group for p in data.points})
    for i, group in enumerate(groups):
        front = front_of(data, group)
        if not front or front[0] not in points:
            continue
        out.append(
            Series(
                "Pareto frontier" + _legend(group),
                tuple(_scaled(x, p.x.value) for p in front),
                tuple(_scaled(y, p.y.value) for p in front),
                mode="lines+markers",
                dash=DASHES[i % len(DASHES)],
                color=GREY,
                symbol="circle-open",
                size=18,
            )
        )
    return out


def _legend(group: str) -> str:
    """A frontier's name in a legend, short enough for a phone: its comparison group (a
    chart is of one tokenizer already, which its title says)."""
    parts = [p for p in group.split(", ") if p and not p.startswith("tokenizer ")]
    return "".join(f", {p.removeprefix('comparison ')}" for p in parts)


def scatter_charts(ctx: VersionContext, view: Scatter, data: ScatterData) -> list[Markup]:
    """The chart: the outcome up, the resource across (logarithmic where declared); one
    chart per tokenizer where the resource is counted in each model's own (its counts share
    no axis)."""
    y, x = data.y, data.x
    y_range = None
    if y.bounds.low is not None and y.bounds.high is not None:
        y_range = (y.bounds.low / (y.scale or 1.0), y.bounds.high / (y.scale or 1.0))
    infos = combinations(ctx)
    charts: dict[str, list[Point]] = {}
    for p in data.points:
        key = "" if x.comparable else infos[p.combination.combination].tokenizer
        charts.setdefault(key, []).append(p)
    log = " (logarithmic axis)" if view.log_x else ""
    return [
        chart(
            f"{view.id}-chart" + (f"-{slug(key)}" if key else ""),
            f"{y.title} against {x.title}{log}" + (f" — tokenizer {key}" if key else ""),
            _series(ctx, data, points),
            _axis_title(x) + (f" — {key}" if key else ""),
            _axis_title(y),
            y_range=y_range,
            x_log=view.log_x,
            data_table=view.id,
        )
        for key, points in sorted(charts.items())
    ]


def _place(p: Point) -> str:
    return PARETO[p.on_front]


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
                first="desc" if y.higher else "asc",
            ),
            Column(
                label(x, "per run"),
                lambda p: p,
                lambda p: shown(x, p.x, p.combination),
                first="desc" if x.higher else "asc",
            ),
            Column("Pareto frontier", _place),
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
        note += " " + groups_note(data.scope.comparison_groups, ctx.release.varying())
    if any(p.x.low is None for p in data.points):
        note += " A figure without an interval is a mean the report gives without one."
    if data.missing:
        note += f" Not drawn, without both figures: {', '.join(data.missing)}."
    if view.log_x:
        note += off_the_log_axis(data)
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
