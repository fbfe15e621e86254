"""The result bundle: one evaluated combination's configuration and run dates (§5.1.1–5.1.3).

Its runs live beside it in JSON Lines (see :mod:`generator.models.runs`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictFloat, StrictInt, model_validator

from generator.models.base import (
    OR_NOT_RECORDED,
    Bool,
    Contract,
    Date,
    Fraction,
    Id,
    Markdown,
    NotRecorded,
    PosInt,
    RelativeFile,
    Text,
    Versioned,
    VersionString,
    named_version,
)
from generator.models.release import Components


class Model(Contract):
    name: Text = Field(description="Name of the model, e.g. 'GLM-5.3-Flash'.")
    version: VersionString | NotRecorded = Field(
        description="Version of the model, e.g. '2026-09-30'; quote it in YAML so it stays text."
        + OR_NOT_RECORDED
    )
    provider: Text | NotRecorded = Field(description="Who serves the model." + OR_NOT_RECORDED)
    tokenizer: Id | NotRecorded = Field(
        description="Tokenizer family; token counts are compared only within one (§4.2(2))."
        + OR_NOT_RECORDED
        + " Then its token counts are compared with no other combination's."
    )

    @property
    def title(self) -> str:
        """The name and version, or the name "(version not recorded)"."""
        return named_version(self.name, self.version)


class Combination(Contract):
    """The evaluated combination of harness and model (§5.1.1)."""

    id: Id = Field(description="Combination id; equals the bundle's folder name.")
    title: Text = Field(description="Display name: harness × model, e.g. 'Lingee × GLM-5.3'.")
    harnesscard: Id = Field(description="Id of the HarnessCard in harnesscards/.")
    harness_mode: Id | None = Field(
        default=None, description="One of the card's modes, when the card declares modes."
    )
    model: Model = Field(description="The model the harness drives.")
    agent_version: VersionString | NotRecorded = Field(
        description="Version of the agent (harness build) that ran; quote it in YAML."
        + OR_NOT_RECORDED
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

    temperature: Annotated[StrictFloat, Field(ge=0, le=2)] | NotRecorded = Field(
        description="Sampling temperature, 0 to 2." + OR_NOT_RECORDED
    )
    top_p: Fraction | NotRecorded = Field(
        title="Top-p", description="Nucleus-sampling probability mass." + OR_NOT_RECORDED
    )
    max_output_tokens: PosInt | NotRecorded = Field(
        description="Most tokens the model may write per call." + OR_NOT_RECORDED
    )
    context_window: PosInt | NotRecorded = Field(
        description="The model's context window in tokens." + OR_NOT_RECORDED
    )
    compression_threshold: PosInt | NotRecorded | None = Field(
        default=None,
        description="Context size in tokens at which compression starts; null: none."
        + OR_NOT_RECORDED,
    )
    reasoning_mode: Text | NotRecorded = Field(
        description="Reasoning setting, e.g. 'thinking enabled'." + OR_NOT_RECORDED
    )
    runs_per_task: PosInt = Field(description="Runs per task; must equal the release's.")
    pipeline_components: Components = Field(
        description="Component versions the runs were scored with; must equal the release's."
    )


class BundleBudgets(Contract):
    timeout_s: PosInt | NotRecorded = Field(
        title="Timeout (s)", description="Wall-clock limit in seconds." + OR_NOT_RECORDED
    )
    max_steps: PosInt | NotRecorded = Field(
        description="Most agent steps a run may take." + OR_NOT_RECORDED
    )
    max_tokens: PosInt | NotRecorded = Field(
        description="Most tokens a run may use." + OR_NOT_RECORDED
    )
    max_retries: Annotated[StrictInt, Field(ge=0, le=100)] | NotRecorded = Field(
        description="Retries after technical exceptions (not independent runs)." + OR_NOT_RECORDED
    )
    retry_policy: Text | NotRecorded = Field(
        description="When and how technical exceptions are retried." + OR_NOT_RECORDED
    )


class Clarification(Contract):
    """Clarification and human-assistance rules (§3.2, §5.1.5)."""

    simulated_user_script_version: VersionString | NotRecorded = Field(
        description="Version of the simulated-user script; quote it in YAML." + OR_NOT_RECORDED
    )
    waiting_cap_s: PosInt | NotRecorded = Field(
        title="Waiting cap (s)",
        description="Longest wait for a clarification, in seconds." + OR_NOT_RECORDED,
    )
    rules: Text | NotRecorded = Field(
        description="When the agent may ask, and what it is told." + OR_NOT_RECORDED
    )


class Evaluator(Contract):
    judge_model: Text | NotRecorded = Field(
        description="The Judge model, e.g. 'GLM-5.3'." + OR_NOT_RECORDED
    )
    judge_model_version: VersionString | NotRecorded = Field(
        description="Version of the Judge model; quote it in YAML." + OR_NOT_RECORDED
    )
    prompt_version: VersionString | NotRecorded = Field(
        description="Version of the Judge prompt; quote it in YAML." + OR_NOT_RECORDED
    )
    voting: Text | NotRecorded = Field(
        description="Judge count and voting rule, e.g. 'single judge'." + OR_NOT_RECORDED
    )


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


#: A per-run count a release's efficiency metrics are computed from (§4.2(2)).
RunCount = Literal["input_tokens", "output_tokens", "duration_s", "turns"]


class Bundle(Versioned):
    """``results/<version>/bundles/<combination>/bundle.yaml``."""

    release: Id = Field(description="The release version these runs belong to.")
    combination: Combination = Field(description="The evaluated harness × model (§5.1.1).")
    configuration: Configuration = Field(description="The configuration record (§5.1.3).")
    budgets: BundleBudgets = Field(description="Run budgets the combination ran under.")
    clarification: Clarification = Field(description="Clarification rules (§3.2, §5.1.5).")
    environment_snapshot: VersionString | NotRecorded = Field(
        description="Version of the environment snapshot the runs used." + OR_NOT_RECORDED
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
    counts_not_recorded: tuple[RunCount, ...] = Field(
        default=(),
        description="Per-run counts the source of the results did not record for some or all "
        "of the runs ('input_tokens', 'output_tokens', 'duration_s', 'turns'): a run may then "
        "leave the count out. A figure of it rests on the runs that record it, says how many, "
        "and is compared with no combination whose runs lack it (never read as 0).",
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
