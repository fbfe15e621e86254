"""The result bundle: one evaluated combination's configuration and run dates (§5.1.1–5.1.3).

Its runs live beside it in JSON Lines (see :mod:`generator.models.runs`).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field, StrictInt, model_validator

from generator.models.base import (
    Bool,
    Contract,
    Float,
    Fraction,
    Id,
    Markdown,
    PosInt,
    RelativeFile,
    Text,
    Versioned,
    VersionString,
)
from generator.models.release import Components


class Model(Contract):
    name: Text
    version: VersionString
    provider: Text
    tokenizer: Id = Field(
        description="Tokenizer family; token counts are compared only within one (§4.2(2))."
    )


class Combination(Contract):
    """The evaluated combination of harness and model (§5.1.1)."""

    id: Id = Field(description="Combination id; equals the bundle's folder name.")
    title: Text
    harnesscard: Id = Field(description="Id of the HarnessCard in harnesscards/.")
    harness_mode: Id | None = Field(
        default=None, description="One of the card's modes, when the card declares modes."
    )
    model: Model
    agent_version: VersionString


class Configuration(Contract):
    """The configuration record of §5.1.3."""

    temperature: Float = Field(ge=0, le=2)
    top_p: Fraction = Field(title="Top-p", description="Nucleus-sampling probability mass.")
    max_output_tokens: PosInt
    context_window: PosInt
    compression_threshold: PosInt | None = Field(
        default=None, description="Context size in tokens at which compression starts; null: none."
    )
    reasoning_mode: Text
    runs_per_task: PosInt
    pipeline_components: Components = Field(
        description="Component versions the runs were scored with; must equal the release's."
    )


class BundleBudgets(Contract):
    timeout_s: PosInt
    max_steps: PosInt
    max_tokens: PosInt
    max_retries: StrictInt = Field(
        ge=0, le=100, description="Retries after technical exceptions (not independent runs)."
    )
    retry_policy: Text


class Clarification(Contract):
    """Clarification and human-assistance rules (§3.2, §5.1.5)."""

    simulated_user_script_version: VersionString
    waiting_cap_s: PosInt
    rules: Text


class Evaluator(Contract):
    judge_model: Text
    judge_model_version: VersionString
    prompt_version: VersionString
    voting: Text = Field(description="Judge count and voting rule, e.g. 'single judge'.")


class RunDates(Contract):
    start: dt.date
    end: dt.date

    @model_validator(mode="after")
    def _ordered(self) -> RunDates:
        if self.end < self.start:
            raise ValueError(f"end {self.end} is before start {self.start}")
        return self


class Consent(Contract):
    """Publication consent (§7.2): nothing is published without it."""

    granted: Bool
    by: Text
    date: dt.date


class NotCovered(Contract):
    """A domain or sub-division the combination was not evaluated on, with why (§5.3)."""

    domain: Id
    subdivision: Id | None = None
    reason: Text


class Bundle(Versioned):
    """``results/<version>/bundles/<combination>/bundle.yaml``."""

    release: Id = Field(description="The release version these runs belong to.")
    combination: Combination
    configuration: Configuration
    budgets: BundleBudgets
    clarification: Clarification
    environment_snapshot: VersionString
    evaluator: Evaluator
    run_dates: RunDates
    consent: Consent
    evaluation: Literal["complete", "incomplete"] = Field(
        description="'complete' only when every covered task has the prescribed valid runs."
    )
    not_covered: tuple[NotCovered, ...] = ()
    runs: RelativeFile = Field(
        default="runs.jsonl",
        description="The run records (JSON Lines), relative to the bundle folder.",
    )
    notes: Markdown | None = None
