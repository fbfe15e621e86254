"""Every aggregate of one combination in one scope: task means, then equal-weight
macro-averages (§4.2), each with its task-clustered interval (:mod:`generator.score.intervals`).

:func:`generator.score.plan.plan_combination` decides what a combination shows in a scope
(coverage, withheld, not covered); :func:`figures` writes each of its aggregates as a ratio
of sums over tasks; :func:`aggregate_scope` draws the scope's tasks once and turns the
figures of every combination and every pair into the :class:`ScopeResult`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from generator.check.factors import comparison_key
from generator.models import Bundle, Release
from generator.score.intervals import Figure, Interval, figure, intervals, rate, task_weights
from generator.score.plan import Plan, has_views, small_held_out
from generator.score.ranking import differences, pair_figures, pareto, rank_ranges
from generator.score.results import (
    BusinessViews,
    CombinationScores,
    Efficiency,
    Estimate,
    Rate,
    Reliability,
    ScopeResult,
)
from generator.score.stats import reliability_at, seed_for
from generator.score.table import NAN, ScopeView, TaskTable

# --- figures: every aggregate as a ratio of sums over the scope's tasks ----------------------


def figures(
    view: ScopeView, table: TaskTable, k: int, plan: Plan, release: Release
) -> dict[str, Figure]:
    """Combination k's aggregates in one scope as :class:`Figure` (§4.2, §4.3): the channels,
    the risk-weighted score, the success rate, reliability@k and the business-view rates."""
    rows, columns, n = view.rows, view.columns, release.runs_per_task
    data, covered = plan.data, plan.covered
    valid = np.where(covered, table.valid[k, rows], 0)
    successes = np.where(covered, table.successes[k, rows], 0)
    out = {
        "score": figure(table.means["score"][k, rows], data, table.counts["score"][k, rows]),
        "rule": figure(table.means["rule"][k, rows], data, table.counts["rule"][k, rows]),
        "success": rate(successes, valid, covered),
    }
    if plan.judged is not None:
        judge_runs = table.counts["judge"][k, rows]
        out["judge"] = figure(table.means["judge"][k, rows], plan.judged, judge_runs)
    for rk in release.reliability_k:
        per_task = reliability_at(table.successes[k, rows], n, rk)
        # A task's C(c, k) / C(n, k) counts like n / k binary trials: exactly so for k = 1 (a
        # rate of n runs) and k = n (one all-k-pass trial); in between, interpolated.
        found = figure(per_task, plan.full, np.full(len(rows), n / rk))
        out[f"reliability@{rk}"] = dataclasses.replace(found, binary=True)
    if has_views(release, view.scope):
        weights = columns["risk_weight"].astype(float)
        out["risk"] = figure(table.means["score"][k, rows], data, valid, weights)
        chain = columns["chain"]
        out["key_process"] = rate(successes, valid, chain != "")
        for cid in sorted(set(chain[(chain != "") & (valid > 0)].tolist())):
            out[f"chain:{cid}"] = rate(successes, valid, chain == cid)
        fatal_failed = np.where(covered, table.fatal_failed[k, rows], 0)
        out["fatal"] = rate(fatal_failed, valid, columns["n_fatal"] > 0)
        out["boundary"] = rate(successes, valid, columns["boundary"].astype(bool))
    return out


# --- results -------------------------------------------------------------------------------


def _none(x: float | None) -> float | None:
    return None if x is None or not np.isfinite(x) else float(x)


def nanmean(values: np.ndarray) -> float:
    """Mean of the non-NaN values, summed as pandas' ``Series.mean`` sums (NaN if none)."""
    missing = np.isnan(values)
    count = len(values) - int(missing.sum())
    total = (np.where(missing, 0.0, values) if missing.any() else values).sum()
    return float(total / float(count)) if count > 0 else NAN


def _nansum(values: np.ndarray) -> float:
    missing = np.isnan(values)
    return float((np.where(missing, 0.0, values) if missing.any() else values).sum())


Lookup = Mapping[str, Interval]


def _rate(f: Figure, found: Interval) -> Rate | None:
    assert f.pooled is not None
    successes, trials = f.pooled
    if trials == 0:
        return None
    return Rate(
        successes=successes,
        trials=trials,
        value=successes / trials,
        low=_none(found.low),
        high=_none(found.high),
        tasks=f.tasks,
        interval=found.basis,
    )


