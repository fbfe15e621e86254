"""Aggregates of a scope, against hand-computed values, and their invariants."""

from __future__ import annotations

import itertools

import pytest
from budget import examples
from builders import bundle, catalog, release, run, task, version
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score.report import build_report
from generator.score.results import CombinationScores, Report, ScopeResult


def _scope(report: Report, sub: str | None = None, group: str = "all") -> ScopeResult:
    return next(s for s in report.scopes if s.scope.subdivision == sub and s.scope.group == group)


def _combo(scope: ScopeResult, name: str) -> CombinationScores:
    return next(c for c in scope.combinations if c.combination == name)


OFFICE = [task("t1"), task("t2", judge=(4,), weight=0.5), task("t3", sub="b")]
P_RUNS = [
    run("t1", 1),
    run("t1", 2, passed=1, failure="wrong"),  # S = 1, 0.5
    run("t2", 1, judge=(2,), failure="wrong"),  # R 1, J 0.5 -> 0.75
    run("t2", 2, passed=0, judge=(4,), failure="wrong"),  # R 0, J 1 -> 0.5
    run("t3", 1),
    run("t3", 2, delivery=False, failure="wrong"),  # 1, 0 (D fails)
]
Q_RUNS = [run(t, i, judge=(4,) if t == "t2" else ()) for t in ("t1", "t2", "t3") for i in (1, 2)]
R_RUNS = [
    run("t1", 1),
    run("t1", 2, valid=False),
    run("t2", 1, judge=(4,)),
    run("t2", 2, judge=(4,)),
]


@pytest.fixture(scope="module")
def office() -> Report:
    bundles = {
        "r": bundle(
            "r",
            not_covered=[{"domain": "office", "subdivision": "b", "reason": "no adapter"}],
            evaluation="incomplete",
        )
    }
    stats = {
        "bootstrap_samples": 400,
        "seed": 7,
        "min_tasks_to_order": 3,
        "min_tasks_to_resample": 3,
    }
    loaded = version(
        release(statistics=stats), catalog(OFFICE), {"p": P_RUNS, "q": Q_RUNS, "r": R_RUNS}, bundles
    )
    return build_report(loaded, "office")


def test_macro_average_of_task_means(office: Report) -> None:
    p = _combo(_scope(office), "p")
    assert p.task_score is not None
    assert p.task_score.value == pytest.approx((0.75 + 0.625 + 0.5) / 3)
    assert p.task_score.tasks == 3
    assert p.task_score.low is not None
    assert p.task_score.high is not None
    assert p.task_score.low <= p.task_score.value <= p.task_score.high


def test_channels_aggregate_the_same_way(office: Report) -> None:
    p = _combo(_scope(office), "p")
    assert p.rule_score is not None
    assert p.judge_score is not None
    assert p.rule_score.value == pytest.approx((0.75 + 0.5 + 1.0) / 3)  # t3 run 2: R 1, D 0
    assert p.judge_score.value == pytest.approx(0.75)  # only t2 has the Judge
    assert p.judge_score.tasks == 1
    assert p.judge_coverage == "1 of 3 tasks"


def test_success_and_reliability(office: Report) -> None:
    p = _combo(_scope(office), "p")
    assert p.success_rate is not None
    assert (p.success_rate.successes, p.success_rate.trials) == (2, 6)
    assert p.success_rate.value == pytest.approx(1 / 3)
    rel = {r.k: r.value for r in p.reliability}
    assert rel[1] == pytest.approx((0.5 + 0 + 0.5) / 3)
    assert rel[2] == 0.0
    assert p.failure_types == {"wrong": 4}


def test_efficiency_is_mean_of_task_means(office: Report) -> None:
    p = _combo(_scope(office), "p")
    assert p.efficiency is not None
    assert p.efficiency.total_tokens == pytest.approx(110)
    assert p.efficiency.input_tokens == pytest.approx(100)
    assert p.efficiency.turns == pytest.approx(3)


