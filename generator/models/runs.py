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
    level: NonNegInt = Field(description="g: the level obtained, 0..G.")
    evidence: tuple[Id, ...] = Field(default=(), description="Evidence ids the verdict cites.")
    rationale: str = Field(default="", max_length=20_000, description="The Judge's reasoning.")


class RunRecord(Contract):
    """One run of one task by the bundle's combination."""

    task: Id
    run: PosInt = Field(description="Run index, 1..runs_per_task.")
    seed: Int = Field(description="Seed the run used.")
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
    input_tokens: NonNegInt = Field(description="Input tokens, cache reads included.")
    output_tokens: NonNegInt = Field(description="Output tokens.")
    duration_s: NonNegFloat = Field(description="Wall-clock duration in seconds.")
    turns: NonNegInt = Field(description="Model turns taken.")
    failure_type: Id | None = Field(
        default=None, description="A release failure type; required when the run did not succeed."
    )
    note: Text | None = Field(default=None, description="A free note on the run.")
