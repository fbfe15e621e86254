"""Section 2, a record's counts and measures against the release's declared metrics (§4.2):

- the counts (tokens, duration, turns) a declared metric is computed from are recorded by
  every valid run,
  unless the bundle says its source did not record them (``counts_not_recorded``);
- each measure names a metric the release declares measured, once, with a value within the
  metric's range;
- a valid run of a measure task that D and the fatal items did not zero records the value
  its task scores in: only a failed run takes the task's ``failure_value``, so a value left
  out of a delivered run would be scored as a failure it was not.
"""

from __future__ import annotations

import numpy as np

from generator.check.runs.columns import COUNTS, Found, RunChecks, number
from generator.check.runs.items import repeat_counts
from generator.errors import did_you_mean
from generator.models.profile import RUN_FIELDS, Range
from generator.protocol.outcome import FATAL, zeroed


def check_measures(runs: RunChecks, keyed: np.ndarray, found: Found) -> None:
    """Report the counts and measures of the ``keyed`` records (section 1 passed)."""
    _check_counts(runs, keyed, found)
    _check_measures(runs, keyed, found)
    _check_scored_value(runs, keyed, found)


def needed_counts(runs: RunChecks) -> dict[str, list[str]]:
    """Each count a run must record, with the declared metrics that need it, in the order
    of :data:`COUNTS`."""
    declared = [m.id for m in runs.release.metrics if m.id in RUN_FIELDS and not m.measured]
    needed = {c: [m for m in declared if c in RUN_FIELDS[m]] for c in COUNTS}
    return {c: metrics for c, metrics in needed.items() if metrics}


def _check_counts(runs: RunChecks, keyed: np.ndarray, found: Found) -> None:
    unrecorded = runs.loaded.bundle.model.counts_not_recorded
    for count, metrics in needed_counts(runs).items():
        if count in unrecorded:
            continue
        found.add(  # a valid run's: an incomplete run left no result to count
            np.flatnonzero(keyed & runs.records.valid & np.isnan(runs.records.counts[count])),
            count,
            f"missing; the release reports {', '.join(metrics)}, so every run records "
            f"{count} (expected a number of at least 0; or, where the source of the results "
            f"did not record it, name it in the bundle's counts_not_recorded)",
        )


def range_text(bounds: Range) -> str:
    """What a value within ``bounds`` is, for a message."""
    low, high = bounds.low, bounds.high
    if low is not None and high is not None:
        return f"{number(low)}..{number(high)}"
    if low is not None:
        return f"at least {number(low)}"
    return "any number" if high is None else f"at most {number(high)}"


def _check_measures(runs: RunChecks, keyed: np.ndarray, found: Found) -> None:
    """Each measure of a keyed record: a declared measured metric, once, within its range.
    Whole columns find the problems; only they are looked at one by one."""
    recorded = runs.measures
    if not len(recorded):
        return
    metrics = {m.id: m for m in runs.release.metrics}
    allowed = sorted(m.id for m in runs.release.metrics if m.measured)
    names, codes = recorded.id.names, recorded.id.codes
    known = np.array([n in allowed for n in names] + [False], dtype=bool)[codes]
    mine = keyed[recorded.row]
    said: dict[str, str] = {}  # once per id: a file may repeat one unknown id many times

    def unknown(name: str) -> str:
        if name not in said:
            hint = (
                " (the engine computes it; a run does not record it)"
                if name in metrics
                else did_you_mean(name, allowed)
            )
            expected = f"expected one of {allowed}" if allowed else "it declares none"
            said[name] = (
                f"{name!r} is not a measured metric of {runs.release.version}; {expected}{hint}"
            )
        return said[name]

    for i in np.flatnonzero(mine & ~known).tolist():
        found.at(
            int(recorded.row[i]), f"measures[{recorded.pos[i]}].id", unknown(str(recorded.id[i]))
        )
    checked = np.flatnonzero(mine & known)
    key = recorded.row[checked].astype(np.int64) * len(names) + codes[checked]
    counts = np.zeros(len(recorded), np.int64)
    counts[checked] = repeat_counts(key, len(runs.records) * len(names))
    bounds = [metrics[n].bounds if n in metrics else Range(low=None) for n in names]
    low = np.array([-np.inf if b.low is None else b.low for b in bounds] + [-np.inf])[codes]
    high = np.array([np.inf if b.high is None else b.high for b in bounds] + [np.inf])[codes]
    outside = (recorded.value < low) | (recorded.value > high)
    for i in np.flatnonzero((counts > 1) | (mine & known & outside)).tolist():
        row, name, pos = int(recorded.row[i]), str(recorded.id[i]), recorded.pos[i]
        if counts[i] > 1:
            found.at(row, f"measures[{pos}].id", f"{name!r} appears {counts[i]} times")
        if known[i] and outside[i]:
            found.at(
                row,
                f"measures[{pos}].value",
                f"{number(recorded.value[i])} is outside {name}'s range; expected "
                f"{range_text(metrics[name].bounds)}",
            )


def _check_scored_value(runs: RunChecks, keyed: np.ndarray, found: Found) -> None:
    """A valid, not zeroed run of a measure task records the metric its task scores in."""
    records, verdicts, catalog = runs.records, runs.verdicts, runs.catalog
    metric = np.array([m or "" for m in catalog.measure] + [""], dtype=object)
    of_run = metric[np.where(records.code >= 0, records.code, -1)]
    n = len(records)
    failed = (verdicts.kind == FATAL) & (verdicts.value == 0)
    fatal_failed = np.bincount(verdicts.row[failed], minlength=n) > 0
    delivered = keyed & records.valid & (of_run != "") & ~zeroed(records.delivery, fatal_failed)
    if not delivered.any():
        return
    recorded = runs.measures
    names = np.array([*recorded.id.names, ""], dtype=object)[recorded.id.codes]
    has = np.zeros(n, dtype=bool)
    has[recorded.row[names == of_run[recorded.row]]] = True
    task, code = records.task, records.code
    found.add(
        np.flatnonzero(delivered & ~has),
        "measures",
        lambda r: (
            f"no value for {of_run[r]!r}, the metric {task[r]} scores in; a valid run that "
            "passed D with no fatal item failed records it (only a failed run scores the "
            f"task's failure_value, {number(catalog.failure_value[code[r]] or 0.0)})"
        ),
    )
