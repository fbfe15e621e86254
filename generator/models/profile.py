"""A release's declared profile: its metrics, facets, axes, judged dimensions and views.

A benchmark other than Lingee Bench declares here what it reports; the engine and the pages
follow the declaration. Every field has Lingee Bench's behaviour as its default, so a
release that declares nothing new reads as before (whitepaper §4.2, §7.2).
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field, StrictFloat, model_validator

from generator.models.base import MAX_FLOAT, Bool, Contract, Float, Id, Text
from generator.models.views import Board, Dimensions, Grid, Resources, Slice, View

__all__ = ["Board", "Dimensions", "Grid", "Resources", "Slice", "View"]

#: Metrics the scoring engine computes from the item verdicts and run fields (§4.2).
KNOWN_METRICS: tuple[str, ...] = (
    "task_score",
    "rule_score",
    "judge_score",
    "success_rate",
    "reliability",
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "duration_s",
    "turns",
    "risk_weighted_score",
    "key_process_success",
    "fatal_error_rate",
    "boundary_correctness",
)
#: The engine's metrics every release reports (the others only when declared).
CORE_METRICS: tuple[str, ...] = KNOWN_METRICS[:5]
#: The four business views of §4.2, reported by domains with ``business_views``.
BUSINESS_METRICS: tuple[str, ...] = KNOWN_METRICS[10:]
#: Per-run fields behind the efficiency metrics: a run must give them where declared.
RUN_FIELDS: dict[str, tuple[str, ...]] = {
    "input_tokens": ("input_tokens",),
    "output_tokens": ("output_tokens",),
    "total_tokens": ("input_tokens", "output_tokens"),
    "duration_s": ("duration_s",),
    "turns": ("turns",),
}
#: Metrics counted in one tokenizer's tokens: never compared across models (§4.2(2)).
TOKEN_METRICS: tuple[str, ...] = ("input_tokens", "output_tokens", "total_tokens")

TaskField = Literal[
    "scenario_category",
    "operation_type",
    "difficulty",
    "interaction",
    "industry",
    "company_size",
    "role",
    "process_stage",
    "risk_level",
    "budgets",
    "multi_solution",
    "known_limitations",
    "source",
    "licence",
    "card",
]
#: The task fields of §2.6 that Lingee Bench requires of every task (its declaration).
LINGEE_TASK_FIELDS: tuple[TaskField, ...] = get_args(TaskField)


class Range(Contract):
    """The values a metric can take; ``null`` for an open end."""

    low: Float | None = Field(default=0.0, description="Least value; null: unbounded below.")
    high: Float | None = Field(default=None, description="Greatest value; null: unbounded above.")

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.low is not None and self.high is not None and self.high <= self.low:
            raise ValueError(f"high {self.high} is not above low {self.low}")
        return self

    @property
    def signed(self) -> bool:
        """Whether the metric can be negative."""
        return self.low is None or self.low < 0


class Metric(Contract):
    """A metric the release reports: computed by the engine (an id of ``KNOWN_METRICS``) or
    measured, each run recording it in its ``measures`` list."""

    id: Id
    title: Text = Field(description="Display name of the metric.")
    direction: Literal["higher", "lower"] = Field(description="Which direction is better.")
    unit: Text | None = Field(default=None, description="Unit of the metric, e.g. 's' or 'CNY'.")
    measured: Bool = Field(
        default=False,
        description="true: each run records the metric in its 'measures' list; false: the "
        "engine computes it (its id one of the engine's metrics).",
    )
    scale: StrictFloat | None = Field(
        default=None,
        ge=1 / MAX_FLOAT,
        le=MAX_FLOAT,
        description="Values are shown divided by this (10^-15 to 10^15), e.g. 10000 for costs "
        "shown in units of 10^4, or 0.1 for a [0, 1] score shown on 0-10; null: as they are. "
        "Only the display "
        "changes; every figure, interval and download keeps the value itself.",
    )
    range: Range | None = Field(
        default=None,
        description="The values the metric can take (a measured value outside is an error); "
        "null: [0, 1] for the engine's scores and rates, [0, unbounded) otherwise.",
    )
    role: Literal["outcome", "resource"] | None = Field(
        default=None,
        description="'outcome': what a task scores; 'resource': what a run spends (tokens, "
        "time, calls, money). Null: the engine's own role for its metrics, 'outcome' for a "
        "measured one.",
    )
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")] | None = Field(
        default=None,
        description="For money: its ISO 4217 currency, e.g. 'CNY'. Every bundle then discloses "
        "its pricing in that currency (source and date), and no figure combines currencies.",
    )
    of: Literal["task_score"] | None = Field(
        default=None,
        description="'task_score': this metric is the engine's Task Score under its own title "
        "and display scale, for the domains that name it as their outcome (e.g. a judged "
        "score in [0, 1] shown on 0-10 with scale 0.1).",
    )
    across_models: Bool | None = Field(
        default=None,
        description="Whether values of different models may be compared: money may, tokens "
        "only within one tokenizer (§4.2(2)). Null: false for token counts, true otherwise.",
    )

    @property
    def comparable(self) -> bool:
        """Whether two models' values of the metric may be set against each other."""
        if self.across_models is not None:
            return self.across_models
        return self.id not in TOKEN_METRICS

    @property
    def kind(self) -> Literal["outcome", "resource"]:
        """The declared role, else the engine's (token, time and turn counts are resources)."""
        if self.role is not None:
            return self.role
        return "resource" if self.id in RUN_FIELDS else "outcome"

    @property
    def bounds(self) -> Range:
        """The declared range, else the engine's default for the metric."""
        if self.range is not None:
            return self.range
        return Range() if self.measured or self.id in RUN_FIELDS else Range(high=1.0)

    @property
    def unit_interval(self) -> bool:
        """Whether the metric lies in [0, 1] (a score, a rate), so Wilson's interval fits."""
        bounds = self.bounds
        return bounds.low == 0 and bounds.high == 1

    @property
    def higher(self) -> bool:
        """Whether a higher value is better."""
        return self.direction == "higher"


