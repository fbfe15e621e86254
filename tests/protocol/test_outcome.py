"""The run outcome on columns (:mod:`generator.protocol.outcome`) against the per-record
oracle (``tests/outcome_oracle.py``): hand-computed runs for every branch of §4.3(3) and the
success rule of §4.2(3), met by both, then any task and records hypothesis draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from builders import task
from hypothesis import given, settings
from hypothesis import strategies as st
from outcome_oracle import RunOutcome, run_outcome

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
    passed_items,
)


def outcomes_on_columns(tasks: list[Task], records: list[RunRecord]) -> Outcome:
    """The records' outcomes by the column implementation: the tasks' items and the
    records' verdicts written out as columns, one verdict at a time."""
    keys: dict[tuple[str, str], int] = {}
    kinds, max_levels, pass_levels, modules = [], [], [], []
    for t in tasks:
        for i in t.scoring.rule_items:
            keys[(t.id, i.id)] = len(kinds)
            kinds.append(FATAL if i.fatal else RULE)
            max_levels.append(1)
            pass_levels.append(1)
            modules.append(i.module)
        for j in t.scoring.judge_items:
            keys[(t.id, j.id)] = len(kinds)
            kinds.append(JUDGE)
            max_levels.append(j.max_level)
            pass_levels.append(j.passing_level)
            modules.append(j.module)
    items = Items(np.array(kinds), np.array(max_levels), np.array(pass_levels))
    columns: dict[str, list[int]] = {"row": [], "item": [], "value": [], "failed": []}
    for row, r in enumerate(records):
        lists = [(v.id, int(v.passed)) for v in (*r.rules, *r.fatal)]
        for key, value in [*lists, *((v.id, v.level) for v in r.judge)]:
            item = keys[(r.task, key)]
            columns["row"].append(row)
            columns["item"].append(item)
            columns["value"].append(value)
            columns["failed"].append(modules[item] in r.modules_failed)
    item = np.array(columns["item"], np.int64)
    verdicts = Verdicts(
        runs=len(records),
        row=np.array(columns["row"], np.int64),
        item=item,
        kind=items.kind[item],
        value=np.array(columns["value"], np.int64),
        failed=np.array(columns["failed"], bool),
    )
    counts = np.array([_counts(t) for t in tasks], np.int64)
    per_task = declare([t.scoring for t in tasks], counts)  # per task, then per run
    code = {t.id: k for k, t in enumerate(tasks)}
    per_run = per_task.of_runs(np.array([code[r.task] for r in records], np.int64))
    recorded = Recorded(
        valid=np.array([r.status == "valid" for r in records], bool),
        delivery=np.array([r.delivery for r in records], bool),
        judged=np.array([r.judge_valid is True for r in records], bool),
    )
    return outcome(passed_items(items, verdicts), item_credit(items, verdicts), per_run, recorded)


def _counts(task: Task) -> list[int]:
    """The task's items of each kind (in the order of the kinds)."""
    s = task.scoring
    counts = [0, 0, 0]
    for i in s.rule_items:
        counts[FATAL if i.fatal else RULE] += 1
    counts[JUDGE] = len(s.judge_items)
    return counts


def on_columns(task: Task, record: RunRecord) -> RunOutcome:
    """One valid record's outcome by the column implementation, in the oracle's form."""
    out = outcomes_on_columns([task], [record])
    judge = float(out.judge[0])
    return RunOutcome(
        rule=float(out.rule[0]),
        judge=None if np.isnan(judge) else judge,
        score=float(out.score[0]),
        success=bool(out.success[0]),
        fatal_failed=bool(out.fatal_failed[0]),
    )


Implementation = Callable[[Task, RunRecord], RunOutcome]
BOTH = pytest.mark.parametrize("outcome_of", [run_outcome, on_columns], ids=["oracle", "columns"])


