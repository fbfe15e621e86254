"""The release manifest: one benchmark version, its components, domains and enumerations.

Everything the engine later slices by — domains, their sub-divisions, enumerations, metric
directions — is declared here rather than hard-coded (whitepaper §2.2–2.5, §4.1–4.2, §7.2).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictFloat, StrictInt, model_validator

from generator.models.base import (
    MAX_FLOAT,
    OR_NOT_RECORDED,
    Bool,
    Contract,
    Date,
    Id,
    Markdown,
    NonNegInt,
    NotRecorded,
    PosInt,
    Text,
    Versioned,
    VersionString,
)
from generator.models.profile import KNOWN_METRICS, Cells, EnumValue, Metric, Profile, TaskSet

__all__ = ["KNOWN_METRICS", "Metric", "Release"]


class Benchmark(Contract):
    name: Text = Field(description="Benchmark name, e.g. 'Lingee Bench'.")
    code: Id = Field(description="Benchmark code name, e.g. 'lg-bench'.")


class Components(Contract):
    """Separately numbered component versions of a release (§7.2)."""

    tasks: VersionString | NotRecorded = Field(
        description="Version of the task set (task definitions)." + OR_NOT_RECORDED
    )
    data: VersionString | NotRecorded = Field(
        description="Version of the task data (input assets)." + OR_NOT_RECORDED
    )
    environment: VersionString | NotRecorded = Field(
        description="Version of the evaluation environment." + OR_NOT_RECORDED
    )
    protocol: VersionString | NotRecorded = Field(
        description="Version of the evaluation protocol." + OR_NOT_RECORDED
    )
    judge_assets: VersionString | NotRecorded = Field(
        description="Version of the Judge assets (prompts, rubrics, reference material)."
        + OR_NOT_RECORDED
    )
    scorer: dict[Id, VersionString | NotRecorded] = Field(
        description="Scorer and pipeline components by name (parser, rule engine, judge, ...)."
        + OR_NOT_RECORDED,
        min_length=1,
    )


class Subdivision(Contract):
    id: Id
    title: Text = Field(description="Display name of the sub-division.")
    description: Text | None = Field(default=None, description="What the sub-division covers.")


class Domain(Contract):
    """A domain and its sub-divisions (general: categories; enterprise: dimensions, §2.2)."""

    id: Id
    title: Text = Field(description="Display name of the domain, e.g. 'Enterprise'.")
    subdivision_label: Text | None = Field(
        default=None,
        description="What a sub-division is called, e.g. 'category'; needed with subdivisions.",
    )
    subdivisions: tuple[Subdivision, ...] = Field(
        default=(),
        description="The domain's sub-divisions; when there are any, every task names one.",
    )
    business_views: Bool = Field(
        default=False,
        description="Report the four business views of §4.2 for this domain.",
    )
    description: Text | None = Field(default=None, description="What the domain covers.")
    outcome: Id = Field(
        default="task_score",
        description="The metric the domain's tasks score in: 'task_score' (S from the items), "
        "or a measured metric that every task of the domain scores in (mode 'measure').",
    )
    facets: tuple[Id, ...] = Field(
        default=(), description="Facets of the release whose values cut this domain into scopes."
    )
    aggregate: Cells = Field(
        default_factory=Cells,
        description="How the domain score averages: over tasks (default) or over cells.",
    )

    task_sets: tuple[TaskSet, ...] = Field(
        default=(),
        description="Sets of the domain's tasks, each published on its own (e.g. Lite and "
        "Full): every task names the sets it belongs to, and no figure pools two sets.",
    )

    @model_validator(mode="after")
    def _label_with_subdivisions(self) -> Domain:
        if self.subdivisions and self.subdivision_label is None:
            raise ValueError("a domain with subdivisions needs a subdivision_label")
        return self


class RiskLevel(EnumValue):
    weight: StrictFloat = Field(
        ge=1 / MAX_FLOAT, le=1000, description="Frozen weight in the risk-weighted score."
    )


class Enumerations(Contract):
    """Closed vocabularies that tasks and runs draw from (§2.5.2, §4.2, §4.3)."""

    scenario_categories: tuple[EnumValue, ...] = Field(
        default=(), description="Scenario categories a task belongs to (§2.5.2)."
    )
    operation_types: tuple[EnumValue, ...] = Field(
        default=(), description="Types of operation a task asks for (§2.5.2)."
    )
    difficulty_tiers: tuple[EnumValue, ...] = Field(
        default=(), description="Difficulty tiers, e.g. L1 to L4 (§2.5.2)."
    )
    exception_classes: tuple[EnumValue, ...] = Field(
        default=(), description="Classes of exception a task may inject (§2.5.2)."
    )
    failure_types: tuple[EnumValue, ...] = Field(
        default=(), description="Failure types a run that did not succeed is labelled with."
    )
    risk_levels: tuple[RiskLevel, ...] = Field(
        default=(), description="Risk levels and their weights in the risk-weighted score."
    )
    incomplete_causes: tuple[EnumValue, ...] = Field(
        default=(), description="Causes of an evaluation-incomplete run (§4.3(4))."
    )
    key_process_chains: tuple[EnumValue, ...] = Field(
        default=(), description="Key business process chains of the key-process view (§4.2)."
    )


# Bundle settings a controlled-factor row can name (§4.1), each a set of bundle fields.
FactorKey = Literal["evaluator", "environment", "pipeline", "budgets", "clarification"]
FACTOR_FIELDS: dict[str, tuple[str, ...]] = {
    "evaluator": (
        "evaluator.judge_model",
        "evaluator.judge_model_version",
        "evaluator.prompt_version",
    ),
    "environment": ("environment_snapshot",),
    "pipeline": ("configuration.pipeline_components",),
    "budgets": ("budgets",),
    "clarification": ("clarification",),
}
# Held fixed across all runs unless a row declares them variable (§4.1).
DEFAULT_CONTROLLED: tuple[str, ...] = ("evaluator", "environment", "pipeline", "budgets")


class ControlledFactor(Contract):
    """One row of the controlled-factor table (§4.1)."""

    factor: Text = Field(description="The factor, e.g. 'Evaluator'.")
    status: Literal["controlled", "variable"] = Field(
        description="'controlled': held fixed across the release; 'variable': varies by design."
    )
    setting: Text = Field(description="Its setting, or how it varies.")
    covers: tuple[FactorKey, ...] = Field(
        default=(),
        description="The bundle settings this row is about: 'evaluator' (Judge model, its "
        "version, prompt version), 'environment' (environment snapshot), 'pipeline' "
        "(pipeline component versions), 'budgets', 'clarification'. Controlled: every bundle "
        "of the release must hold the same value (validate refuses one that departs). "
        "Variable: the setting varies by design, and combinations are compared (differences, "
        "ranks, frontier) only with those that share it. Evaluator, environment, pipeline and "
        "budgets are controlled unless a row declares them variable.",
    )


class Groups(Contract):
    """Declared task counts of the public and held-out groups (§4.4)."""

    public: NonNegInt = Field(description="Number of public tasks in the catalog.")
    held_out: NonNegInt = Field(description="Number of held-out tasks in the catalog.")
    min_held_out_aggregate: StrictInt = Field(
        default=5,
        ge=2,
        le=1000,
        description="Fewest held-out tasks an aggregate may cover. Smaller held-out groups are "
        "withheld (with any aggregate they could be derived from), so that no held-out task's "
        "figure can be read or computed (§4.4, §7.2).",
    )


class Statistics(Contract):
    """How uncertainty is computed: seeded, so every build gives the same intervals (§4.2)."""

    confidence: float = Field(
        default=0.95, strict=True, gt=0.5, lt=1, description="Confidence level of intervals."
    )
    bootstrap_samples: StrictInt = Field(
        default=2000, ge=100, le=100_000, description="Bootstrap replicates per interval."
    )
    seed: StrictInt = Field(
        default=0, ge=0, le=2**32 - 1, description="Seed of the bootstrap's random draws."
    )
    min_tasks_to_order: StrictInt = Field(
        default=5,
        ge=2,
        le=10_000,
        description="Fewest common tasks a paired difference needs before it may order two "
        "combinations; below it no difference is called significant (§5.3).",
    )
    min_tasks_to_resample: StrictInt = Field(
        default=5,
        ge=2,
        le=10_000,
        description="Fewest tasks a figure needs for an interval over the task population "
        "(tasks resampled). Over fewer tasks the interval describes the run-to-run noise of "
        "those tasks only, and the pages say so.",
    )


class Release(Versioned):
    """``results/<version>/release.yaml``: the manifest of one benchmark version."""

    benchmark: Benchmark = Field(description="The benchmark this release belongs to.")
    version: Id = Field(description="Version label; equals the release folder name, e.g. 'v1.0'.")
    title: Text = Field(description="Title of the release, e.g. 'Lingee Bench v1.0'.")
    freeze_date: Date = Field(description="Date the release was frozen (YYYY-MM-DD).")
    illustrative: Bool = Field(description="True when the release's data is illustrative only.")
    notice: Markdown | None = Field(
        default=None,
        description="Shown as a banner atop the release home, its domain pages, views and "
        "monitors, whether or not the release is illustrative; required when illustrative.",
    )
    components: Components = Field(description="Versions of the release's components (§7.2).")
    domains: tuple[Domain, ...] = Field(
        min_length=1, description="The domains; scores are never aggregated across them."
    )
    enumerations: Enumerations = Field(
        default_factory=Enumerations, description="Closed vocabularies of tasks and runs."
    )
    metrics: tuple[Metric, ...] = Field(
        min_length=1, description="Every metric the engine computes, with its direction."
    )
    controlled_factors: tuple[ControlledFactor, ...] = Field(
        min_length=1, description="The controlled-factor table (§4.1)."
    )
    runs_per_task: StrictInt = Field(
        ge=1, le=1000, description="Prescribed valid runs per task (§4.2)."
    )
    reliability_k: tuple[PosInt, ...] = Field(
        min_length=1, description="The k values reported for reliability@k."
    )
    groups: Groups = Field(description="Task counts of the public and held-out groups (§4.4).")
    statistics: Statistics = Field(
        default_factory=Statistics, description="How intervals and ranks are computed."
    )
    disclosure_floor: tuple[Annotated[str, Field(pattern=r"^[a-z_]+\.[a-z_]+$")], ...] = Field(
        default=(),
        description="HarnessCard fields ('layer.field') that must be disclosed, not withheld; "
        "a bundle whose card withholds one is labelled, and fails validate --strict.",
    )
    deep_dives: tuple[Id, ...] = Field(
        default=(), description="Task ids of the deep dives (§5.2), in page order."
    )
    boundaries_of_use: Markdown = Field(description="Boundaries of use (§1.4, §5.3).")
    profile: Profile = Field(
        default_factory=Profile,
        description="What the release declares beyond Lingee Bench's defaults: task fields, "
        "facets, axes, judged dimensions, carried state and views.",
    )

    def metric(self, metric_id: str) -> Metric | None:
        """The declared metric of that id, if any."""
        return next((m for m in self.metrics if m.id == metric_id), None)

    def find_domain(self, domain_id: str) -> Domain | None:
        """The declared domain of that id, if any."""
        return next((d for d in self.domains if d.id == domain_id), None)

    def domain(self, domain_id: str) -> Domain:
        """The declared domain of that id (one the checks have found declared)."""
        found = self.find_domain(domain_id)
        if found is None:
            raise KeyError(domain_id)
        return found

    def outcome(self, domain_id: str) -> Metric:
        """The metric the domain's tasks score in, as declared (the task score by default:
        higher is better, in [0, 1])."""
        domain = self.domain(domain_id)
        declared = self.metric(domain.outcome)
        if declared is not None:
            return declared
        return Metric(id="task_score", title="Task Score", direction="higher")

    def varying(self) -> tuple[str, ...]:
        """The factor keys declared variable by design, in :data:`FACTOR_FIELDS` order."""
        declared = {k for f in self.controlled_factors if f.status == "variable" for k in f.covers}
        return tuple(k for k in FACTOR_FIELDS if k in declared)

    def controlled(self) -> dict[str, str]:
        """The controlled factor keys, each with the title of the row that names it (or the
        protocol's default)."""
        rows: dict[str, str] = {k: f.factor for f in self.controlled_factors for k in f.covers}
        keys = [k for k in FACTOR_FIELDS if k not in self.varying()]
        return {
            k: rows.get(k, "held fixed by the protocol")
            for k in keys
            if k in rows or k in DEFAULT_CONTROLLED
        }

    @model_validator(mode="after")
    def _factor_declared_once(self) -> Release:
        covered = [k for f in self.controlled_factors for k in f.covers]
        twice = sorted({k for k in covered if covered.count(k) > 1})
        if twice:
            raise ValueError(
                f"controlled_factors name {twice} in more than one row; expected each setting "
                "in one row, controlled or variable"
            )
        return self

    @model_validator(mode="after")
    def _notice_when_illustrative(self) -> Release:
        if self.illustrative and not self.notice:
            raise ValueError("an illustrative release needs a 'notice' saying so")
        return self

    @model_validator(mode="after")
    def _k_within_runs(self) -> Release:
        bad = [k for k in self.reliability_k if k > self.runs_per_task]
        if bad:
            raise ValueError(
                f"reliability_k {bad} exceed runs_per_task {self.runs_per_task}; "
                "expected k between 1 and runs_per_task"
            )
        if list(self.reliability_k) != sorted(set(self.reliability_k)):
            raise ValueError("reliability_k must be increasing without repeats")
        return self
