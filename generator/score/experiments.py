"""An experiment's paired changes: each treatment bundle against its baseline on the
experiment's target tasks (§4.2: tasks are the sampling unit; §4.4: held-out tasks never
per task).

A cell (level × consumer) is the mean over the targets both sides scored of (treatment task
mean − baseline task mean) of the domain's outcome; a level's mean change is the mean over
the same tasks of (its consumers' mean treatment − their mean baseline). Every figure of an
experiment is resampled from one set of draws of its targets (pairing), with the release's
interval method (:func:`generator.score.intervals.intervals`: over resampled tasks from
``statistics.min_tasks_to_resample`` tasks on, else the run noise of those tasks).

Per-task changes are reported for public targets only. Whether a change over held-out
targets is published is the privacy gate's decision, with everything else the domain
publishes (:mod:`generator.score.gating_others`): each change carries what it rests on
(:class:`Support`) for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from generator.load import LoadedRelease
from generator.models import Bundle, Release
from generator.models.profile import Experiment
from generator.protocol.experiments import baselines
from generator.score.changes import Change, ExperimentResult, TaskChange
from generator.score.frame import VersionFrame, build_frame
from generator.score.intervals import (
    Figure,
    difference,
    figure,
    intervals,
    run_noise_interval,
)
from generator.score.runs import score_runs
from generator.score.scope import Scope
from generator.score.table import TaskTable, task_table


@dataclass(frozen=True)
class Support:
    """What a change rests on, for the privacy gate: its target tasks (both sides scored),
    its (treatment, consumer) pairs, averaged, and each side's valid runs per task (in the
    order of ``tasks``)."""

    tasks: tuple[str, ...]
    pairs: tuple[tuple[str, str], ...]
    runs: Mapping[str, tuple[int, ...]]


@dataclass(frozen=True)
class Measured:
    """An experiment's result before the privacy gate, and what each change rests on, by
    (level, consumer; None for the level's mean)."""

    result: ExperimentResult
    supports: Mapping[tuple[str, str | None], Support]


@dataclass(frozen=True)
class Pair:
    """A treatment bundle and its baseline (the consumer) at one level."""

    level: str
    consumer: str
    treatment: str


def pairs(release: Release, bundles: Mapping[str, Bundle], experiment: Experiment) -> list[Pair]:
    """The experiment's treatments with their baselines, both published, by level (declared
    order) then consumer (id order)."""
    found = baselines(release, list(bundles.values()))
    out = []
    for combo, bundle in bundles.items():
        condition = bundle.condition
        candidates = found.get(combo, [])
        if condition is None or condition.experiment != experiment.id or len(candidates) != 1:
            continue
        out.append(Pair(condition.level, candidates[0].combination.id, combo))
    order = {v.id: i for i, v in enumerate(experiment.levels)}
    return sorted(out, key=lambda p: (order.get(p.level, len(order)), p.consumer, p.treatment))


def experiment_results(version: LoadedRelease) -> dict[str, list[Measured]]:
    """Each domain's experiments, from the version's published bundles (treatments
    included), before the privacy gate; none when the release declares none."""
    assert version.release is not None
    release = version.release.model
    if not release.profile.experiments:
        return {}
    frame = build_frame(_compared(version, release), consented_only=True)
    runs = score_runs(frame)
    out: dict[str, list[Measured]] = {}
    for experiment in release.profile.experiments:
        out.setdefault(experiment.domain, []).append(experiment_result(frame, runs, experiment))
    return out


def _compared(version: LoadedRelease, release: Release) -> LoadedRelease:
    """The version with only its treatment bundles and their baselines: the others are
    scored for the boards already, and play no part in an experiment."""
    found = baselines(release, [b.bundle.model for b in version.bundles])
    kept = {c.combination.id for candidates in found.values() for c in candidates} | set(found)
    chosen = tuple(b for b in version.bundles if b.bundle.model.combination.id in kept)
    return replace(version, bundles=chosen)


@dataclass(frozen=True)
class _Targets:
    """The experiment's targets as rows of the domain's task table, in id order."""

    table: TaskTable
    rows: np.ndarray
    held: np.ndarray  # per target row: held-out
    unbounded: bool  # the outcome is a measure not confined to [0, 1]

    def side(self, ks: Sequence[int], mask: np.ndarray) -> Figure:
        """The mean over combinations ``ks`` of their task means, as a figure over ``mask``:
        its runs are theirs together, its run spread that of the mean."""
        at = np.ix_(np.asarray(ks, dtype=np.intp), self.rows)
        means = self.table.means["score"][at]
        runs = self.table.counts["score"][at]
        values = means.mean(axis=0)
        total = runs.sum(axis=0)
        if not self.unbounded:
            return figure(values, mask, total)
        spread = self.table.spread["score"][at]
        with np.errstate(invalid="ignore", divide="ignore"):
            own = total * np.sum(spread / runs, axis=0) / len(ks) ** 2
        return figure(values, mask, total, spread=own)

    def scored(self, k: int) -> np.ndarray:
        return np.asarray(self.table.counts["score"][k, self.rows] > 0)


def experiment_result(frame: VersionFrame, runs: pd.DataFrame, experiment: Experiment) -> Measured:
    """The experiment's cells, level means and public per-task changes (module docstring),
    with what each change rests on."""
    release = frame.release
    found = pairs(release, frame.bundles, experiment)
    combos = sorted({c for p in found for c in (p.consumer, p.treatment)})
    whole = Scope(version=frame.version, domain=experiment.domain)
    table = task_table(frame.tasks, runs, combos, whole)
    known = sorted(t for t in set(experiment.targets) if t in table.tasks.index)
    rows = np.sort(table.tasks.index.get_indexer(pd.Index(known)))
    held = table.columns["group"][rows] == "held-out"
    outcome = release.outcome(experiment.domain)
    targets = _Targets(table, rows, held, not outcome.unit_interval)
    index = {c: k for k, c in enumerate(table.combos)}
    figures: list[tuple[Pair | str, Figure, float, int]] = []
    masks = {
        p: targets.scored(index[p.treatment]) & targets.scored(index[p.consumer]) for p in found
    }
    for p in found:
        figures.append((p, *_change(targets, [index[p.treatment]], [index[p.consumer]], masks[p])))
    for level in dict.fromkeys(p.level for p in found):
        mine = [p for p in found if p.level == level]
        mask = masks[mine[0]]
        ks = ([index[p.treatment] for p in mine], [index[p.consumer] for p in mine])
        f, value, count = _change(targets, *ks, mask)
        same = all(np.array_equal(masks[p], mask) for p in mine)
        figures.append((level, f, value, count if same else -1))
    changes = _intervals(release, frame.version, known, figures)
    consumers = sorted({p.consumer for p in found})
    supports: dict[tuple[str, str | None], Support] = {
        (p.level, p.consumer): _support(targets, [p], index, masks[p]) for p in found
    }
    for level in dict.fromkeys(p.level for p in found):
        mine = [p for p in found if p.level == level]
        supports[(level, None)] = _support(targets, mine, index, masks[mine[0]])
    result = ExperimentResult(
        id=experiment.id,
        title=experiment.title,
        factor=experiment.factor,
        baseline=experiment.baseline,
        metric=outcome.title,
        higher=outcome.higher,
        levels={v.id: v.title for v in experiment.levels},
        consumers={c: frame.bundles[c].combination.title for c in consumers},
        sources=len(set(experiment.sources)),
        targets=len(known),
        public_targets=int((~held).sum()),
        held_out_targets=int(held.sum()),
        cells=[c for c in changes if c.consumer is not None],
        level_means=[c for c in changes if c.consumer is None],
        tasks=_task_changes(targets, found, index, release),
        tasks_withheld=_tasks_withheld(held),
    )
    return Measured(result, supports)


def _support(
    targets: _Targets,
    mine: Sequence[Pair],
    index: Mapping[str, int],
    mask: np.ndarray,
) -> Support:
    table, rows = targets.table, targets.rows[mask]
    sides = {c for p in mine for c in (p.treatment, p.consumer)}
    return Support(
        tasks=tuple(str(t) for t in table.tasks.index[rows]),
        pairs=tuple((p.treatment, p.consumer) for p in mine),
        runs={c: tuple(int(n) for n in table.counts["score"][index[c], rows]) for c in sides},
    )


def _change(
    targets: _Targets, treated: Sequence[int], base: Sequence[int], mask: np.ndarray
) -> tuple[Figure, float, int]:
    """The paired difference of the two sides over ``mask``, its value (summed as a paired
    difference of the boards is) and the held-out tasks it rests on."""
    a, b = targets.side(treated, mask), targets.side(base, mask)
    gaps = np.ascontiguousarray((a.num - b.num)[mask])
    value = float(gaps.sum() / float(mask.sum())) if mask.any() else float("nan")
    return difference(a, b), value, int(targets.held[mask].sum())


def _intervals(
    release: Release,
    version: str,
    known: Sequence[str],
    figures: Sequence[tuple[Pair | str, Figure, float, int]],
) -> list[Change]:
    """Every change of the experiment with its interval, from one set of draws of its targets;
    withheld where it rests on no task or (a level's mean) on consumers scored on different
    targets; the privacy gate decides the rest."""
    stats = release.statistics
    shown = [i for i, (_, f, _, held) in enumerate(figures) if _reason(f, held) is None]
    found = intervals(
        [figures[i][1] for i in shown],
        [figures[i][2] for i in shown],
        stats.confidence,
        stats.min_tasks_to_resample,
    )
    by_index = dict(zip(shown, found, strict=True))
    out = []
    for i, (key, f, value, held) in enumerate(figures):
        got = by_index.get(i)
        level, consumer, treatment = (
            (key.level, key.consumer, key.treatment) if isinstance(key, Pair) else (key, None, None)
        )
        out.append(
            Change(
                level=level,
                consumer=consumer,
                treatment=treatment,
                value=None if got is None else value,
                low=None if got is None else got.low,
                high=None if got is None else got.high,
                tasks=f.tasks,
                interval="tasks" if got is None else got.basis,
                held_out=max(held, 0),
                withheld=_reason(f, held),
            )
        )
    return out


def _reason(f: Figure, held: int) -> str | None:
    """Why a change is not formed, if it is not."""
    if held < 0:
        return (
            "its consumers were scored on different target tasks, so their mean change "
            "would set different tasks against each other"
        )
    if not f.tasks:
        return "no target task has valid runs of both the treatment and its baseline"
    return None


def _tasks_withheld(held: np.ndarray) -> str | None:
    """What of the per-task changes is not shown, and why."""
    remainder = int(held.sum())
    if not remainder:
        return None
    noun = "task" if remainder == 1 else "tasks"
    return (
        f"The per-task changes of the {remainder} held-out target {noun} are withheld: a "
        "held-out task never appears on its own (§4.4)."
    )


def _task_changes(
    targets: _Targets, found: Sequence[Pair], index: Mapping[str, int], release: Release
) -> list[TaskChange]:
    """Each public target's change per cell where both sides scored it, with the run noise
    of the two sides (a single task is never resampled)."""
    table, out = targets.table, []
    confidence = release.statistics.confidence
    for j, row in enumerate(targets.rows.tolist()):
        if targets.held[j]:
            continue  # a held-out task's per-task figure is never reported (§4.4)
        mask = np.zeros(len(targets.rows), dtype=bool)
        mask[j] = True
        for p in found:
            kt, kb = index[p.treatment], index[p.consumer]
            counts = table.counts["score"]
            if not (counts[kt, row] > 0 and counts[kb, row] > 0):
                continue
            f, value, _ = _change(targets, [kt], [kb], mask)
            low, high = run_noise_interval(f, value, confidence)
            finite = bool(np.isfinite(low) and np.isfinite(high))
            out.append(
                TaskChange(
                    level=p.level,
                    consumer=p.consumer,
                    task=str(table.tasks.index[row]),
                    title=str(table.tasks["title"].iloc[row]),
                    treatment=float(table.means["score"][kt, row]),
                    baseline=float(table.means["score"][kb, row]),
                    value=value,
                    low=low if finite else None,
                    high=high if finite else None,
                    treatment_runs=int(counts[kt, row]),
                    baseline_runs=int(counts[kb, row]),
                )
            )
    return out
