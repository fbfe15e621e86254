"""Item-level run records (§4.2–4.3): the header line and one record a line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from generator.models import FORMAT_VERSION, RunRecord, RunsHeader
from generator.models.runs import RatedRun

GOOD: dict[str, Any] = {
    "task": "t1",
    "run": 1,
    "seed": 0,
    "status": "valid",
    "delivery": True,
    "rules": [{"id": "R1", "pass": True}],
    "fatal": [{"id": "F1", "pass": False}],
    "judge": [{"id": "J1", "level": 3, "evidence": ["E1"]}],
    "judge_valid": True,
    "input_tokens": 10,
    "output_tokens": 2,
    "duration_s": 1.5,
    "turns": 1,
}


def test_a_good_record_reads_its_verdicts() -> None:
    record = RunRecord.model_validate_json(json.dumps(GOOD))
    assert record.rules[0].passed is True  # "pass" in the file
    assert record.fatal[0].passed is False
    assert record.judge[0].evidence == ("E1",)
    assert record.judge[0].rationale == ""
    assert (record.retries, record.modules_failed, record.cause) == (0, (), None)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("run", 0),
        ("status", "fine"),
        ("delivery", "true"),
        ("input_tokens", -1),
        ("duration_s", -0.5),
        ("judge_valid", 1),
        ("task", "bad id"),
        ("retries", 1.0),
        ("note", " "),
    ],
)
def test_bad_values_are_refused(field: str, value: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        RunRecord.model_validate_json(json.dumps({**GOOD, field: value}))
    assert [e["loc"][0] for e in caught.value.errors()] == [field]


def test_verdict_fields_are_checked_too() -> None:
    for judge in ({"id": "J1", "level": -1}, {"id": "J1"}, {"id": "J1", "level": 1, "x": 1}):
        with pytest.raises(ValidationError):
            RunRecord.model_validate({**GOOD, "judge": [judge]})
    with pytest.raises(ValidationError):
        RunRecord.model_validate({**GOOD, "rules": [{"id": "R1"}]})  # no verdict


def test_the_header_states_a_known_format_version() -> None:
    assert RunsHeader.model_validate({"format_version": FORMAT_VERSION})
    for header in ({}, {"format_version": FORMAT_VERSION + 1}, {"format_version": 1, "task": "t"}):
        with pytest.raises(ValidationError):
            RunsHeader.model_validate(header)


def test_a_rated_run_names_its_run_and_at_least_one_level() -> None:
    line = {"task": "t1", "run": 2, "judge": [{"id": "J1", "level": 2.5}]}
    rated = RatedRun.model_validate(line)
    assert (rated.task, rated.run, rated.judge[0].id, rated.judge[0].level) == ("t1", 2, "J1", 2.5)
    for bad in (
        {**line, "judge": []},
        {**line, "run": 0},
        {**line, "judge": [{"id": "J1", "level": -1}]},
        {**line, "seed": 1},
        {**line, "judge": [{"id": "J1", "level": 1, "rationale": "r"}]},
    ):
        with pytest.raises(ValidationError):
            RatedRun.model_validate(bad)
