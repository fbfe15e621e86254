"""The task-clustered intervals against a literal recomputation from the run records.

The reference below reads the run records one by one, scores them with the per-record
formulas (the oracle ``tests/outcome_oracle.py``), draws each scope's tasks with the
documented seeding and computes every replicate by walking the drawn tasks: no table,
figure or matrix of the engine is used. The engine must give the same intervals.
"""

from __future__ import annotations

from collections import defaultdict
from math import comb, sqrt

import numpy as np
import pytest
from builders import bundle, catalog, release, run, task, version
from outcome_oracle import run_outcome

from generator.models import Release, RunRecord
from generator.score.intervals import (
    bounded_wilson,
    clustered_intervals,
    difference,
    figure,
    intervals,
    newcombe,
    run_noise_interval,
    skew_corrected,
    skew_moments,
)
from generator.score.report import build_report
from generator.score.results import CombinationScores, Report, ScopeResult
from generator.score.stats import t_value, wilson, z_value

TASKS = [
    task("e1", "erp", "x", risk="high", judge=(4,), weight=0.4),
    task("e2", "erp", "x", judge=(4, 2)),
    task("e3", "erp", "x", fatal=1, chain="chain"),
    task("e4", "erp", "y", risk="high", chain="chain"),
    task("e5", "erp", "y", judge=(4,)),
    task("e6", "erp", "y", boundary=True),
    *[task(f"h{i}", "erp", "x" if i < 3 else "y", group="held-out") for i in range(6)],
]


def _runs(shift: int) -> list[RunRecord]:
    """Three runs per task with varied outcomes; in dual tasks some zeroed runs (D fails)
    have no Judge result."""
    out = []
    for n, t in enumerate(TASKS):
        scoring = t["scoring"]
        maxima = [j["max_level"] for j in scoring.get("judge_items", [])]
        fatal = sum(1 for i in scoring["rule_items"] if i.get("fatal"))
        for i in (1, 2, 3):
            level = (n + i + shift) % 5
            if maxima and (n + i + shift) % 4 == 0:
                out.append(run(str(t["id"]), i, delivery=False, failure="wrong"))
                continue
            passed = (n * i + shift) % 3
            out.append(
                run(
                    str(t["id"]),
                    i,
                    passed=passed,
                    judge=tuple(min(level, g) for g in maxima),
                    fatal=(level != 0,) * fatal,
                    failure=None if passed == 2 and level != 0 else "wrong",
                )
            )
    return out


RUNS = {"p": _runs(0), "q": _runs(1), "r": _runs(2)}
BUNDLES = {"q": bundle("q", not_covered=[{"domain": "erp", "subdivision": "y", "reason": "-"}])}


@pytest.fixture(scope="module")
def rel() -> Release:
    return release(runs_per_task=3, k=(1, 2, 3), statistics={"bootstrap_samples": 500, "seed": 3})


@pytest.fixture(scope="module")
def report(rel: Release) -> Report:
    return build_report(version(rel, catalog(TASKS), RUNS, BUNDLES), "erp")


# --- the literal reference ------------------------------------------------------------------


def _per_task(rel: Release) -> dict[tuple[str, str], list[tuple[float, float, float | None, bool]]]:
    """(S, R, J, success) of every valid run, per (combination, task)."""
    from generator.models import Catalog

    cat = Catalog.model_validate(catalog(TASKS).model_dump())
    by_id = {t.id: t for t in cat.tasks}
    out: dict[tuple[str, str], list[tuple[float, float, float | None, bool]]] = defaultdict(list)
    for combo, records in RUNS.items():
        for r in records:
            if r.status == "valid":
                o = run_outcome(by_id[r.task], r)
                out[(combo, r.task)].append((o.score, o.rule, o.judge, o.success))
    return out


def _tasks_of(scope: ScopeResult) -> list[str]:
    ids = sorted(str(t["id"]) for t in TASKS)
    group, sub = scope.scope.group, scope.scope.subdivision
    return [
        t
        for t in ids
        if (group == "all" or next(x for x in TASKS if x["id"] == t)["group"] == group)
        and (sub is None or next(x for x in TASKS if x["id"] == t)["subdivision"] == sub)
    ]