def test_incomplete_evaluation_is_flagged_with_counts(office: Report) -> None:
    r = _combo(_scope(office), "r")
    assert r.coverage is not None
    cov = r.coverage
    assert (cov.scope_tasks, cov.covered_tasks, cov.valid_tasks, cov.complete_tasks) == (3, 2, 2, 1)
    assert (cov.valid_runs, cov.expected_runs, cov.incomplete_runs) == (3, 4, 1)
    assert cov.incomplete_causes == {"crash": 1}
    assert cov.complete is False
    assert cov.not_covered == ["office/b: no adapter"]
    assert r.task_score is not None
    assert r.task_score.value == 1.0  # incomplete runs are excluded, never scored as 0
    assert (r.reliability_tasks, r.reliability_excluded) == (1, 1)


def test_not_covered_is_not_zero(office: Report) -> None:
    r = _combo(_scope(office, "b"), "r")
    assert r.status == "not-covered"
    assert r.task_score is None
    assert r.note == "office/b: no adapter"
    rows = [t for t in office.tasks if t.combination == "r" and t.task == "t3"]
    assert [(t.status, t.score) for t in rows] == [("not-covered", None)]


def test_clear_difference_gets_a_rank_noise_does_not(office: Report) -> None:
    scope = _scope(office)
    diff = next(d for d in scope.differences if (d.a, d.b) == ("p", "q"))
    assert diff.value == pytest.approx(0.625 - 1.0)
    assert diff.significant
    assert diff.judged
    assert diff.high < 0
    ranks = {c.combination: (c.rank, c.rank_worst) for c in scope.combinations}
    # r shares two tasks with each, too few to order it: it may stand anywhere.
    assert ranks == {"q": (1, 2), "p": (2, 3), "r": (1, 3)}


def test_too_few_common_tasks_never_order_combinations() -> None:
    stats = {"bootstrap_samples": 400, "seed": 7, "min_tasks_to_resample": 3}
    loaded = version(release(statistics=stats), catalog(OFFICE), {"p": P_RUNS, "q": Q_RUNS})
    scope = _scope(build_report(loaded, "office"))  # 3 tasks < min_tasks_to_order (5)
    diff = scope.differences[0]
    assert diff.high < 0  # the interval excludes 0 ...
    assert not diff.significant  # ... but three tasks cannot order two combinations
    assert not diff.judged  # too few common tasks to say either way
    assert {(c.rank, c.rank_worst) for c in scope.combinations} == {(1, 2)}
    assert scope.unordered == "over 3 task(s), fewer than the 5 an order needs"


def test_reliability_interval_includes_run_noise() -> None:
    loaded = version(
        release(),
        catalog([task("t1")]),
        {"p": [run("t1", 1), run("t1", 2, passed=0, failure="wrong")]},
    )
    c = _combo(_scope(build_report(loaded, "office")), "p")
    rel1 = c.reliability[0]
    assert rel1.value == 0.5
    assert rel1.low is not None
    assert rel1.high is not None
    assert rel1.low < 0.5 < rel1.high  # one task, but its runs are noisy


def test_one_run_per_task_gives_reliability_at_1() -> None:
    """With n = 1 every task's redraw is certain (0 or 1 successes): no bank is needed."""
    runs = [run("t1", 1), run("t2", 1, passed=0, failure="wrong"), run("t3", 1)]
    tasks = [task("t1"), task("t2"), task("t3")]
    loaded = version(release(runs_per_task=1, k=(1,)), catalog(tasks), {"p": runs})
    c = _combo(_scope(build_report(loaded, "office")), "p")
    (rel1,) = c.reliability
    assert rel1.value == pytest.approx(2 / 3)
    assert rel1.low is not None
    assert rel1.high is not None
    assert rel1.low <= 2 / 3 <= rel1.high


