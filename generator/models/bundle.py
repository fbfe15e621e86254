"""The result bundle: one evaluated combination's configuration and run dates (§5.1.1–5.1.3).

Its runs live beside it in JSON Lines (see :mod:`generator.models.runs`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictFloat, StrictInt, model_validator

from generator.models.base import (
    Bool,
    Contract,
    Date,
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
    name: Text = Field(description="Name of the model, e.g. 'GLM-5.3-Flash'.")
    version: VersionString = Field(
        description="Version of the model, e.g. '2026-09-30'; quote it in YAML so it stays text."
    )
    provider: Text = Field(description="Who serves the model.")
    tokenizer: Id = Field(
        description="Tokenizer family; token counts are compared only within one (§4.2(2))."
    )


class Combination(Contract):
    """The evaluated combination of harness and model (§5.1.1)."""

    id: Id = Field(description="Combination id; equals the bundle's folder name.")
    title: Text = Field(description="Display name: harness × model, e.g. 'Lingee × GLM-5.3'.")
    harnesscard: Id = Field(description="Id of the HarnessCard in harnesscards/.")
    harness_mode: Id | None = Field(
        default=None, description="One of the card's modes, when the card declares modes."
    )
    model: Model = Field(description="The model the harness drives.")
    agent_version: VersionString = Field(
        description="Version of the agent (harness build) that ran; quote it in YAML."
    )
    axes: dict[Id, Text] = Field(
        default_factory=dict,
        description="The combination's value on each axis the release declares, e.g. "
        "{method: CoT, backbone: GPT-4.1}; needed when the release declares axes.",
    )
    tags: tuple[Id, ...] = Field(
        default=(), description="Tags of the release the combination carries, e.g. a method family."
    )


class Configuration(Contract):
    """The configuration record of §5.1.3."""

    temperature: StrictFloat = Field(ge=0, le=2, description="Sampling temperature, 0 to 2.")
    top_p: Fraction = Field(title="Top-p", description="Nucleus-sampling probability mass.")
    max_output_tokens: PosInt = Field(description="Most tokens the model may write per call.")
    context_window: PosInt = Field(description="The model's context window in tokens.")
    compression_threshold: PosInt | None = Field(
        default=None, description="Context size in tokens at which compression starts; null: none."
    )
    reasoning_mode: Text = Field(description="Reasoning setting, e.g. 'thinking enabled'.")
    runs_per_task: PosInt = Field(description="Runs per task; must equal the release's.")
    pipeline_components: Components = Field(
        description="Component versions the runs were scored with; must equal the release's."
    )


class BundleBudgets(Contract):
    timeout_s: PosInt = Field(title="Timeout (s)", description="Wall-clock limit in seconds.")
    max_steps: PosInt = Field(description="Most agent steps a run may take.")
    max_tokens: PosInt = Field(description="Most tokens a run may use.")
    max_retries: StrictInt = Field(
        ge=0, le=100, description="Retries after technical exceptions (not independent runs)."
    )
    retry_policy: Text = Field(description="When and how technical exceptions are retried.")


class Clarification(Contract):
    """Clarification and human-assistance rules (§3.2, §5.1.5)."""

    simulated_user_script_version: VersionString = Field(
        description="Version of the simulated-user script; quote it in YAML."
    )
    waiting_cap_s: PosInt = Field(
        title="Waiting cap (s)", description="Longest wait for a clarification, in seconds."
    )
    rules: Text = Field(description="When the agent may ask, and what it is told.")


class Evaluator(Contract):
    judge_model: Text = Field(description="The Judge model, e.g. 'GLM-5.3'.")
    judge_model_version: VersionString = Field(
        description="Version of the Judge model; quote it in YAML."
    )
    prompt_version: VersionString = Field(
        description="Version of the Judge prompt; quote it in YAML."
    )
    voting: Text = Field(description="Judge count and voting rule, e.g. 'single judge'.")


class RunDates(Contract):
    start: Date = Field(description="First day of the runs (YYYY-MM-DD).")
    end: Date = Field(description="Last day of the runs (YYYY-MM-DD).")

    @model_validator(mode="after")
    def _ordered(self) -> RunDates:
        if self.end < self.start:
            raise ValueError(f"end {self.end} is before start {self.start}")
        return self


class Consent(Contract):
    """Publication consent (§7.2): nothing is published without it."""

    granted: Bool = Field(description="true to publish; false keeps every result back.")
    by: Text = Field(description="Who granted (or refused) consent.")
    date: Date = Field(description="When (YYYY-MM-DD).")


class NotCovered(Contract):
    """A domain or sub-division the combination was not evaluated on, with why (§5.3)."""

    domain: Id = Field(description="The domain not covered, or that holds the sub-division.")
    subdivision: Id | None = Field(
        default=None, description="The sub-division not covered; none: the whole domain."
    )
    reason: Text = Field(description="Why it was not evaluated.")
    task_set: Id | None = Field(
        default=None, description="The domain's task set not covered; none: every set."
    )


class Pricing(Contract):
    """How a run's money was computed: the prices behind a release's currency metrics."""

    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")] = Field(
        description="ISO 4217 currency of the prices, e.g. 'CNY'."
    )
    source: Text = Field(description="Where the prices come from, e.g. a provider's price list.")
    date: Date = Field(description="The date the prices held (YYYY-MM-DD).")


class Condition(Contract):
    """The condition of a treatment bundle in one of the release's experiments."""

    experiment: Id = Field(description="The release's experiment.")
    level: Id = Field(description="One of the experiment's levels, e.g. the skill's creator.")