def _covered(combo: str, tid: str) -> bool:
    return not (combo == "q" and next(x for x in TASKS if x["id"] == tid)["subdivision"] == "y")


def _mean(values: list[float]) -> float:
    return float(np.mean(values)) if values else float("nan")


def _variance(num: list[float], den: list[float]) -> float:
    """The variance of sum(num) / sum(den) over resampled tasks, by its definition: the
    tasks' spread about the figure, T / (T − 1) · Σ (num_t − m·den_t)² / (Σ den_t)²."""
    tasks, total = len(num), sum(den)
    if tasks < 2:
        return float("nan")  # no figure over one task is resampled
    m = sum(num) / total
    spread = sum((x - m * d) ** 2 for x, d in zip(num, den, strict=True))
    return spread / total**2 * tasks / (tasks - 1)


def _literal(rel: Release, scope: ScopeResult, combo: str) -> dict[str, float]:
    """Each figure's variance over resampled tasks, from a literal walk over the scope's
    tasks and their run records."""
    n = rel.runs_per_task
    runs = _per_task(rel)
    tasks = [t for t in _tasks_of(scope) if _covered(combo, t) and runs[(combo, t)]]
    weight = {str(t["id"]): 3.0 if t["risk_level"] == "high" else 1.0 for t in TASKS}
    means = {t: float(np.mean([s for s, *_ in runs[(combo, t)]])) for t in tasks}
    judged = [t for t in tasks if runs[(combo, t)][0][2] is not None]
    out = {
        "score": _variance([means[t] for t in tasks], [1.0] * len(tasks)),
        "judge": _variance(
            [_mean([j for *_, j, _ in runs[(combo, t)]]) for t in judged], [1.0] * len(judged)
        ),
        "success": _variance(
            [float(sum(ok for *_, ok in runs[(combo, t)])) for t in tasks],
            [float(len(runs[(combo, t)])) for t in tasks],
        ),
        "risk": _variance([weight[t] * means[t] for t in tasks], [weight[t] for t in tasks]),
    }
    full = [t for t in tasks if len(runs[(combo, t)]) == n]
    for k in rel.reliability_k:
        per = [comb(sum(ok for *_, ok in runs[(combo, t)]), k) / comb(n, k) for t in full]
        out[f"reliability@{k}"] = _variance(per, [1.0] * len(full))
    return out