def test_version_without_runs_reports_no_valid_runs() -> None:
    report = build_report(version(release(), catalog([task("t1")]), {"p": []}), "office")
    assert _combo(_scope(report), "p").status == "no-valid-runs"


def test_covered_task_without_valid_runs_counts_as_excluded_from_reliability() -> None:
    runs = [run("t1", 1), run("t1", 2), run("t2", 1, valid=False), run("t2", 2, valid=False)]
    c = _combo(
        _scope(
            build_report(
                version(release(), catalog([task("t1"), task("t2")]), {"p": runs}), "office"
            )
        ),
        "p",
    )
    assert (c.reliability_tasks, c.reliability_excluded) == (1, 1)


def test_fatal_error_rate_is_not_applicable_without_fatal_items() -> None:
    erp = [task("e1", "erp", "x"), task("e2", "erp", "y")]
    runs = [run(t, i) for t in ("e1", "e2") for i in (1, 2)]
    c = _combo(_scope(build_report(version(release(), catalog(erp), {"p": runs}), "erp")), "p")
    assert c.business is not None
    assert c.business.fatal_error_rate is None  # not 0: no task can trigger one
    assert c.business.boundary_correctness is None


def test_business_views_by_hand() -> None:
    erp = [
        task("e1", "erp", "x", risk="high", chain="chain"),
        task("e2", "erp", "x", boundary=True),
        task("e3", "erp", "y", fatal=1),
    ]
    runs = [
        run("e1", 1),
        run("e1", 2, passed=1, failure="wrong"),
        run("e2", 1),
        run("e2", 2),
        run("e3", 1, fatal=(False,), failure="wrong"),
        run("e3", 2, fatal=(True,)),
    ]
    report = build_report(version(release(), catalog(erp), {"p": runs}), "erp")
    p = _combo(_scope(report), "p")
    assert p.business is not None
    b = p.business
    assert b.risk_weighted_score is not None
    assert b.risk_weighted_score.value == pytest.approx((3 * 0.75 + 1 * 1 + 1 * 0.5) / 5)
    assert b.key_process_success is not None
    assert (b.key_process_success.successes, b.key_process_success.trials) == (1, 2)
    assert b.fatal_error_rate is not None
    assert (b.fatal_error_rate.successes, b.fatal_error_rate.trials) == (1, 2)  # runs of e3
    assert b.boundary_correctness is not None
    assert b.boundary_correctness.value == 1.0
    assert set(b.key_process_chains) == {"chain"}
    office_only = build_report(version(release(), catalog(OFFICE), {"p": P_RUNS}), "office")
    assert _combo(_scope(office_only), "p").business is None  # office declares no views


def _held_out_erp(extra: list[dict[str, object]]) -> list[dict[str, object]]:
    return [
        task("pub", "erp", "x"),
        *[task(f"h{i}", "erp", "x", group="held-out") for i in range(5)],
        *extra,
    ]


def test_small_held_out_subsets_are_withheld_inside_a_group() -> None:
    tasks = _held_out_erp(
        [task("hb", "erp", "y", group="held-out", boundary=True, risk="high", judge=(4,))]
    )
    runs = [
        run(str(t["id"]), i, judge=(4,) if t["id"] == "hb" else ()) for t in tasks for i in (1, 2)
    ]
    report = build_report(version(release(), catalog(tasks), {"p": runs}), "erp")
    held = _combo(_scope(report, group="held-out"), "p")
    assert held.status == "scored"
    assert held.judge_score is None  # one held-out Judge task would be exposed
    assert held.judge_coverage is not None
    assert held.judge_coverage.startswith("withheld")
    assert held.business is not None
    assert held.business.boundary_correctness is None
    assert held.business.risk_weighted_score is None  # one high-risk held-out task


