"""The vectorised bootstrap against slow, literal two-stage bootstraps (§4.2).

Same draws: a reference walks each replicate's drawn tasks one by one and gives every draw
the next unused resampled mean of that task; the engine must get the same replicates.
Same method: an independent literal bootstrap (tasks, then runs within tasks, with its own
random numbers) must give the same intervals up to Monte Carlo noise.
"""

from __future__ import annotations

import numpy as np
import pytest
from builders import bundle, catalog, release, run, task, version

from generator.models import RunRecord
from generator.score.aggregate import (
    Plan,
    ScopeReplicates,
    ScopeView,
    TaskTable,
    _bank_order,
    _banks,
    _exact_counts,
    _layout,
    _success_counts,
    _success_totals,
    _successes,
    bootstrap,
    plan_combination,
    scope_view,
    task_table,
)
from generator.score.frame import VersionFrame
from generator.score.report import build_report, published_frame
from generator.score.runs import score_runs
from generator.score.scope import Scope
from generator.score.stats import (
    binomial_bank,
    multiplicities,
    percentile_interval,
    reliability_at,
    seed_for,
    task_draws,
)

TASKS = [
    task("e1", "erp", "x", risk="high", judge=(4,), weight=0.4),
    task("e2", "erp", "x", judge=(4, 2)),
    task("e3", "erp", "x", fatal=1),
    task("e4", "erp", "y", risk="high"),
    task("e5", "erp", "y", judge=(4,)),
    task("e6", "erp", "y", boundary=True),
    *[task(f"h{i}", "erp", "x" if i < 3 else "y", group="held-out") for i in range(6)],
]


def _runs(shift: int) -> list[RunRecord]:
    """Three runs per task with varied outcomes; in dual tasks some zeroed runs (D fails)
    have no Judge result, and some come first."""
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


@pytest.fixture(scope="module")
def frame() -> VersionFrame:
    rel = release(runs_per_task=3, k=(1, 2, 3), statistics={"bootstrap_samples": 300, "seed": 3})
    bundles = {"q": bundle("q", not_covered=[{"domain": "erp", "subdivision": "y", "reason": "-"}])}
    return published_frame(
        version(rel, catalog(TASKS), {"p": _runs(0), "q": _runs(1), "r": _runs(2)}, bundles)
    )


def _engine(
    frame: VersionFrame,
) -> tuple[TaskTable, list[ScopeView], list[dict[int, Plan]], list[ScopeReplicates]]:
    rel = frame.release
    table = task_table(frame.tasks, score_runs(frame), sorted(frame.bundles), _domain(frame))
    views = [
        scope_view(table, Scope(version=frame.version, domain="erp", subdivision=s, group=g))
        for s in (None, "x", "y")
        for g in ("all", "public", "held-out")
    ]
    plans = [
        {
            k: plan_combination(v, table, k, frame.bundles[c], rel)
            for k, c in enumerate(table.combos)
        }
        for v in views
    ]
    return table, views, plans, bootstrap(table, views, plans, frame.bundles, rel)


def _domain(frame: VersionFrame) -> Scope:
    return Scope(version=frame.version, domain="erp")