def make_task(**scoring: Any) -> Task:
    base: dict[str, Any] = {
        "mode": "rule-only",
        "core_delivery": "output exists",
        "rule_items": [
            {"id": "R1", "title": "a"},
            {"id": "R2", "title": "b", "module": "m2"},
            {"id": "R3", "title": "c"},
            {"id": "R4", "title": "d"},
            {"id": "F1", "title": "fatal", "fatal": True},
        ],
        "modules": [{"id": "m2", "title": "Module 2"}],
    }
    base.update(scoring)
    return Task.model_validate(
        {
            "id": "t",
            "title": "T",
            "domain": "d",
            "subdivision": "s",
            "family": "f",
            "scenario_category": "c",
            "operation_type": "o",
            "difficulty": "L1",
            "interaction": "single-turn",
            "group": "public",
            "industry": "i",
            "company_size": "c",
            "role": "r",
            "process_stage": "p",
            "risk_level": "low",
            "scoring": base,
            "budgets": {"timeout_s": 1, "max_steps": 1, "max_tokens": 1},
            "multi_solution": "m",
            "known_limitations": "k",
            "source": "s",
            "licence": "l",
            "card": {"description": "d"},
        }
    )


def make_run(
    passed: set[str],
    *,
    delivery: bool = True,
    fatal: bool = True,
    judge: dict[str, int] | None = None,
    failed_modules: tuple[str, ...] = (),
) -> RunRecord:
    return RunRecord.model_validate(
        {
            "task": "t",
            "run": 1,
            "seed": 0,
            "status": "valid",
            "delivery": delivery,
            "fatal": [{"id": "F1", "pass": fatal}],
            "rules": [{"id": i, "pass": i in passed} for i in ("R1", "R2", "R3", "R4")],
            "modules_failed": list(failed_modules),
            "judge": [{"id": k, "level": v} for k, v in (judge or {}).items()],
            "judge_valid": True if judge is not None else None,
            "input_tokens": 0,
            "output_tokens": 0,
            "duration_s": 0,
            "turns": 0,
        }
    )


DUAL = {
    "mode": "dual-channel",
    "rule_weight": 0.3,
    "judge_items": [
        {"id": "J1", "title": "x", "max_level": 4},
        {"id": "J2", "title": "y", "max_level": 1},
        {"id": "J3", "title": "z", "max_level": 4, "pass_level": 3, "module": "m2"},
    ],
}


@BOTH
def test_rule_only_is_share_of_ordinary_items_with_fatal_out_of_denominator(
    outcome_of: Implementation,
) -> None:
    out = outcome_of(make_task(), make_run({"R1", "R2", "R3"}))
    assert out.rule == 0.75  # 3 of 4 ordinary items; F1 is not counted
    assert out.score == 0.75
    assert out.judge is None
    assert not out.success


@BOTH
def test_all_pass_is_success(outcome_of: Implementation) -> None:
    out = outcome_of(make_task(), make_run({"R1", "R2", "R3", "R4"}))
    assert (out.rule, out.score, out.success) == (1.0, 1.0, True)


@BOTH
def test_failed_delivery_zeroes_the_run(outcome_of: Implementation) -> None:
    out = outcome_of(make_task(), make_run({"R1", "R2", "R3", "R4"}, delivery=False))
    assert (out.rule, out.score, out.success) == (1.0, 0.0, False)


@BOTH
def test_failed_fatal_item_zeroes_the_run(outcome_of: Implementation) -> None:
    out = outcome_of(make_task(), make_run({"R1", "R2", "R3", "R4"}, fatal=False))
    assert (out.score, out.success, out.fatal_failed) == (0.0, False, True)


@BOTH
def test_failed_module_scores_zero_and_stays_in_denominator(outcome_of: Implementation) -> None:
    out = outcome_of(make_task(), make_run({"R1", "R3", "R4"}, failed_modules=("m2",)))
    assert out.rule == 0.75  # R2 of the missing module counts 0 out of 4, not 3 of 3
    assert not out.success


