"""The points of a scatter view and their chart against the report of the EnterpriseBench-shaped
example: each point is its combination's figures in the report (the measured resource's mean
and interval, the outcome), the frontier holds exactly the points no other of its group beats
on both, the chart draws both intervals and the frontier, its axis logarithmic when declared."""

from __future__ import annotations

import pytest
from pagetools import declaring, drawn, plots, shown

from generator.models.views import Scatter
from generator.pages import VersionContext
from generator.pages.views.parts import shown_scope
from generator.pages.views.scatter import scatter_page
from generator.pages.views.scatter_points import Point, front_of, scatter_data
from generator.score.rounding import DECIMALS


def _declared(ctx: VersionContext, x: str, **more: object) -> tuple[VersionContext, Scatter]:
    """A scatter of ``x`` on the QA domain, and the context whose release declares it (the
    report carries the frontier of a declared scatter only)."""
    resource = ctx.release.metric(x)
    assert resource is not None
    assert resource.kind == "resource"
    fields = {"kind": "scatter", "id": "s", "title": "Scatter", "domain": "qa", "x": x}
    view = Scatter.model_validate(fields | more)
    return declaring(ctx, view), view


def _money_like(ctx: VersionContext) -> str:
    """A measured resource compared across models (as money is)."""
    return next(
        m.id for m in ctx.release.metrics if m.measured and m.kind == "resource" and m.comparable
    )


def _beats(a: Point, b: Point, higher: bool, higher_x: bool) -> bool:
    sy, sx = (1 if higher else -1), (1 if higher_x else -1)
    ay, by = sy * float(a.y.value or 0), sy * float(b.y.value or 0)
    ax, bx = sx * float(a.x.value or 0), sx * float(b.x.value or 0)
    return ay >= by and ax >= bx and (ay > by or ax > bx)


def test_each_point_is_its_combination_s_figures_in_the_report(
    enterprise: VersionContext,
) -> None:
    ctx, view = _declared(enterprise, _money_like(enterprise))
    data = scatter_data(ctx, view)
    scope = shown_scope(ctx, view.domain, {})
    assert scope is not None
    assert data.scope == scope
    drawn = {p.combination.combination: p for p in data.points}
    measured = {c.combination: c for c in scope.combinations if view.x in c.measures}
    assert set(drawn) == set(measured)
    assert len(drawn) > 1
    for k, c in measured.items():
        assert drawn[k].x == c.measures[view.x]  # the report's mean and interval, not redone
        assert drawn[k].y == c.task_score
    page = scatter_page(ctx, view)
    (table,) = page.tables
    assert len(table.rows) == len(measured)
    for row in table.rows:
        c = measured[row.record["combination"]]
        assert row.record[view.x] == c.measures[view.x].value
        assert row.record[f"{view.x}_low"] == c.measures[view.x].low
        assert row.record[f"{view.x}_high"] == c.measures[view.x].high
        assert row.record["task_score"] == (c.task_score.value if c.task_score else None)
        assert row.record["pareto"] == drawn[c.combination].on_front


def test_each_point_s_frontier_and_place_are_the_report_s(enterprise: VersionContext) -> None:
    """The page draws the frontier the report carries for the view; it computes none."""
    for x in (_money_like(enterprise), "total_tokens"):
        ctx, view = _declared(enterprise, x)
        data = scatter_data(ctx, view)
        assert data.scope is not None
        (found,) = [f for f in data.scope.scatters if f.view == view.id]
        places = {p.combination: (p.frontier, p.pareto) for p in found.points}
        assert True in [p.on_front for p in data.points]
        for p in data.points:
            assert (p.group, p.on_front) == places[p.combination.combination]


def test_the_frontier_holds_the_points_no_other_of_its_group_beats(
    enterprise: VersionContext,
) -> None:
    apart = 0
    for x in (_money_like(enterprise), "total_tokens"):
        ctx, view = _declared(enterprise, x)
        data = scatter_data(ctx, view)
        compared = [p for p in data.points if p.on_front is not None]
        assert compared
        for p in compared:
            rivals = [q for q in compared if q.group == p.group and q is not p]
            beaten = any(_beats(q, p, data.y.higher, data.x.higher) for q in rivals)
            assert p.on_front == (not beaten), (x, p.combination.combination)
        for p in data.points:
            complete = p.combination.coverage is not None and p.combination.coverage.complete
            if not complete:
                assert p.on_front is None  # only points measured on the same tasks compare
                apart += 1
    assert apart > 0


def test_the_axis_is_logarithmic_when_declared(enterprise: VersionContext) -> None:
    x = _money_like(enterprise)
    for log in (True, False):
        ctx, view = _declared(enterprise, x, log_x=log)
        page = scatter_page(ctx, view)
        assert page.charts
        (plot,) = plots(shown(page))
        assert plot.layout["xaxis"]["type"] == ("log" if log else "linear")


def test_the_chart_draws_every_point_with_both_intervals_and_the_frontier(
    enterprise: VersionContext,
) -> None:
    ctx, view = _declared(enterprise, _money_like(enterprise))
    data = scatter_data(ctx, view)
    (plot,) = plots(shown(scatter_page(ctx, view)))
    points = [t for t in plot.traces if t["mode"] == "markers"]
    assert len(points) == len(data.points)
    for trace, p in zip(points, data.points, strict=True):
        scale = data.x.scale or 1.0
        assert trace["x"] == [drawn(float(p.x.value or 0) / scale)]
        assert p.x.high is not None
        high = trace["x"][0] + trace["error_x"]["array"][0]
        assert high == pytest.approx(float(p.x.high) / scale, abs=2 * 10.0**-DECIMALS)
    lines = [t for t in plot.traces if t["mode"] == "lines+markers"]
    groups = {p.group for p in data.points}
    fronts = [front_of(data, g) for g in groups]
    assert len(lines) == sum(bool(f) for f in fronts)
    for line in lines:
        front = next(f for f in fronts if len(f) == len(line["x"]))
        assert line["x"] == sorted(line["x"])
        assert len(front) == len(line["x"])
