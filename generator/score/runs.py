"""Every run's scores over a whole version (§4.2–4.3), by :mod:`generator.protocol.outcome`.

The verdicts are taken bundle by bundle (:attr:`VersionFrame.parts`), so the temporary arrays
are those of one bundle, not of the whole version.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from generator.memory import release_unused_memory
from generator.protocol.outcome import (
    KINDS,
    Declared,
    Items,
    Recorded,
    Verdicts,
    group_credit,
    in_failed_module,
    item_credit,
    outcome,
    overall_credit,
    passed_items,
)
from generator.score.frame import DECLARED, BundleVerdicts, VersionFrame


def score_runs(frame: VersionFrame) -> pd.DataFrame:
    """The runs table plus ``rule``, ``judge``, ``score``, ``success`` and ``fatal_failed``
    (:func:`_score_runs`), the memory of its temporaries given back to the system: the
    bootstrap's threads, which come next, could not reuse it."""
    scored = _score_runs(frame)
    release_unused_memory()
    return scored


def _score_runs(frame: VersionFrame) -> pd.DataFrame:
    """The runs table plus each run's :class:`~generator.protocol.outcome.Outcome` (R, J, S,
    success, a fatal item failed; NaN scores for evaluation-incomplete runs), its domain and
    version."""
    runs = frame.runs.copy(deep=False)  # copy on write: the new columns stay in this copy
    at = frame.tasks.index.get_indexer(pd.Index(runs["task"]))
    assert (at >= 0).all(), "score_runs needs checked runs"
    passed, credit, overall, grouped = _tallies(frame)
    recorded = Recorded(
        valid=runs["valid"].to_numpy(dtype=bool),
        delivery=runs["delivery"].to_numpy(dtype=bool),
        judged=runs["judge_valid"].to_numpy(dtype=bool),
        measure=measured_values(runs, frame.tasks["measure"].to_numpy()[at]),
    )
    declared = task_declarations(frame.tasks).of_runs(at)
    out = outcome(passed, credit, declared, recorded, overall)
    runs["overall"] = out.overall
    judged = ~np.isnan(out.judge)  # a valid run with its Judge channel scored
    valid = ~np.isnan(out.score)
    # A run zeroed before a valid Judge result has J = 0, every item at its lowest level
    # (§4.3(2)): so has each judged group of its task, and J stays the weighted sum of its
    # groups run by run (the privacy gate relies on it: score/functionals.py).
    lowest = judged & ~recorded.judged
    for name, values in grouped.items():  # judged groups where judged, a rule class where valid
        if name.startswith(JUDGED):
            floor = lowest & ~np.isnan(values)  # NaN: the task has no item of the group
            runs[name] = np.where(judged, np.where(floor, 0.0, values), np.nan)
        else:
            runs[name] = np.where(valid, values, np.nan)
    runs["rule"] = out.rule
    runs["judge"] = out.judge
    runs["score"] = out.score
    runs["success"] = out.success
    runs["fatal_failed"] = out.fatal_failed
    runs["domain"] = frame.tasks["domain"].to_numpy()[at]
    runs["version"] = frame.version
    return runs


def task_declarations(tasks: pd.DataFrame) -> Declared:
    """Each task's declaration, from the frame's task table (in its row order), where
    :func:`~generator.protocol.outcome.declare` put it."""
    counts = tasks[["n_rule", "n_fatal", "n_judge"]].to_numpy(np.int64)
    # columns in the order of the kinds: RULE, FATAL, JUDGE
    return Declared(items=counts, **{name: tasks[name].to_numpy() for name in DECLARED})


def measured_values(runs: pd.DataFrame, measure: np.ndarray) -> np.ndarray:
    """Per run, the value of its task's measured metric (``measure``: the metric's id per run,
    "" when the task is not a measure task); NaN where the run records none."""
    out = np.full(len(runs), np.nan)
    for metric in sorted(set(measure.tolist()) - {""}):
        mine = measure == metric
        if metric in runs:
            out[mine] = runs[metric].to_numpy(dtype=np.float64)[mine]
    return out


