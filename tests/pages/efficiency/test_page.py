"""The efficiency page against the reports: every scored combination's point on each chart,
score against tokens drawn once per tokenizer with its own Pareto frontiers (only where two
combinations or more are compared), hover text in the tables' formats, and the charts' data
in the table beside them."""

from __future__ import annotations

import html
import shutil
from pathlib import Path
from typing import Any

import pytest
from edit import replace
from pagetools import Plot, drawn, plots, shown, shown_estimate, small_version

from generator.load import load_inputs
from generator.pages import VersionContext, version_context
from generator.pages.blocks.charts import labels
from generator.pages.blocks.text import kilo, one_decimal
from generator.pages.efficiency.charts import METRICS, frontier_text, token_chart_id
from generator.pages.efficiency.page import efficiency_page
from generator.score.results import CombinationScores, Report
from generator.score.version import score_version


def _scored(report: Report) -> list[CombinationScores]:
    return [
        c
        for c in report.scopes[0].combinations
        if c.status == "scored" and c.efficiency and c.task_score and c.task_score.value is not None
    ]


def _charts(ctx: VersionContext) -> dict[str, Plot]:
    return {p.div: p for p in plots(efficiency_page(ctx).markdown)}


def _tokenizer(ctx: VersionContext) -> dict[str, str]:
    return {k: b.combination.model.tokenizer for k, b in ctx.frame.bundles.items()}


def _names(ctx: VersionContext) -> dict[str, str]:
    """Each combination's name as charts show it, read back to plain text."""
    return labels({k: b.combination.title for k, b in ctx.frame.bundles.items()})


def _plain(name: str) -> str:
    """A trace's name without the line break plotly is given between harness and model."""
    return html.unescape(name.replace(" ×<br>", " × "))


def _points(plot: Plot) -> dict[str, dict[str, Any]]:
    return {_plain(t["name"]): t for t in plot.traces if t["mode"] == "markers"}


def _frontiers(plot: Plot) -> list[dict[str, Any]]:
    return [t for t in plot.traces if t["name"].startswith("Pareto frontier")]


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


