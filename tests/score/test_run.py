"""Hand-computed run scores for every branch of §4.3(3) and the success rule of §4.2(3)."""

from __future__ import annotations

from typing import Any

import pytest

from generator.models import RunRecord, Task
from generator.score.run import run_outcome


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


def test_rule_only_is_share_of_ordinary_items_with_fatal_out_of_denominator() -> None:
    out = run_outcome(make_task(), make_run({"R1", "R2", "R3"}))
    assert out.rule == 0.75  # 3 of 4 ordinary items; F1 is not counted
    assert out.score == 0.75
    assert out.judge is None
    assert not out.success


def test_all_pass_is_success() -> None:
    out = run_outcome(make_task(), make_run({"R1", "R2", "R3", "R4"}))
    assert (out.rule, out.score, out.success) == (1.0, 1.0, True)


def test_failed_delivery_zeroes_the_run() -> None:
    out = run_outcome(make_task(), make_run({"R1", "R2", "R3", "R4"}, delivery=False))
    assert (out.rule, out.score, out.success) == (1.0, 0.0, False)


def test_failed_fatal_item_zeroes_the_run() -> None:
    out = run_outcome(make_task(), make_run({"R1", "R2", "R3", "R4"}, fatal=False))
    assert (out.score, out.success, out.fatal_failed) == (0.0, False, True)


def test_failed_module_scores_zero_and_stays_in_denominator() -> None:
    out = run_outcome(make_task(), make_run({"R1", "R3", "R4"}, failed_modules=("m2",)))
    assert out.rule == 0.75  # R2 of the missing module counts 0 out of 4, not 3 of 3
    assert not out.success


def test_all_or_nothing_rule_score() -> None:
    task = make_task(rule_scoring="all-or-nothing")
    assert run_outcome(task, make_run({"R1", "R2", "R3"})).rule == 0.0
    assert run_outcome(task, make_run({"R1", "R2", "R3", "R4"})).rule == 1.0


def test_dual_channel_weights_rule_and_judge() -> None:
    # R = 2/4 = 0.5; J = mean(3/4, 1/1, 2/4) = 0.75; S = 0.3*0.5 + 0.7*0.75 = 0.675
    out = run_outcome(make_task(**DUAL), make_run({"R1", "R2"}, judge={"J1": 3, "J2": 1, "J3": 2}))
    assert out.rule == 0.5
    assert out.judge == pytest.approx(0.75)
    assert out.score == pytest.approx(0.675)


def test_dual_channel_success_needs_every_judge_item_at_its_pass_level() -> None:
    task = make_task(**DUAL)
    rules = {"R1", "R2", "R3", "R4"}
    # J3 passes at level 3 of 4 (pass_level), J1 needs its maximum 4
    assert run_outcome(task, make_run(rules, judge={"J1": 4, "J2": 1, "J3": 3})).success
    assert not run_outcome(task, make_run(rules, judge={"J1": 3, "J2": 1, "J3": 4})).success


def test_failed_module_zeroes_its_judge_items() -> None:
    # J3 belongs to m2: its level counts 0 whatever was recorded. J = (4/4 + 1 + 0)/3
    task = make_task(**DUAL)
    out = run_outcome(
        task, make_run({"R1", "R3", "R4"}, judge={"J1": 4, "J2": 1}, failed_modules=("m2",))
    )
    assert out.judge == pytest.approx(2 / 3)
    assert out.score == pytest.approx(0.3 * 0.75 + 0.7 * 2 / 3)


def test_dual_channel_zeroed_by_fatal_keeps_channel_scores_for_audit() -> None:
    out = run_outcome(
        make_task(**DUAL), make_run({"R1"}, fatal=False, judge={"J1": 4, "J2": 1, "J3": 4})
    )
    assert out.score == 0.0
    assert out.rule == 0.25
    assert out.judge == 1.0


@pytest.mark.parametrize(("delivery", "fatal"), [(False, True), (True, False)])
def test_zeroed_run_without_judge_result_scores_judge_zero(delivery: bool, fatal: bool) -> None:
    """§4.2 aggregates both channels over the same valid runs; the Judge had no evidence to
    rate, so every item takes its lowest level (§4.3(2))."""
    out = run_outcome(make_task(**DUAL), make_run({"R1"}, delivery=delivery, fatal=fatal))
    assert out.score == 0.0
    assert out.judge == 0.0
    assert not out.success
