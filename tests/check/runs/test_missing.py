"""Missing verdicts, in section 3 of the run checks
(:func:`generator.check.runs.missing.check_missing`): a valid run records every item of each
list, so that R's denominator is every ordinary item (§4.3(1)) and J's every Judge item
(§4.3(2)); only the items of a module it names as failed may be absent, as they score 0 and
stay in the denominator (§4.2(1)). A run without a valid Judge result (zeroed, or
evaluation-incomplete) records no Judge verdicts (§4.3(3)–(4))."""

from __future__ import annotations

from typing import Any

import numpy as np

from generator.check.runs.columns import Found
from generator.check.runs.items import check_items
from generator.check.runs.missing import check_missing


def _missing(small: Any, records: list[Any], repeats: str | None = None) -> list[Any]:
    """The missing verdicts of ``records``; ``repeats``: an item id whose verdicts are
    marked as repeated (what the repeats check hands on)."""
    runs = small.checks(records)
    checks = check_items(runs, np.ones(len(records), bool), Found())
    ids = runs.verdicts.id
    repeated = np.array([ids[i] == repeats for i in range(len(runs.verdicts))], dtype=bool)
    found = Found()
    check_missing(checks, repeated, found)
    return small.reported(runs, found)


def test_a_run_that_records_every_item_lacks_none(small: Any) -> None:
    assert _missing(small, small.full()) == []


def test_each_list_names_the_items_it_lacks(small: Any) -> None:
    records = [
        small.record("t1", rules=[small.rule("R1")]),
        small.record("t1", 2, fatal=[]),
        small.record("t2", judge=[small.judge("J2", 1)]),
        small.record("t2", 2, rules=[], judge=[]),
    ]
    problems = _missing(small, records)
    assert [(p.line, p.field) for p in problems] == [
        (2, "rules"),
        (3, "fatal"),
        (4, "judge"),
        (5, "rules"),
        (5, "judge"),
    ]
    lacking = ["R2", "F1", "J1", "R1, R2", "J1, J2"]
    assert all(
        f"missing verdicts for {ids};" in p.message
        for p, ids in zip(problems, lacking, strict=True)
    )


def test_items_of_a_failed_module_may_be_absent(small: Any) -> None:
    """m1 holds R2 and J2; the run names it failed and records only the other items."""
    records = [
        small.record("t2", modules_failed=["m1"], rules=[small.rule("R1")],
                     judge=[small.judge("J1", 4, "E1")]),
        small.record("t2", 2, modules_failed=["m1"], rules=[], judge=[]),
    ]  # fmt: skip
    problems = _missing(small, records)
    assert [(p.line, p.field) for p in problems] == [(3, "rules"), (3, "judge")]
    assert "missing verdicts for R1;" in problems[0].message
    assert "missing verdicts for J1;" in problems[1].message


def test_runs_without_a_valid_judge_result_and_incomplete_runs(small: Any) -> None:
    lacking: dict[str, Any] = {"delivery": False, "judge": [], "judge_valid": False}
    records = [
        # zeroed by D: may lack its Judge result, so its Judge list is not checked
        small.record("t2", **lacking),
        # ... also when it lacks a rule verdict, which is reported alone
        small.record("t2", 2, **lacking, rules=[small.rule("R1")]),
        # evaluation-incomplete: no valid result, nothing is required of its lists
        small.record("t1", status="incomplete", cause="crash", rules=[], fatal=[]),
    ]
    [problem] = _missing(small, records)
    assert (problem.line, problem.field) == (3, "rules")
    assert "missing verdicts for R2;" in problem.message


def test_a_repeated_item_hides_no_missing_one(small: Any) -> None:
    """R1 twice and no R2 counts as many verdicts as the task has items: the repeat makes
    the record a candidate all the same."""
    records = [small.record("t1", rules=[small.rule("R1"), small.rule("R1")])]
    [problem] = _missing(small, records, repeats="R1")
    assert (problem.line, problem.field) == (2, "rules")
    assert "missing verdicts for R2;" in problem.message
