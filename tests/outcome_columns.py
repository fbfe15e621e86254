"""The run outcome by the column implementation (:mod:`generator.protocol.outcome`), one
record at a time, in the oracle's form: the tasks' items and the records' verdicts, failed
modules and measured values written out as columns, to be met against the per-record oracle
(``outcome_oracle.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from outcome_oracle import RunOutcome

from generator.models import RunRecord, Task
from generator.protocol.outcome import (
    FATAL,
    JUDGE,
    RULE,
    Items,
    Outcome,
    Recorded,
    Verdicts,
    declare,
    item_credit,
    outcome,
    overall_credit,
    passed_items,
)


def outcomes_on_columns(tasks: list[Task], records: list[RunRecord]) -> Outcome:
    """The records' outcomes by the column implementation: the tasks' items and the
    records' verdicts, failed modules and measured values written out as columns, one at a
    time."""
    keys: dict[tuple[str, str], int] = {}
    kinds, max_levels, pass_levels, overall, modules, weights = [], [], [], [], [], []
    for t in tasks:
        for i in t.scoring.rule_items:
            keys[(t.id, i.id)] = len(kinds)
            kinds.append(FATAL if i.fatal else RULE)
            max_levels.append(1)
            pass_levels.append(1)
            overall.append(False)
            modules.append(i.module)
            weights.append(i.weight)
        for j in t.scoring.judge_items:
            keys[(t.id, j.id)] = len(kinds)
            kinds.append(JUDGE)
            max_levels.append(j.max_level)
            pass_levels.append(j.passing_level)
            overall.append(j.overall)
            modules.append(j.module)
            weights.append(j.weight)
    items = Items(
        np.array(kinds, np.int64),
        np.array(max_levels, np.int64),
        np.array(pass_levels, np.int64),
        np.array(overall, bool),
        np.array(weights, np.float64),
    )
    columns: dict[str, list[Any]] = {"row": [], "item": [], "value": [], "failed": []}
    failed_rows, failed_items = [], []
    for row, r in enumerate(records):
        lists = [(v.id, float(v.passed)) for v in (*r.rules, *r.fatal)]
        for key, value in [*lists, *((v.id, v.level) for v in r.judge)]:
            item = keys[(r.task, key)]
            columns["row"].append(row)
            columns["item"].append(item)
            columns["value"].append(value)
            columns["failed"].append(modules[item] in r.modules_failed)
        for (tid, _), item in keys.items():
            if tid == r.task and modules[item] in r.modules_failed:
                failed_rows.append(row)
                failed_items.append(item)
    item = np.array(columns["item"], np.int64)
    verdicts = Verdicts(
        runs=len(records),
        row=np.array(columns["row"], np.int64),
        item=item,
        kind=items.kind[item],
        value=np.array(columns["value"], np.float64),
        failed=np.array(columns["failed"], bool),
    )
    counts = np.array([_counts(t) for t in tasks], np.int64)
    per_task = declare([t.scoring for t in tasks], counts)  # per task, then per run
    code = {t.id: k for k, t in enumerate(tasks)}
    per_run = per_task.of_runs(np.array([code[r.task] for r in records], np.int64))
    by_id = {t.id: t for t in tasks}
    recorded = Recorded(
        valid=np.array([r.status == "valid" for r in records], bool),
        delivery=np.array([r.delivery for r in records], bool),
        judged=np.array([r.judge_valid is True for r in records], bool),
        measure=np.array([_measured(by_id[r.task], r) for r in records], np.float64),
    )
    failed = (np.array(failed_rows, np.int64), np.array(failed_items, np.int64))
    return outcome(
        passed_items(items, verdicts),
        item_credit(items, verdicts),
        per_run,
        recorded,
        overall_credit(items, verdicts, failed),
    )


def _measured(task: Task, record: RunRecord) -> float:
    """The record's value of its task's measured metric; NaN when none (or not measured)."""
    values = {m.id: m.value for m in record.measures}
    return values.get(task.scoring.measure or "", float("nan"))


def _counts(task: Task) -> list[int]:
    """The task's items of each kind (in the order of the kinds)."""
    s = task.scoring
    counts = [0, 0, 0]
    for i in s.rule_items:
        counts[FATAL if i.fatal else RULE] += 1
    counts[JUDGE] = len(s.judge_items)
    return counts


def _or_none(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


def on_columns(task: Task, record: RunRecord) -> RunOutcome:
    """One valid record's outcome by the column implementation, in the oracle's form."""
    out = outcomes_on_columns([task], [record])
    return RunOutcome(
        rule=float(out.rule[0]),
        judge=_or_none(out.judge[0]),
        score=float(out.score[0]),
        success=bool(out.success[0]),
        fatal_failed=bool(out.fatal_failed[0]),
        overall=_or_none(out.overall[0]),
    )


Implementation = Callable[[Task, RunRecord], RunOutcome]