def _reference(
    table: TaskTable, views: list[ScopeView], plans: list[dict[int, Plan]], frame: VersionFrame
) -> list[dict[tuple[object, ...], np.ndarray]]:
    """Replicates by walking the draws one by one, each taking the next bank entry."""
    stats = frame.release.statistics
    draws = [
        task_draws(len(v.rows), stats.bootstrap_samples, seed_for(stats.seed, v.seed_key))
        for v in views
    ]
    width = max(
        int(multiplicities(d, len(v.rows)).sum(axis=0).max())
        for d, v in zip(draws, views, strict=True)
    )
    order = _bank_order(table)
    position = np.argsort(order)
    domain_key = seed_for(table.domain.version, *table.tasks.index)
    out: list[dict[tuple[object, ...], np.ndarray]] = [{} for _ in views]
    weight = table.columns["risk_weight"].astype(float)
    for k, combo in enumerate(table.combos):
        banks = [np.empty((len(table.tasks), width)) for _ in range(3)]
        seed = seed_for(stats.seed, domain_key, combo)
        _banks(table, k, frame.bundles[combo], order, seed, banks)
        for i, view in enumerate(views):
            if plans[i][k].result is not None:
                continue
            data, judged = plans[i][k].data, plans[i][k].judged
            taken = dict.fromkeys(range(len(view.rows)), 0)
            values: dict[str, list[list[float]]] = {c: [] for c in ("score", "rule", "judge", "w")}
            slots: list[list[tuple[int, float]]] = []
            for row in draws[i]:
                drawn = []
                for t in row:
                    entry = taken[t]
                    taken[t] += 1
                    drawn.append((t, entry))
                slots.append([(t, banks[0][position[view.rows[t]], e]) for t, e in drawn])
                for name, bank, mask in (
                    ("score", 0, data),
                    ("rule", 1, data),
                    ("judge", 2, judged),
                ):
                    if mask is not None:
                        values[name].append(
                            [banks[bank][position[view.rows[t]], e] for t, e in drawn if mask[t]]
                        )
                values["w"].append([weight[view.rows[t]] for t, _ in drawn if data[t]])
            for name in ("score", "rule", "judge"):
                if values[name]:
                    out[i][(k, name)] = np.array(
                        [np.mean(v) if v else np.nan for v in values[name]]
                    )
            out[i][(k, "risk")] = np.array(
                [
                    np.dot(w, s) / np.sum(w) if w else np.nan
                    for w, s in zip(values["w"], values["score"], strict=True)
                ]
            )
            out[i][(k, "slots")] = np.array(slots, dtype=object)
            out[i].update(_reference_reliability(table, view, draws[i], k, plans[i][k], frame))
    for i in range(len(views)):
        scored = sorted(k for k, p in plans[i].items() if p.result is None)
        for a in scored:
            for b in scored:
                if a >= b:
                    continue
                both = plans[i][a].data & plans[i][b].data
                if not both.any():
                    continue
                sa, sb = out[i][(a, "slots")], out[i][(b, "slots")]
                out[i][(a, b)] = np.array(
                    [
                        np.mean([x[1] - y[1] for x, y in zip(ra, rb, strict=True) if both[x[0]]])
                        if any(both[x[0]] for x in ra)
                        else np.nan
                        for ra, rb in zip(sa, sb, strict=True)
                    ]
                )
    return out


def _reference_reliability(
    table: TaskTable, view: ScopeView, draws: np.ndarray, k: int, plan: Plan, frame: VersionFrame
) -> dict[tuple[object, ...], np.ndarray]:
    """reliability@k replicates of a combination whose scope tasks all have n runs: walk
    each replicate's draws; a task with c of n successes (0 < c < n) takes the next
    Binomial(n, c/n) draw of the bank of count c."""
    rel = frame.release
    n, stats = rel.runs_per_task, rel.statistics
    if not plan.full.all():
        return {}
    seed = seed_for(stats.seed, seed_for(table.domain.version, *table.tasks.index), "reliability")
    banks = {c: binomial_bank(n, c, draws.size, seed) for c in range(1, n)}
    successes = table.successes[k, view.rows]
    out = {}
    for rk in rel.reliability_k:
        taken = dict.fromkeys(range(n + 1), 0)
        values = []
        for row in draws:
            redrawn = []
            for t in row:
                c = int(successes[t])
                if 0 < c < n:
                    redrawn.append(banks[c][taken[c]])
                    taken[c] += 1
                else:
                    redrawn.append(c)
            values.append(reliability_at(np.array(redrawn), n, rk).mean())
        out[(k, f"reliability@{rk}")] = np.array(values)
    return out


def test_engine_equals_a_literal_walk_over_the_same_draws(frame: VersionFrame) -> None:
    table, views, plans, reps = _engine(frame)
    want = _reference(table, views, plans, frame)
    compared = 0
    for got, expected in zip(reps, want, strict=True):
        for key, series in got.series.items():
            if key not in expected:  # reliability of a combination with missing runs
                assert key[1].startswith("reliability")
                continue
            assert series == pytest.approx(expected[key], rel=1e-12, nan_ok=True), key
            compared += 1
        assert set(got.pairs) == {k for k in expected if isinstance(k[1], int)}
        for pair, series in got.pairs.items():
            assert series == pytest.approx(expected[pair], rel=1e-12, nan_ok=True), pair
            compared += 1
    assert compared > 50


def test_success_totals_are_the_counts_summed_over_replicates(frame: VersionFrame) -> None:
    """The totals that size the Binomial banks, formed without the per-replicate array,
    equal that array summed; q misses sub-division y, so some scopes redraw its counts."""
    table, views, plans, _ = _engine(frame)
    rel, n = frame.release, frame.release.runs_per_task
    samples = rel.statistics.bootstrap_samples
    redrawn = 0
    for view, plan in zip(views, plans, strict=True):
        scored = {k: p for k, p in plan.items() if p.result is None}
        counts = multiplicities(
            task_draws(len(view.rows), samples, seed_for(rel.statistics.seed, view.seed_key)),
            len(view.rows),
        )
        position = np.argsort(_bank_order(table))
        layout = _layout(view, counts, scored, position, 2 * samples, len(table.combos), True)
        found = _successes(table, view, scored, rel)
        per_count = _success_counts(found, layout, n)
        assert per_count.shape == (len(found.combos), n + 1, samples)
        # Each replicate draws every full task of a tallied combination once per draw.
        assert (per_count[: found.tallied].sum(axis=1) == len(view.rows)).all()
        assert np.array_equal(_success_totals(found, layout, n), per_count.sum(axis=2))
        redrawn += len(found.redrawn)
    assert redrawn > 0


