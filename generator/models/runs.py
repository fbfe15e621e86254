"""Item-level run records, one JSON object a line (§4.2–4.3).

The file starts with a header line ``{"format_version": 1}``. Item results are lists of
small objects, never objects keyed by item id, so a million runs load as columns.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from generator.models.base import (
    Bool,
    Contract,
    Float,
    Id,
    Int,
    NonNegFloat,
    NonNegInt,
    PosInt,
    Text,
    Versioned,
)


class RunsHeader(Versioned):
    """First line of a runs file."""


class RuleVerdict(Contract):
    id: Id
    passed: Bool = Field(alias="pass", description="Whether the item passed.")


class JudgeVerdict(Contract):
    id: Id
    level: NonNegFloat = Field(
        description="g: the level obtained, 0..G; a whole number unless the release allows "
        "continuous levels."
    )
    evidence: tuple[Id, ...] = Field(default=(), description="Evidence ids the verdict cites.")
    rationale: str = Field(default="", max_length=20_000, description="The Judge's reasoning.")


class Measure(Contract):
    id: Id = Field(description="A measured metric the release declares.")
    value: Float = Field(description="The run's value, in the metric's unit.")


class RunRecord(Contract):
    """One run of one task by the bundle's combination."""

    task: Id
    run: PosInt = Field(description="Run index, 1..runs_per_task.")
    seed: Int | None = Field(
        default=None,
        description="Seed the run used; null or left out where the source of the results "
        "did not record it.",
    )
    status: Literal["valid", "incomplete"] = Field(
        description="'incomplete': a technical exception left no valid result (§4.3(4))."
    )
    cause: Id | None = Field(
        default=None, description="Why incomplete; a release incomplete cause."
    )
    retries: NonNegInt = Field(default=0, description="Retries after technical exceptions.")
    delivery: Bool = Field(description="D: the core delivery threshold passed.")
    fatal: tuple[RuleVerdict, ...] = Field(
        default=(), description="Verdicts of the task's fatal rule items."
    )
    rules: tuple[RuleVerdict, ...] = Field(
        default=(), description="Verdicts of the task's ordinary rule items."
    )
    modules_failed: tuple[Id, ...] = Field(
        default=(), description="Modules missing or unacceptable: their items score 0."
    )
    judge: tuple[JudgeVerdict, ...] = Field(
        default=(), description="Verdicts of the task's Judge items."
    )
    judge_valid: Bool | None = Field(
        default=None, description="Whether the Judge result is valid; null for rule-only tasks."
    )
    input_tokens: NonNegInt | None = Field(
        default=None, description="Input tokens, cache reads included (where declared)."
    )
    output_tokens: NonNegInt | None = Field(
        default=None, description="Output tokens (where declared)."
    )
    duration_s: NonNegFloat | None = Field(
        default=None, description="Wall-clock duration in seconds (where declared)."
    )
    turns: NonNegInt | None = Field(default=None, description="Model turns taken (where declared).")
    measures: tuple[Measure, ...] = Field(
        default=(), description="Values of the release's measured metrics, each id once."
    )
    failure_type: Id | None = Field(
        default=None, description="A release failure type; required when the run did not succeed."
    )
    note: Text | None = Field(default=None, description="A free note on the run.")


class RatedLevel(Contract):
    """A second rater's level of one Judge item."""

    id: Id = Field(description="A Judge item of the run's task.")
    level: NonNegFloat = Field(
        description="g: the level given, 0..G; a whole number unless the release allows "
        "continuous levels."
    )


class RatedRun(Contract):
    """One run rated by a second rater (a line of its verdicts file, after the header)."""

    task: Id = Field(description="The run's task.")
    run: PosInt = Field(description="The run's index in the bundle's runs file.")
    judge: tuple[RatedLevel, ...] = Field(
        min_length=1, description="Its levels of the task's Judge items, each item once."
    )
