"""Evidence, in section 3 of the run checks
(:func:`generator.check.runs.evidence.check_evidence`): the Judge receives only the fixed
evidence designated for the item it rates (§4.3(2)), so a verdict of an item that designates
evidence cites nothing else. In the small catalog J1 designates E1; E2 is declared by the
task for no item."""

from __future__ import annotations

from typing import Any

import numpy as np

from generator.check.runs.columns import Found
from generator.check.runs.evidence import check_evidence
from generator.check.runs.items import check_items


def _evidence(small: Any, records: list[Any], open_: list[bool] | None = None) -> list[Any]:
    runs = small.checks(records)
    mask = np.ones(len(records), bool) if open_ is None else np.array(open_, bool)
    checks = check_items(runs, mask, Found())
    found = Found()
    check_evidence(checks, found)
    return small.reported(runs, found)


def _designated(small: Any, item: str) -> list[str]:
    t2 = next(t for t in small.catalog.tasks if t.id == "t2")
    return list(next(j.evidence for j in t2.scoring.judge_items if j.id == item))


def test_citing_the_designated_evidence_or_none(small: Any) -> None:
    records = [
        small.record("t2", judge=[small.judge("J1", 4, "E1"), small.judge("J2", 1)]),
        small.record("t2", 2, judge=[small.judge("J1", 4), small.judge("J2", 1)]),
    ]
    assert _evidence(small, records) == []


def test_evidence_not_designated_for_the_item(small: Any) -> None:
    records = [
        small.record("t2", judge=[small.judge("J1", 4, "E1"), small.judge("J2", 1)]),
        small.record("t2", 2, judge=[small.judge("J2", 1), small.judge("J1", 2, "E2", "E1", "E7")]),
    ]
    [problem] = _evidence(small, records)
    assert (problem.line, problem.field) == (3, "judge[1].evidence")
    assert "cites ['E2', 'E7'], not designated for J1" in problem.message
    assert f"expected from {_designated(small, 'J1')}" in problem.message


def test_only_judge_verdicts_of_open_records_are_looked_at(small: Any) -> None:
    """A record an earlier section stopped, and a verdict that names no Judge item of the
    task (reported by the id check), get no evidence problem on top."""
    stray = [small.judge("J1", 4, "E2"), small.judge("J2", 1)]
    records = [
        small.record("t2", judge=stray),
        small.record("t2", 2, judge=[*stray[1:], small.judge("R1", 1, "E2"), stray[0]]),
    ]
    [problem] = _evidence(small, records, open_=[False, True])
    assert (problem.line, problem.field) == (3, "judge[2].evidence")