def _tallies(
    frame: VersionFrame,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Items passed and credit per run and kind (runs × kinds), the judged overall's credit
    per run and each judged dimension's score per run (column ``dimension:<id>``: the mean
    g/G of its task's items of that dimension; NaN where the task has none), bundle by
    bundle."""
    items = frame.items
    declared = Items(
        kind=items["kind"].to_numpy(),
        max_level=items["max_level"].to_numpy(),
        pass_level=items["pass_level"].to_numpy(),
        overall=items["overall"].to_numpy(dtype=bool),
        weight=items["weight"].to_numpy(dtype=np.float64),
    )
    passed, credit = np.zeros((len(frame.runs), KINDS)), np.zeros((len(frame.runs), KINDS))
    overall = np.full(len(frame.runs), np.nan)
    groups = {column: sorted(set(items[column]) - {""}) for column in GROUPED}
    codes = {
        column: np.array([names.index(d) if d else -1 for d in items[column]], np.int64)
        for column, names in groups.items()
    }
    sums = {column: np.zeros((len(frame.runs), len(names))) for column, names in groups.items()}
    for part in frame.parts:
        item = part.item
        failed = _failed_pairs(part, frame.failed)
        verdicts = Verdicts(
            runs=part.runs,
            row=part.row,
            item=item,
            kind=declared.kind[item],
            value=part.value,
            failed=in_failed_module(part.row, item, *failed, len(items)),
        )
        span = slice(part.start, part.start + part.runs)
        passed[span] = passed_items(declared, verdicts)
        credit[span] = item_credit(declared, verdicts)
        overall[span] = overall_credit(declared, verdicts, failed)
        for column, names in groups.items():
            if names:
                sums[column][span] = group_credit(
                    declared, verdicts, codes[column], len(names), column in JUDGED_GROUPS
                )
    shares = {
        f"{column}:{name}": values
        for column, names in groups.items()
        for name, values in _per_group(frame, column, names, sums[column]).items()
    }
    return passed, credit, overall, shares


#: Item groups scored per run: the judged dimensions (``dimension:<id>``) and channels
#: (``channel:<id>``), each the weighted mean g/G of its items like J, and the rule classes
#: (``rule_class:<id>``, share of its rule items passed).
GROUPED = ("dimension", "channel", "rule_class")
#: The groups of Judge items: weighted like J, and scored where the Judge result is valid.
JUDGED_GROUPS = ("dimension", "channel")
JUDGED = tuple(f"{g}:" for g in JUDGED_GROUPS)
#: The run columns of the item groups (``dimension:``, ``channel:``, ``rule_class:``).
GROUP_PREFIXES = tuple(f"{g}:" for g in GROUPED)


def _per_group(
    frame: VersionFrame, column: str, names: list[str], sums: np.ndarray
) -> dict[str, np.ndarray]:
    """Each group's per-run score: its items' credit over the run's task's items of it, or
    their weights for a group of Judge items (NaN where the task has none)."""
    if not names:
        return {}
    grouped = frame.items[(frame.items[column] != "") & ~frame.items["overall"]]
    by = grouped.groupby(["task", column])
    per_task = (by["weight"].sum() if column in JUDGED_GROUPS else by.size()).unstack(fill_value=0)
    counts = per_task.reindex(index=frame.tasks.index, columns=names, fill_value=0).to_numpy()
    at = frame.tasks.index.get_indexer(pd.Index(frame.runs["task"]))
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = np.where(counts[at] > 0, sums / counts[at], np.nan)
    return {name: scores[:, i] for i, name in enumerate(names)}


def _failed_pairs(part: BundleVerdicts, failed: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The (run row within ``part``, item) pairs of ``failed`` on the part's runs."""
    rid = failed["rid"].to_numpy()
    mine = (rid >= part.start) & (rid < part.start + part.runs)
    return rid[mine].astype(np.int64) - part.start, failed["item"].to_numpy()[mine]


def failed_verdicts(
    part: BundleVerdicts, failed: pd.DataFrame, width: int, item: np.ndarray | None = None
) -> np.ndarray:
    """Whether each verdict of ``part`` is of an item whose module its run names as failed
    (:func:`~generator.protocol.outcome.in_failed_module`).

    ``failed`` holds (``rid``, ``item``) pairs; ``width`` exceeds every item key; ``item``:
    the part's items when already at hand.
    """
    items = part.item if item is None else item
    return in_failed_module(part.row, items, *_failed_pairs(part, failed), width)
