"""Section 4 of the run checks (:func:`generator.check.runs.outcome.check_outcome`): a valid
record whose items are clean has a failure type if, and only if, it did not succeed. A run
succeeds when the core delivery threshold and the fatal items pass, every ordinary rule item
passes and every Judge item the task enables passes; a run missing a required module is not
a full success (§4.2(3)). Failure types feed the failure-type distribution (§4.2(3))."""

from __future__ import annotations

from typing import Any

import numpy as np

from generator.check.runs.columns import Found
from generator.check.runs.items import check_items
from generator.check.runs.outcome import check_outcome


def _outcome(small: Any, records: list[Any], found: Found | None = None) -> list[Any]:
    runs = small.checks(records)
    checks = check_items(runs, np.ones(len(records), bool), Found())
    found = Found() if found is None else found
    check_outcome(checks, found)
    return small.reported(runs, found)


def _failure(small: Any) -> str:
    return sorted(f.id for f in small.release.enumerations.failure_types)[0]


def test_success_without_and_failure_with_a_failure_type(small: Any) -> None:
    failed = small.record("t1", 2, rules=[small.rule("R1"), small.rule("R2", False)])
    records = [*small.full(), failed.model_copy(update={"failure_type": _failure(small)})]
    assert _outcome(small, records) == []


def test_a_run_that_did_not_succeed_needs_a_failure_type(small: Any) -> None:
    """Each record misses one condition of success."""
    t2 = next(t for t in small.catalog.tasks if t.id == "t2")
    j1 = next(j for j in t2.scoring.judge_items if j.id == "J1")
    below = j1.passing_level - 1
    records = [
        small.record("t1", rules=[small.rule("R1"), small.rule("R2", False)]),  # a rule item
        small.record("t1", 2, delivery=False),  # D
        small.record("t1", fatal=[small.rule("F1", False)]),  # a fatal item
        small.record("t2", judge=[small.judge("J1", below, "E1"), small.judge("J2", 1)]),  # Judge
        small.record("t2", 2, modules_failed=["m1"], rules=[small.rule("R1")],
                     judge=[small.judge("J1", 4, "E1")]),  # a failed module
    ]  # fmt: skip
    problems = _outcome(small, records)
    lines = small.lines(len(records))
    assert [(p.line, p.field) for p in problems] == [(line, "failure_type") for line in lines]
    types = sorted(f.id for f in small.release.enumerations.failure_types)
    assert all(f"needs a failure type; expected one of {types}" in p.message for p in problems)


def test_a_run_that_succeeded_has_no_failure_type(small: Any) -> None:
    records = [small.record("t1"), small.record("t2", failure_type=_failure(small))]
    [problem] = _outcome(small, records)
    assert (problem.line, problem.field) == (3, "failure_type")
    assert f"{_failure(small)!r}, but the run succeeded" in problem.message


def test_only_clean_valid_records_are_judged(small: Any) -> None:
    """An evaluation-incomplete run has no outcome (§4.3(4)); a record with an item problem
    has none that can be trusted, and its item problem is what the reader fixes first."""
    records = [
        small.record("t1", status="incomplete", cause="crash", delivery=False),
        small.record("t1", 2, delivery=False),
    ]
    found = Found()
    found.item(1, "rules[0].id", "an item problem")
    problems = _outcome(small, records, found)
    assert [(p.line, p.field) for p in problems] == [(3, "rules[0].id")]
