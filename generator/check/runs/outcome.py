"""Section 4 of the run checks: a clean valid record's failure type agrees with its outcome,
computed by :mod:`generator.protocol.outcome` as the scoring engine computes it (§4.2(3))."""

from __future__ import annotations

import numpy as np

from generator.check.runs.columns import Found, ItemChecks
from generator.check.runs.fields import failure_types
from generator.protocol.outcome import Recorded, Verdicts, passed_items, success


def check_outcome(checks: ItemChecks, found: Found) -> None:
    """A valid record without problems in its items needs a failure type if, and only if,
    it did not succeed."""
    records = checks.runs.records
    with_problem = np.zeros(len(records), dtype=bool)
    with_problem[list(found.item_rows)] = True
    clean = checks.open & records.valid & ~with_problem
    if not clean.any():
        return
    succeeded = _success(checks, clean)
    failure = records.failure
    found.add(
        np.flatnonzero(clean & ~succeeded & ~failure.present()),
        "failure_type",
        "the run did not succeed, so it needs a failure type; expected one of "
        f"{failure_types(checks.runs)}",
    )
    found.add(
        np.flatnonzero(clean & succeeded & failure.present()),
        "failure_type",
        lambda r: f"{failure[r]!r}, but the run succeeded; a successful run has no failure type",
    )


def _success(checks: ItemChecks, clean: np.ndarray) -> np.ndarray:
    """Success of each record, from the verdicts of the ``clean`` ones (every verdict of
    such a record names an item of its list, once)."""
    records, verdicts, catalog = checks.runs.records, checks.runs.verdicts, checks.runs.catalog
    keep = np.flatnonzero(clean[verdicts.row])
    counted = Verdicts(
        runs=len(records),
        row=verdicts.row[keep],
        item=verdicts.item[keep],
        kind=verdicts.kind[keep],
        value=verdicts.value[keep],
        failed=checks.failed.verdicts[keep],
    )
    recorded = Recorded(
        valid=records.valid, delivery=records.delivery, judged=records.judge_valid == 1
    )
    declared = catalog.tasks.of_runs(np.maximum(records.code, 0))
    return success(passed_items(catalog.items, counted), declared, recorded)
