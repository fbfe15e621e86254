"""Every aggregate of one combination in one scope: task means, then equal-weight
macro-averages (§4.2), each with its task-clustered interval (:mod:`generator.score.intervals`).

:func:`generator.score.plan.plan_combination` decides what a combination shows in a scope
(coverage, withheld, not covered); :func:`generator.score.figures.figures` writes each of its
aggregates as a ratio of sums over tasks; :func:`aggregate_scope` draws the scope's tasks once
and turns the figures of every combination and every pair into the :class:`ScopeResult`
(:func:`score_combination` for each scored combination).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence, Set
from dataclasses import dataclass

import numpy as np

from generator.models import Bundle, Release
from generator.protocol.comparison import comparison_key, tokenizer_key
from generator.score.business import business_views
from generator.score.efficiency import efficiency
from generator.score.figures import figures, finite_or_none, point_values
from generator.score.gating import GATED, Gated, field_name, gate_figures
from generator.score.intervals import Figure, Interval, intervals
from generator.score.outputs import estimate_of, rate_of
from generator.score.plan import Plan, has_views
from generator.score.ranking import (
    PairFigure,
    compared_on_frontier,
    differences,
    letters,
    pair_figures,
    pareto,
    rank_ranges,
)
from generator.score.rerun import rerun_se
from generator.score.results import (
    CombinationScores,
    Difference,
    Estimate,
    Reliability,
    ScopeResult,
)
from generator.score.runs import GROUP_PREFIXES
from generator.score.table import ScopeView, TaskTable

Lookup = Mapping[str, Interval]


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
    admitted: Set[str] | None = None,
    unrecorded: Collection[str] = (),
) -> CombinationScores:
    """Every aggregate of scored combination k in one scope (§4.2); a combination whose
    method carries state across tasks has no reliability@k (its runs are not independent
    trials, §4.2(3)); ``unrecorded``: the counts its bundle says the source did not record."""

    outcome = release.outcome(view.scope.domain)

    def estimate(column: str) -> Estimate:
        """The figure's estimate; a measure's interval within its declared range."""
        metric = (
            outcome
            if column in ("score", "cells")
            else release.metric(column.removeprefix("extra:"))
        )
        bounds = metric.bounds if metric is not None and metric.measured else None
        return estimate_of(values[column], figs[column].tasks, found[column], bounds)

    def extra(prefix: str) -> dict[str, Estimate]:
        return {
            name.removeprefix(prefix): estimate(name) for name in figs if name.startswith(prefix)
        }

    return CombinationScores(
        combination=table.combos[k],
        status="scored",
        task_score=estimate("score"),
        rerun_se=rerun_se(
            figs["score"],
            table.spread["score"][k, view.rows],
            np.asarray(table.columns["group"][view.rows] == "held-out", dtype=bool),
        ),
        rule_score=estimate("rule") if "rule" in figs else None,
        judge_score=estimate("judge") if "judge" in figs else None,
        judge_coverage=_judge_coverage(plan, figs, release.groups.min_held_out_aggregate),
        success_rate=rate_of(figs["success"], found["success"]) if "success" in figs else None,
        reliability=[] if carried else _reliability(plan, values, found, release, figs),
        reliability_note=CARRIED if carried else None,
        reliability_tasks=0 if carried else int(plan.full.sum()),
        reliability_excluded=int(plan.covered.sum())
        if carried
        else int(plan.covered.sum() - plan.full.sum()),
        efficiency=efficiency(view, table, k, plan, admitted, unrecorded),
        failure_types=_failure_types(view, table, k, plan, release, admitted),
        business=business_views(view, plan, figs, values, found)
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


def _judge_coverage(plan: Plan, figs: Mapping[str, Figure], minimum: int) -> str:
    """The tasks the Judge score rests on: those that enable the channel (§4.2(1)), or the
    gate's reason where it withheld the score."""
    if "judge" not in figs:
        return GATED.format(minimum)
    return f"{figs['judge'].tasks} of {int(plan.data.sum())} tasks"


def _reliability(
    plan: Plan,
    values: Mapping[str, float],
    found: Lookup,
    release: Release,
    figs: Mapping[str, Figure],
) -> list[Reliability]:
    """reliability@k for each k of the release, over the tasks with the prescribed valid
    runs (§4.2(3)); none when no task has them."""
    if not plan.full.any():
        return []
    out = []
    for rk in release.reliability_k:
        key = f"reliability@{rk}"
        if key not in figs:
            continue
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
    view: ScopeView,
    table: TaskTable,
    k: int,
    plan: Plan,
    release: Release,
    admitted: Set[str] | None,
) -> dict[str, int]:
    """Runs per declared failure type, those that occur (§4.2(3): failure-type distribution)
    and the privacy gate admitted."""
    failures = {
        f.id: int(table.failures[f.id][k, view.rows][plan.covered].sum())
        for f in release.enumerations.failure_types
        if f.id in table.failures and (admitted is None or f"failure:{f.id}" in admitted)
    }
    return {f: c for f, c in failures.items() if c > 0}


@dataclass(frozen=True)
class ScopeFigures:
    """A scope's figures before any interval: per scored combination its figures (those
    with intervals, then :func:`~generator.score.gating.gate_figures`) and their values, and
    the pairs of combinations compared within one comparison group."""

    figs: Mapping[int, Mapping[str, Figure]]
    extra: Mapping[int, Mapping[str, Figure]]
    values: Mapping[int, Mapping[str, float]]
    pairs: Sequence[PairFigure]
    group_of: Mapping[str, tuple[str, ...]]

    @property
    def every(self) -> dict[int, dict[str, Figure]]:
        """Per combination, every figure the privacy gate takes."""
        return {k: {**f, **self.extra[k]} for k, f in self.figs.items()}