def _estimate(value: float, tasks: int, found: Interval) -> Estimate:
    return Estimate(
        value=_none(value),
        low=_none(found.low),
        high=_none(found.high),
        tasks=tasks,
        interval=found.basis,
    )


def point_values(
    view: ScopeView, table: TaskTable, k: int, plan: Plan, figs: Mapping[str, Figure]
) -> dict[str, float]:
    """Each figure's published value: macro-averages summed as pandas sums them."""
    out = {name: f.value for name, f in figs.items()}
    for column in ("score", "rule", "judge"):
        if column in figs:
            mask = plan.data if column != "judge" else plan.judged
            means = table.means[column][k, view.rows][mask]
            out[column] = nanmean(means[~np.isnan(means)])
    if "risk" in figs:
        scores = table.means["score"][k, view.rows][plan.data]
        weights = view.columns["risk_weight"].astype(float)[plan.data]
        out["risk"] = _nansum(scores * weights) / _nansum(weights)
    return out


def score_combination(
    view: ScopeView,
    table: TaskTable,
    k: int,
    plan: Plan,
    figs: Mapping[str, Figure],
    values: Mapping[str, float],
    found: Lookup,
    release: Release,
) -> CombinationScores:
    """Every aggregate of scored combination k in one scope (§4.2)."""
    data = plan.data

    def of(column: str) -> np.ndarray:
        values: np.ndarray = table.means[column][k, view.rows][data]
        return values

    def estimate(column: str) -> Estimate:
        return _estimate(values[column], figs[column].tasks, found[column])

    judge_coverage = (
        f"{figs['judge'].tasks} of {int(data.sum())} tasks"
        if "judge" in figs
        else ("withheld: too few held-out tasks with the Judge enabled (§4.4)")
    )
    failures = {
        f.id: int(table.failures[f.id][k, view.rows][plan.covered].sum())
        for f in release.enumerations.failure_types
        if f.id in table.failures
    }
    reliability = []
    if plan.full.any():
        for rk in release.reliability_k:
            key = f"reliability@{rk}"
            got = found[key]
            reliability.append(
                Reliability(
                    k=rk,
                    value=values[key],
                    low=_none(got.low),
                    high=_none(got.high),
                    interval=got.basis,
                )
            )
    return CombinationScores(
        combination=table.combos[k],
        status="scored",
        task_score=estimate("score"),
        rule_score=estimate("rule"),
        judge_score=estimate("judge") if "judge" in figs else None,
        judge_coverage=judge_coverage,
        success_rate=_rate(figs["success"], found["success"]),
        reliability=reliability,
        reliability_tasks=int(plan.full.sum()),
        reliability_excluded=int(plan.covered.sum() - plan.full.sum()),
        efficiency=Efficiency(
            input_tokens=_none(nanmean(of("input_tokens"))),
            output_tokens=_none(nanmean(of("output_tokens"))),
            total_tokens=_none(nanmean(of("input_tokens") + of("output_tokens"))),
            duration_s=_none(nanmean(of("duration_s"))),
            turns=_none(nanmean(of("turns"))),
        ),
        failure_types={f: c for f, c in failures.items() if c > 0},
        business=_business(view, plan, figs, values, found, release)
        if has_views(release, view.scope)
        else None,
        coverage=plan.coverage,
    )


def _business(
    view: ScopeView,
    plan: Plan,
    figs: Mapping[str, Figure],
    values: Mapping[str, float],
    found: Lookup,
    release: Release,
) -> BusinessViews:
    """Risk-weighted score, key-process success, fatal-error rate, boundary correctness.

    A view over a subset of tasks is withheld (None) when that subset holds 1..min-1
    held-out tasks; the risk-weighted score also when any risk class does (with the Task
    Score it would reveal that class's mean).
    """
    columns = view.columns
    small = small_held_out(view, release)
    weights = columns["risk_weight"].astype(float)
    classes = [weights == w for w in sorted(set(weights.tolist()))]
    risk = None
    if plan.data.any() and not any(small(c) for c in classes):
        risk = _estimate(values["risk"], figs["risk"].tasks, found["risk"])
    chain = columns["chain"]
    on_chain = chain != ""
    chains = {}
    for name in figs:
        if name.startswith("chain:") and not small(chain == name[6:]):
            got = _rate(figs[name], found[name])
            if got is not None:
                chains[name[6:]] = got
    has_fatal = columns["n_fatal"] > 0
    fatal = None
    if has_fatal.any() and not small(has_fatal):
        fatal = _rate(figs["fatal"], found["fatal"])
    boundary = columns["boundary"].astype(bool)
    withheld = [
        name
        for name, hidden in (
            ("risk_weighted_score", any(small(c) for c in classes)),
            ("key_process_success", small(on_chain)),
            ("fatal_error_rate", small(has_fatal)),
            ("boundary_correctness", small(boundary)),
        )
        if hidden
    ]
    return BusinessViews(
        risk_weighted_score=risk,
        key_process_success=None
        if "key_process_success" in withheld
        else _rate(figs["key_process"], found["key_process"]),
        key_process_chains=chains,
        fatal_error_rate=fatal,
        boundary_correctness=None
        if "boundary_correctness" in withheld
        else _rate(figs["boundary"], found["boundary"]),
        withheld=withheld,
    )