def test_draw_counts_multiply_exactly() -> None:
    """Products of the draw counts with 0/1 columns are the integer products."""
    counts = multiplicities(task_draws(3000, 500, seed=5), 3000)
    exact = _exact_counts(counts)
    assert exact.dtype == np.float32
    columns = np.random.default_rng(1).random((3000, 7)) < 0.6
    want = counts @ columns.astype(np.int64)
    assert np.array_equal(exact @ columns.astype(exact.dtype), want)
    assert np.array_equal(exact.sum(axis=0, dtype=np.float64), counts.sum(axis=0))


def _literal_intervals(
    frame: VersionFrame, view: ScopeView, table: TaskTable, plan: Plan, k: int, samples: int
) -> dict[str, tuple[float, float]]:
    """An independent, literal two-stage bootstrap of one combination in one scope."""
    rng = np.random.default_rng(2024)
    runs = score_runs(frame)
    mine = runs[(runs["combination"] == table.combos[k]) & runs["valid"]]
    tasks = table.tasks.index[view.rows]
    per_task = {
        c: [mine.loc[mine["task"] == t, c].dropna().to_numpy() for t in tasks]
        for c in ("score", "judge")
    }
    successes = [int(mine.loc[mine["task"] == t, "success"].sum()) for t in tasks]
    n = frame.release.runs_per_task
    out: dict[str, list[float]] = {"score": [], "judge": [], "rel": []}
    full = [t for t in range(len(tasks)) if plan.full[t]]
    for _ in range(samples):
        drawn = rng.integers(0, len(tasks), size=len(tasks))
        for name, mask in (("score", plan.data), ("judge", plan.judged)):
            assert mask is not None
            means = [
                rng.choice(per_task[name][t], size=len(per_task[name][t])).mean()
                for t in drawn
                if mask[t]
            ]
            out[name].append(np.mean(means) if means else np.nan)
        redrawn = rng.binomial(n, np.array(successes)[rng.choice(full, size=len(full))] / n)
        out["rel"].append(np.mean(redrawn == n))  # reliability@n
    return {name: percentile_interval(np.array(v), 0.95) for name, v in out.items()}


def test_intervals_agree_with_an_independent_literal_bootstrap() -> None:
    """e4 misses a run: reliability@k draws from the other tasks only."""
    rel = release(runs_per_task=3, k=(3,), statistics={"bootstrap_samples": 4000, "seed": 1})
    runs = [r if (r.task, r.run) != ("e4", 3) else run("e4", 3, valid=False) for r in _runs(0)]
    frame = published_frame(version(rel, catalog(TASKS), {"p": runs}))
    table = task_table(frame.tasks, score_runs(frame), ["p"], _domain(frame))
    view = scope_view(table, Scope(version=frame.version, domain="erp", group="public"))
    plan = plan_combination(view, table, 0, frame.bundles["p"], rel)
    reps = bootstrap(table, [view], [{0: plan}], frame.bundles, rel)[0]
    literal = _literal_intervals(frame, view, table, plan, 0, 4000)
    for name, key in (("score", "score"), ("judge", "judge"), ("rel", "reliability@3")):
        low, high = percentile_interval(reps.series[(0, key)], 0.95)
        width = literal[name][1] - literal[name][0]
        assert width > 0
        assert low == pytest.approx(literal[name][0], abs=0.1 * width), name
        assert high == pytest.approx(literal[name][1], abs=0.1 * width), name


def test_judge_resamples_only_the_runs_with_a_judge_result() -> None:
    """A zeroed run without a Judge result, recorded first, is not part of the Judge channel:
    its task's Judge values 0.5 and 1 are resampled, so replicates reach both."""
    runs = [run("t", 1, delivery=False), run("t", 2, judge=(2,)), run("t", 3, judge=(4,))]
    rel = release(runs_per_task=3)
    loaded = version(rel, catalog([task("t", judge=(4,))]), {"p": runs})
    c = next(s for s in build_report(loaded, "office").scopes if s.scope.group == "all")
    judge = c.combinations[0].judge_score
    assert judge is not None
    assert (judge.value, judge.low, judge.high) == (0.75, 0.5, 1.0)
