"""Every aggregate of one combination in one scope: task means, then equal-weight
macro-averages (§4.2), each with its task-clustered interval (:mod:`generator.score.intervals`).

:func:`generator.score.plan.plan_combination` decides what a combination shows in a scope
(coverage, withheld, not covered); :func:`generator.score.figures.figures` writes each of its
aggregates as a ratio of sums over tasks; :func:`aggregate_scope` draws the scope's tasks once
and turns the figures of every combination and every pair into the :class:`ScopeResult`
(:func:`score_combination` for each scored combination).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from generator.check.factors import comparison_key
from generator.models import Bundle, Release
from generator.models.profile import Range
from generator.score.efficiency import efficiency
from generator.score.figures import figures, finite_or_none, point_values
from generator.score.intervals import Figure, Interval, intervals, task_weights
from generator.score.plan import Plan, has_views, small_held_out
from generator.score.ranking import (
    PairFigure,
    compared_on_frontier,
    differences,
    pair_figures,
    pareto,
    rank_ranges,
)
from generator.score.results import (
    BusinessViews,
    CombinationScores,
    Difference,
    Estimate,
    Rate,
    Reliability,
    ScopeResult,
)
from generator.score.runs import GROUP_PREFIXES
from generator.score.stats import seed_for
from generator.score.table import ScopeView, TaskTable

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
        low=finite_or_none(found.low),
        high=finite_or_none(found.high),
        tasks=f.tasks,
        interval=found.basis,
    )


def _estimate(value: float, tasks: int, found: Interval, bounds: Range | None = None) -> Estimate:
    """An estimate with its interval, the interval kept within the metric's declared range
    (a cost's interval never reaches below 0)."""
    low, high = finite_or_none(found.low), finite_or_none(found.high)
    if bounds is not None:
        if bounds.low is not None:
            low, high = (None if x is None else max(x, bounds.low) for x in (low, high))
        if bounds.high is not None:
            low, high = (None if x is None else min(x, bounds.high) for x in (low, high))
    return Estimate(
        value=finite_or_none(value), low=low, high=high, tasks=tasks, interval=found.basis
    )


def score_combination(
    view: ScopeView,
    table: TaskTable,
    k: int,
    plan: Plan,
    figs: Mapping[str, Figure],
    values: Mapping[str, float],
    found: Lookup,
    release: Release,
    carried: bool = False,
) -> CombinationScores:
    """Every aggregate of scored combination k in one scope (§4.2); a combination whose
    method carries state across tasks has no reliability@k (its runs are not independent
    trials, §4.2(3))."""

    outcome = release.outcome(view.scope.domain)

    def estimate(column: str) -> Estimate:
        """The figure's estimate; a measure's interval within its declared range."""
        metric = (
            outcome
            if column in ("score", "cells")
            else release.metric(column.removeprefix("extra:"))
        )
        bounds = metric.bounds if metric is not None and metric.measured else None
        return _estimate(values[column], figs[column].tasks, found[column], bounds)

    def extra(prefix: str) -> dict[str, Estimate]:
        return {
            name.removeprefix(prefix): estimate(name) for name in figs if name.startswith(prefix)
        }

    return CombinationScores(
        combination=table.combos[k],
        status="scored",
        task_score=estimate("score"),
        rule_score=estimate("rule") if "rule" in figs else None,
        judge_score=estimate("judge") if "judge" in figs else None,
        judge_coverage=_judge_coverage(plan, figs),
        success_rate=_rate(figs["success"], found["success"]),
        reliability=[] if carried else _reliability(plan, values, found, release),
        reliability_note=CARRIED if carried else None,
        reliability_tasks=0 if carried else int(plan.full.sum()),
        reliability_excluded=int(plan.covered.sum())
        if carried
        else int(plan.covered.sum() - plan.full.sum()),
        efficiency=efficiency(view, table, k, plan),
        failure_types=_failure_types(view, table, k, plan, release),
        business=_business(view, plan, figs, values, found, release)
        if has_views(release, view.scope)
        else None,
        coverage=plan.coverage,
        cell_mean=estimate("cells") if "cells" in figs else None,
        overall=estimate("extra:overall") if "extra:overall" in figs else None,
        dimensions=extra("extra:dimension:"),
        channels=extra("extra:channel:"),
        rule_classes=extra("extra:rule_class:"),
        measures={
            name: e
            for name, e in extra("extra:").items()
            if name != "overall" and not name.startswith(GROUP_PREFIXES)
        },
    )


#: Why a combination whose method carries state across tasks shows no reliability@k.
CARRIED = (
    "withheld: the method carries state across tasks, so its runs are not independent "
    "trials of a task (§4.2(3))"
)


def _judge_coverage(plan: Plan, figs: Mapping[str, Figure]) -> str:
    """The tasks the Judge score rests on: those that enable the channel (§4.2(1))."""
    if "judge" not in figs:
        return "withheld: too few held-out tasks with the Judge enabled (§4.4)"
    return f"{figs['judge'].tasks} of {int(plan.data.sum())} tasks"


def _reliability(
    plan: Plan, values: Mapping[str, float], found: Lookup, release: Release
) -> list[Reliability]:
    """reliability@k for each k of the release, over the tasks with the prescribed valid
    runs (§4.2(3)); none when no task has them."""
    if not plan.full.any():
        return []
    out = []
    for rk in release.reliability_k:
        key = f"reliability@{rk}"
        got = found[key]
        out.append(
            Reliability(
                k=rk,
                value=values[key],
                low=finite_or_none(got.low),
                high=finite_or_none(got.high),
                interval=got.basis,
            )
        )
    return out


def _failure_types(
    view: ScopeView, table: TaskTable, k: int, plan: Plan, release: Release
) -> dict[str, int]:
    """Runs per declared failure type, those that occur (§4.2(3): failure-type distribution)."""
    failures = {
        f.id: int(table.failures[f.id][k, view.rows][plan.covered].sum())
        for f in release.enumerations.failure_types
        if f.id in table.failures
    }
    return {f: c for f, c in failures.items() if c > 0}


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
    small = small_held_out(view, release)
    withheld = [name for name, masks in _view_tasks(view).items() if any(map(small, masks))]
    has_fatal = view.columns["n_fatal"] > 0
    risk = fatal = None
    if plan.data.any() and "risk_weighted_score" not in withheld:
        risk = _estimate(values["risk"], figs["risk"].tasks, found["risk"])
    if has_fatal.any() and "fatal_error_rate" not in withheld:
        fatal = _rate(figs["fatal"], found["fatal"])
    return BusinessViews(
        risk_weighted_score=risk,
        key_process_success=None
        if "key_process_success" in withheld
        else _rate(figs["key_process"], found["key_process"]),
        key_process_chains=_chain_rates(view, figs, found, small),
        fatal_error_rate=fatal,
        boundary_correctness=None
        if "boundary_correctness" in withheld
        else _rate(figs["boundary"], found["boundary"]),
        withheld=withheld,
    )


def _view_tasks(view: ScopeView) -> dict[str, list[np.ndarray]]:
    """Per business view, the subsets of the scope's tasks it reveals (a mask each): the
    risk classes, the key-process tasks, those with fatal items, the boundary tasks."""
    columns = view.columns
    weights = columns["risk_weight"].astype(float)
    return {
        "risk_weighted_score": [weights == w for w in sorted(set(weights.tolist()))],
        "key_process_success": [columns["chain"] != ""],
        "fatal_error_rate": [columns["n_fatal"] > 0],
        "boundary_correctness": [columns["boundary"].astype(bool)],
    }


def _chain_rates(
    view: ScopeView, figs: Mapping[str, Figure], found: Lookup, small: Callable[[np.ndarray], bool]
) -> dict[str, Rate]:
    """Key-process success per chain, each chain withheld on its own."""
    chain = view.columns["chain"]
    chains = {}
    for name in figs:
        if name.startswith("chain:") and not small(chain == name[6:]):
            got = _rate(figs[name], found[name])
            if got is not None:
                chains[name[6:]] = got
    return chains


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
    """All combinations' aggregates in one scope, their paired differences and rank ranges:
    figures → one bootstrap for all of them → each combination's scores → ranks."""
    scored_plans = {k: p for k, p in plans.items() if p.result is None}
    figs = {k: figures(view, table, k, p, release) for k, p in scored_plans.items()}
    values = {k: point_values(view, table, k, p, figs[k]) for k, p in scored_plans.items()}
    # Settings that vary by design (§4.1): combinations are compared only within a group.
    judged = bool(view.columns["dual"].any())  # the evaluator matters only where it judges
    group_of = {n: comparison_key(release, b, judged) for n, b in bundles.items()}
    outcome = release.outcome(view.scope.domain)
    data = {k: p.data for k, p in scored_plans.items()}
    pairs = [
        pair
        for pair in pair_figures(view, table, data, not outcome.unit_interval)
        if group_of[table.combos[pair.a]] == group_of[table.combos[pair.b]]
    ]
    found, pair_found = _scope_intervals(view, release, figs, values, pairs)
    every = {
        table.combos[k]: plan.result
        if plan.result is not None
        else score_combination(
            view,
            table,
            k,
            plan,
            figs[k],
            values[k],
            found[k],
            release,
            bundles[table.combos[k]].carried_state is not None,
        )
        for k, plan in plans.items()
    }
    diffs = differences(table, pairs, pair_found, release.statistics.min_tasks_to_order)
    groups = _comparison_groups(every, group_of)
    return ScopeResult(
        scope=view.scope,
        title=title,
        tasks=len(view.rows),
        combinations=_ranked(every, diffs, groups, bundles, group_of, outcome.higher),
        differences=diffs,
        comparison_groups=[names for _, names in sorted(groups.items())]
        if release.varying()
        else [],
    )


def _scope_intervals(
    view: ScopeView,
    release: Release,
    figs: Mapping[int, Mapping[str, Figure]],
    values: Mapping[int, Mapping[str, float]],
    pairs: Sequence[PairFigure],
) -> tuple[dict[int, dict[str, Interval]], list[Interval]]:
    """The interval of every figure of the scope and of every pair, from one set of task
    draws (:func:`scope_weights`): per combination its figures' intervals, then the pairs'."""
    stats = release.statistics
    keys = [(k, name) for k in figs for name in figs[k]]
    flat = [figs[k][name] for k, name in keys] + [p.figure for p in pairs]
    flat_values = [values[k][name] for k, name in keys] + [p.value for p in pairs]
    weights = scope_weights(view, release) if flat else np.empty((0, 0))
    found = intervals(weights, flat, flat_values, stats.confidence, stats.min_tasks_to_resample)
    by_key = dict(zip(keys, found, strict=False))
    per_combination = {k: {n: by_key[(k, n)] for n in figs[k]} for k in figs}
    return per_combination, found[len(keys) :]


Group = tuple[str, ...]


def _comparison_groups(
    every: Mapping[str, CombinationScores], group_of: Mapping[str, Group]
) -> dict[Group, list[str]]:
    """The scored combinations of each comparison group, sorted (§4.1)."""
    groups: dict[Group, list[str]] = {}
    for name in sorted(n for n, r in every.items() if r.status == "scored"):
        groups.setdefault(group_of[name], []).append(name)
    return groups


def _ranked(
    every: Mapping[str, CombinationScores],
    diffs: Sequence[Difference],
    groups: Mapping[Group, list[str]],
    bundles: Mapping[str, Bundle],
    group_of: Mapping[str, Group],
    higher: bool = True,
) -> list[CombinationScores]:
    """Every combination in name order; a scored one with its rank range within its group
    (§5.3: gaps inside the noise do not order) and its place on the Pareto frontier."""
    scored = {n: r for n, r in every.items() if r.status == "scored"}
    ranks = {
        n: r for names in groups.values() for n, r in rank_ranges(names, diffs, higher).items()
    }
    tokenizers = {
        n: "\x1f".join((b.combination.model.tokenizer, *group_of[n])) for n, b in bundles.items()
    }
    comparable = {n: r for n, r in scored.items() if compared_on_frontier(r, "total_tokens")}
    front = pareto(comparable, tokenizers, higher)
    combos = []
    for name in sorted(every):
        r = every[name]
        if name in scored:
            best, worst = ranks[name]
            # a frontier needs two points of one tokenizer: alone, a combination is not compared
            peers = sum(tokenizers[o] == tokenizers[name] for o in comparable)
            on_front = (name in front) if name in comparable and peers > 1 else None
            r = r.model_copy(update={"rank": best, "rank_worst": worst, "pareto": on_front})
        combos.append(r)
    return combos
