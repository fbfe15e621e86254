"""An experiment's paired changes: each treatment bundle against its baseline on the
experiment's target tasks (§4.2: tasks are the sampling unit; §4.4: held-out tasks never
per task).

A cell (level × consumer) is the mean over the targets both sides scored of (treatment task
mean − baseline task mean) of the domain's outcome; a level's mean change is the mean over
the same tasks of (its consumers' mean treatment − their mean baseline). Every figure of an
experiment is resampled from one set of draws of its targets (pairing), with the release's
interval method (:func:`generator.score.intervals.intervals`: over resampled tasks from
``statistics.min_tasks_to_resample`` tasks on, else the run noise of those tasks).

A change over targets that hold 1 to ``groups.min_held_out_aggregate − 1`` held-out tasks is
withheld (it would nearly isolate them); per-task changes are reported for public targets
only, and not at all when the targets' held-out remainder is that small (the mean less the
public tasks' changes would be its sum).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from generator.check.experiments import baselines
from generator.load import LoadedRelease
from generator.models import Bundle, Release
from generator.models.profile import Experiment
from generator.score.changes import Change, ExperimentResult, TaskChange
from generator.score.frame import VersionFrame, build_frame
from generator.score.intervals import (
    Figure,
    difference,
    figure,
    intervals,
    run_noise_interval,
    task_weights,
)
from generator.score.runs import score_runs
from generator.score.scope import Scope
from generator.score.stats import seed_for
from generator.score.table import TaskTable, task_table


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


def experiment_results(version: LoadedRelease) -> dict[str, list[ExperimentResult]]:
    """Each domain's experiments, from the version's published bundles (treatments
    included); none when the release declares none."""
    assert version.release is not None
    release = version.release.model
    if not release.profile.experiments:
        return {}
    frame = build_frame(_compared(version, release), consented_only=True)
    runs = score_runs(frame)
    out: dict[str, list[ExperimentResult]] = {}
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


def experiment_result(
    frame: VersionFrame, runs: pd.DataFrame, experiment: Experiment
) -> ExperimentResult:
    """The experiment's cells, level means and public per-task changes (module docstring)."""
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
    minimum = release.groups.min_held_out_aggregate
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
    changes = _intervals(release, frame.version, known, figures, minimum)
    consumers = sorted({p.consumer for p in found})
    return ExperimentResult(
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
        tasks=_task_changes(targets, found, index, release) if _per_task(held, minimum) else [],
        tasks_withheld=_tasks_withheld(held, minimum),
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
    minimum: int,
) -> list[Change]:
    """Every change of the experiment with its interval, from one set of draws of its targets;
    withheld where it rests on no task, on 1 to ``minimum − 1`` held-out tasks, or (a
    level's mean) on consumers scored on different targets."""
    stats = release.statistics
    shown = [i for i, (_, f, _, held) in enumerate(figures) if _reason(f, held, minimum) is None]
    weights = task_weights(
        len(known), stats.bootstrap_samples, seed_for(stats.seed, seed_for(version, *known))
    )
    found = intervals(
        weights,
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
                withheld=_reason(f, held, minimum),
            )
        )
    return out


def _reason(f: Figure, held: int, minimum: int) -> str | None:
    """Why a change is not shown, if it is not."""
    if held < 0:
        return (
            "its consumers were scored on different target tasks, so their mean change "
            "would set different tasks against each other"
        )
    if not f.tasks:
        return "no target task has valid runs of both the treatment and its baseline"
    if 0 < held < minimum:
        return (
            f"it rests on {held} held-out task{'s' if held > 1 else ''}, fewer than the "
            f"{minimum} a held-out aggregate needs (§4.4)"
        )
    return None


def _per_task(held: np.ndarray, minimum: int) -> bool:
    """Whether per-task changes of the public targets may be shown: the targets' held-out
    remainder is none, or at least ``minimum`` tasks (else the mean change less the public
    tasks' changes would give the sum of a few held-out ones)."""
    remainder = int(held.sum())
    return remainder == 0 or remainder >= minimum


def _tasks_withheld(held: np.ndarray, minimum: int) -> str | None:
    """What of the per-task changes is not shown, and why."""
    remainder = int(held.sum())
    if not remainder:
        return None
    noun = "task" if remainder == 1 else "tasks"
    if not _per_task(held, minimum):
        return (
            f"No per-task change is shown: the targets hold {remainder} held-out {noun}, "
            f"fewer than {minimum}, and a change over the targets less the public tasks' "
            "would give their sum (§4.4)."
        )
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
