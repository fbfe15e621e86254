"""Aggregates of one scope: task means, then equal-weight macro-averages over tasks (§4.2).

Every function takes exactly one :class:`Scope`; :func:`guard` refuses runs that span
versions or domains before any number is formed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations as pairs

import numpy as np
import pandas as pd

from generator.models import Bundle, Release
from generator.score.results import (
    BusinessViews,
    CombinationScores,
    Coverage,
    Difference,
    Efficiency,
    Estimate,
    Rate,
    Reliability,
    ScopeResult,
)
from generator.score.scope import Scope, guard
from generator.score.stats import (
    Replicates,
    percentile_interval,
    reliability_at,
    resample,
    run_matrix,
    seed_for,
    task_draws,
    wilson,
)


@dataclass(frozen=True)
class ScopeData:
    """The tasks of a scope, its runs, and the bootstrap draws shared by its combinations."""

    scope: Scope
    tasks: pd.DataFrame
    runs: pd.DataFrame
    draws: np.ndarray
    release: Release
    seed_key: int


def _none(x: float) -> float | None:
    return None if x is None or not np.isfinite(x) else float(x)


def _estimate(value: float, reps: np.ndarray, tasks: int, confidence: float) -> Estimate:
    low, high = percentile_interval(reps, confidence)
    return Estimate(value=_none(value), low=_none(low), high=_none(high), tasks=tasks)


def _rate(successes: int, trials: int, confidence: float) -> Rate | None:
    if trials == 0:
        return None
    low, high = wilson(successes, trials, confidence)
    return Rate(successes=successes, trials=trials, value=successes / trials, low=low, high=high)


def select(scope: Scope, tasks: pd.DataFrame, runs: pd.DataFrame, release: Release) -> ScopeData:
    """The tasks and runs of ``scope`` (tasks already of the scope's version)."""
    mask = tasks["domain"] == scope.domain
    if scope.subdivision is not None:
        mask &= tasks["subdivision"] == scope.subdivision
    if scope.group != "all":
        mask &= tasks["group"] == scope.group
    chosen = tasks[mask].sort_index()
    in_scope = runs[runs["task"].isin(chosen.index)]
    guard(in_scope, scope)
    stats = release.statistics
    # Seeded by the task set, not the scope's name: two scopes over the same tasks (a
    # sub-division without held-out tasks, all vs public) get the same intervals.
    seed_key = seed_for(scope.version, *sorted(chosen.index))
    draws = task_draws(len(chosen), stats.bootstrap_samples, seed_for(stats.seed, seed_key))
    return ScopeData(scope, chosen, in_scope, draws, release, seed_key)


def _not_covered(bundle: Bundle, scope: Scope, tasks: pd.DataFrame) -> tuple[pd.Index, list[str]]:
    """Covered task ids of the scope, and the declarations that remove the others."""
    notes, removed = [], pd.Series(False, index=tasks.index)
    for nc in bundle.not_covered:
        if nc.domain != scope.domain:
            continue
        if nc.subdivision is None or scope.subdivision in (None, nc.subdivision):
            hit = tasks["domain"] == nc.domain
            if nc.subdivision is not None:
                hit &= tasks["subdivision"] == nc.subdivision
            if hit.any():
                removed |= hit
                where = nc.domain + (f"/{nc.subdivision}" if nc.subdivision else "")
                notes.append(f"{where}: {nc.reason}")
    return tasks.index[~removed], notes


@dataclass(frozen=True)
class _Scored:
    result: CombinationScores
    replicates: Replicates | None
    task_means: pd.Series | None


def score_combination(data: ScopeData, combo: str, bundle: Bundle) -> _Scored:
    """Every aggregate of one combination in one scope."""
    scope, release = data.scope, data.release
    guard(data.runs, scope)
    conf = release.statistics.confidence
    covered, notes = _not_covered(bundle, scope, data.tasks)
    if len(covered) == 0:
        return _Scored(
            CombinationScores(
                combination=combo, status="not-covered", note="; ".join(notes) or None
            ),
            None,
            None,
        )
    runs = data.runs[(data.runs["combination"] == combo) & data.runs["task"].isin(covered)]
    valid = runs[runs["valid"]]
    n = release.runs_per_task
    per_task = valid.groupby("task").agg(
        score=("score", "mean"),
        rule=("rule", "mean"),
        judge=("judge", "mean"),
        runs=("score", "size"),
        successes=("success", "sum"),
        input_tokens=("input_tokens", "mean"),
        output_tokens=("output_tokens", "mean"),
        duration_s=("duration_s", "mean"),
        turns=("turns", "mean"),
    )
    incomplete = runs[~runs["valid"]]
    coverage = Coverage(
        scope_tasks=len(data.tasks),
        covered_tasks=len(covered),
        valid_tasks=len(per_task),
        complete_tasks=int((per_task["runs"] >= n).sum()),
        valid_runs=len(valid),
        expected_runs=len(covered) * n,
        incomplete_runs=len(incomplete),
        incomplete_causes={
            str(k): int(v) for k, v in incomplete["cause"].value_counts().sort_index().items()
        },
        complete=bool((per_task["runs"] >= n).sum() == len(covered)),
        not_covered=notes,
    )
    if per_task.empty:
        return _Scored(
            CombinationScores(
                combination=combo,
                status="no-valid-runs",
                note="no valid run in this scope",
                coverage=coverage,
            ),
            None,
            None,
        )
    held = data.tasks.index[data.tasks["group"] == "held-out"]
    if len(held):
        complete = per_task.index[per_task["runs"] >= n]
        missing = held.difference(complete)
        if len(missing):
            return _Scored(
                CombinationScores(
                    combination=combo,
                    status="withheld",
                    note=f"withheld: {len(held) - len(missing)} of {len(held)} held-out tasks "
                    f"have all {n} valid runs; held-out results are shown only over the whole "
                    "group, so that no held-out task can be isolated (§4.4)",
                    coverage=coverage,
                ),
                None,
                None,
            )
    position = pd.Series(np.arange(len(data.tasks)), index=data.tasks.index)
    t_index = position.loc[valid["task"]].to_numpy()
    seed = release.statistics.seed
    small = _small_held_out(data)

    def channel(column: str) -> tuple[Estimate, Replicates]:
        matrix = run_matrix(t_index, valid[column].to_numpy(dtype=float), len(data.tasks))
        reps = resample(matrix, data.draws, seed_for(seed, data.seed_key, combo, column))
        means = per_task[column].dropna()
        return _estimate(
            means.mean() if len(means) else np.nan, reps.macro(), len(means), conf
        ), reps

    task_score, score_reps = channel("score")
    rule_score, _ = channel("rule")
    dual = data.tasks.loc[per_task.index, "dual"]
    judge_score: Estimate | None = None
    judge_coverage = f"{int(dual.sum())} of {len(per_task)} tasks"
    if small(data.tasks["dual"]):
        judge_coverage = "withheld: too few held-out tasks with the Judge enabled (§4.4)"
    else:
        judge_score = channel("judge")[0]
    full = per_task[per_task["runs"] == n]
    reliability = _reliability(data, combo, full, n)
    failures = valid["failure_type"].value_counts()
    order = [f.id for f in release.enumerations.failure_types]
    result = CombinationScores(
        combination=combo,
        status="scored",
        task_score=task_score,
        rule_score=rule_score,
        judge_score=judge_score,
        judge_coverage=judge_coverage,
        success_rate=_rate(int(valid["success"].sum()), len(valid), conf),
        reliability=reliability,
        reliability_tasks=len(full),
        reliability_excluded=len(covered) - len(full),
        efficiency=Efficiency(
            input_tokens=_none(per_task["input_tokens"].mean()),
            output_tokens=_none(per_task["output_tokens"].mean()),
            total_tokens=_none((per_task["input_tokens"] + per_task["output_tokens"]).mean()),
            duration_s=_none(per_task["duration_s"].mean()),
            turns=_none(per_task["turns"].mean()),
        ),
        failure_types={f: int(failures[f]) for f in order if f in failures.index},
        business=_business(data, valid, per_task, score_reps, small) if _has_views(data) else None,
        coverage=coverage,
    )
    return _Scored(result, score_reps, per_task["score"])


def _reliability(data: ScopeData, combo: str, full: pd.DataFrame, n: int) -> list[Reliability]:
    """reliability@k over tasks with all n valid runs; the interval redraws tasks, then each
    drawn task's successes as Binomial(n, c/n), so run-to-run noise counts too."""
    if full.empty:
        return []
    stats = data.release.statistics
    seed = seed_for(stats.seed, data.seed_key, combo, "reliability")
    draws = task_draws(len(full), stats.bootstrap_samples, seed)
    successes = full["successes"].to_numpy(dtype=np.int64)
    redrawn = np.random.default_rng(seed + 1).binomial(n, successes[draws] / n)
    out = []
    for k in data.release.reliability_k:
        value = float(reliability_at(successes, n, k).mean())
        low, high = percentile_interval(
            reliability_at(redrawn, n, k).mean(axis=1), stats.confidence
        )
        out.append(Reliability(k=k, value=value, low=low, high=high))
    return out


def _small_held_out(data: ScopeData) -> Callable[[pd.Series], bool]:
    """Whether a subset of the scope's tasks holds 1..min-1 held-out tasks (then withheld)."""
    held = data.tasks["group"] == "held-out"
    minimum = data.release.groups.min_held_out_aggregate

    def small(mask: pd.Series) -> bool:
        count = int((mask.astype(bool) & held).sum())
        return 0 < count < minimum

    return small


def _has_views(data: ScopeData) -> bool:
    return any(d.id == data.scope.domain and d.business_views for d in data.release.domains)


def _business(
    data: ScopeData,
    valid: pd.DataFrame,
    per_task: pd.DataFrame,
    score_reps: Replicates,
    small: Callable[[pd.Series], bool],
) -> BusinessViews:
    """Risk-weighted score, key-process success, fatal-error rate, boundary correctness.

    A view over a subset of tasks is withheld (None) when that subset holds 1..min-1
    held-out tasks; the risk-weighted score also when any risk class does (with the Task
    Score it would reveal that class's mean).
    """
    conf = data.release.statistics.confidence
    tasks = data.tasks
    risk = None
    classes = [tasks["risk_weight"] == w for w in sorted(set(tasks["risk_weight"]))]
    if len(per_task) and not any(small(c) for c in classes):
        weights = tasks.loc[per_task.index, "risk_weight"]
        value = float((per_task["score"] * weights).sum() / weights.sum())
        reps = score_reps.weighted(tasks["risk_weight"].to_numpy()[data.draws])
        risk = _estimate(value, reps, len(per_task), conf)
    task_of = valid["task"]
    chain = tasks.loc[task_of, "chain"].to_numpy()
    boundary = tasks.loc[task_of, "boundary"].to_numpy(dtype=bool)
    success = valid["success"].to_numpy(dtype=bool)
    on_chain = chain != ""
    chains = {}
    for cid in sorted(set(chain[on_chain])):
        if small(tasks["chain"] == cid):
            continue
        hit = chain == cid
        rate = _rate(int(success[hit].sum()), int(hit.sum()), conf)
        if rate is not None:
            chains[str(cid)] = rate
    has_fatal = tasks["n_fatal"] > 0
    fatal = None
    if has_fatal.any() and not small(has_fatal):
        exposed = tasks.loc[task_of, "n_fatal"].to_numpy() > 0
        fatal = _rate(int(valid["fatal_failed"].sum()), int(exposed.sum()), conf)
    withheld = [
        name
        for name, hidden in (
            ("risk_weighted_score", any(small(c) for c in classes)),
            ("key_process_success", small(tasks["chain"] != "")),
            ("fatal_error_rate", small(has_fatal)),
            ("boundary_correctness", small(tasks["boundary"])),
        )
        if hidden
    ]
    return BusinessViews(
        risk_weighted_score=risk,
        key_process_success=None
        if "key_process_success" in withheld
        else _rate(int(success[on_chain].sum()), int(on_chain.sum()), conf),
        key_process_chains=chains,
        fatal_error_rate=fatal,
        boundary_correctness=None
        if "boundary_correctness" in withheld
        else _rate(int(success[boundary].sum()), int(boundary.sum()), conf),
        withheld=withheld,
    )


def _differences(scored: dict[str, _Scored], conf: float, minimum: int) -> list[Difference]:
    """Paired differences over the tasks both combinations have, with their intervals."""
    out = []
    for a, b in pairs(sorted(scored), 2):
        ra, rb = scored[a], scored[b]
        assert ra.replicates is not None
        assert rb.replicates is not None
        assert ra.task_means is not None
        assert rb.task_means is not None
        common = ra.task_means.index.intersection(rb.task_means.index)
        if len(common) == 0:
            continue
        va, vb = ra.replicates.values, rb.replicates.values
        both = ~np.isnan(va) & ~np.isnan(vb)
        with np.errstate(invalid="ignore", divide="ignore"):
            reps = np.where(both, va - vb, 0.0).sum(axis=1) / both.sum(axis=1)
        low, high = percentile_interval(reps, conf)
        value = float((ra.task_means[common] - rb.task_means[common]).mean())
        enough = len(common) >= minimum
        out.append(
            Difference(
                a=a,
                b=b,
                value=value,
                low=low,
                high=high,
                tasks=len(common),
                significant=bool(enough and (low > 0 or high < 0)),
            )
        )
    return out


def _ranks(names: list[str], diffs: list[Difference]) -> dict[str, int]:
    """1 + how many combinations are significantly better (LMArena's rank upper bound)."""
    beaten_by = dict.fromkeys(names, 0)
    for d in diffs:
        if d.significant:
            beaten_by[d.b if d.low > 0 else d.a] += 1  # low > 0: a better; high < 0: b better
    return {n: 1 + beaten_by[n] for n in names}


def _pareto(results: dict[str, CombinationScores], tokenizers: dict[str, str]) -> set[str]:
    """Combinations no other of the same tokenizer beats on both score and total tokens."""
    front = set()
    for name, r in results.items():
        if r.task_score is None or r.efficiency is None:
            continue
        s, t = r.task_score.value, r.efficiency.total_tokens
        if s is None or t is None:
            continue
        dominated = False
        for other, o in results.items():
            if other == name or tokenizers[other] != tokenizers[name]:
                continue
            if o.task_score is None or o.efficiency is None:
                continue
            os, ot = o.task_score.value, o.efficiency.total_tokens
            if os is None or ot is None:
                continue
            if os >= s and ot <= t and (os > s or ot < t):
                dominated = True
                break
        if not dominated:
            front.add(name)
    return front


def aggregate_scope(data: ScopeData, bundles: dict[str, Bundle], title: str) -> ScopeResult:
    """All combinations' aggregates in one scope, their paired differences and tie groups."""
    guard(data.runs, data.scope)
    conf = data.release.statistics.confidence
    every = {name: score_combination(data, name, bundles[name]) for name in sorted(bundles)}
    scored = {n: s for n, s in every.items() if s.result.status == "scored"}
    diffs = _differences(scored, conf, data.release.statistics.min_tasks_to_order)
    ranks = _ranks(sorted(scored), diffs)
    tokenizers = {n: b.combination.model.tokenizer for n, b in bundles.items()}
    # Only combinations measured on the very same tasks are compared for the frontier.
    comparable = {
        n: s.result
        for n, s in scored.items()
        if s.result.coverage is not None
        and s.result.coverage.complete
        and not s.result.coverage.not_covered
    }
    front = _pareto(comparable, tokenizers)
    combos = []
    for name, s in every.items():
        if name in scored:
            pareto = (name in front) if name in comparable else None
            combos.append(s.result.model_copy(update={"rank": ranks[name], "pareto": pareto}))
        else:
            combos.append(s.result)
    groups: dict[int, list[str]] = {}
    for name, rank in ranks.items():
        groups.setdefault(rank, []).append(name)
    return ScopeResult(
        scope=data.scope,
        title=title,
        tasks=len(data.tasks),
        combinations=combos,
        differences=diffs,
        tie_groups=[sorted(groups[r]) for r in sorted(groups)],
    )


def replicates_of(data: ScopeData, combo: str, bundle: Bundle) -> tuple[float, np.ndarray, int]:
    """Task Score, its bootstrap replicates and task count (for differences of groups)."""
    scored = score_combination(data, combo, bundle)
    if scored.replicates is None or scored.task_means is None:
        return (float("nan"), np.full(data.draws.shape[0], np.nan), 0)
    return (float(scored.task_means.mean()), scored.replicates.macro(), len(scored.task_means))