def scope_weights(view: ScopeView, release: Release) -> np.ndarray:
    """The scope's bootstrap draws: replicates × tasks, seeded by the release's seed and the
    scope's task set, shared by every combination and pair of the scope (pairing)."""
    stats = release.statistics
    return task_weights(
        len(view.rows), stats.bootstrap_samples, seed_for(stats.seed, view.seed_key)
    )


def aggregate_scope(
    view: ScopeView,
    table: TaskTable,
    plans: Mapping[int, Plan],
    bundles: Mapping[str, Bundle],
    release: Release,
    title: str,
) -> ScopeResult:
    """All combinations' aggregates in one scope, their paired differences and rank ranges."""
    stats = release.statistics
    scored_plans = {k: p for k, p in plans.items() if p.result is None}
    figs = {k: figures(view, table, k, p, release) for k, p in scored_plans.items()}
    values = {k: point_values(view, table, k, p, figs[k]) for k, p in scored_plans.items()}
    # Settings that vary by design (§4.1): combinations are compared only within a group.
    group_of = {n: comparison_key(release, b) for n, b in bundles.items()}
    pairs = [
        pair
        for pair in pair_figures(view, table, {k: p.data for k, p in scored_plans.items()})
        if group_of[table.combos[pair.a]] == group_of[table.combos[pair.b]]
    ]
    keys = [(k, name) for k in figs for name in figs[k]]
    flat = [figs[k][name] for k, name in keys] + [p.figure for p in pairs]
    flat_values = [values[k][name] for k, name in keys] + [p.value for p in pairs]
    weights = scope_weights(view, release) if flat else np.empty((0, 0))
    found = intervals(weights, flat, flat_values, stats.confidence, stats.min_tasks_to_resample)
    by_key = dict(zip(keys, found, strict=False))
    pair_found = found[len(keys) :]
    every = {
        table.combos[k]: plan.result
        if plan.result is not None
        else score_combination(
            view, table, k, plan, figs[k], values[k], {n: by_key[(k, n)] for n in figs[k]}, release
        )
        for k, plan in plans.items()
    }
    diffs = differences(table, pairs, pair_found, stats.min_tasks_to_order)
    scored = {n: r for n, r in every.items() if r.status == "scored"}
    groups: dict[tuple[str, ...], list[str]] = {}
    for name in sorted(scored):
        groups.setdefault(group_of[name], []).append(name)
    ranks = {n: r for names in groups.values() for n, r in rank_ranges(names, diffs).items()}
    tokenizers = {
        n: "\x1f".join((b.combination.model.tokenizer, *group_of[n])) for n, b in bundles.items()
    }
    # Only combinations measured on the very same tasks are compared for the frontier.
    comparable = {
        n: r
        for n, r in scored.items()
        if r.coverage is not None and r.coverage.complete and not r.coverage.not_covered
    }
    front = pareto(comparable, tokenizers)
    combos = []
    for name in sorted(every):
        r = every[name]
        if name in scored:
            best, worst = ranks[name]
            on_front = (name in front) if name in comparable else None
            r = r.model_copy(update={"rank": best, "rank_worst": worst, "pareto": on_front})
        combos.append(r)
    return ScopeResult(
        scope=view.scope,
        title=title,
        tasks=len(view.rows),
        combinations=combos,
        differences=diffs,
        comparison_groups=[names for _, names in sorted(groups.items())]
        if release.varying()
        else [],
    )