@BOTH
def test_all_or_nothing_rule_score(outcome_of: Implementation) -> None:
    task = make_task(rule_scoring="all-or-nothing")
    assert outcome_of(task, make_run({"R1", "R2", "R3"})).rule == 0.0
    assert outcome_of(task, make_run({"R1", "R2", "R3", "R4"})).rule == 1.0


@BOTH
def test_dual_channel_weights_rule_and_judge(outcome_of: Implementation) -> None:
    # R = 2/4 = 0.5; J = mean(3/4, 1/1, 2/4) = 0.75; S = 0.3*0.5 + 0.7*0.75 = 0.675
    out = outcome_of(make_task(**DUAL), make_run({"R1", "R2"}, judge={"J1": 3, "J2": 1, "J3": 2}))
    assert out.rule == 0.5
    assert out.judge == pytest.approx(0.75)
    assert out.score == pytest.approx(0.675)


@BOTH
def test_dual_channel_success_needs_every_judge_item_at_its_pass_level(
    outcome_of: Implementation,
) -> None:
    task = make_task(**DUAL)
    rules = {"R1", "R2", "R3", "R4"}
    # J3 passes at level 3 of 4 (pass_level), J1 needs its maximum 4
    assert outcome_of(task, make_run(rules, judge={"J1": 4, "J2": 1, "J3": 3})).success
    assert not outcome_of(task, make_run(rules, judge={"J1": 3, "J2": 1, "J3": 4})).success


@BOTH
def test_failed_module_zeroes_its_judge_items(outcome_of: Implementation) -> None:
    # J3 belongs to m2: its level counts 0 whatever was recorded. J = (4/4 + 1 + 0)/3
    task = make_task(**DUAL)
    out = outcome_of(
        task, make_run({"R1", "R3", "R4"}, judge={"J1": 4, "J2": 1}, failed_modules=("m2",))
    )
    assert out.judge == pytest.approx(2 / 3)
    assert out.score == pytest.approx(0.3 * 0.75 + 0.7 * 2 / 3)


@BOTH
def test_dual_channel_zeroed_by_fatal_keeps_channel_scores_for_audit(
    outcome_of: Implementation,
) -> None:
    out = outcome_of(
        make_task(**DUAL), make_run({"R1"}, fatal=False, judge={"J1": 4, "J2": 1, "J3": 4})
    )
    assert out.score == 0.0
    assert out.rule == 0.25
    assert out.judge == 1.0


@pytest.mark.parametrize(("delivery", "fatal"), [(False, True), (True, False)])
@BOTH
def test_zeroed_run_without_judge_result_scores_judge_zero(
    outcome_of: Implementation, delivery: bool, fatal: bool
) -> None:
    """§4.2 aggregates both channels over the same valid runs; the Judge had no evidence to
    rate, so every item takes its lowest level (§4.3(2))."""
    out = outcome_of(make_task(**DUAL), make_run({"R1"}, delivery=delivery, fatal=fatal))
    assert out.score == 0.0
    assert out.judge == 0.0
    assert not out.success


@st.composite
def any_task(draw: st.DrawFn, tid: str) -> Task:
    """A task of 1-5 ordinary, 0-2 fatal and 0-4 Judge items, some in one of 0-2 modules."""
    judge = tuple(draw(st.lists(st.integers(1, 4), max_size=4)))
    spec = task(
        tid,
        rules=draw(st.integers(1, 5)),
        fatal=draw(st.integers(0, 2)),
        judge=judge,
        weight=draw(st.sampled_from([0.0, 0.25, 0.5, 0.7, 1.0])),
    )
    scoring = spec["scoring"]
    modules = [f"m{k}" for k in range(draw(st.integers(0, 2)))]
    scoring["modules"] = [{"id": m, "title": m} for m in modules]
    ordinary = [i for i in scoring["rule_items"] if not i.get("fatal")]
    for item in [*ordinary, *scoring.get("judge_items", [])]:
        module = draw(st.sampled_from([None, *modules]))
        if module is not None:
            item["module"] = module
    for item, top in zip(scoring.get("judge_items", []), judge, strict=True):
        item["pass_level"] = draw(st.integers(1, top))
    if draw(st.booleans()):
        scoring["rule_scoring"] = "all-or-nothing"
    return Task.model_validate(spec)


