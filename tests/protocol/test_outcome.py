"""The run outcome on columns (:mod:`generator.protocol.outcome`) against the per-record
oracle (``tests/outcome_oracle.py``): hand-computed runs for every branch of §4.3(3) and the
success rule of §4.2(3), in each scoring mode (rule-only, dual-channel, judge-only, measure),
with a judged overall item and with non-integer Judge levels, met by both. Any tasks and
records hypothesis draws: ``test_outcome_any.py``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from outcome_columns import Implementation, on_columns
from outcome_oracle import run_outcome

from generator.models import RunRecord, Task

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
def test_weighted_items_make_a_composite(outcome_of: Implementation) -> None:
    """Weighted items (a composite of a hard-rule check and weighted dimensions): R is the
    weighted share of ordinary items passed, J the weighted mean of g/G."""
    weighted = {
        **DUAL,
        "judge_items": [
            {**DUAL["judge_items"][0], "weight": 3.0},
            {**DUAL["judge_items"][1], "weight": 1.0},
            {**DUAL["judge_items"][2], "weight": 0.5},
        ],
    }
    task = make_task(**weighted)
    rule_weights = [i.weight for i in task.scoring.rule_items if not i.fatal]
    out = outcome_of(task, make_run({"R1", "R2"}, judge={"J1": 3, "J2": 1, "J3": 2}))
    rule = 2 / len(rule_weights)  # rule items weigh 1 each here
    judge = (3.0 * 3 / 4 + 1.0 * 1 / 1 + 0.5 * 2 / 4) / 4.5
    assert out.rule == pytest.approx(rule)
    assert out.judge == pytest.approx(judge)
    assert out.score == pytest.approx(0.3 * rule + 0.7 * judge)


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
    pass_level = next(j for j in task.scoring.judge_items if j.overall).passing_level
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
    assert out.overall == 0.0  # no designated evidence: the overall at its lowest level, as J


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