def scope_figures(
    view: ScopeView,
    table: TaskTable,
    plans: Mapping[int, Plan],
    bundles: Mapping[str, Bundle],
    release: Release,
) -> ScopeFigures:
    """Every figure of the scope's scored combinations and of their pairs (§4.2)."""
    scored_plans = {k: p for k, p in plans.items() if p.result is None}
    figs = {k: figures(view, table, k, p, release) for k, p in scored_plans.items()}
    values = {k: point_values(view, table, k, p, figs[k]) for k, p in scored_plans.items()}
    failure_types = [f.id for f in release.enumerations.failure_types]
    extra = {k: gate_figures(view, table, k, p, failure_types) for k, p in scored_plans.items()}
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
    return ScopeFigures(figs, extra, values, pairs, group_of)


def aggregate_scope(
    view: ScopeView,
    table: TaskTable,
    plans: Mapping[int, Plan],
    bundles: Mapping[str, Bundle],
    release: Release,
    title: str,
    prepared: ScopeFigures | None = None,
    gated: Gated | None = None,
) -> ScopeResult:
    """All combinations' aggregates in one scope, their paired differences and rank ranges:
    figures → the privacy gate (``gated``: what it admitted; every figure without) → one
    bootstrap for all of them → each combination's scores → ranks."""
    prepared = prepared or scope_figures(view, table, plans, bundles, release)
    key = view.scope.key
    admitted = {
        k: {n for n in (*f, *prepared.extra[k]) if gated is None or gated.admitted(key, k, n)}
        for k, f in prepared.figs.items()
    }
    figs = {
        k: {n: fig for n, fig in f.items() if n in admitted[k]}
        for k, f in prepared.figs.items()
        if "score" in admitted[k]
    }
    pairs = [
        p
        for p in prepared.pairs
        if p.a in figs
        and p.b in figs
        and (gated is None or (p.a, p.b) in gated.pairs.get(key, set()))
    ]
    found, pair_found = _scope_intervals(view, release, figs, prepared.values, pairs)
    every = {}
    for k, plan in plans.items():
        combo = table.combos[k]
        if plan.result is not None:
            every[combo] = plan.result
        elif k not in figs:
            every[combo] = CombinationScores(
                combination=combo,
                status="withheld",
                note=gated.reason if gated is not None else None,
                coverage=plan.coverage,
            )
        else:
            every[combo] = score_combination(
                view,
                table,
                k,
                plan,
                figs[k],
                prepared.values[k],
                found[k],
                release,
                bundles[combo].carried_state is not None,
                admitted[k],
                bundles[combo].counts_not_recorded,
            )
            if gated is not None and gated.refused.get((key, k)):
                refused = sorted(field_name(n) for n in gated.refused[(key, k)])
                every[combo] = every[combo].model_copy(update={"withheld": refused})
    diffs = differences(table, pairs, pair_found, release.statistics.min_tasks_to_order)
    groups = _comparison_groups(every, prepared.group_of)
    outcome = release.outcome(view.scope.domain)
    return ScopeResult(
        scope=view.scope,
        title=title,
        tasks=len(view.rows),
        combinations=_ranked(every, diffs, groups, bundles, prepared.group_of, outcome.higher),
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
    """The interval of every figure of the scope and of every pair: per combination its
    figures' intervals, then the pairs'."""
    stats = release.statistics
    keys = [(k, name) for k in figs for name in figs[k]]
    flat = [figs[k][name] for k, name in keys] + [p.figure for p in pairs]
    flat_values = [values[k][name] for k, name in keys] + [p.value for p in pairs]
    found = intervals(
        flat,
        flat_values,
        stats.confidence,
        stats.min_tasks_to_resample,
    )
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


def _best_first(
    name: str,
    every: Mapping[str, CombinationScores],
    ranks: Mapping[str, tuple[int, int]],
    higher: bool,
) -> tuple[int, float, str]:
    """Best rank, then the score in the metric's direction, then the name."""
    score = every[name].task_score
    value = score.value if score is not None and score.value is not None else 0.0
    return ranks[name][0], -value if higher else value, name


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
    marks = {
        n: m
        for names in groups.values()
        for n, m in letters(
            sorted(names, key=lambda n: _best_first(n, every, ranks, higher)), diffs
        ).items()
    }
    tokenizers = {
        n: "\x1f".join((tokenizer_key(n, b.combination.model.tokenizer), *group_of[n]))
        for n, b in bundles.items()
    }
    comparable = {n: r for n, r in scored.items() if compared_on_frontier(r, "total_tokens")}
    front = pareto(comparable, tokenizers, higher)
    combos = []
    for name in sorted(every):
        r = every[name]
        if name in scored:
            best: int | None
            worst: int | None
            best, worst = ranks[name]
            if len(groups) > 1 and len(next(g for g in groups.values() if name in g)) == 1:
                best = worst = None  # alone in its comparison group: compared with none
            # a frontier needs two points of one tokenizer: alone, a combination is not compared
            peers = sum(tokenizers[o] == tokenizers[name] for o in comparable)
            on_front = (name in front) if name in comparable and peers > 1 else None
            update = {"rank": best, "rank_worst": worst, "pareto": on_front}
            r = r.model_copy(update=update | {"letters": marks[name] if best else None})
        combos.append(r)
    return combos
