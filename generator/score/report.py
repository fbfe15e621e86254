"""Assemble every aggregate of one (version, domain) into a :class:`Report`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from generator.load import LoadedRelease
from generator.models import Release
from generator.score.aggregate import aggregate_scope, scope_figures
from generator.score.agreement import Rated, agreement
from generator.score.changes import with_verdicts
from generator.score.cuts import cut_column
from generator.score.declared import decided
from generator.score.experiments import Measured, experiment_results
from generator.score.frame import VersionFrame, build_frame
from generator.score.gating import Gated, gate_domain
from generator.score.gating_others import gate_agreement, gate_experiments
from generator.score.intervals import Figure, figure, task_variances
from generator.score.intervals import newcombe as newcombe_interval
from generator.score.plan import Plan, plan_combination
from generator.score.results import (
    CombinationInfo,
    Contamination,
    Estimate,
    Report,
    ScopeResult,
    Settings,
    TaskRow,
)
from generator.score.runs import GROUP_PREFIXES, score_runs
from generator.score.scope import GROUPS, Scope
from generator.score.sets import compare_sets
from generator.score.shown import scopes_shown
from generator.score.stats import t_value
from generator.score.table import (
    CHANNELS,
    ScopeView,
    TaskTable,
    covered_tasks,
    task_table,
)


def published_frame(version: LoadedRelease) -> VersionFrame:
    """The version's columns without bundles that lack publication consent (§7.2), and
    without the treatment bundles of experiments: every board, table and download rests on
    this frame, and a treatment is shown only in its experiment's results."""
    return build_frame(version, consented_only=True, treatments=False)


def _settings(release: Release) -> Settings:
    stats = release.statistics
    return Settings(
        confidence=stats.confidence,
        bootstrap_samples=stats.bootstrap_samples,
        seed=stats.seed,
        runs_per_task=release.runs_per_task,
        reliability_k=list(release.reliability_k),
        min_held_out_aggregate=release.groups.min_held_out_aggregate,
        min_tasks_to_resample=stats.min_tasks_to_resample,
        min_tasks_to_order=stats.min_tasks_to_order,
    )


def build_report(
    version: LoadedRelease,
    domain_id: str,
    frame: VersionFrame | None = None,
    runs: pd.DataFrame | None = None,
    experiments: Sequence[Measured] | None = None,
) -> Report:
    """Every number the site shows for one domain of one version: the task table → the
    scopes it is cut into → each scope's aggregates → what is decided of them (orders, the
    declared views' scopes, ranks and frontiers) → the public tasks and the contamination
    signal.

    ``frame`` and its scored ``runs`` may be passed in when already computed for the version,
    and so may the domain's ``experiments`` (:func:`experiment_results`).
    """
    frame = published_frame(version) if frame is None else frame
    release = frame.release
    domain = release.domain(domain_id)
    runs = score_runs(frame) if runs is None else runs
    whole = Scope(version=frame.version, domain=domain_id)
    primary = domain.task_sets[0].id if domain.task_sets else None
    table = task_table(
        frame.tasks, runs, sorted(frame.bundles), whole, extra_columns(runs, release), primary
    )
    shown = scopes_shown(table, domain, release)
    scopes, by_key, gated = _aggregate_scopes(table, shown, frame)
    infos = [_info(frame, c) for c in sorted(frame.bundles)]
    scopes = decided(scopes, release, infos)
    measured = (
        experiment_results(version).get(domain_id, []) if experiments is None else experiments
    )
    sets = compare_sets(table, scopes, domain, release)
    return Report(
        version=frame.version,
        domain=domain_id,
        domain_title=domain.title,
        illustrative=release.illustrative,
        notice=release.notice,
        settings=_settings(release),
        combinations=infos,
        scopes=scopes,
        tasks=_task_rows(frame, table),
        contamination=_contamination(table, by_key, {r.scope.key: r for r in scopes}, release),
        contamination_note=_contamination_note(table, {r.scope.key: r for r in scopes}),
        sets=sets,
        experiments=[
            with_verdicts(e)
            for e in gate_experiments(
                gated, table, measured, not release.outcome(domain_id).unit_interval
            )
        ],
        agreement=gate_agreement(gated, table, _agreement(version, frame, domain_id)),
    )


def _agreement(version: LoadedRelease, frame: VersionFrame, domain: str) -> list[Rated]:
    """The second raters' agreement with the Judge, where a published bundle has raters."""
    if version.catalog is None or not any(b.raters for b in version.bundles):
        return []
    return agreement(frame, version.catalog.model, version.bundles, domain)


