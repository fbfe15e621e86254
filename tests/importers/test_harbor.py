"""Harbor jobs: one ``<trial>/result.json`` per trial, read from a fixture in its layout."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from generator.importers.harbor import harbor_trials, is_harbor_job
from generator.importers.source import SourceError

JOB = Path(__file__).resolve().parent.parent / "fixtures" / "harbor" / "2026-11-22__09-00-00"


def test_trials_of_a_job_become_runs() -> None:
    assert is_harbor_job(JOB)
    (bundle,), _, outcome = harbor_trials(JOB, None)
    assert outcome.kind == "pass-fail"
    assert (bundle.harness, bundle.harness_version, bundle.model, bundle.model_provider) == (
        "terminus-2",
        "2.0.0",
        "gpt-5",
        "openai",
    )
    runs = {(r.task, r.run): r for r in bundle.runs}
    assert runs[("fix-git", 1)].failure_type == "AgentTimeoutError"
    lost = runs[("fix-git", 2)]
    assert (lost.status, lost.cause) == ("incomplete", "RuntimeError")
    assert runs[("hello-world", 2)].passed is True
    assert runs[("hello-world", 1)].input_tokens == 2000
    assert runs[("hello-world", 1)].duration_s == 60.0


def test_a_reward_other_than_1_or_0_is_a_number(tmp_path: Path) -> None:
    job = tmp_path / "job"
    shutil.copytree(JOB, job)
    path = next(job.glob("hello-world__*/result.json"))
    trial = json.loads(path.read_text(encoding="utf-8"))
    trial["verifier_result"] = {"rewards": {"reward": 0.5, "style": 1.0}}
    path.write_text(json.dumps(trial), encoding="utf-8")
    with pytest.raises(SourceError, match=r"the rewards \['reward', 'style'\]"):
        harbor_trials(job, None)
    (bundle,), _, outcome = harbor_trials(job, "reward")
    assert (outcome.kind, outcome.metric) == ("measure", "reward")
    assert sorted(r.value for r in bundle.runs if r.value is not None) == [0.0, 0.5, 1.0]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"agent_result": [1]}, "agent_result: [1] is not an object"),
        ({"agent_execution": "x"}, "agent_execution: 'x' is not an object"),
        ({"agent_info": "x"}, "agent_info: 'x' is not an object"),
        ({"started_at": "garbage"}, "started_at: 'garbage' is not an ISO 8601 time stamp"),
        ({"task_name": "fix/git"}, "task_name 'fix-git' and 'fix/git' both make the id"),
    ],
)
def test_a_hostile_trial_is_named(tmp_path: Path, change: dict[str, object], said: str) -> None:
    job = tmp_path / "job"
    shutil.copytree(JOB, job)
    path = next(job.glob("hello-world__*/result.json"))
    trial = json.loads(path.read_text(encoding="utf-8"))
    trial.update(change)
    path.write_text(json.dumps(trial), encoding="utf-8")
    with pytest.raises(SourceError, match=re.escape(said)) as caught:
        harbor_trials(job, None)
    assert caught.value.where.startswith(str(job))
