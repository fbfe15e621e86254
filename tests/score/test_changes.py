"""The report's experiments: frozen models, in the report's JSON and schema only when a
domain has an experiment."""

from __future__ import annotations

import json

import pytest
from experimenttools import experiment_version
from pydantic import ValidationError

from generator.score.changes import Change, ExperimentResult, TaskChange, verdict
from generator.score.render_json import to_json
from generator.score.results import Report
from generator.score.version import score_version


def test_the_report_carries_its_domain_s_experiments_in_its_json() -> None:
    reports = score_version(experiment_version()).reports
    office = json.loads(to_json(reports["office"]))
    (found,) = office["experiments"]
    (model,) = reports["office"].experiments
    assert ExperimentResult.model_validate(found).id == model.id
    assert len(found["cells"]) == len(model.cells)
    assert "experiments" not in json.loads(to_json(reports["erp"]))  # none in that domain


def test_the_models_are_frozen_and_closed() -> None:
    change = Change(
        level="l",
        consumer=None,
        treatment=None,
        value=None,
        low=None,
        high=None,
        tasks=0,
        interval="tasks",
        held_out=0,
        withheld="why",
    )
    with pytest.raises(ValidationError):
        change.model_copy(update={}).__setattr__("tasks", 1)
    with pytest.raises(ValidationError):
        TaskChange.model_validate({"level": "l", "unknown": 1})


def test_the_report_schema_documents_the_experiments() -> None:
    schema = Report.model_json_schema()
    assert "experiments" in schema["properties"]
    assert "ExperimentResult" in schema["$defs"]


@pytest.mark.parametrize(
    ("low", "high", "higher", "said"),
    [
        (0.1, 0.4, True, "better"),
        (0.1, 0.4, False, "worse"),
        (-0.4, -0.1, True, "worse"),
        (-0.4, -0.1, False, "better"),
        (-0.1, 0.4, True, None),
        (0.0, 0.4, True, None),  # holds 0
        (None, None, True, None),  # withheld: no interval
    ],
)
def test_a_change_is_better_or_worse_only_where_its_interval_excludes_0(
    low: float | None, high: float | None, higher: bool, said: str | None
) -> None:
    assert verdict(low, high, higher) == said


def test_the_report_reads_each_change_s_verdict_off_its_interval() -> None:
    (result,) = score_version(experiment_version()).reports["office"].experiments
    changes = (*result.cells, *result.level_means, *result.tasks)
    assert len(changes) > len(result.cells) > 0
    for c in changes:
        assert c.verdict == verdict(c.low, c.high, result.higher)
    assert len({c.verdict for c in result.cells}) > 1  # some said, some not
    data = json.loads(result.model_dump_json())
    withheld = [c for c in data["cells"] if c.get("verdict") is None]
    assert withheld
    assert all("verdict" not in c for c in withheld)  # absent, not null