@pytest.fixture(scope="module")
def retokenized(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> VersionContext:
    """v1.0 of the example with the Lingee bundle's model counted by another tokenizer."""
    root = tmp_path_factory.mktemp("retokenized")
    shutil.copytree(repo_root / "results", root / "results", ignore=shutil.ignore_patterns("*.py"))
    shutil.copytree(repo_root / "harnesscards", root / "harnesscards")
    replace(
        root / "results/v1.0/bundles/lingee/bundle.yaml", "tokenizer: glm-5", "tokenizer: other"
    )
    loaded, problems = load_inputs(root)
    assert not [p for p in problems if p.severity == "error"]
    release = next(r for r in loaded.releases if r.folder == "v1.0")
    return version_context(score_version(release), loaded.cards)


@pytest.fixture(params=["small", "v1.0", "v1.1", "retokenized"])
def ctx(request: pytest.FixtureRequest, small: VersionContext) -> VersionContext:
    if request.param == "small":
        return small
    if request.param == "retokenized":
        found: VersionContext = request.getfixturevalue("retokenized")
        return found
    every: list[VersionContext] = request.getfixturevalue("contexts")
    return next(c for c in every if c.version == request.param)


def test_each_chart_holds_every_scored_combination_s_point(ctx: VersionContext) -> None:
    charts, tokenizer, names = _charts(ctx), _tokenizer(ctx), _names(ctx)
    points = 0
    for domain, report in ctx.reports.items():
        scored = _scored(report)
        for metric, _, log, _ in METRICS:
            for c in scored:
                div = (
                    token_chart_id(domain, tokenizer[c.combination])
                    if metric == "total_tokens"
                    else f"{domain}-score-{metric}"
                )
                plot = charts[div]
                assert plot.layout["xaxis"]["type"] == ("log" if log else "linear")
                assert c.task_score is not None
                trace = _points(plot)[names[c.combination]]
                assert trace["x"] == [drawn(getattr(c.efficiency, metric))]
                assert trace["y"] == [drawn(c.task_score.value)]
                bars, near = trace["error_y"], 2e-6  # each end drawn to six decimals
                high = trace["y"][0] + bars["array"][0]
                low = trace["y"][0] - bars["arrayminus"][0]
                assert high == pytest.approx(c.task_score.high, abs=near)
                assert low == pytest.approx(c.task_score.low, abs=near)
                points += 1
    assert points > 0


def test_score_against_tokens_is_one_chart_per_tokenizer(ctx: VersionContext) -> None:
    """No chart mixes tokenizers: each holds exactly the points of its own."""
    charts, tokenizer, names = _charts(ctx), _tokenizer(ctx), _names(ctx)
    checked = 0
    for domain, report in ctx.reports.items():
        scored = _scored(report)
        own = {tokenizer[c.combination] for c in scored}
        drawn = {d for d in charts if d.startswith(f"{domain}-score-total_tokens")}
        assert drawn == {token_chart_id(domain, t) for t in own}
        for t in own:
            points = _points(charts[token_chart_id(domain, t)])
            want = [names[c.combination] for c in scored if tokenizer[c.combination] == t]
            assert sorted(points) == sorted(want)
            checked += 1
    assert checked >= len(ctx.reports) == 2  # a chart or more in each of the two domains


def test_a_frontier_per_tokenizer_where_two_or_more_are_compared(ctx: VersionContext) -> None:
    charts, tokenizer = _charts(ctx), _tokenizer(ctx)
    frontiers = 0
    for domain, report in ctx.reports.items():
        scope = report.scopes[0]
        group = {n: i for i, names in enumerate(scope.comparison_groups) for n in names}
        compared = [c for c in _scored(report) if c.pareto is not None]
        for t in {tokenizer[c.combination] for c in _scored(report)}:
            lines = _frontiers(charts[token_chart_id(domain, t)])
            names = [line["name"] for line in lines]
            assert len(names) == len(set(names))  # no legend entry twice
            sets = {}
            for g in {group.get(c.combination, 0) for c in compared}:
                mine = [
                    c
                    for c in compared
                    if tokenizer[c.combination] == t and group.get(c.combination, 0) == g
                ]
                if len(mine) >= 2:
                    sets[g] = {c.combination: _xy(c) for c in mine}
            assert len(lines) == len(sets)
            for line, points in zip(lines, [sets[g] for g in sorted(sets)], strict=True):
                assert "lines" in line["mode"]
                want = [tuple(map(drawn, points[n])) for n in _frontier(points)]
                assert list(zip(line["x"], line["y"], strict=True)) == want
                frontiers += 1
    assert frontiers > 0


def test_another_tokenizer_gets_its_own_chart(retokenized: VersionContext) -> None:
    """The example with one combination on another tokenizer: two token charts per domain
    where both are scored, the lone one without a frontier, the other with its own."""
    charts, tokenizer = _charts(retokenized), _tokenizer(retokenized)
    assert tokenizer["lingee"] == "other"
    split = 0
    for domain, report in retokenized.reports.items():
        scored = {c.combination for c in _scored(report)}
        if "lingee" not in scored:
            continue
        alone = charts[token_chart_id(domain, "other")]
        assert list(_points(alone)) == [_names(retokenized)["lingee"]]
        assert _frontiers(alone) == []
        rest = charts[token_chart_id(domain, "glm-5")]
        assert _names(retokenized)["lingee"] not in _points(rest)
        compared = [
            c for c in _scored(report) if c.pareto is not None and c.combination != "lingee"
        ]
        assert len(_frontiers(rest)) == (1 if len(compared) >= 2 else 0)
        split += bool(_frontiers(rest))
    assert split  # the example keeps a frontier among the others somewhere


def test_the_small_version_has_a_combination_off_the_frontier(small: VersionContext) -> None:
    tokenizer, charts = _tokenizer(small), _charts(small)
    office = small.reports["office"].scopes[0].combinations
    s = next(c for c in office if c.combination == "s")
    assert s.efficiency is not None
    lines = _frontiers(charts[token_chart_id("office", tokenizer["s"])])
    assert lines
    joined = {x for line in lines for x in line["x"]}
    assert s.efficiency.total_tokens not in joined  # s: more tokens than q for less score


def test_hover_text_is_written_in_the_tables_formats(ctx: VersionContext) -> None:
    """Each point's hover box: the full name, the score with its interval as the tables
    write it, the measure with its unit; frontier lines show no hover of their own."""
    charts, tokenizer, names = _charts(ctx), _tokenizer(ctx), _names(ctx)
    units = {"total_tokens": (kilo, "tokens"), "duration_s": (one_decimal, "s")}
    units["turns"] = (one_decimal, "turns")
    points, frontiers = 0, 0
    for domain, report in ctx.reports.items():
        for c in _scored(report):
            assert c.task_score is not None
            for metric, label, _, _ in METRICS:
                div = (
                    token_chart_id(domain, tokenizer[c.combination])
                    if metric == "total_tokens"
                    else f"{domain}-score-{metric}"
                )
                plot = charts[div]
                trace = _points(plot)[names[c.combination]]
                points += 1
                assert trace["hovertemplate"] == "%{text}<extra></extra>"
                (text,) = trace["text"]
                head, _, rest = text.partition("</b><br>")
                assert head == f"<b>{trace['name']}"  # the full name, bold, never cut
                lines = [html.unescape(line) for line in rest.split("<br>")]
                # the hover says "run-to-run noise only" in words instead of the †
                score_line = shown_estimate(c.task_score).removesuffix("\u00a0†")
                assert f"Task Score {score_line}" in lines
                reads, unit = units[metric]
                assert f"{label}: {reads(getattr(c.efficiency, metric))} {unit}" in lines
                if metric == "total_tokens":
                    assert f"tokenizer {tokenizer[c.combination]}" in lines
                    assert f"Pareto frontier: {frontier_text(c.pareto, c)}" in lines
                for line in _frontiers(plot):
                    assert line["hoverinfo"] == "skip"
                    frontiers += 1
    assert points > 0
    assert frontiers > 0


def test_the_table_beside_the_charts_holds_their_data(ctx: VersionContext) -> None:
    page = efficiency_page(ctx)
    tables = {t.id: t for t in page.tables}
    text = shown(page)
    names = _names(ctx)
    assert len(ctx.reports) == 2
    reliability_cells = 0
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
                reliability_cells += 1
        assert f'href="#table-{domain}-efficiency"' in text
        reliability = _charts(ctx).get(f"{domain}-reliability")
        curves = [c for c in scored if any(r.value is not None for r in c.reliability)]
        assert (reliability is not None) == bool(curves)
        if reliability is not None:
            drawn = [_plain(t["name"]) for t in reliability.traces]
            assert drawn == [names[c.combination] for c in curves]
    assert reliability_cells > 0


def _domain_blocks(markdown: str) -> dict[str, str]:
    """Each domain section of the page: from its heading to the next."""
    parts = markdown.split("\n## ")[1:]
    return {p.split("\n", 1)[0]: p for p in parts}


def test_each_domain_answers_on_top_and_keeps_its_charts_one_click_away(
    ctx: VersionContext,
) -> None:
    markdown = efficiency_page(ctx).markdown
    blocks = _domain_blocks(markdown)
    tokenizer = _tokenizer(ctx)
    titles = {k: b.combination.title for k, b in ctx.frame.bundles.items()}
    assert set(blocks) == {r.domain_title for r in ctx.reports.values()}
    frontier_lines = 0
    for report in ctx.reports.values():
        block = blocks[report.domain_title]
        scored = _scored(report)
        if not scored:
            assert "<details" not in block
            continue
        head, _, rest = block.partition("<details")
        assert "lg-chart" not in head  # the answer first, no chart before it
        assert rest.startswith(f' class="lg-efficiency" id="charts-{report.domain}">')
        assert " open" not in rest.split(">", 1)[0]  # closed until the reader opens it
        for tok in {tokenizer[c.combination] for c in scored}:
            line = next(
                x for x in head.splitlines() if x.startswith(f"- Pareto frontier, tokenizer {tok}:")
            )
            mine = [c for c in scored if tokenizer[c.combination] == tok and c.pareto is not None]
            on = [titles[c.combination] for c in mine if c.pareto]
            frontier_lines += 1
            if len(mine) < 2:
                assert "none" in line
            else:
                assert html.unescape(line.split(": ", 1)[1]).split(" · ") == sorted(
                    on, key=lambda n: next(_xy(c)[0] for c in mine if titles[c.combination] == n)
                )
        # every chart of the domain and its data table are inside the closed box
        charts = [p.div for p in plots(rest)]
        assert charts
        assert all(d.startswith(f"{report.domain}-") for d in charts)
        assert "<!--lg-html:" in rest  # the data table, placed by the renderer
    assert frontier_lines >= len(ctx.reports) == 2  # a line per tokenizer in each domain


def test_a_count_some_runs_leave_out_says_the_runs_it_rests_on() -> None:
    """q records turns on its first runs only: its cell and its download say on how many
    valid runs its mean rests, the page says what such a figure is, the others are as
    before."""
    ctx = small_version(
        lambda c, r: r if c != "q" or r.run == 1 else r.model_copy(update={"turns": None})
    )
    page = efficiency_page(ctx)
    office = {c.combination: c for c in ctx.reports["office"].scopes[0].combinations}
    q = office["q"]
    assert q.efficiency is not None
    assert q.coverage is not None
    runs, valid = q.efficiency.recorded["turns"], q.coverage.valid_runs
    table = next(t for t in page.tables if t.id == "office-efficiency")
    turns = table.columns.index("Turns")
    cells = {r.record["combination"]: r.cells[turns].text for r in table.rows}
    assert cells["q"] == f"{one_decimal(q.efficiency.turns)} (on {runs} of {valid} runs)"
    p = office["p"].efficiency
    assert p is not None
    assert cells["p"] == one_decimal(p.turns)
    records = {r.record["combination"]: r.record for r in table.rows}
    assert records["q"]["turns_runs"] == runs
    assert not [k for k, r in records.items() if k != "q" and "turns_runs" in r]
    assert "A count that some valid runs leave out" in page.markdown
    assert "A count that some valid runs leave out" not in efficiency_page(small_version()).markdown