class EnumValue(Contract):
    """A value of a closed vocabulary: an enumeration's, a facet's or a tag."""

    id: Id
    title: Text = Field(description="Display name of the value.")
    description: Text | None = Field(default=None, description="What the value means.")


class Facet(Contract):
    """A closed task attribute that scopes can be cut by, e.g. capability or difficulty."""

    id: Id
    title: Text = Field(description="Display name of the facet, e.g. 'Difficulty'.")
    values: tuple[EnumValue, ...] = Field(min_length=1, description="Its closed values.")
    description: Text | None = Field(default=None, description="What the facet describes.")
    multi: Bool = Field(
        default=False,
        description="true: a task may hold several values (e.g. the deliverable types it "
        "asks for) and counts in each; its values overlap, so they are never summed.",
    )


class Axis(Contract):
    """A dimension combinations are laid out on, e.g. method and backbone."""

    id: Id
    title: Text = Field(description="Display name of the axis, e.g. 'Backbone'.")


class Dimension(Contract):
    """A judged dimension that Judge items of different tasks share, e.g. 'Structure'."""

    id: Id
    title: Text = Field(description="Display name of the dimension.")
    description: Text | None = Field(default=None, description="What it assesses.")


class Channel(Contract):
    """A Judge channel, e.g. a text or a visual route, with its own evaluator in each bundle."""

    id: Id
    title: Text = Field(description="Display name of the channel, e.g. 'Visual'.")
    description: Text | None = Field(default=None, description="What the channel judges.")


class TaskSet(Contract):
    """A set of a domain's tasks published as a board of its own, e.g. a human-audited Lite
    set and a Full set: every figure lies within one set, and sets are compared, never pooled."""

    id: Id
    title: Text = Field(description="Display name of the set, e.g. 'Lite'.")
    description: Text | None = Field(default=None, description="How the set was built.")


class Experiment(Contract):
    """A controlled experiment: bundles that differ from a baseline bundle only in one
    condition (e.g. a skill injected, by its creator), measured on target tasks held apart from
    the source tasks the condition was made from."""

    id: Id
    title: Text = Field(description="Title of the experiment, e.g. 'Skill transfer'.")
    description: Text | None = Field(default=None, description="What was done, in short.")
    domain: Id = Field(description="The domain of its source and target tasks.")
    factor: Text = Field(description="What the conditions vary, e.g. 'Skill creator'.")
    baseline: Text = Field(description="The baseline condition, e.g. 'no skill'.")
    levels: tuple[EnumValue, ...] = Field(
        min_length=1, description="The treatment conditions, e.g. one per skill creator."
    )
    sources: tuple[Id, ...] = Field(
        min_length=1, description="Tasks the condition was made from; never measured on."
    )
    targets: tuple[Id, ...] = Field(
        min_length=1, description="Tasks the change is measured on; disjoint from the sources."
    )


class Cells(Contract):
    """A domain score as the equal-weight mean over cells instead of over tasks (§4.2)."""

    over: Literal["tasks", "cells"] = Field(
        default="tasks",
        description="'tasks': the equal-weight mean over tasks; 'cells': the equal-weight mean "
        "over the cells the facets below cut the domain into, shown beside the mean over tasks.",
    )
    facets: tuple[Id, ...] = Field(
        default=(),
        max_length=2,
        description="The facets whose values (or pairs of values) are the cells.",
    )

    @model_validator(mode="after")
    def _facets_for_cells(self) -> Cells:
        if (self.over == "cells") != bool(self.facets):
            raise ValueError("'over: cells' needs one or two facets, and only it does")
        return self


class Profile(Contract):
    """What a release declares beyond Lingee Bench's defaults."""

    task_fields: tuple[TaskField, ...] = Field(
        default=LINGEE_TASK_FIELDS,
        description="Task fields every task must give; by default those Lingee Bench requires "
        "(§2.6). A field not listed may be left out.",
    )
    facets: tuple[Facet, ...] = Field(
        default=(), description="Closed task attributes scopes can be cut by."
    )
    axes: tuple[Axis, ...] = Field(
        default=(),
        description="Axes combinations are placed on (each bundle names its value on each); "
        "none: harness and model.",
    )
    tags: tuple[EnumValue, ...] = Field(
        default=(), description="Tags a combination may carry, e.g. a method family."
    )
    dimensions: tuple[Dimension, ...] = Field(
        default=(), description="Judged dimensions that Judge items name."
    )
    rule_classes: tuple[EnumValue, ...] = Field(
        default=(),
        description="Classes of rule items (e.g. file type, renders), each with its pass rate.",
    )
    channels: tuple[Channel, ...] = Field(
        default=(),
        description="Judge channels (e.g. text and visual): every Judge item names one, every "
        "bundle names each channel's evaluator, and each channel's score and coverage is shown "
        "beside any score that combines them.",
    )
    experiments: tuple[Experiment, ...] = Field(
        default=(),
        description="Experiments whose treatment bundles are compared with their baseline "
        "bundles, and are shown only there.",
    )
    continuous_levels: Bool = Field(
        default=False,
        description="true: a Judge level may be any number from 0 to G; false: whole levels.",
    )
    carried_state: Literal["refused", "labelled"] = Field(
        default="refused",
        description="Bundles whose method carries state across tasks: 'refused' (runs must be "
        "independent, §4.2(3)) or 'labelled' (published with a label, reliability@k withheld).",
    )
    views: tuple[View, ...] = Field(default=(), description="Views of the results to publish.")
