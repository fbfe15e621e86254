"""The release home's leaderboards against the reports: rows, order, marks, the reading of
the rank groups and the chart, one domain at a time."""

from __future__ import annotations

import itertools

import pytest
from pagetools import plots, row_texts, shown_estimate

from generator.pages import VersionContext
from generator.pages.blocks.cells import harness_name, model_name
from generator.pages.blocks.outcome import report_order
from generator.pages.blocks.text import spelled
from generator.pages.home.leaderboard import (
    FEWER_MARK,
    headline,
    leaderboard_chart,
    leaderboard_table,
    reading,
    standings,
)
from generator.score.results import CombinationScores, Report, ScopeResult


def _reports(
    contexts: list[VersionContext], small: VersionContext
) -> list[tuple[VersionContext, Report]]:
    return [(ctx, ctx.reports[d.id]) for ctx in [small, *contexts] for d in ctx.release.domains]


def _all_tasks(report: Report) -> ScopeResult:
    """The domain's scope over all its tasks, found here without the module's help."""
    (scope,) = [s for s in report.scopes if s.scope.key.endswith("/*/all")]
    return scope


def _scored(scope: ScopeResult) -> list[CombinationScores]:
    return [c for c in scope.combinations if c.status == "scored"]


def _name(ctx: VersionContext, combo: str) -> str:
    return f"{harness_name(ctx, combo)} × {model_name(ctx, combo)}"


