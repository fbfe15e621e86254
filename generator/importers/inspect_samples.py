"""One Inspect sample (one epoch of one dataset sample) → one run.

A sample the named scorer scored is a valid run: it passed when the value is C (or true),
failed when I or N (or false), or records the number Inspect's ``value_to_float`` makes of
it. A sample that ended in an error, that the scorer did not score, or that the log lacks,
is evaluation-incomplete with its cause. Tokens are the evaluated model's usage (input
with cache reads and writes), the duration the sample's total time, turns its turn count.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from generator.importers.source import ImportedRun, Outcome, SourceError, as_id

#: Why a run left no valid result, by the cause id an import writes.
CAUSES = {
    "error": "The sample ended in an error",
    "not-scored": "The scorer gave the sample no score",
    "cancelled": "The evaluation was cancelled before the sample ran",
    "not-run": "The log ends before the sample ran",
}
#: Why a valid run did not pass, by the failure type an import writes.
FAILURES = {
    "incorrect": "The scorer marked the answer incorrect",
    "no-answer": "The scorer found no answer",
}
PASS_VALUES = {"C": True, "I": False, "N": False}


@dataclass(frozen=True)
class Scored:
    """The scorer the outcome comes from, and how its values read."""

    name: str
    outcome: Outcome


def values_of(logs: Sequence[Any], scorer: str) -> list[Any]:
    """Every value the scorer gave, in log and sample order."""
    return [
        s.scores[scorer].value
        for log in logs
        for s in log.samples
        if s.error is None and s.scores and scorer in s.scores
    ]


def outcome_of(scorer: str, values: Sequence[Any]) -> Outcome:
    """Pass/fail where every value is C, I or N or a boolean; a number otherwise."""
    if all(isinstance(v, bool) or (isinstance(v, str) and v in PASS_VALUES) for v in values):
        return Outcome(
            "pass-fail",
            as_id(scorer, "scorer", "--scorer"),
            "Accuracy",
            f"The scorer {scorer} marked the answer correct",
        )
    odd = [v for v in values if isinstance(v, dict | list)]
    if odd:
        raise SourceError(
            "--scorer",
            f"{scorer} gives {type(odd[0]).__name__} values (e.g. {odd[0]!r}); expected one "
            "value a sample: C/I, a boolean or a number",
        )
    return Outcome(
        "measure",
        as_id(scorer, "scorer", "--scorer"),
        f"Score ({scorer})",
        f"The scorer {scorer}'s value",
        low=None,
        high=None,
    )


def _number(value: Any) -> float:
    from inspect_ai.scorer import value_to_float

    return float(value_to_float()(value))


def _note(text: str) -> str:
    """An error message as a run's note: its first line, printable, at most 200 characters."""
    first = next((line for line in text.splitlines() if line.strip()), "error")
    return re.sub(r"[^\x20-\x7e]", " ", first).strip()[:200] or "error"


def _missing_cause(log: Any) -> str:
    return {"cancelled": "cancelled", "error": "error"}.get(log.status, "not-run")


def _usage(sample: Any, model: str) -> tuple[int | None, int | None]:
    usage = (sample.model_usage or {}).get(model)
    if usage is None:
        return None, None
    cached = (usage.input_tokens_cache_read or 0) + (usage.input_tokens_cache_write or 0)
    return usage.input_tokens + cached, usage.output_tokens


def _limit(sample: Any) -> str | None:
    limit = getattr(sample, "limit", None)
    return f"{limit.type}-limit" if limit is not None else None


def run_of(task: str, epoch: int, sample: Any | None, log: Any, scored: Scored) -> ImportedRun:
    """The run of ``sample`` (``None``: the log lacks it)."""
    seed = log.eval.model_generate_config.seed
    if sample is None:
        return ImportedRun(task, epoch, "incomplete", cause=_missing_cause(log), seed=seed)
    counts: dict[str, Any] = {"source": f"{log.location}: sample {sample.id} epoch {epoch}"}
    counts["input_tokens"], counts["output_tokens"] = _usage(sample, str(log.eval.model))
    if sample.total_time is not None:
        counts["duration_s"] = round(float(sample.total_time), 3)
    if getattr(sample, "turn_count", None) is not None:
        counts["turns"] = sample.turn_count
    retries = len(getattr(sample, "error_retries", None) or [])
    if sample.error is not None:
        return ImportedRun(
            task,
            epoch,
            "incomplete",
            cause="error",
            retries=retries,
            seed=seed,
            note=_note(sample.error.message),
            **counts,
        )
    score = (sample.scores or {}).get(scored.name)
    if score is None:
        return ImportedRun(
            task, epoch, "incomplete", cause="not-scored", retries=retries, seed=seed, **counts
        )
    limit = _limit(sample)
    if scored.outcome.kind == "pass-fail":
        value = score.value
        passed = value if isinstance(value, bool) else PASS_VALUES[value]
        failure = None if passed else limit or ("no-answer" if value == "N" else "incorrect")
        return ImportedRun(
            task,
            epoch,
            "valid",
            passed=passed,
            failure_type=failure,
            retries=retries,
            seed=seed,
            **counts,
        )
    return ImportedRun(
        task,
        epoch,
        "valid",
        value=_number(score.value),
        retries=retries,
        seed=seed,
        note=f"stopped at the {limit.removesuffix('-limit')} limit" if limit else None,
        **counts,
    )


def failure_title(failure: str) -> str:
    """The title of a failure type an Inspect import writes."""
    if failure.endswith("-limit"):
        return f"Stopped at the {failure.removesuffix('-limit')} limit"
    return FAILURES[failure]