def _aggregate_scopes(
    table: TaskTable, shown: list[ScopeResult | tuple[ScopeView, str]], frame: VersionFrame
) -> tuple[list[ScopeResult], Computed, Gated]:
    """Each shown scope's result, the views and plans of those aggregated, by key, and what
    the gate admitted: every scope's figures first, then the privacy gate over all of them
    (§4.4, :func:`~generator.score.gating.gate_domain`), then each scope's intervals and
    results."""
    release = frame.release
    views = [entry[0] for entry in shown if isinstance(entry, tuple)]
    plans = {id(view): _plans(table, view, frame, release) for view in views}
    prepared = {
        id(view): scope_figures(view, table, plans[id(view)], frame.bundles, release)
        for view in views
    }
    gated = gate_domain(
        table,
        frame.items,
        [(view, prepared[id(view)].every, prepared[id(view)].values) for view in views],
        {v.scope.key: prepared[id(v)].pairs for v in views},
        release,
    )
    # One scope after another: threads gained nothing (the matrix products use every core,
    # the rest holds the GIL), measured on the reference release: 1.8 s against 2.0 s.
    scopes = [
        entry
        if isinstance(entry, ScopeResult)
        else _gated(
            aggregate_scope(
                entry[0],
                table,
                plans[id(entry[0])],
                frame.bundles,
                release,
                entry[1],
                prepared[id(entry[0])],
                gated,
            ),
            entry[0],
            gated,
        )
        for entry in shown
    ]
    return scopes, {view.scope.key: (view, plans[id(view)]) for view in views}, gated


def _plans(
    table: TaskTable, view: ScopeView, frame: VersionFrame, release: Release
) -> dict[int, Plan]:
    return {
        k: plan_combination(view, table, k, frame.bundles[combo], release)
        for k, combo in enumerate(table.combos)
    }


def extra_columns(runs: pd.DataFrame, release: Release) -> list[str]:
    """The run columns averaged beside the channels: a judged overall and judged dimensions
    where any run has them, and the release's measured resource metrics."""
    judged = [c for c in runs.columns if c == "overall" or str(c).startswith(GROUP_PREFIXES)]
    resources = [m.id for m in release.metrics if m.measured and m.kind == "resource"]
    return [c for c in judged if runs[c].notna().any()] + [m for m in resources if m in runs]


def _info(frame: VersionFrame, combo: str) -> CombinationInfo:
    b = frame.bundles[combo]
    return CombinationInfo(
        id=combo,
        title=b.combination.title,
        harnesscard=b.combination.harnesscard,
        harness_mode=b.combination.harness_mode,
        model=b.combination.model.title,
        tokenizer=b.combination.model.tokenizer,
        evaluation=b.evaluation,
        axes=dict(b.combination.axes),
        tags=list(b.combination.tags),
        carried_state=b.carried_state,
    )


def _task_rows(frame: VersionFrame, table: TaskTable) -> list[TaskRow]:
    """Per public task and combination; held-out tasks never get a row (§4.4)."""
    public = np.flatnonzero(table.columns["group"] == "public")
    if not len(public):
        return []
    tasks = table.tasks.iloc[public]
    columns = {name: column[public] for name, column in table.columns.items()}
    scope = Scope(version=frame.version, domain=table.domain.domain, group="public")
    described = list(zip(tasks.index, tasks["title"], tasks["subdivision"], strict=True))
    rows = []
    for k, combo in enumerate(table.combos):
        covered = covered_tasks(frame.bundles[combo], scope, columns).tolist()
        valid = table.valid[k, public].tolist()
        successes = table.successes[k, public].tolist()
        score, rule, judge = (table.means[c][k, public].tolist() for c in CHANNELS)
        for j, (task, title, sub) in enumerate(described):
            found = valid[j] > 0
            rows.append(
                TaskRow(
                    task=str(task),
                    title=str(title),
                    subdivision="" if sub is None else str(sub),
                    combination=combo,
                    status="not-covered"
                    if not covered[j]
                    else "scored"
                    if found
                    else "no-valid-runs",
                    score=score[j] if found else None,
                    rule=None if not found or rule[j] != rule[j] else rule[j],
                    judge=None if not found or judge[j] != judge[j] else judge[j],
                    valid_runs=valid[j],
                    successes=successes[j],
                )
            )
    return rows


Computed = Mapping[str, tuple[ScopeView, Mapping[int, Plan]]]


def _cut_of(scope: Scope) -> tuple[str | None, str]:
    """The (column, value) of the cut a scope belongs to (:mod:`generator.score.cuts`)."""
    if scope.task_set is not None:
        return f"set:{scope.task_set}", scope.task_set
    if scope.facets:
        return cut_column([f for f, _ in scope.facets]), ",".join(v for _, v in scope.facets)
    if scope.subdivision is not None:
        return "subdivision", scope.subdivision
    return None, ""


#: Why a scope over too few held-out tasks shows no held-out figure.
SMALL = "withheld: {} held-out task(s), fewer than the {} a held-out aggregate needs (§4.4, §7.2)"


