"""Section 3, missing verdicts: a valid run records every item of each list, but the items
of the modules it names as failed, which score 0 and stay in the denominator (§4.2(1))."""

from __future__ import annotations

import numpy as np

from generator.check.runs.columns import Found, ItemChecks
from generator.protocol.items import KIND_NAMES
from generator.protocol.outcome import JUDGE, KINDS


def check_missing(checks: ItemChecks, repeated: np.ndarray, found: Found) -> None:
    """Report each list of a valid open record that lacks verdicts. Counts find the
    candidates (fewer verdicts than items, or a repeated item); only they are looked at
    item by item. ``repeated``: per verdict, its item repeats in its record."""
    rows = np.flatnonzero(_candidates(checks, repeated))
    if not len(rows):
        return
    by_row = _allowed_verdicts_by_row(checks, rows)
    failed = set(zip(checks.failed.rows.tolist(), checks.failed.items.tolist(), strict=True))
    judged = _judged(checks)
    for row in rows.tolist():
        for kind in range(KINDS):
            if kind != JUDGE or judged[row]:
                _report_absent(checks, row, kind, by_row.get(row, []), failed, found)


def _judged(checks: ItemChecks) -> np.ndarray:
    """Per record: dual-channel with a valid Judge result, so its Judge list is checked."""
    records = checks.runs.records
    judged: np.ndarray = records.dual & (records.judge_valid == 1)
    return judged


def _candidates(checks: ItemChecks, repeated: np.ndarray) -> np.ndarray:
    """Per record: valid and open, with fewer counted verdicts of some kind than it should
    record, or with a repeated item."""
    runs, verdicts = checks.runs, checks.runs.verdicts
    records, index = runs.records, runs.catalog.index
    n = len(records)
    counted = checks.allowed & ~checks.failed.verdicts
    present = _per_record_and_kind(verdicts.row[counted], verdicts.kind[counted], n)
    failed = checks.failed
    declared = np.where((records.code >= 0)[:, None], index.counts[np.maximum(records.code, 0)], 0)
    expected = declared - _per_record_and_kind(failed.rows, index.kind[failed.items], n)
    repeated_rows = np.zeros(n, bool)
    repeated_rows[verdicts.row[repeated]] = True
    short = (present < expected) | repeated_rows[:, None]
    short[:, JUDGE] &= _judged(checks)
    candidates: np.ndarray = checks.open & records.valid & short.any(axis=1)
    return candidates


def _per_record_and_kind(rows: np.ndarray, kinds: np.ndarray, n: int) -> np.ndarray:
    """How many of the (row, kind) pairs fall on each record and kind (n × kinds)."""
    key = rows.astype(np.int64) * KINDS + kinds
    return np.bincount(key, minlength=n * KINDS).reshape(n, KINDS)


def _allowed_verdicts_by_row(checks: ItemChecks, rows: np.ndarray) -> dict[int, list[int]]:
    """The allowed verdicts of each of ``rows``."""
    row = checks.runs.verdicts.row
    candidate = np.zeros(len(checks.runs.records), bool)
    candidate[rows] = True
    chosen = np.flatnonzero(candidate[row] & checks.allowed)
    if not len(chosen):
        return {}
    ordered = chosen[np.argsort(row[chosen], kind="stable")]
    keys, starts = np.unique(row[ordered], return_index=True)
    groups = np.split(ordered, starts[1:])
    return {int(k): g.tolist() for k, g in zip(keys.tolist(), groups, strict=True)}


def _report_absent(
    checks: ItemChecks,
    row: int,
    kind: int,
    mine: list[int],
    failed: set[tuple[int, int]],
    found: Found,
) -> None:
    """Report the items of ``kind`` that record ``row`` lacks (``mine``: its allowed
    verdicts), but those of its failed modules (``failed``: (row, item) pairs)."""
    verdicts, index = checks.runs.verdicts, checks.runs.catalog.index
    code = int(checks.runs.records.code[row])
    recorded = {index.id[verdicts.item[i]] for i in mine if verdicts.kind[i] == kind}
    task = checks.runs.records.task[row]
    absent = [
        a
        for a in index.allowed.get((str(task), kind), [])
        if a not in recorded and (row, int(index.table[code, index.id_code[a]])) not in failed
    ]
    if absent:
        found.item(
            row,
            KIND_NAMES[kind],
            f"missing verdicts for {', '.join(absent)}; a valid run records every "
            "item (or names its module in modules_failed)",
        )
