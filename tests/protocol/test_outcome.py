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
    overall_credit,
    passed_items,
)


def outcomes_on_columns(tasks: list[Task], records: list[RunRecord]) -> Outcome:
    """The records' outcomes by the column implementation: the tasks' items and the
    records' verdicts, failed modules and measured values written out as columns, one at a
    time."""
    keys: dict[tuple[str, str], int] = {}
    kinds, max_levels, pass_levels, overall, modules = [], [], [], [], []
    for t in tasks:
        for i in t.scoring.rule_items:
            keys[(t.id, i.id)] = len(kinds)
            kinds.append(FATAL if i.fatal else RULE)
            max_levels.append(1)
            pass_levels.append(1)
            overall.append(False)
            modules.append(i.module)
        for j in t.scoring.judge_items:
            keys[(t.id, j.id)] = len(kinds)
            kinds.append(JUDGE)
            max_levels.append(j.max_level)
            pass_levels.append(j.passing_level)
            overall.append(j.overall)
            modules.append(j.module)
    items = Items(
        np.array(kinds), np.array(max_levels), np.array(pass_levels), np.array(overall, bool)
    )
    columns: dict[str, list[Any]] = {"row": [], "item": [], "value": [], "failed": []}
    failed_rows, failed_items = [], []
    for row, r in enumerate(records):
        lists = [(v.id, float(v.passed)) for v in (*r.rules, *r.fatal)]
        for key, value in [*lists, *((v.id, v.level) for v in r.judge)]:
            item = keys[(r.task, key)]
            columns["row"].append(row)
            columns["item"].append(item)
            columns["value"].append(value)
            columns["failed"].append(modules[item] in r.modules_failed)
        for (tid, _), item in keys.items():
            if tid == r.task and modules[item] in r.modules_failed:
                failed_rows.append(row)
                failed_items.append(item)
    item = np.array(columns["item"], np.int64)
    verdicts = Verdicts(
        runs=len(records),
        row=np.array(columns["row"], np.int64),
        item=item,
        kind=items.kind[item],
        value=np.array(columns["value"], np.float64),
        failed=np.array(columns["failed"], bool),
    )
    counts = np.array([_counts(t) for t in tasks], np.int64)
    per_task = declare([t.scoring for t in tasks], counts)  # per task, then per run
    code = {t.id: k for k, t in enumerate(tasks)}
    per_run = per_task.of_runs(np.array([code[r.task] for r in records], np.int64))
    by_id = {t.id: t for t in tasks}
    recorded = Recorded(
        valid=np.array([r.status == "valid" for r in records], bool),
        delivery=np.array([r.delivery for r in records], bool),
        judged=np.array([r.judge_valid is True for r in records], bool),
        measure=np.array([_measured(by_id[r.task], r) for r in records], np.float64),
    )
    failed = (np.array(failed_rows, np.int64), np.array(failed_items, np.int64))
    return outcome(
        passed_items(items, verdicts),
        item_credit(items, verdicts),
        per_run,
        recorded,
        overall_credit(items, verdicts, failed),
    )


def _measured(task: Task, record: RunRecord) -> float:
    """The record's value of its task's measured metric; NaN when none (or not measured)."""
    values = {m.id: m.value for m in record.measures}
    return values.get(task.scoring.measure or "", float("nan"))


def _counts(task: Task) -> list[int]:
    """The task's items of each kind (in the order of the kinds)."""
    s = task.scoring
    counts = [0, 0, 0]
    for i in s.rule_items:
        counts[FATAL if i.fatal else RULE] += 1
    counts[JUDGE] = len(s.judge_items)
    return counts


