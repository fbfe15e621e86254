"""The points of a scatter view and their chart: per combination of a domain, its figures of
a resource (a money cost, tokens, time) and of the outcome, each the report's with its
interval, its frontier (the tokenizer where the resource is counted in one, the comparison
group where settings vary by design) and its place on it, as the report gives them (the
view's scope's ``scatters``, :func:`generator.score.declared.scatter_frontier`); drawn one
chart per tokenizer for tokens, else one. The page that holds them is
:mod:`generator.pages.views.scatter`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from generator.models.base import NOT_RECORDED
from generator.models.profile import Metric
from generator.models.views import Scatter
from generator.pages.blocks.charts import GREY, Series, chart, labels, style_of
from generator.pages.blocks.measures import Figure, figure, figure_text
from generator.pages.blocks.series import DASHES, frontier_text
from generator.pages.blocks.text import scale_label
from generator.pages.context import VersionContext
from generator.pages.views.parts import combinations, shown_scope, slug
from generator.score.declared import scatter_metrics
from generator.score.declared_results import ScatterFrontier
from generator.score.results import CombinationScores, ScopeResult


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


def frontier_of(scope: ScopeResult, view: Scatter) -> ScatterFrontier:
    """The report's frontiers of the view in the scope it shows."""
    found = next((f for f in scope.scatters if f.view == view.id), None)
    assert found is not None, f"the report has no frontier of scatter {view.id!r}"
    return found


def scatter_data(ctx: VersionContext, view: Scatter) -> ScatterData:
    """The points of the view's scope (those with both figures) with their frontiers and
    their places on them, as the report gives them."""
    x, y = scatter_metrics(ctx.release, view)
    scope = shown_scope(ctx, view.domain, {})
    if scope is None:
        return ScatterData(None, x, y, (), ())
    places = {p.combination: p for p in frontier_of(scope, view).points}
    drawn = []
    for c in scope.combinations:
        fx, fy = figure(ctx.release, view.domain, c, x), figure(ctx.release, view.domain, c, y)
        if fx is not None and fy is not None and fx.value is not None and fy.value is not None:
            drawn.append((c, fx, fy))
    points = tuple(
        Point(c, fx, fy, places[c.combination].frontier, places[c.combination].pareto)
        for c, fx, fy in drawn
    )
    shown = {p.combination.combination for p in points}
    missing = tuple(
        c.combination
        for c in scope.combinations
        if c.combination not in shown and c.status != "withheld"
    )
    return ScatterData(scope, x, y, points, missing)


def place(p: Point, x: Metric) -> str:
    """A point's place on its frontier of score against ``x``, or why it was not compared."""
    unknown = p.group.startswith(f"tokenizer {NOT_RECORDED}")
    return frontier_text(p.on_front, p.combination, x.id, NOT_RECORDED if unknown else "")


def front_of(data: ScatterData, group: str) -> list[Point]:
    """The group's frontier, in the order of its resource (least first)."""
    on = [p for p in data.points if p.group == group and p.on_front]
    return sorted(on, key=lambda p: (float(p.x.value or 0), p.combination.combination))


def _axis_title(metric: Metric) -> str:
    """An axis title short enough for a phone: the metric, its display scale or unit, and,
    where lower is better, ↓ (the site's mark for it: the words did not fit at 390 px)."""
    shown = scale_label(metric.scale, metric.bounds.high, metric.bounds.low)
    unit = shown or metric.unit or metric.currency
    title = f"{metric.title} ({unit})" if unit else metric.title
    return title if metric.higher else f"{title} ↓"


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
            f"Pareto frontier: {place(p, x)}",
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
