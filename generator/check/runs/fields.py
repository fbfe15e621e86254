"""Section 2 of the run checks: a record's own fields (run index, cause, failure type, the
Judge result its task's scoring mode calls for, §4.2(3), §4.3(3)–(4))."""

from __future__ import annotations

import numpy as np

from generator.check.runs.columns import Found, RunChecks
from generator.protocol.outcome import FATAL, JUDGE, zeroed


def failure_types(runs: RunChecks) -> list[str]:
    """The release's failure types, sorted, as the messages list them."""
    return sorted(f.id for f in runs.release.enumerations.failure_types)


def check_fields(runs: RunChecks, keyed: np.ndarray, found: Found) -> np.ndarray:
    """Report the fields of the ``keyed`` records (section 1 passed); return those whose item
    verdicts are checked next: all but dual-channel runs that lack their Judge result."""
    _check_run(runs, keyed, found)
    _check_cause(runs, keyed, found)
    _check_failure_type(runs, keyed, found)
    open_: np.ndarray = keyed & ~_check_judge(runs, keyed, found)
    return open_


def _check_run(runs: RunChecks, keyed: np.ndarray, found: Found) -> None:
    prescribed = runs.release.runs_per_task
    run = runs.records.run
    found.add(
        np.flatnonzero(keyed & (run > prescribed)),
        "run",
        lambda r: (
            f"{run[r]} exceeds the prescribed {prescribed} runs per task; "
            "expected 1..runs_per_task (retries are not extra runs)"
        ),
    )


def _check_cause(runs: RunChecks, keyed: np.ndarray, found: Found) -> None:
    """An evaluation-incomplete run names a declared cause, a valid run none (§4.3(4))."""
    causes = sorted(c.id for c in runs.release.enumerations.incomplete_causes)
    valid, cause = runs.records.valid, runs.records.cause
    has_cause = cause.present()
    found.add(
        np.flatnonzero(keyed & ~valid & ~has_cause),
        "cause",
        f"an incomplete run needs a cause; expected one of {causes}",
    )
    found.add(
        np.flatnonzero(keyed & ~valid & has_cause & ~cause.among(causes)),
        "cause",
        lambda r: f"{cause[r]!r} is not a declared cause; expected one of {causes}",
    )
    found.add(
        np.flatnonzero(keyed & valid & has_cause),
        "cause",
        "a valid run has no cause; set status 'incomplete' or remove cause",
    )


def _check_failure_type(runs: RunChecks, keyed: np.ndarray, found: Found) -> None:
    declared = failure_types(runs)
    failure = runs.records.failure
    found.add(
        np.flatnonzero(keyed & failure.present() & ~failure.among(declared)),
        "failure_type",
        lambda r: f"{failure[r]!r} is not a declared failure type; expected one of {declared}",
    )


#: How a message names a task of a mode without a Judge channel.
_WITHOUT_JUDGE = {"rule-only": "rule-only", "measure": "a measure task"}


def _check_judge(runs: RunChecks, keyed: np.ndarray, found: Found) -> np.ndarray:
    """A rule-only or measure run records no Judge result; a valid dual-channel or
    judge-only run has a valid one unless D or a recorded fatal item already zeroed it
    (§4.3(3)). Returns the runs that lack it."""
    records, verdicts = runs.records, runs.verdicts
    n, row, kind, dual = len(records), verdicts.row, verdicts.kind, records.dual
    has_judge = np.bincount(row[kind == JUDGE], minlength=n) > 0
    judge_valid = records.judge_valid
    task, code, modes = records.task, records.code, runs.catalog.modes
    found.add(
        np.flatnonzero(keyed & ~dual & (has_judge | ~np.isnan(judge_valid))),
        "judge",
        lambda r: (
            f"{task[r]} is {_WITHOUT_JUDGE.get(modes[code[r]], modes[code[r]])}; a run "
            "records no judge result (judge_valid null)"
        ),
    )
    fatal_failed = np.bincount(row[(kind == FATAL) & (verdicts.value == 0)], minlength=n) > 0
    lacking = keyed & dual & records.valid & (judge_valid != 1)
    no_judge: np.ndarray = lacking & ~zeroed(records.delivery, fatal_failed)
    found.add(
        np.flatnonzero(no_judge),
        "judge_valid",
        lambda r: (
            f"a {modes[code[r]]} run without a valid Judge result is evaluation-incomplete, "
            "not rule-only (§4.3(3)); expected status 'incomplete' with a cause (only a run "
            "already zeroed by D or a fatal item may lack its Judge result)"
        ),
    )
    return no_judge
