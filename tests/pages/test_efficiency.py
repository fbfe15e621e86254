"""The efficiency page against the reports: every scored combination's point on each chart,
one Pareto frontier per tokenizer, and the charts' data in the table beside them."""

from __future__ import annotations

import pytest
from pagetools import Plot, plots, shown

from generator.pages import VersionContext
from generator.pages.efficiency import METRICS, efficiency_page
from generator.score.results import CombinationScores, Report


def _scored(report: Report) -> list[CombinationScores]:
    return [
        c
        for c in report.scopes[0].combinations
        if c.status == "scored" and c.efficiency and c.task_score and c.task_score.value is not None
    ]


def _charts(ctx: VersionContext) -> dict[str, Plot]:
    return {p.div: p for p in plots(efficiency_page(ctx).markdown)}


def _xy(c: CombinationScores) -> tuple[float, float]:
    assert c.efficiency is not None
    assert c.efficiency.total_tokens is not None
    assert c.task_score is not None
    assert c.task_score.value is not None
    return c.efficiency.total_tokens, c.task_score.value


def _frontier(points: dict[str, tuple[float, float]]) -> list[str]:
    """The combinations no other one beats on both tokens (fewer) and score (higher), by
    tokens: written here on its own."""

    def beaten(name: str) -> bool:
        x, y = points[name]
        return any(
            (ox <= x and oy >= y) and (ox < x or oy > y + 1e-9)
            for other, (ox, oy) in points.items()
            if other != name
        )

    return sorted((n for n in points if not beaten(n)), key=lambda n: points[n][0])


@pytest.fixture(params=["small", "v1.0", "v1.1"])
def ctx(request: pytest.FixtureRequest, small: VersionContext) -> VersionContext:
    if request.param == "small":
        return small
    found: list[VersionContext] = request.getfixturevalue("contexts")
    return next(c for c in found if c.version == request.param)


def test_each_chart_holds_every_scored_combination_s_point(ctx: VersionContext) -> None:
    charts = _charts(ctx)
    for domain, report in ctx.reports.items():
        scored = _scored(report)
        for metric, _, log in METRICS:
            plot = charts[f"{domain}-score-{metric}"]
            points = {t["name"]: t for t in plot.traces if t["mode"] == "markers"}
            assert sorted(points) == sorted(c.combination for c in scored)
            assert plot.layout["xaxis"]["type"] == ("log" if log else "linear")
            for c in scored:
                assert c.task_score is not None
                trace = points[c.combination]
                assert trace["x"] == [getattr(c.efficiency, metric)]
                assert trace["y"] == [c.task_score.value]
                bars = trace["error_y"]
                assert trace["y"][0] + bars["array"][0] == pytest.approx(c.task_score.high)
                assert trace["y"][0] - bars["arrayminus"][0] == pytest.approx(c.task_score.low)


def test_one_frontier_per_tokenizer_joins_the_unbeaten(ctx: VersionContext) -> None:
    charts = _charts(ctx)
    tokenizer = {k: b.combination.model.tokenizer for k, b in ctx.frame.bundles.items()}
    for domain, report in ctx.reports.items():
        plot = charts[f"{domain}-score-total_tokens"]
        lines = {t["name"]: t for t in plot.traces if t["mode"] == "lines"}
        compared = [c for c in _scored(report) if c.pareto is not None]
        names = sorted({tokenizer[c.combination] for c in compared})
        assert sorted(lines) == [f"Pareto frontier ({n})" for n in names]
        for name in names:
            points = {c.combination: _xy(c) for c in compared if tokenizer[c.combination] == name}
            front = _frontier(points)
            line = lines[f"Pareto frontier ({name})"]
            assert list(zip(line["x"], line["y"], strict=True)) == [points[n] for n in front]


def test_the_small_version_has_a_combination_off_the_frontier(small: VersionContext) -> None:
    lines = [t for t in _charts(small)["office-score-total_tokens"].traces if t["mode"] == "lines"]
    assert len(lines) == 2  # two tokenizers: no line joins them
    joined = {x for line in lines for x in line["x"]}
    office = small.reports["office"].scopes[0].combinations
    s = next(c for c in office if c.combination == "s")
    assert s.efficiency is not None
    assert s.efficiency.total_tokens not in joined  # s: more tokens than q for less score


def test_the_table_beside_the_charts_holds_their_data(ctx: VersionContext) -> None:
    page = efficiency_page(ctx)
    tables = {t.id: t for t in page.tables}
    text = shown(page)
    for domain, report in ctx.reports.items():
        scored = _scored(report)
        table = tables[f"{domain}-efficiency"]
        assert [r.record["combination"] for r in table.rows] == [c.combination for c in scored]
        for row, c in zip(table.rows, scored, strict=True):
            assert c.efficiency is not None
            assert c.task_score is not None
            assert row.record["task_score"] == c.task_score.value
            assert row.record["total_tokens"] == c.efficiency.total_tokens
            assert row.record["pareto"] == c.pareto
            for r in c.reliability:
                assert row.record[f"reliability_at_{r.k}"] == r.value
        assert f'href="#table-{domain}-efficiency"' in text
        reliability = _charts(ctx).get(f"{domain}-reliability")
        curves = [c for c in scored if any(r.value is not None for r in c.reliability)]
        assert (reliability is not None) == bool(curves)
        if reliability is not None:
            assert [t["name"] for t in reliability.traces] == [c.combination for c in curves]
