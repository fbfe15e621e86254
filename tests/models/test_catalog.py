"""The task catalog and each task's frozen scoring assets (§2.6, §4.3)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from builders import catalog, task
from pydantic import ValidationError

from generator.models import Catalog
from generator.models.catalog import JudgeItem


def _scoring_error(**scoring: Any) -> str:
    """The message of the scoring rule a task breaks, or "" when it passes."""
    data = task("t1", judge=(4,))
    data["scoring"].update(scoring)
    try:
        catalog([data])
    except ValidationError as exc:
        return str(exc)
    return ""


def test_a_dual_channel_and_a_rule_only_task_pass() -> None:
    cat = catalog([task("t1", judge=(4,), weight=0.3), task("t2", fatal=1)])
    assert cat.tasks[0].scoring.rule_weight == 0.3
    assert cat.tasks[1].scoring.mode == "rule-only"
    assert cat.tasks[1].scoring.rule_scoring == "itemized"


@pytest.mark.parametrize(
    ("scoring", "says"),
    [
        ({"rule_weight": None}, "a dual-channel task needs rule_weight between 0 and 1"),
        ({"judge_items": []}, "a dual-channel task needs at least one judge item"),
        (
            {"mode": "rule-only", "judge_items": []},
            "rule_weight applies to dual-channel tasks only",
        ),
        ({"mode": "rule-only", "rule_weight": None}, "a rule-only task has no judge items"),
        (
            {"rule_items": [{"id": "F1", "title": "f", "fatal": True}]},
            "every task needs at least one ordinary (non-fatal) rule item (§4.3)",
        ),
        (
            {"rule_items": [{"id": "J1", "title": "r"}]},
            "item ids must be unique within a task; repeated: J1",
        ),
        (
            {
                "modules": [{"id": "m", "title": "M"}],
                "rule_items": [
                    {"id": "R1", "title": "r"},
                    {"id": "F1", "title": "f", "fatal": True, "module": "m"},
                ],
            },
            "fatal items are task-level zeroing conditions and belong to no module: F1 (§4.2)",
        ),
        (
            {"rule_items": [{"id": "R1", "title": "r", "module": "ghost"}]},
            "undeclared modules: ghost",
        ),
        (
            {"judge_items": [{"id": "J1", "title": "j", "max_level": 2, "evidence": ["E9"]}]},
            "judge items cite undeclared evidence: E9",
        ),
    ],
)
def test_scoring_rules_of_section_4_3(scoring: dict[str, Any], says: str) -> None:
    assert says in _scoring_error(**scoring)


@pytest.mark.parametrize(
    ("scoring", "says"),
    [
        ({"mode": "judge-only", "rule_weight": None, "judge_items": []}, "needs at least one"),
        (
            {
                "mode": "judge-only",
                "rule_weight": None,
                "judge_items": [{"id": "O", "title": "o", "max_level": 10, "overall": True}],
            },
            "a judge-only task needs at least one judge item (besides an overall one)",
        ),
        (
            {"mode": "measure", "rule_weight": None, "judge_items": [], "measure": "cost"},
            "a measure task needs 'measure' (the metric it scores in) and 'failure_value'",
        ),
        ({"failure_value": 3.0}, "apply to measure tasks only"),
        (
            {
                "mode": "judge-only",
                "rule_weight": None,
                "judge_items": [
                    {"id": "J1", "title": "a", "max_level": 10},
                    {"id": "O1", "title": "o", "max_level": 10, "overall": True},
                    {"id": "O2", "title": "o", "max_level": 10, "overall": True},
                ],
            },
            "at most one overall judge item",
        ),
    ],
)
def test_the_modes_beyond_lingee_say_what_they_need(scoring: dict[str, Any], says: str) -> None:
    assert says in _scoring_error(**scoring)


def test_judge_only_and_measure_tasks_need_no_rule_item() -> None:
    judged = task("t1", judge=(10,))
    judged["scoring"].update(mode="judge-only", rule_weight=None, rule_items=[])
    measured = task("t2")
    measured["scoring"].update(
        mode="measure", rule_items=[], measure="cost", failure_value=50_000.0
    )
    cat = catalog([judged, measured])
    assert [t.scoring.mode for t in cat.tasks] == ["judge-only", "measure"]
    assert cat.tasks[1].scoring.failure_value == 50_000.0


def test_all_problems_of_a_scoring_block_are_said_at_once() -> None:
    message = _scoring_error(rule_weight=None, rule_items=[{"id": "J1", "title": "r"}])
    assert "needs rule_weight" in message
    assert "repeated: J1" in message


def test_judge_pass_level_defaults_to_the_top_level_and_stays_within_it() -> None:
    assert JudgeItem(id="J", title="j", max_level=4).passing_level == 4
    assert JudgeItem(id="J", title="j", max_level=4, pass_level=3).passing_level == 3
    with pytest.raises(ValidationError, match="pass_level 5 exceeds max_level 4"):
        JudgeItem(id="J", title="j", max_level=4, pass_level=5)
    with pytest.raises(ValidationError):
        JudgeItem(id="J", title="j", max_level=0)


def test_a_catalog_needs_families_and_tasks() -> None:
    data = catalog([task("t1")]).model_dump(mode="json", by_alias=True)
    for part in ("families", "tasks"):
        empty = copy.deepcopy(data)
        empty[part] = []
        with pytest.raises(ValidationError):
            Catalog.model_validate(empty)