def test_combination_missing_held_out_runs_is_withheld_for_the_group() -> None:
    tasks = _held_out_erp([])
    complete = [run(str(t["id"]), i) for t in tasks for i in (1, 2)]
    partial = [r for r in complete if not (r.task == "h0" and r.run == 2)]
    report = build_report(version(release(), catalog(tasks), {"p": complete, "x": partial}), "erp")
    scope = _scope(report, group="held-out")
    x = _combo(scope, "x")
    assert x.status == "withheld"
    assert x.task_score is None
    assert x.note is not None
    assert "4 of 5 held-out tasks" in x.note
    assert _combo(scope, "p").status == "scored"
    assert scope.differences == []  # x is withheld: p is left with no pair
    assert _combo(_scope(report, group="all"), "x").status == "withheld"
    assert _combo(_scope(report, group="public"), "x").status == "scored"


def test_held_out_tasks_never_get_a_row() -> None:
    tasks = [task("pub"), *[task(f"h{i}", group="held-out") for i in range(6)]]
    runs = [run(t["id"], i) for t in tasks for i in (1, 2)]
    report = build_report(version(release(), catalog(tasks), {"p": runs}), "office")
    assert {t.task for t in report.tasks} == {"pub"}
    assert "h0" not in report.model_dump_json()
    assert _scope(report, group="held-out").withheld is None  # 6 >= 5: shown as a group
    assert report.contamination[0].gap.value == 0.0


def test_consent_missing_means_not_in_the_report() -> None:
    loaded = version(
        release(), catalog(OFFICE), {"p": P_RUNS, "q": Q_RUNS}, {"q": bundle("q", consent=False)}
    )
    report = build_report(loaded, "office")
    assert [c.id for c in report.combinations] == ["p"]
    assert '"q"' not in report.model_dump_json()


outcomes = st.lists(st.tuples(st.integers(0, 2), st.booleans()), min_size=4, max_size=4)


@settings(max_examples=examples(40), deadline=None)
@given(st.lists(outcomes, min_size=1, max_size=5))
def test_invariants_hold_for_any_runs(per_task: list[list[tuple[int, bool]]]) -> None:
    tasks = [task(f"t{i}") for i in range(len(per_task))]
    runs = [
        run(f"t{i}", j, passed=p, delivery=d, failure=None if p == 2 and d else "wrong")
        for i, outs in enumerate(per_task)
        for j, (p, d) in enumerate(outs, 1)
    ]
    rel = release(runs_per_task=4, k=(1, 2, 3, 4))
    c = _combo(_scope(build_report(version(rel, catalog(tasks), {"p": runs}), "office")), "p")
    means = [sum((p / 2 if d else 0) for p, d in outs) / 4 for outs in per_task]
    assert c.task_score is not None
    assert c.task_score.value is not None
    assert min(means) - 1e-12 <= c.task_score.value <= max(means) + 1e-12
    values = [r.value for r in c.reliability]
    assert len(values) == 4  # k = 1, 2, 3, 4
    assert all(v is not None for v in values)
    pairs = list(itertools.pairwise(values))
    assert len(pairs) == 3
    assert all(a >= b - 1e-12 for a, b in pairs)  # type: ignore[operator]
    assert c.task_score.low is not None
    assert c.task_score.high is not None
    assert c.task_score.low - 1e-12 <= c.task_score.value <= c.task_score.high + 1e-12


def test_zeroed_runs_count_in_the_judge_channel_and_coverage_agrees() -> None:
    """A run zeroed by D without a Judge result is a valid run: J = 0 (§4.3(2)), so the Judge
    score averages the same runs as the rule channel: (0 + 0.5 + 1) / 3 = 0.5, not 0.75."""
    runs = [run("t", 1, delivery=False), run("t", 2, judge=(2,)), run("t", 3, judge=(4,))]
    loaded = version(release(runs_per_task=3), catalog([task("t", judge=(4,))]), {"p": runs})
    c = _combo(_scope(build_report(loaded, "office")), "p")
    assert c.judge_score is not None
    assert c.judge_score.value == pytest.approx(0.5)
    assert c.judge_score.tasks == 1
    assert c.judge_coverage == "1 of 1 tasks"
