"""Section 3 of the run checks: a record's item verdicts (§4.2(1), §4.3(1)–(2)).

In this order: the modules it names as failed, each verdict's item id in its list, repeated
items, passing items of failed modules, missing verdicts, Judge levels and evidence.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from generator.check.runs.columns import (
    FailedModules,
    Found,
    ItemChecks,
    Labels,
    RunChecks,
    number,
)
from generator.check.runs.evidence import check_evidence
from generator.check.runs.missing import check_missing
from generator.errors import did_you_mean
from generator.protocol.items import KIND_NAMES
from generator.protocol.outcome import FATAL, JUDGE, RULE, in_failed_module

_KIND_TEXT = {RULE: "an ordinary rule item", FATAL: "a fatal rule item", JUDGE: "a judge item"}


def check_items(runs: RunChecks, open_: np.ndarray, found: Found) -> ItemChecks:
    """Report the item verdicts of the ``open_`` records; return what the outcome check
    (section 4) needs of them."""
    failed = _check_modules(runs, open_, found)
    verdicts = runs.verdicts
    in_open = open_[verdicts.row] if len(verdicts) else np.zeros(0, bool)
    allowed = (verdicts.item >= 0) & (verdicts.item_kind == verdicts.kind)
    judge = in_open & (verdicts.kind == JUDGE) & (verdicts.item_kind == JUDGE)
    checks = ItemChecks(runs, open_, in_open, allowed, judge, failed)
    _check_ids(checks, found)
    repeated = _check_repeats(checks, found)
    _check_failed_passing(checks, repeated, found)
    check_missing(checks, repeated, found)
    _check_levels(checks, found)
    check_evidence(checks, found)
    return checks


def _check_modules(runs: RunChecks, open_: np.ndarray, found: Found) -> FailedModules:
    """Report failed modules that are not modules of the record's task; return the items of
    the named modules."""
    named: dict[tuple[int, str], None] = {}  # (row, module), in order, once each
    modules = runs.loaded.runs.modules
    if len(modules):
        m_row, m_pos = modules["row"].to_numpy(), modules["pos"].to_numpy()
        m_name = Labels(modules["module"])
        for i in np.flatnonzero(open_[m_row]).tolist():
            row, name = int(m_row[i]), str(m_name[i])
            named[(row, name)] = None
            _check_module(runs, row, name, f"modules_failed[{m_pos[i]}]", found)
    return _failed_items(runs, list(named))


def _check_module(runs: RunChecks, row: int, name: str, field: str, found: Found) -> None:
    task = runs.records.task[row]
    declared = runs.catalog.index.modules.get(str(task), [])
    if name not in declared:
        found.item(
            row,
            field,
            f"{name!r} is not a module of {task}; expected one of {declared or 'none declared'}",
        )


def _failed_items(runs: RunChecks, named: list[tuple[int, str]]) -> FailedModules:
    """The (record, item) pairs of the ``named`` (record, module) pairs, and per verdict
    whether it is one of them."""
    code, module_items = runs.records.code, runs.catalog.module_items
    rows: list[np.ndarray] = [np.empty(0, np.int64)]
    items: list[np.ndarray] = [np.empty(0, np.int64)]
    for row, name in named:
        keys = module_items.get((int(code[row]), name))
        if keys is not None:
            rows.append(np.full(len(keys), row, np.int64))
            items.append(keys)
    failed_rows, failed_items = np.concatenate(rows), np.concatenate(items)
    # an id no item of its task (-1) reads as item key ``width - 1``, which none has
    width = len(runs.catalog.index.kind) + 1
    verdicts = runs.verdicts
    marked = in_failed_module(verdicts.row, verdicts.item, failed_rows, failed_items, width)
    return FailedModules(failed_rows, failed_items, marked)


def _check_ids(checks: ItemChecks, found: Found) -> None:
    """Each verdict names an item of its list's kind in its record's task."""
    verdicts, index = checks.runs.verdicts, checks.runs.catalog.index
    task = checks.runs.records.task
    near: dict[tuple[str, str, int], str] = {}  # once per (item, task, list)
    for i in np.flatnonzero(checks.in_open & ~checks.allowed).tolist():
        row, kind, item = int(verdicts.row[i]), int(verdicts.kind[i]), verdicts.id[i]
        other = _other_list(int(verdicts.item_kind[i]))
        allowed = index.allowed.get((str(task[row]), kind), [])
        key = (str(item), str(task[row]), kind)
        if key not in near:
            near[key] = "" if other else did_you_mean(str(item), allowed)
        found.item(
            row,
            f"{KIND_NAMES[kind]}[{verdicts.pos[i]}].id",
            f"{item!r} is not {_KIND_TEXT[kind]} of {task[row]}{other}; expected one of "
            f"{allowed or 'none'}{near[key]}",
        )


def _other_list(kind: int) -> str:
    """Where an item of ``kind`` (-1: none) belongs, when listed elsewhere."""
    if kind == FATAL:
        return " (it is a fatal item: list it under 'fatal')"
    if kind == RULE:
        return " (it is an ordinary item: list it under 'rules')"
    return ""


def _check_repeats(checks: ItemChecks, found: Found) -> np.ndarray:
    """An allowed item appears once in its record (its list is its kind); returns, per
    verdict, whether its item repeats."""
    verdicts, catalog = checks.runs.verdicts, checks.runs.catalog
    counts = np.zeros(len(verdicts), np.int64)
    checked = np.flatnonzero(checks.in_open & checks.allowed)
    if len(checked):
        # an item's rank among its task's items stands for it within one run
        local = catalog.local[verdicts.item[checked]]
        key = verdicts.row[checked].astype(np.int64) * catalog.width + local
        counts[checked] = repeat_counts(key, len(checks.runs.records) * catalog.width)
    repeated: np.ndarray = counts > 1
    for i in np.flatnonzero(repeated).tolist():
        found.item(
            int(verdicts.row[i]),
            f"{KIND_NAMES[int(verdicts.kind[i])]}[{verdicts.pos[i]}].id",
            f"{verdicts.id[i]!r} appears {counts[i]} times",
        )
    return repeated


def repeat_counts(keys: np.ndarray, bound: int) -> np.ndarray:
    """How often each of ``keys`` (integers in 0..``bound``) occurs among them: counted in
    place when the range is not much larger than the keys, else by hashing."""
    if bound <= 8 * len(keys) + (1 << 20):
        counts: np.ndarray = np.bincount(keys, minlength=bound)[keys]
        return counts
    codes, _ = pd.factorize(keys)
    return np.bincount(codes)[codes]


def _check_failed_passing(checks: ItemChecks, repeated: np.ndarray, found: Found) -> None:
    """An item of a failed module is not recorded as passing: it scores 0 (§4.2(1))."""
    verdicts, index = checks.runs.verdicts, checks.runs.catalog.index
    once = checks.in_open & checks.allowed & ~repeated
    for i in np.flatnonzero(once & checks.failed.verdicts & (verdicts.value > 0)).tolist():
        found.item(
            int(verdicts.row[i]),
            f"{KIND_NAMES[int(verdicts.kind[i])]}[{verdicts.pos[i]}]",
            f"{verdicts.id[i]!r} belongs to failed module {index.module[verdicts.item[i]]!r} "
            "but is recorded as passing; items of a failed module score 0 (§4.2)",
        )


def _check_levels(checks: ItemChecks, found: Found) -> None:
    """A Judge level lies within its item's levels 0..G (§4.3(2)), and is a whole one unless
    the release allows continuous levels."""
    verdicts, index = checks.runs.verdicts, checks.runs.catalog.index
    item, value = verdicts.item, verdicts.value
    top = np.where(item >= 0, index.max_level[np.maximum(item, 0)], 0)
    above = checks.judge & (value > top)
    for i in np.flatnonzero(above).tolist():
        found.item(
            int(verdicts.row[i]),
            f"judge[{verdicts.pos[i]}].level",
            f"{number(value[i])} is above {verdicts.id[i]}'s maximum; expected 0..{top[i]}",
        )
    if checks.runs.release.profile.continuous_levels or value.dtype.kind != "f":
        return  # integer values are whole
    for i in np.flatnonzero(checks.judge & ~above & (np.mod(value, 1.0) != 0)).tolist():
        found.item(
            int(verdicts.row[i]),
            f"judge[{verdicts.pos[i]}].level",
            f"{number(value[i])} is between levels; expected a whole level 0..{top[i]}; "
            "this release does not allow continuous levels",
        )