@st.composite
def any_record(draw: st.DrawFn, t: Task, index: int) -> RunRecord:
    """A record of ``t``: any verdicts (each item at most once, some missing, in any order),
    failed modules, D, status; a Judge result whenever the oracle needs one. Half the records
    pass every ordinary and Judge item, so that D, a fatal item, a failed module or the Judge
    result alone decides their success."""
    s = t.scoring
    perfect = draw(st.booleans())

    def some(items: list[Any]) -> list[Any]:
        kept = [i for i in items if perfect or draw(st.integers(0, 4)) > 0]  # some missing
        return draw(st.permutations(kept))

    def passes(fatal: bool) -> bool:
        return draw(st.integers(0, 3)) > 0 if fatal else perfect or draw(st.booleans())

    rules = [{"id": i.id, "pass": passes(i.fatal)} for i in some(list(s.rule_items))]
    judge = [
        {"id": j.id, "level": j.max_level if perfect else draw(st.integers(0, j.max_level))}
        for j in some(list(s.judge_items))
    ]
    valid = draw(st.integers(0, 5)) > 0
    delivery = draw(st.integers(0, 3)) > 0
    passed = {r["id"] for r in rules if r["pass"]}
    modules = [m.id for m in s.modules]
    zeroed = not delivery or any(i.fatal and i.id not in passed for i in s.rule_items)
    judge_valid = None
    if s.mode == "dual-channel":
        judge_valid = True if valid and not zeroed else draw(st.sampled_from([True, False, None]))
    return RunRecord.model_validate(
        {
            "task": t.id,
            "run": index,
            "seed": index,
            "status": "valid" if valid else "incomplete",
            "cause": None if valid else "crash",
            "delivery": delivery,
            "fatal": [r for r in rules if r["id"].startswith("F")],
            "rules": [r for r in rules if r["id"].startswith("R")],
            "modules_failed": draw(st.lists(st.sampled_from(modules), unique=True))
            if modules
            else [],
            "judge": judge,
            "judge_valid": judge_valid,
            "input_tokens": 1,
            "output_tokens": 1,
            "duration_s": 1.0,
            "turns": 1,
        }
    )


@st.composite
def tasks_and_records(draw: st.DrawFn) -> tuple[list[Task], list[RunRecord]]:
    tasks = [draw(any_task(f"t{k}")) for k in range(draw(st.integers(1, 3)))]
    picks = draw(st.lists(st.sampled_from(tasks), min_size=1, max_size=12))
    return tasks, [draw(any_record(t, k)) for k, t in enumerate(picks, 1)]


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(tasks_and_records())
def test_columns_equal_the_oracle_for_any_records(
    case: tuple[list[Task], list[RunRecord]],
) -> None:
    """Run by run, over several tasks at once: R, J, S, success and fatal failure as the
    oracle computes them; an evaluation-incomplete run gets no score and no success."""
    tasks, records = case
    out = outcomes_on_columns(tasks, records)
    by_id = {t.id: t for t in tasks}
    for k, record in enumerate(records):
        if record.status != "valid":
            assert np.isnan([out.rule[k], out.judge[k], out.score[k]]).all()
            assert not out.success[k]
            assert not out.fatal_failed[k]
            continue
        expected = run_outcome(by_id[record.task], record)
        assert out.rule[k] == pytest.approx(expected.rule, abs=1e-12)
        assert out.score[k] == pytest.approx(expected.score, abs=1e-12)
        if expected.judge is None:
            assert np.isnan(out.judge[k])
        else:
            assert out.judge[k] == pytest.approx(expected.judge, abs=1e-12)
        assert bool(out.success[k]) == expected.success
        assert bool(out.fatal_failed[k]) == expected.fatal_failed