def _or_none(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


def on_columns(task: Task, record: RunRecord) -> RunOutcome:
    """One valid record's outcome by the column implementation, in the oracle's form."""
    out = outcomes_on_columns([task], [record])
    return RunOutcome(
        rule=float(out.rule[0]),
        judge=_or_none(out.judge[0]),
        score=float(out.score[0]),
        success=bool(out.success[0]),
        fatal_failed=bool(out.fatal_failed[0]),
        overall=_or_none(out.overall[0]),
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


ORDINARY = ("R1", "R2", "R3", "R4")


def make_run(
    passed: set[str],
    *,
    delivery: bool = True,
    fatal: bool = True,
    judge: dict[str, float] | None = None,
    failed_modules: tuple[str, ...] = (),
    rules: tuple[str, ...] = ORDINARY,
    measures: dict[str, float] | None = None,
) -> RunRecord:
    """A valid run of ``make_task``'s task: verdicts of ``rules`` (passed if in ``passed``)
    and F1, the Judge levels (a valid Judge result when given), measured values."""
    return RunRecord.model_validate(
        {
            "task": "t",
            "run": 1,
            "seed": 0,
            "status": "valid",
            "delivery": delivery,
            "fatal": [{"id": "F1", "pass": fatal}],
            "rules": [{"id": i, "pass": i in passed} for i in rules],
            "modules_failed": list(failed_modules),
            "judge": [{"id": k, "level": v} for k, v in (judge or {}).items()],
            "judge_valid": True if judge is not None else None,
            "measures": [{"id": k, "value": v} for k, v in (measures or {}).items()],
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


FATAL_ONLY = [{"id": "F1", "title": "fatal", "fatal": True}]
MEASURE = {"mode": "measure", "measure": "cost", "failure_value": 50.0, "rule_items": FATAL_ONLY}


@BOTH
def test_measure_task_scores_the_measured_value(outcome_of: Implementation) -> None:
    task = make_task(**MEASURE)
    out = outcome_of(task, make_run(set(), rules=(), measures={"tokens": 9.0, "cost": 12.5}))
    assert out.score == 12.5  # its own metric's value, not another measure's
    assert np.isnan(out.rule)  # no ordinary rule items
    assert (out.judge, out.overall) == (None, None)
    assert out.success  # D and every fatal item passed


@BOTH
def test_measure_task_with_rule_items_scores_the_value_and_succeeds_by_them(
    outcome_of: Implementation,
) -> None:
    task = make_task(mode="measure", measure="cost", failure_value=50.0)
    out = outcome_of(task, make_run({"R1", "R2", "R3"}, measures={"cost": -3.0}))
    assert (out.rule, out.score) == (0.75, -3.0)  # a signed value, R beside it
    assert not out.success  # R4 failed
    assert outcome_of(task, make_run(set(ORDINARY), measures={"cost": -3.0})).success


@pytest.mark.parametrize(("delivery", "fatal"), [(False, True), (True, False)])
@BOTH
def test_zeroed_measure_run_takes_the_failure_value(
    outcome_of: Implementation, delivery: bool, fatal: bool
) -> None:
    """Zero is the best value of a lower-is-better cost: a failed run scores the declared
    failure value, whatever it measured."""
    task = make_task(**MEASURE)
    run = make_run(set(), rules=(), delivery=delivery, fatal=fatal, measures={"cost": 1.0})
    out = outcome_of(task, run)
    assert out.score == task.scoring.failure_value
    assert out.fatal_failed == (not fatal)
    assert not out.success


@BOTH
def test_measure_run_without_its_value_takes_the_failure_value(
    outcome_of: Implementation,
) -> None:
    task = make_task(**MEASURE)
    out = outcome_of(task, make_run(set(), rules=(), measures={"tokens": 2.0}))
    assert out.score == task.scoring.failure_value
    assert out.success  # success is D, fatal and rule items: the value is no item


OVERALL = {"id": "O", "title": "overall", "max_level": 10, "pass_level": 6, "overall": True}
JUDGE_ONLY = {
    "mode": "judge-only",
    "rule_items": FATAL_ONLY,
    "judge_items": [
        {"id": "J1", "title": "x", "max_level": 4},
        {"id": "J2", "title": "y", "max_level": 1},
        OVERALL,
    ],
}


@BOTH
def test_judge_only_scores_j_with_the_overall_kept_apart(outcome_of: Implementation) -> None:
    # J = mean(3/4, 1/1) = 0.875 over the two items that are not the overall; S = J
    out = outcome_of(make_task(**JUDGE_ONLY), make_run(set(), rules=(), judge=_levels(3, 1, 7.5)))
    assert out.judge == pytest.approx((3 / 4 + 1 / 1) / 2)
    assert out.score == out.judge
    assert out.overall == pytest.approx(7.5 / 10)  # its own g/G, not the mean of the others
    assert np.isnan(out.rule)
    assert not out.success  # J1 is below its pass level (its maximum)


def _levels(j1: float, j2: float, overall: float) -> dict[str, float]:
    return {"J1": j1, "J2": j2, "O": overall}


@BOTH
def test_overall_level_changes_only_the_overall(outcome_of: Implementation) -> None:
    task = make_task(**JUDGE_ONLY)
    low, high = (
        outcome_of(task, make_run(set(), rules=(), judge=_levels(2, 1, g))) for g in (0, 10)
    )
    assert (low.judge, low.score) == (high.judge, high.score)
    assert (low.overall, high.overall) == (0.0, 1.0)


@BOTH
def test_judge_only_success_needs_the_overall_at_its_pass_level(
    outcome_of: Implementation,
) -> None:
    task = make_task(**JUDGE_ONLY)
    pass_level = OVERALL["pass_level"]
    assert isinstance(pass_level, int)
    below = outcome_of(task, make_run(set(), rules=(), judge=_levels(4, 1, pass_level - 0.5)))
    assert below.score == 1.0  # every item of J at its maximum
    assert not below.success
    assert outcome_of(task, make_run(set(), rules=(), judge=_levels(4, 1, pass_level))).success


@pytest.mark.parametrize(("delivery", "fatal"), [(False, True), (True, False)])
@BOTH
def test_zeroed_judge_only_run_without_judge_result_scores_judge_zero(
    outcome_of: Implementation, delivery: bool, fatal: bool
) -> None:
    run = make_run(set(), rules=(), delivery=delivery, fatal=fatal)
    out = outcome_of(make_task(**JUDGE_ONLY), run)
    assert (out.judge, out.score, out.success) == (0.0, 0.0, False)
    assert out.overall is None  # no Judge result, no judged overall


DUAL_OVERALL = {**DUAL, "judge_items": [*DUAL["judge_items"], {**OVERALL, "module": "m2"}]}


@BOTH
def test_overall_is_out_of_the_dual_channel_j(outcome_of: Implementation) -> None:
    # as test_dual_channel_weights_rule_and_judge: J = mean(3/4, 1/1, 2/4), the overall apart
    task = make_task(**DUAL_OVERALL)
    out = outcome_of(task, make_run({"R1", "R2"}, judge={"J1": 3, "J2": 1, "J3": 2, "O": 9}))
    assert out.judge == pytest.approx((3 / 4 + 1 + 2 / 4) / 3)
    assert out.score == pytest.approx(0.3 * 0.5 + 0.7 * out.judge)
    assert out.overall == pytest.approx(0.9)


@pytest.mark.parametrize("recorded", [{}, {"O": 0}], ids=["omitted", "recorded-at-0"])
@BOTH
def test_overall_in_a_failed_module_is_zero(
    outcome_of: Implementation, recorded: dict[str, float]
) -> None:
    """Items of a failed module score 0 (§4.2(1)); the checks let a run omit their verdicts,
    so the overall is 0 with or without one."""
    run = make_run({"R1", "R3", "R4"}, judge={"J1": 4, "J2": 1, **recorded}, failed_modules=("m2",))
    out = outcome_of(make_task(**DUAL_OVERALL), run)
    assert out.overall == 0.0
    assert out.judge == pytest.approx((1 + 1 + 0) / 3)
    assert not out.success


@BOTH
def test_float_levels_count_as_g_over_g_and_against_the_pass_level(
    outcome_of: Implementation,
) -> None:
    task = make_task(**DUAL)  # J3: max 4, pass level 3
    rules = set(ORDINARY)
    below = outcome_of(task, make_run(rules, judge={"J1": 4, "J2": 1, "J3": 2.5}))
    assert below.judge == pytest.approx((1 + 1 + 2.5 / 4) / 3)
    assert not below.success
    assert outcome_of(task, make_run(rules, judge={"J1": 4, "J2": 1, "J3": 3.5})).success


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