def _gated(result: ScopeResult, view: ScopeView, gated: Gated) -> ScopeResult:
    """The scope as the privacy gate leaves it: withheld whole where it refused every scored
    combination's Task Score, else with the Judge channels it refused named (§4.4, §7.2)."""
    key = view.scope.key
    combos = {c: k for k, c in enumerate(gated.combos)}
    refused = [
        c for c in result.combinations if gated.withheld(key, combos[c.combination], "score")
    ]
    scored = [c for c in result.combinations if c.status == "scored"]
    if refused and not scored:
        held = int((view.columns["group"] == "held-out").sum())
        reason = gated.reason if held >= gated.minimum else SMALL.format(held, gated.minimum)
        return ScopeResult(
            scope=result.scope, title=result.title, withheld=reason, tasks=result.tasks
        )
    channels = sorted(
        name.removeprefix("extra:channel:")
        for c in scored
        for name in gated.refused.get((key, combos[c.combination]), set())
        if name.startswith("extra:channel:")
    )
    if not channels:
        return result
    return result.model_copy(update={"channels_withheld": dict.fromkeys(channels, gated.reason)})


def _has_both(computed: Computed, version: str, domain: str) -> bool:
    return all(
        Scope(version=version, domain=domain, group=g).key in computed
        for g in ("public", "held-out")
    )


def _gap(figs: list[Figure], value: float, confidence: float) -> tuple[float, float]:
    """``value ± t · se`` of public minus held-out: the two groups' task variances added
    (independent samples of tasks), ``min(T) − 1`` degrees of freedom."""
    var = float(task_variances(figs).sum())
    half = t_value(confidence, min(f.tasks for f in figs) - 1) * float(np.sqrt(var))
    return (value - half, value + half)


def _bound(x: float | None) -> float:
    return float("nan") if x is None else x


def _contamination(
    table: TaskTable, computed: Computed, results: Mapping[str, ScopeResult], release: Release
) -> list[Contamination]:
    """Public minus held-out Task Score per combination (§4.4), the two groups' tasks
    resampled separately (each group an independent sample of tasks); each side is the Task
    Score its group's scope shows."""
    version, domain = table.domain.version, table.domain.domain
    if not _has_both(computed, version, domain):
        return []
    keys = [Scope(version=version, domain=domain, group=g).key for g in ("public", "held-out")]
    sides = [computed[key] for key in keys]
    shown = [{c.combination: c for c in results[key].combinations} for key in keys]
    public_rows = len(sides[0][0].rows)
    out = []
    for k, combo in enumerate(table.combos):
        found = [side.get(combo) for side in shown]  # a scope the gate withheld has none
        public, held = (None if f is None else f.task_score for f in found)
        if any(plans[k].result is not None for _, plans in sides) or None in (public, held):
            continue
        assert public is not None
        assert held is not None
        gap = _gap_estimate(table, k, sides, (public, held), release)
        note = (
            None
            if public.tasks == public_rows
            else f"public side over {public.tasks} of {public_rows} public tasks "
            "(incomplete or not covered); read the gap with care"
        )
        out.append(
            Contamination(combination=combo, public=public, held_out=held, gap=gap, note=note)
        )
    return out


def _gap_estimate(
    table: TaskTable,
    k: int,
    sides: Sequence[tuple[ScopeView, Mapping[int, Plan]]],
    scores: tuple[Estimate, Estimate],
    release: Release,
) -> Estimate:
    """Combination k's public − held-out gap: over the tasks of both groups when both sides
    resample tasks (:func:`_gap`), else Newcombe's interval from the two sides' bounds."""
    public, held = scores
    assert public.value is not None
    assert held.value is not None
    value = public.value - held.value
    if public.interval == held.interval == "tasks":
        figs = [
            figure(
                table.means["score"][k, view.rows],
                plans[k].data,
                table.counts["score"][k, view.rows],
            )
            for view, plans in sides
        ]
        gap, basis = _gap(figs, value, release.statistics.confidence), "tasks"
    else:
        bounds = [(_bound(e.low), _bound(e.high)) for e in (public, held)]
        gap, basis = newcombe_interval(public.value, bounds[0], held.value, bounds[1]), "runs"
    return Estimate(
        value=value, low=gap[0], high=gap[1], tasks=public.tasks + held.tasks, interval=basis
    )


def _contamination_note(table: TaskTable, results: Mapping[str, ScopeResult]) -> str | None:
    """Why the domain has no contamination signal, if it has none (§4.4)."""
    version, domain = table.domain.version, table.domain.domain
    sides = [results.get(Scope(version=version, domain=domain, group=g).key) for g in GROUPS[1:]]
    if any(side is None for side in sides):
        return "needs tasks in both the public and the held-out group"
    return next((side.withheld for side in sides if side is not None and side.withheld), None)