class Rater(Contract):
    """A second rater of some runs' Judge items (another judge, or humans), for agreement."""

    id: Id
    title: Text = Field(description="Who rated, e.g. 'Human experts' or 'GPT-5.4 judge'.")
    kind: Literal["judge", "human"] = Field(description="'judge' (a model) or 'human'.")
    verdicts: RelativeFile = Field(
        description="Its verdicts (JSON Lines, relative to the bundle folder): a header line, "
        'then one line per rated run: {"task", "run", "judge": [{"id", "level"}]}.'
    )


class Bundle(Versioned):
    """``results/<version>/bundles/<combination>/bundle.yaml``."""

    release: Id = Field(description="The release version these runs belong to.")
    combination: Combination = Field(description="The evaluated harness × model (§5.1.1).")
    configuration: Configuration = Field(description="The configuration record (§5.1.3).")
    budgets: BundleBudgets = Field(description="Run budgets the combination ran under.")
    clarification: Clarification = Field(description="Clarification rules (§3.2, §5.1.5).")
    environment_snapshot: VersionString = Field(
        description="Version of the environment snapshot the runs used."
    )
    evaluator: Evaluator = Field(description="The Judge that scored the runs.")
    run_dates: RunDates = Field(description="When the runs took place.")
    consent: Consent = Field(description="Publication consent (§7.2).")
    evaluation: Literal["complete", "incomplete"] = Field(
        description="'complete' only when every covered task has the prescribed valid runs."
    )
    not_covered: tuple[NotCovered, ...] = Field(
        default=(), description="Domains or sub-divisions not evaluated, each with why (§5.3)."
    )
    runs: RelativeFile = Field(
        default="runs.jsonl",
        description="The run records (JSON Lines), relative to the bundle folder.",
    )
    notes: Markdown | None = Field(default=None, description="Free notes shown on its card.")
    pricing: Pricing | None = Field(
        default=None,
        description="The prices behind the runs' money, where the release declares a metric "
        "in a currency: currency, source and date.",
    )
    carried_state: Text | None = Field(
        default=None,
        description="How the method carries state across tasks (memory, cheat-sheets, "
        "playbooks, prompt evolution); null: every run is independent (§4.2(3)). Such a bundle "
        "is labelled everywhere and its reliability@k is withheld, where the release allows it.",
    )
    channels: dict[Id, Evaluator] = Field(
        default_factory=dict,
        description="The evaluator of each Judge channel the release declares (e.g. text, "
        "visual), by channel id; needed for every channel when the release declares any.",
    )
    condition: Condition | None = Field(
        default=None,
        description="The experiment condition of a treatment bundle; null: an ordinary bundle "
        "(an experiment's baseline where it sits at the same place on the axes).",
    )
    raters: tuple[Rater, ...] = Field(
        default=(), description="Second raters of some of the runs' Judge items."
    )