def _clustered(value: float, var: float, tasks: int, runs: float | None) -> tuple[float, float]:
    """Wilson's interval at n = p(1 − p) / var × (z / t)², t on T − 1 degrees of freedom;
    for binary run outcomes (``runs``, their binomial count, given) n is at most ``runs``,
    and n = ``runs`` when no task differs."""
    z = z_value(0.95)
    n = value * (1 - value) / var * (z / t_value(0.95, tasks - 1)) ** 2 if var > 0 else runs
    assert n is not None
    if runs is not None:
        n = min(n, runs)
    centre = (value + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(value * (1 - value) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def _shown(c: CombinationScores) -> dict[str, tuple[float | None, float | None, float, int]]:
    """(low, high, value, tasks) of each figure over at least 5 tasks (the others show run
    noise)."""
    assert c.task_score
    assert c.judge_score
    assert c.success_rate
    assert c.business
    risk = c.business.risk_weighted_score
    assert risk is not None
    figures = {
        "score": (c.task_score, c.task_score.tasks),
        "judge": (c.judge_score, c.judge_score.tasks),
        "success": (c.success_rate, c.success_rate.tasks),
        "risk": (risk, risk.tasks),
        **{f"reliability@{r.k}": (r, c.reliability_tasks) for r in c.reliability},
    }
    out = {}
    for name, (e, tasks) in figures.items():
        assert e.interval == ("tasks" if tasks >= 5 else "runs"), (c.combination, name)
        if tasks >= 5:
            assert e.value is not None
            out[name] = (e.low, e.high, e.value, tasks)
    return out


def _scored(report: Report) -> list[tuple[ScopeResult, CombinationScores]]:
    return [
        (s, c)
        for s in report.scopes
        for c in s.combinations
        if c.status == "scored" and s.tasks >= 5
    ]


def test_engine_equals_a_literal_walk_over_the_run_records(rel: Release, report: Report) -> None:
    checked = 0
    for scope, c in _scored(report):
        literal = _literal(rel, scope, c.combination)
        for name, (low, high, value, tasks) in _shown(c).items():
            runs: float | None = None  # only binary outcomes have a binomial count
            if name.startswith("reliability@"):
                runs = tasks * rel.runs_per_task / int(name.split("@")[1])
            elif name == "success":
                assert c.success_rate is not None
                runs = c.success_rate.trials
            want = _clustered(value, literal[name], tasks, runs)
            assert (low, high) == pytest.approx(want, rel=1e-9, abs=1e-12), (scope.title, name)
            checked += 1
    assert checked >= 30


def test_paired_differences_resample_the_common_tasks(rel: Release, report: Report) -> None:
    runs, stats = _per_task(rel), rel.statistics
    checked = 0
    for scope in report.scopes:
        for d in scope.differences:
            if d.tasks < stats.min_tasks_to_resample:
                continue
            common = [
                t
                for t in _tasks_of(scope)
                if _covered(d.a, t) and _covered(d.b, t) and runs[(d.a, t)] and runs[(d.b, t)]
            ]
            assert len(common) == d.tasks
            gaps = [
                float(np.mean([r[0] for r in runs[(d.a, t)]]))
                - float(np.mean([r[0] for r in runs[(d.b, t)]]))
                for t in common
            ]
            half = t_value(0.95, d.tasks - 1) * sqrt(_variance(gaps, [1.0] * len(gaps)))
            want = (d.value - half, d.value + half)
            assert (d.low, d.high) == pytest.approx(want, rel=1e-9, abs=1e-12)
            assert d.interval == "tasks"
            checked += 1
    assert checked


def test_a_scope_of_few_tasks_shows_run_noise_only(rel: Release, report: Report) -> None:
    """Three public tasks in dimension x: Wilson's interval at the Task Score with the
    effective runs T² / Σ 1/n_t, and the pooled runs' Wilson interval for success."""
    runs = _per_task(rel)
    scope = next(
        s for s in report.scopes if s.scope.subdivision == "x" and s.scope.group == "public"
    )
    assert scope.tasks == 3
    c = next(c for c in scope.combinations if c.combination == "p")
    assert c.task_score is not None
    assert c.success_rate is not None
    tasks = ["e1", "e2", "e3"]
    value = np.mean([np.mean([r[0] for r in runs[("p", t)]]) for t in tasks])
    effective = len(tasks) ** 2 / sum(1 / len(runs[("p", t)]) for t in tasks)
    z = z_value(0.95)
    centre = (value + z * z / (2 * effective)) / (1 + z * z / effective)
    half = (
        z
        * sqrt(value * (1 - value) / effective + z * z / (4 * effective**2))
        / (1 + z * z / effective)
    )
    assert c.task_score.interval == "runs"
    assert (c.task_score.low, c.task_score.high) == pytest.approx((centre - half, centre + half))
    wins = sum(ok for t in tasks for *_, ok in runs[("p", t)])
    trials = sum(len(runs[("p", t)]) for t in tasks)
    assert (c.success_rate.low, c.success_rate.high) == pytest.approx(wilson(wins, trials, 0.95))
    assert c.success_rate.interval == "runs"


def test_agreeing_runs_of_one_task_are_not_a_certainty() -> None:
    loaded = version(
        release(runs_per_task=3, k=(1, 3)),
        catalog([task("t")]),
        {"p": [run("t", i) for i in (1, 2, 3)]},
    )
    scope = next(s for s in build_report(loaded, "office").scopes if s.scope.group == "all")
    c = scope.combinations[0]
    assert c.task_score is not None
    assert c.task_score.value == 1.0
    assert c.task_score.high == 1.0
    assert c.task_score.low is not None
    assert c.task_score.low < 0.6
    assert [r.k for r in c.reliability] == [1, 3]
    assert all(r.low is not None and r.low < 1.0 and r.interval == "runs" for r in c.reliability)


def test_reliability_interval_holds_its_estimate() -> None:
    """Two of three runs succeed in most tasks: C(2, 3) = 0, so reliability@3 counts only
    the tasks with three successes. Redrawing runs with replacement would credit the others
    ((2/3)³ ≈ 0.30 each) and push the interval above the estimate."""
    successes = [2] * 50 + [3] * 10
    tasks = [task(f"t{i}") for i in range(len(successes))]
    runs = [
        run(f"t{i}", r, passed=None if r <= c else 0, failure=None if r <= c else "wrong")
        for i, c in enumerate(successes)
        for r in (1, 2, 3)
    ]
    loaded = version(release(runs_per_task=3, k=(1, 2, 3)), catalog(tasks), {"p": runs})
    scope = next(s for s in build_report(loaded, "office").scopes if s.scope.group == "all")
    rel3 = next(r for r in scope.combinations[0].reliability if r.k == 3)
    assert rel3.value == pytest.approx(1 / 6)
    assert rel3.low is not None
    assert rel3.high is not None
    assert rel3.low <= 1 / 6 <= rel3.high
    assert rel3.interval == "tasks"


def test_small_differences_use_newcombe_from_both_sides() -> None:
    a, b = 0.8, 0.5
    ia, ib = bounded_wilson(a, 6, 0.95), bounded_wilson(b, 6, 0.95)
    low, high = newcombe(a, ia, b, ib)
    assert low == pytest.approx(a - b - sqrt((a - ia[0]) ** 2 + (ib[1] - b) ** 2))
    assert high == pytest.approx(a - b + sqrt((ia[1] - a) ** 2 + (b - ib[0]) ** 2))
    assert low < a - b < high


def test_a_difference_of_scores_in_0_1_stays_within_plus_minus_1() -> None:
    """Five tasks whose a − b swing from −1 to 1: value ± t·se reaches past ±1, where no
    difference of two [0, 1] figures can lie; the interval is cut there, and a difference
    of measures (not bounded) is not."""
    gaps = np.array([1.0, -1.0, 1.0, 1.0, -1.0])
    mask = np.ones(5, dtype=bool)
    a = figure(np.clip(gaps, 0, 1), mask, np.full(5, 3))
    b = figure(np.clip(-gaps, 0, 1), mask, np.full(5, 3))
    d = difference(a, b)
    ((raw_low, raw_high),) = clustered_intervals([d], np.array([d.value]), 0.95)
    assert raw_low < -1  # what the closed form gives
    assert raw_high > 1
    (found,) = intervals([d], [d.value], 0.95, 5)
    assert (found.low, found.high) == (-1.0, 1.0)
    costs = figure(gaps * 1000, mask, np.full(5, 3), spread=np.ones(5))
    zero = figure(np.zeros(5), mask, np.full(5, 3), spread=np.ones(5))
    (measured,) = intervals([difference(costs, zero)], [200.0], 0.95, 5)
    assert measured.low < -1000 or measured.high > 1000


def test_the_gap_resamples_the_two_groups_separately(rel: Release, report: Report) -> None:
    gaps = {c.combination: c for c in report.contamination}
    assert set(gaps) == {"p", "r"}  # q, without dimension y, is withheld from the held-out group
    sides = [
        next(s for s in report.scopes if s.scope.subdivision is None and s.scope.group == g)
        for g in ("public", "held-out")
    ]
    for combo, c in gaps.items():
        scores = [next(x for x in s.combinations if x.combination == combo) for s in sides]
        assert c.public == scores[0].task_score
        assert c.held_out == scores[1].task_score
        var = sum(_literal(rel, s, combo)["score"] for s in sides)
        counts = [scores[0].task_score.tasks, scores[1].task_score.tasks]  # type: ignore[union-attr]
        half = t_value(0.95, min(counts) - 1) * sqrt(var)
        want = (c.gap.value - half, c.gap.value + half)  # type: ignore[operator]
        assert (c.gap.low, c.gap.high) == pytest.approx(want, rel=1e-9, abs=1e-12)
        assert c.gap.value == pytest.approx(c.public.value - c.held_out.value)  # type: ignore[operator]


def test_tasks_that_do_not_vary_leave_no_point_interval() -> None:
    """Five tasks each at 2/3 (runs 1, 1, 0): the task variance is rounding residue, not
    certainty; the interval falls back to the runs' noise."""
    tasks = [task(f"t{i}") for i in range(5)]
    runs = [
        run(f"t{i}", r, passed=None if r < 3 else 0, failure=None if r < 3 else "wrong")
        for i in range(5)
        for r in (1, 2, 3)
    ]
    loaded = version(release(runs_per_task=3, k=(1,)), catalog(tasks), {"p": runs})
    scope = next(s for s in build_report(loaded, "office").scopes if s.scope.group == "all")
    score = scope.combinations[0].task_score
    assert score is not None
    assert score.value == pytest.approx(2 / 3)
    assert score.low is not None
    assert score.high is not None
    assert score.low < score.value < score.high
    assert score.interval == "tasks"


def test_run_noise_alone_never_orders_two_combinations() -> None:
    stats = {"bootstrap_samples": 400, "seed": 7, "min_tasks_to_order": 2}
    tasks = [task(f"t{i}") for i in range(3)]  # fewer than min_tasks_to_resample (5)
    good = [run(f"t{i}", r) for i in range(3) for r in (1, 2)]
    bad = [run(f"t{i}", r, passed=0, failure="wrong") for i in range(3) for r in (1, 2)]
    loaded = version(release(statistics=stats), catalog(tasks), {"p": good, "q": bad})
    scope = next(s for s in build_report(loaded, "office").scopes if s.scope.group == "all")
    (d,) = scope.differences
    assert d.interval == "runs"
    assert d.low > 0  # the runs alone would separate them ...
    assert not d.significant  # ... but they are not a sample of tasks
    assert {(c.rank, c.rank_worst) for c in scope.combinations} == {(1, 2)}


def test_a_symmetric_measure_takes_the_t_interval_of_its_tasks() -> None:
    """A mean of unbounded values (costs) whose task values are symmetric about it (no
    skew) is exactly the textbook value ± t·se of the task means, never clipped to [0, 1]."""
    rng = np.random.default_rng(3)
    half = rng.normal(0.0, 8_000.0, 15)
    means = 40_000.0 + np.concatenate([half, -half])
    f = figure(means, np.ones(30, dtype=bool), np.full(30, 2), spread=np.full(30, 1e6))
    (found,) = intervals([f], [f.value], 0.95, 5)
    se = means.std(ddof=1) / np.sqrt(30)
    t = t_value(0.95, 29)
    assert found.basis == "tasks"
    assert found.low == pytest.approx(means.mean() - t * se, rel=1e-12)
    assert found.high == pytest.approx(means.mean() + t * se, rel=1e-12)
    assert found.low > 1.0


@pytest.mark.parametrize("seed", range(6))
def test_a_measure_s_ends_are_hall_s_transformation_of_student_s_quantiles(seed: int) -> None:
    """Hall (1992): g(t) = t + a·t² + a²·t³/3 + a/2, a = κ₃ / (3·v^{3/2}); the ends m − e·se
    solve g(e) = ±q, with the sample's own variance and third cumulant (k-statistics,
    weighted by the tasks' shares), whatever the sign of the skew."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 30))
    values = rng.lognormal(0.0, 1.0, n) * (1 if seed % 2 else -1)
    weights = rng.uniform(0.5, 2.0, n)
    f = figure(values, np.ones(n, dtype=bool), np.full(n, 2), weights, np.full(n, 1.0))
    c = weights / weights.sum()
    m = float(np.sum(c * values))
    v = n / (n - 1) * float(np.sum(c * c * (values - m) ** 2))
    k3 = n * n / ((n - 1) * (n - 2)) * float(np.sum(c**3 * (values - m) ** 3))
    assert skew_moments(f, m) == pytest.approx((v, k3, n))
    a = k3 / v**1.5 / 3
    q = t_value(0.95, n - 1)
    low, high = skew_corrected(f, m, 0.95)
    for end, target in ((low, q), (high, -q)):
        e = (m - end) / sqrt(v)
        assert e + a * e * e + a * a * e**3 / 3 + a / 2 == pytest.approx(target, rel=1e-9)
    assert low < m < high


@pytest.mark.parametrize(
    ("spread", "runs"), [((4e6, 9e6), (2, 2)), ((4e6, 9e6, 1e6), (3, 3, 3)), ((1e6, 1e6), (4, 4))]
)
def test_a_measure_over_few_tasks_takes_the_noise_of_its_runs(
    spread: tuple[float, ...], runs: tuple[int, ...]
) -> None:
    """Few tasks: each task's run variance over its runs, Welch–Satterthwaite's degrees of
    freedom (rounded down below three, where the t quantile is of whole degrees)."""
    k = len(spread)
    means = np.linspace(30_000.0, 50_000.0, k)
    f = figure(means, np.ones(k, dtype=bool), np.array(runs), spread=np.array(spread))
    (found,) = intervals([f], [f.value], 0.95, 5)
    parts = [s / k**2 / n for s, n in zip(spread, runs, strict=True)]
    se2 = sum(parts)
    df = se2**2 / sum(p * p / (n - 1) for p, n in zip(parts, runs, strict=True))
    half = t_value(0.95, df if df >= 3 else max(1, int(df))) * np.sqrt(se2)
    mean = float(means.mean())
    assert found.basis == "runs"
    assert (found.low, found.high) == pytest.approx((mean - half, mean + half))


def test_a_measure_with_one_run_per_task_has_no_interval() -> None:
    f = figure(
        np.array([1.0, 2.0]), np.ones(2, dtype=bool), np.array([1, 1]), spread=np.full(2, np.nan)
    )
    (found,) = intervals([f], [f.value], 0.95, 5)
    assert np.isnan(found.low)
    assert np.isnan(found.high)


def test_a_measure_whose_tasks_do_not_vary_takes_its_run_noise() -> None:
    """Equal task means (exactly, or but for rounding residue): no task spread to correct
    for skew; the interval is the run noise of the tasks' runs, never a point or none."""
    ones = np.ones(5, dtype=bool)
    for means in (np.full(5, 3.0), np.array([0.1, 0.1, 0.1, 0.1, 0.1 * (1 + 2**-52)])):
        f = figure(means, ones, np.full(5, 2), spread=np.full(5, 2.0))
        (found,) = intervals([f], [f.value], 0.95, 5)
        noise = run_noise_interval(f, f.value, 0.95)
        assert (found.low, found.high) == pytest.approx(noise)
        assert found.high - found.low > 1.0


def test_the_skew_correction_is_precise_for_a_small_skew() -> None:
    """A nearly symmetric sample: the ends are those of value ± t·se to the last digits
    (the inverse of Hall's transformation written without cancellation)."""
    rng = np.random.default_rng(9)
    half = rng.normal(0.0, 1.0, 10)
    values = 5.0 + np.concatenate([half, -half, [1e-7]])
    f = figure(values, np.ones(21, dtype=bool), np.full(21, 2), spread=np.ones(21))
    low, high = skew_corrected(f, f.value, 0.95)
    se = values.std(ddof=1) / np.sqrt(21)
    t = t_value(0.95, 20)
    assert (low, high) == pytest.approx((f.value - t * se, f.value + t * se), rel=1e-9)


def test_a_skewed_cost_s_interval_follows_its_skew() -> None:
    """Log-normal task costs: the skew-corrected interval reaches further above the mean
    than below it, where value ± t·se would be symmetric, and it still holds the mean."""
    rng = np.random.default_rng(5)
    costs = rng.lognormal(np.log(30_000.0), 0.9, 12)
    f = figure(costs, np.ones(12, dtype=bool), np.full(12, 2), spread=np.full(12, 1e6))
    (found,) = intervals([f], [f.value], 0.95, 5)
    assert found.basis == "tasks"
    assert found.low < f.value < found.high
    assert found.high - f.value > 1.2 * (f.value - found.low)