def test_the_headline_is_the_all_tasks_scope(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    reports = _reports(contexts, small)
    assert len(reports) == 6  # two domains in each of three versions
    for _, report in reports:
        assert headline(report) == _all_tasks(report)


def test_a_row_per_scored_combination_with_the_report_s_figures(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    reports = _reports(contexts, small)
    assert len(reports) == 6  # two domains in each of three versions
    for ctx, report in reports:
        scope = _all_tasks(report)
        scored = {c.combination: c for c in _scored(scope)}
        most = max(c.task_score.tasks for c in scored.values() if c.task_score)
        table = leaderboard_table(ctx, report)
        records = [r.record for r in table.rows]
        assert sorted(r["combination"] for r in records) == sorted(scored)
        for record in records:
            c = scored[str(record["combination"])]
            assert c.task_score is not None
            assert (record["rank"], record["rank_worst"]) == (c.rank, c.rank_worst)
            assert record["task_score"] == c.task_score.value
            assert (record["task_score_low"], record["task_score_high"]) == (
                c.task_score.low,
                c.task_score.high,
            )
            assert (record["tasks"], record["domain_tasks"]) == (c.task_score.tasks, scope.tasks)
            assert record["harness"] == harness_name(ctx, c.combination)
            assert record["model"] == model_name(ctx, c.combination)
            assert record["fingerprint"] == ctx.fingerprints[c.combination]
        # Best first: by best rank, then by score.
        keys = [(r["rank"], -float(r["task_score"])) for r in records]  # type: ignore[arg-type]
        assert keys == sorted(keys)
        # The shown cells: the rank range, the estimate by the one precision rule, the tasks;
        # ‡ beside exactly the scores over fewer tasks than the most.
        for record, cells in zip(records, row_texts(table.to_html("index")), strict=True):
            c = scored[str(record["combination"])]
            assert c.task_score is not None
            mark = FEWER_MARK if c.task_score.tasks < most else ""
            assert cells[0] == c.rank_text
            assert cells[2] == shown_estimate(c.task_score) + mark
            assert cells[3] == f"{c.task_score.tasks} of {scope.tasks}{mark}"


def test_fewer_tasks_are_marked_and_explained(contexts: list[VersionContext]) -> None:
    marked = 0
    for ctx in contexts:
        for d in ctx.release.domains:
            report = ctx.reports[d.id]
            table = leaderboard_table(ctx, report)
            tasks = [int(r.record["tasks"]) for r in table.rows]  # type: ignore[call-overload]
            fewer = [r for r in table.rows if int(r.record["tasks"]) < max(tasks)]  # type: ignore[call-overload]
            marked += len(fewer)
            assert ("‡" in table.note) == bool(fewer)
            for row in fewer:
                name = _name(ctx, str(row.record["combination"]))
                said = f"{name}: {row.record['tasks']} of {row.record['domain_tasks']} tasks"
                assert said in table.note
    assert marked, "the example has a score over fewer tasks (a sub-division not covered)"


def test_combinations_without_a_score_are_named_not_ranked(
    contexts: list[VersionContext],
) -> None:
    seen = 0
    for ctx in contexts:
        for d in ctx.release.domains:
            report = ctx.reports[d.id]
            table = leaderboard_table(ctx, report)
            for c in _all_tasks(report).combinations:
                if c.status != "scored":
                    seen += 1
                    assert f"{_name(ctx, c.combination)}: not covered" in table.note or (
                        c.status != "not-covered"
                    )
                    assert c.combination not in {r.record["combination"] for r in table.rows}
    assert seen, "the example leaves combinations out of a domain"


def _significant(scope: ScopeResult) -> dict[frozenset[str], bool]:
    return {frozenset((d.a, d.b)): d.significant for d in scope.differences}


def test_the_reading_s_letters_follow_the_significance_of_every_pair(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    """Every combination the sentence names carries its letters, best first; two share a
    letter exactly when their paired difference is not significant; a sentence that orders
    nothing is written only when no pair is significant."""
    seen, pairs = 0, 0
    for ctx, report in _reports(contexts, small):
        for scope in report.scopes:
            rows = standings(ctx, scope)
            if len(rows) < 2 or scope.comparison_groups:
                continue
            sentence = reading(ctx, scope)
            significant = _significant(scope)
            if sentence.startswith("The data shown order none"):
                assert not any(significant.values())
                continue
            at = [sentence.index(f"{r.name} ({r.scores.letters})") for r in rows]
            assert at == sorted(at), "best first"
            for x, y in itertools.combinations(rows, 2):
                share = bool(set(x.scores.letters or "") & set(y.scores.letters or ""))
                assert share == (not significant[frozenset((x.combination, y.combination))])
                pairs += 1
            seen += 1
    assert seen, "some scope of the examples orders a pair"
    assert pairs >= seen


def _ranked(scope: ScopeResult, ranks: dict[str, tuple[int, int]]) -> ScopeResult:
    """The scope with its scored combinations given other rank ranges."""
    combos = [
        c.model_copy(update=dict(zip(("rank", "rank_worst"), ranks[c.combination], strict=True)))
        if c.combination in ranks
        else c
        for c in scope.combinations
    ]
    return scope.model_copy(update={"combinations": combos})


def test_a_domain_with_one_or_no_score_says_so(contexts: list[VersionContext]) -> None:
    ctx = contexts[0]
    scope = _all_tasks(ctx.reports[ctx.release.domains[0].id])
    first, *others = _scored(scope)
    alone = _ranked(scope, {}).model_copy(
        update={
            "combinations": [
                first,
                *(c.model_copy(update={"status": "not-covered"}) for c in others),
            ]
        }
    )
    assert reading(ctx, alone) == (
        f"{_name(ctx, first.combination)} is the only combination scored in this domain."
    )
    none = alone.model_copy(update={"combinations": []})
    assert reading(ctx, none) == "No combination has a score in this domain."


@pytest.mark.parametrize("which", [0, 1])
def test_the_chart_draws_each_score_with_its_interval_best_on_top(
    contexts: list[VersionContext], which: int
) -> None:
    ctx = contexts[which]
    assert len(ctx.release.domains) == 2
    for d in ctx.release.domains:
        report = ctx.reports[d.id]
        table = leaderboard_table(ctx, report)
        (plot,) = plots(str(leaderboard_chart(ctx, report)))
        assert plot.div == f"leaderboard-{d.id}"
        assert len(plot.traces) == len(table.rows)
        tops = [t["y"][0] for t in plot.traces]
        assert tops == sorted(tops, reverse=True), "best on top"
        for trace, row in zip(plot.traces, table.rows, strict=True):
            value = float(row.record["task_score"])  # type: ignore[arg-type]
            low, high = (float(row.record[k]) for k in ("task_score_low", "task_score_high"))  # type: ignore[arg-type]
            assert trace["x"] == [pytest.approx(value)]
            assert trace["error_x"]["array"] == [pytest.approx(high - value)]
            assert trace["error_x"]["arrayminus"] == [pytest.approx(value - low)]
            assert _name(ctx, str(row.record["combination"])) in trace["text"][0]
            lo, hi = plot.layout["xaxis"]["range"]
            assert lo <= low <= high <= hi
        assert plot.layout["showlegend"] is False


def test_no_chart_without_a_score(contexts: list[VersionContext]) -> None:
    ctx = contexts[0]
    report = ctx.reports[ctx.release.domains[0].id]
    empty = report.model_copy(
        update={
            "scopes": [
                s.model_copy(update={"combinations": []}) if s == _all_tasks(report) else s
                for s in report.scopes
            ]
        }
    )
    assert str(leaderboard_chart(ctx, empty)) == ""
    assert leaderboard_table(ctx, empty).rows == ()


def test_comparison_groups_are_read_each_on_its_own(contexts: list[VersionContext]) -> None:
    ctx = contexts[0]
    scope = _all_tasks(ctx.reports[ctx.release.domains[0].id])
    by_score = report_order(scope, _scored(scope))
    a, b, c, d, *_ = (x.combination for x in by_score)
    # Two comparison groups, ranked within each: {a 1, b 2} and {c 1–2, d 1–2}, each listed
    # by score.
    ranks = {a: (1, 1), b: (2, 2), c: (1, 2), d: (1, 2)}
    marks = {a: "a", b: "b", c: "a", d: "a"}
    scored = [
        x.model_copy(update={"letters": marks[x.combination]})
        for x in _ranked(scope, ranks).combinations
        if x.combination in ranks
    ]
    grouped = scope.model_copy(
        update={"combinations": scored, "comparison_groups": [[a, b], [c, d]]}
    )
    first = [r.combination for r in standings(ctx, grouped)]
    assert first[:2] == [a, b]
    assert set(first[2:]) == {c, d}
    later = ", ".join(f"{_name(ctx, x)} (a)" for x in first[2:])
    stats = ctx.release.statistics
    assert reading(ctx, grouped) == (
        "Best first within each comparison group, with significance letters: "
        f"{_name(ctx, a)} (a), {_name(ctx, b)} (b); {later}. Within a comparison group, two "
        "combinations that share no letter are significantly different (the paired "
        f"difference's {stats.confidence:.0%} interval over resampled tasks excludes 0, over "
        f"at least {spelled(stats.min_tasks_to_order)} common tasks); two that share one are "
        "not shown to differ."
    )


def test_a_lower_is_better_chart_reads_best_at_the_right_like_the_others(
    contexts: list[VersionContext], enterprise: VersionContext
) -> None:
    """The axis of a metric where lower is better runs from high to low (and says so): the
    best score is at the right and on top on every leaderboard chart."""
    checked = {True: 0, False: 0}
    intervals = 0
    for ctx in (*contexts, enterprise):
        for d in ctx.release.domains:
            higher = ctx.release.outcome(d.id).higher
            plot = plots(str(leaderboard_chart(ctx, ctx.reports[d.id])))
            if not plot:
                continue
            lo, hi = plot[0].layout["xaxis"]["range"]
            assert (lo < hi) is higher, d.id
            for trace in plot[0].traces:  # every interval inside the axis (consulting's ×10)
                x, up, down = (
                    trace["x"][0],
                    *(trace["error_x"][k][0] for k in ("array", "arrayminus")),
                )
                assert min(lo, hi) <= x - down <= x + up <= max(lo, hi), (d.id, x)
                intervals += 1
            if not higher:
                assert "lower is better" in plot[0].layout["xaxis"]["title"]["text"]
            checked[higher] += 1
    assert checked[True], checked
    assert checked[False], checked
    assert intervals > sum(checked.values())  # each chart draws two intervals or more
