"""One Inspect sample → one run, on samples of a log Inspect wrote."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalSampleLimit
from inspect_ai.scorer import Score
from inspect_eval import FAILING

from generator.importers.inspect_samples import (
    Scored,
    failure_title,
    outcome_of,
    run_of,
    values_of,
)
from generator.importers.source import SourceError


def test_c_i_and_n_are_pass_fail_anything_else_a_number() -> None:
    assert outcome_of("match", ["C", "I", "N", True]).kind == "pass-fail"
    numeric = outcome_of("match", ["C", "P", "I"])
    assert (numeric.kind, numeric.metric, numeric.low) == ("measure", "match", None)
    assert outcome_of("f1", [0.5, 1]).kind == "measure"
    with pytest.raises(SourceError, match="gives dict values"):
        outcome_of("multi", [{"a": 1}])


def test_a_sample_is_a_run_with_the_evaluated_models_usage(
    inspect_logs: tuple[Path, list[Any]],
) -> None:
    _, logs = inspect_logs
    log = logs[0]
    scored = Scored("match", outcome_of("match", values_of([log], "match")))
    sample = next(s for s in log.samples if s.error is None)
    run = run_of("q1", sample.epoch, sample, log, scored)
    usage = sample.model_usage[str(log.eval.model)]
    assert (run.status, run.input_tokens, run.output_tokens) == (
        "valid",
        usage.input_tokens,
        usage.output_tokens,
    )
    assert run.passed is (sample.scores["match"].value == "C")
    assert run.duration_s == round(sample.total_time, 3)
    errored = next(s for s in log.samples if s.error is not None)
    assert (str(errored.id), errored.epoch) == FAILING
    lost = run_of("q3", errored.epoch, errored, log, scored)
    assert (lost.status, lost.cause, lost.passed) == ("incomplete", "error", None)
    missing = run_of("q9", 1, None, log, scored)
    assert (missing.status, missing.cause) == ("incomplete", "not-run")


def test_a_failed_sample_at_a_limit_names_the_limit(inspect_logs: tuple[Path, list[Any]]) -> None:
    _, logs = inspect_logs
    log = logs[0]
    scored = Scored("match", outcome_of("match", ["C", "I"]))
    sample = next(s for s in log.samples if s.error is None)
    stopped = sample.model_copy(
        update={
            "scores": {"match": Score(value="I")},
            "limit": EvalSampleLimit(type="token", limit=100),
        }
    )
    run = run_of("q1", 1, stopped, log, scored)
    assert (run.passed, run.failure_type) == (False, "token-limit")
    assert failure_title("token-limit") == "Stopped at the token limit"
    unanswered = sample.model_copy(update={"scores": {"match": Score(value="N")}})
    assert run_of("q1", 1, unanswered, log, scored).failure_type == "no-answer"
    unscored = sample.model_copy(update={"scores": {}})
    assert run_of("q1", 1, unscored, log, scored).cause == "not-scored"
