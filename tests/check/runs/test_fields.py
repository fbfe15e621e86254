"""Section 2 of the run checks (:func:`generator.check.runs.fields.check_fields`): a record's
own fields. Its run index lies within the prescribed runs (§4.2(3): retries are not extra
runs); an evaluation-incomplete run names a declared cause and a valid one none (§4.3(4)); a
failure type is one the release declares (§4.2(3)); a rule-only run records no Judge result
and a valid dual-channel run a valid one, unless D or a fatal item already zeroed it
(§4.3(3))."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from edit import edit_runs

from generator.check.runs import check_runs
from generator.check.runs.columns import Found
from generator.check.runs.fields import check_fields, failure_types


def _fields(small: Any, records: list[Any]) -> tuple[list[Any], list[bool]]:
    """The problems of ``records`` (all keyed) and which of them go on to their items."""
    runs = small.checks(records)
    found = Found()
    open_ = check_fields(runs, np.ones(len(records), dtype=bool), found)
    return small.reported(runs, found), open_.tolist()


def test_records_that_keep_the_rules_pass_and_go_on(small: Any) -> None:
    incomplete = small.record("t1", cause="crash", status="incomplete")
    problems, open_ = _fields(small, [*small.full(), incomplete])
    assert problems == []
    assert open_ == [True] * (len(small.full()) + 1)


def test_only_keyed_records_are_looked_at(small: Any) -> None:
    records = [small.record("t1", 9), small.record("t1", 9)]
    runs = small.checks(records)
    found = Found()
    open_ = check_fields(runs, np.array([True, False]), found)
    assert [p.line for p in small.reported(runs, found)] == [2]
    assert open_.tolist() == [True, False]


def test_a_run_index_past_the_prescribed_runs(small: Any) -> None:
    prescribed = small.release.runs_per_task
    problems, open_ = _fields(
        small, [small.record("t1", prescribed), small.record("t1", prescribed + 1)]
    )
    [problem] = problems
    assert (problem.line, problem.field) == (3, "run")
    assert f"{prescribed + 1} exceeds the prescribed {prescribed}" in problem.message
    assert open_ == [True, True]  # its items are still checked


def test_the_cause_of_a_run_goes_with_its_status(small: Any) -> None:
    causes = sorted(c.id for c in small.release.enumerations.incomplete_causes)
    records = [
        small.record("t1", status="incomplete", cause=causes[0]),  # good
        small.record("t1", status="incomplete"),  # no cause
        small.record("t1", status="incomplete", cause="power-cut"),  # not declared
        small.record("t1", cause=causes[0]),  # valid, yet a cause
    ]
    problems, _ = _fields(small, records)
    assert [(p.line, p.field) for p in problems] == [(3, "cause"), (4, "cause"), (5, "cause")]
    assert str(causes) in problems[0].message
    assert "'power-cut'" in problems[1].message
    assert str(causes) in problems[1].message
    assert "status 'incomplete'" in problems[2].message


def test_a_failure_type_the_release_does_not_declare(small: Any) -> None:
    declared = sorted(f.id for f in small.release.enumerations.failure_types)
    assert failure_types(small.checks([])) == declared
    records = [
        small.record("t1", failure_type=declared[0]),
        small.record("t1", failure_type="oops"),
    ]
    problems, _ = _fields(small, records)
    [problem] = problems
    assert (problem.line, problem.field) == (3, "failure_type")
    assert "'oops'" in problem.message
    assert str(declared) in problem.message


def test_a_rule_only_run_records_no_judge_result(small: Any) -> None:
    records = [
        small.record("t1"),
        small.record("t1", judge=[small.judge("J1", 1)]),
        small.record("t1", judge_valid=False),
    ]
    problems, open_ = _fields(small, records)
    assert [(p.line, p.field) for p in problems] == [(3, "judge"), (4, "judge")]
    assert all("t1 is rule-only" in p.message for p in problems)
    assert open_ == [True, True, True]


def test_a_dual_channel_run_without_its_judge_result(small: Any) -> None:
    """Without a valid Judge result a dual-channel run is evaluation-incomplete, not scored
    on its rules alone (§4.3(3)); its items are not checked. A run D or a fatal item zeroed
    scores 0 whatever the Judge says, so it may lack the result (§4.3(3))."""
    lacking: dict[str, Any] = {"judge": [], "judge_valid": False}
    records = [
        small.record("t2", **lacking),  # delivered, no fatal failed: incomplete
        small.record("t2", **{**lacking, "judge_valid": None}),
        small.record("t2", **lacking, delivery=False),  # zeroed by D
        small.record("t2", **lacking, fatal=[small.rule("F1", ok=False)]),  # by a fatal item
        small.record("t2", **lacking, status="incomplete", cause="crash"),
    ]
    problems, open_ = _fields(small, records)
    assert [(p.line, p.field) for p in problems] == [(2, "judge_valid"), (3, "judge_valid")]
    assert all("evaluation-incomplete" in p.message for p in problems)
    assert all("expected status 'incomplete' with a cause" in p.message for p in problems)
    assert open_ == [False, False, True, True, True]


DS = "results/v1.0/bundles/deepseek-harness-standard/runs.jsonl"
TASK = "supply-chain-tc-059"  # DeepSeek timed out: D fails on every run


def _strip_judge(records: list[dict[str, Any]]) -> None:
    for r in records:
        if r["task"] == TASK:
            r["judge"] = []
            r["judge_valid"] = False


def test_zeroed_run_may_lack_its_judge_result(example: Path, run_cli: Any) -> None:
    edit_runs(example / DS, _strip_judge)
    result = run_cli("validate", "--root", str(example))
    assert result.exit_code == 0, result.output


def test_delivered_run_needs_its_judge_result(example: Path, run_cli: Any) -> None:
    def change(records: list[dict[str, Any]]) -> None:
        _strip_judge(records)
        for r in records:
            if r["task"] == TASK:
                r["delivery"] = True

    edit_runs(example / DS, change)
    result = run_cli("validate", "--root", str(example))
    assert result.exit_code == 1
    assert (
        "judge_valid: a dual-channel run without a valid Judge result is "
        "evaluation-incomplete" in result.output
    )


def _failure(kit: Any) -> str:
    """A failure type of the release, for a run that did not succeed."""
    return str(kit.release.enumerations.failure_types[0].id)


def test_judge_only_and_measure_runs_are_held_to_their_mode(profiled: Any) -> None:
    records = [
        profiled.record("j1", judge_valid=False, judge=[]),  # needs its Judge result
        profiled.record(
            "j1", 2, judge_valid=False, judge=[], delivery=False, failure_type=_failure(profiled)
        ),
        profiled.record("m1", judge_valid=True),  # a measure task has no Judge channel
    ]
    problems = sorted(check_runs(profiled.release, profiled.catalog, profiled.loaded(records)))
    assert [(p.line, p.field) for p in problems] == [(2, "judge_valid"), (4, "judge")]
    assert problems[0].message.startswith("a judge-only run without a valid Judge result")
    assert problems[1].message.startswith("m1 is a measure task; a run records no judge")
