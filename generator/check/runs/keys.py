"""Section 1 of the run checks: each record's task is known, its (task, run) pair is new and
its task lies in a scope the bundle covers (§4.2, §5.3)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np

from generator.check.runs.columns import Found, Records, RunChecks
from generator.errors import did_you_mean


def unknown_task(task: str, version: str, tasks: list[str], elsewhere: Mapping[str, str]) -> str:
    """Why ``task`` is not a task of ``version``: a task of another version (``elsewhere``:
    task id -> the version it belongs to), or the nearest of the version's ``tasks``."""
    text = f"{task!r} is not a task of {version}"
    if task in elsewhere:
        return f"{text}: it is a task of {elsewhere[task]}; run it under that version's folder"
    return text + did_you_mean(task, tasks)


#: No other version's tasks.
NOWHERE: Mapping[str, str] = MappingProxyType({})


def check_keys(runs: RunChecks, found: Found, elsewhere: Mapping[str, str] = NOWHERE) -> np.ndarray:
    """Report unknown tasks, repeated (task, run) pairs and runs of uncovered scopes; return
    the records that pass all three (their own fields are checked next). ``elsewhere``: the
    tasks of other versions, by id, with their version."""
    records = runs.records
    task = records.task
    known = records.code >= 0
    version, tasks = runs.release.version, runs.catalog.index.tasks
    said: dict[str, str] = {}  # once per id: a file may repeat one unknown id many times

    def message(row: int) -> str:
        name = str(task[row])
        if name not in said:
            said[name] = unknown_task(name, version, tasks, elsewhere)
        return said[name]

    found.add(np.flatnonzero(~known), "task", message)
    dup = known & _report_duplicates(records, found)
    uncovered = known & ~dup & records.per_task(runs.uncovered)
    treatment = runs.loaded.bundle.model.condition is not None
    found.add(
        np.flatnonzero(uncovered),
        "task",
        lambda r: (
            f"{task[r]!r} is not a target task of the bundle's experiment; a treatment "
            "bundle runs only its experiment's targets"
            if treatment
            else f"{task[r]!r} lies in a scope the bundle declares not covered; remove the "
            "run or the declaration"
        ),
    )
    keyed: np.ndarray = known & ~dup & ~uncovered
    return keyed


def _report_duplicates(records: Records, found: Found) -> np.ndarray:
    """Report every record of a known task but the first of its (task, run); return them."""
    nth, first_of = _groups(records.code, records.run)
    dup = (records.code >= 0) & (nth > 0)
    task, run, lines = records.task, records.run, records.line
    found.add(
        np.flatnonzero(dup),
        "run",
        lambda r: (
            f"duplicate record for task {task[r]!r} run {run[r]} "
            f"(first on line {lines[first_of[r]]}); one record per (combination, task, run)"
        ),
    )
    return dup


def _groups(code: np.ndarray, run: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per record: its rank among the records of its (task code, run), in file order, and
    the row of the first of them. A known task's code stands for its id."""
    n = len(code)
    order = np.lexsort((run, code))
    sorted_t, sorted_r = code[order], run[order]
    starts = np.ones(n, dtype=bool)
    starts[1:] = (sorted_t[1:] != sorted_t[:-1]) | (sorted_r[1:] != sorted_r[:-1])
    group_start = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    nth = np.empty(n, np.int64)
    nth[order] = np.arange(n) - group_start
    first_of = np.empty(n, np.int64)
    first_of[order] = order[group_start]
    return nth, first_of
