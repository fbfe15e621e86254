"""The task catalog: tasks, their families, and each task's frozen scoring assets.

Fields follow the task metadata of §2.6 and Appendix F; scoring assets follow §4.3.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import Field, StrictFloat, StrictInt, model_validator

from generator.models.base import (
    MAX_FLOAT,
    Bool,
    Contract,
    Float,
    Fraction,
    Id,
    Markdown,
    PosInt,
    Text,
    Versioned,
)

ScoringMode = Literal["rule-only", "dual-channel", "judge-only", "measure"]
Group = Literal["public", "held-out"]


class Family(Contract):
    """A task family: template variants that count as one scenario (§2.3)."""

    id: Id
    title: Text = Field(description="Display name of the family.")
    domain: Id = Field(description="The domain of the family's tasks.")
    description: Text | None = Field(default=None, description="What the family's tasks share.")


class Module(Contract):
    """An independently scored module; its items score 0 when it is missing (§4.2)."""

    id: Id
    title: Text = Field(description="What the module delivers.")


class RuleItem(Contract):
    id: Id
    title: Text = Field(description="What the rule item checks.")
    module: Id | None = Field(
        default=None, description="The module the item belongs to; none for task-level items."
    )
    fatal: Bool = Field(
        default=False,
        description="A fatal item zeroes the run when it fails and stays out of R's denominator.",
    )
    weight: StrictFloat = Field(
        default=1.0,
        ge=1 / MAX_FLOAT,
        le=1000,
        description="The item's weight in R (an ordinary item): R is the weighted share of "
        "ordinary items passed; 1 each by default (§4.3(1)).",
    )
    rule_class: Id | None = Field(
        default=None,
        description="The release's rule class the item checks (e.g. file type, no "
        "placeholders): pass rates are reported per class.",
    )


class Evidence(Contract):
    """Frozen evidence bound to Judge items: source + location + original text (§4.3)."""

    id: Id
    source: Text = Field(description="The document or system the evidence comes from.")
    location: Text = Field(description="Where in the source, e.g. a page, sheet or record id.")
    excerpt: Text = Field(description="The original text at that location.")


class JudgeItem(Contract):
    id: Id
    title: Text = Field(description="What the Judge item assesses.")
    max_level: StrictInt = Field(
        ge=1, le=100, description="G: levels run 0..G; a pass/fail item has max_level 1."
    )
    pass_level: PosInt | None = Field(
        default=None,
        description="Lowest level that counts as a pass for success (§4.2(3)); default max_level.",
    )
    module: Id | None = Field(
        default=None, description="The module the item belongs to; none for task-level items."
    )
    evidence: tuple[Id, ...] = Field(default=(), description="Designated evidence ids.")
    dimension: Id | None = Field(
        default=None, description="The release's judged dimension the item assesses, if any."
    )
    weight: StrictFloat = Field(
        default=1.0,
        ge=1 / MAX_FLOAT,
        le=1000,
        description="The item's weight in J: J is the weighted mean of g/G over the Judge "
        "items (e.g. a composite of weighted dimensions); 1 each by default (§4.3(2)).",
    )
    channel: Id | None = Field(
        default=None,
        description="The release's Judge channel that judges the item (e.g. text or visual); "
        "needed when the release declares channels.",
    )
    overall: Bool = Field(
        default=False,
        description="A holistic item judged on its own: kept as a figure of its own, out of "
        "J's mean and never recomputed from the other items.",
    )

    @model_validator(mode="after")
    def _pass_within_levels(self) -> JudgeItem:
        if self.pass_level is not None and self.pass_level > self.max_level:
            raise ValueError(f"pass_level {self.pass_level} exceeds max_level {self.max_level}")
        return self

    @property
    def passing_level(self) -> int:
        return self.max_level if self.pass_level is None else self.pass_level


class Scoring(Contract):
    """A task's scoring configuration, frozen before evaluation (§4.3(3))."""

    mode: ScoringMode = Field(
        description="'rule-only', 'dual-channel' (rule and Judge channels, §4.3), "
        "'judge-only' (S = J) or 'measure' (S is a measured metric of the run)."
    )
    measure: Id | None = Field(
        default=None,
        description="The measured metric a 'measure' task scores in: its domain's outcome.",
    )
    failure_value: Float | None = Field(
        default=None,
        description="What a 'measure' task's run scores when it fails (core delivery or a "
        "fatal item) or records no value; required there, since zero is the best value of "
        "a lower-is-better cost.",
    )
    rule_weight: Fraction | None = Field(
        default=None, description="w: the rule channel's weight; required for dual-channel tasks."
    )
    rule_scoring: Literal["itemized", "all-or-nothing"] = Field(
        default="itemized",
        description="'itemized': R is the share of ordinary items passed; 'all-or-nothing': R "
        "is 1 only when all pass.",
    )
    core_delivery: Text = Field(description="What the core delivery threshold D checks.")
    modules: tuple[Module, ...] = Field(
        default=(), description="Independently scored modules of the task (§4.2)."
    )
    rule_items: tuple[RuleItem, ...] = Field(
        default=(),
        description="Rule items: at least one ordinary (non-fatal) item in a 'rule-only' or "
        "'dual-channel' task.",
    )
    judge_items: tuple[JudgeItem, ...] = Field(
        default=(), description="Judge items; 'dual-channel' and 'judge-only' tasks only."
    )
    evidence: tuple[Evidence, ...] = Field(
        default=(), description="Frozen evidence the Judge items designate."
    )

    @model_validator(mode="after")
    def _consistent(self) -> Scoring:
        problems = _mode_problems(self)
        ids = [i.id for i in self.rule_items] + [j.id for j in self.judge_items]
        dupes = sorted(k for k, n in Counter(ids).items() if n > 1)
        if dupes:
            problems.append(f"item ids must be unique within a task; repeated: {', '.join(dupes)}")
        fatal_in_module = sorted(i.id for i in self.rule_items if i.fatal and i.module)
        if fatal_in_module:
            problems.append(
                f"fatal items are task-level zeroing conditions and belong to no module: "
                f"{', '.join(fatal_in_module)} (§4.2)"
            )
        modules = {m.id for m in self.modules}
        used = {i.module for i in self.rule_items} | {j.module for j in self.judge_items}
        unknown = sorted(m for m in used if m is not None and m not in modules)
        if unknown:
            problems.append(f"items name undeclared modules: {', '.join(unknown)}")
        evidence = {e.id for e in self.evidence}
        missing = sorted({e for j in self.judge_items for e in j.evidence} - evidence)
        if missing:
            problems.append(f"judge items cite undeclared evidence: {', '.join(missing)}")
        if problems:
            raise ValueError("; ".join(problems))
        return self


def _mode_problems(scoring: Scoring) -> list[str]:
    """What the scoring mode asks of the task's items and weights (§4.3)."""
    problems: list[str] = []
    mode, judged = scoring.mode, [j for j in scoring.judge_items if not j.overall]
    if (mode == "dual-channel") != (scoring.rule_weight is not None):
        problems.append(
            "a dual-channel task needs rule_weight between 0 and 1"
            if mode == "dual-channel"
            else "rule_weight applies to dual-channel tasks only; remove it"
        )
    if mode in ("dual-channel", "judge-only") and not judged:
        problems.append(f"a {mode} task needs at least one judge item (besides an overall one)")
    if mode in ("rule-only", "measure") and scoring.judge_items:
        problems.append(f"a {mode} task has no judge items; use mode dual-channel or judge-only")
    if mode in ("rule-only", "dual-channel") and all(i.fatal for i in scoring.rule_items):
        problems.append("every task needs at least one ordinary (non-fatal) rule item (§4.3)")
    if mode == "measure" and (scoring.measure is None or scoring.failure_value is None):
        problems.append(
            "a measure task needs 'measure' (the metric it scores in) and 'failure_value' "
            "(what a failed run scores: zero is the best value of a lower-is-better cost)"
        )
    if mode != "measure" and (scoring.measure, scoring.failure_value) != (None, None):
        problems.append("'measure' and 'failure_value' apply to measure tasks only; remove them")
    if sum(j.overall for j in scoring.judge_items) > 1:
        problems.append("a task has at most one overall judge item")
    return problems


class Budgets(Contract):
    timeout_s: PosInt = Field(title="Timeout (s)", description="Wall-clock limit in seconds.")
    max_steps: PosInt = Field(description="Most agent steps a run may take.")
    max_tokens: PosInt = Field(description="Most tokens a run may use.")


class TaskCard(Contract):
    """The five-element task card of §2.4.3 (score composition is generated)."""

    description: Markdown = Field(description="The task as the agent receives it, in short.")
    input_assets: Markdown | None = Field(default=None, description="The inputs it works on.")
    checkpoints: Markdown | None = Field(default=None, description="What is checked along the way.")
    underspecification: Markdown | None = Field(
        default=None, description="What is left open on purpose, and how it may be clarified."
    )


class Task(Contract):
    id: Id
    title: Text = Field(description="Display name of the task.")
    domain: Id = Field(description="The release domain the task belongs to.")
    subdivision: Id | None = Field(
        default=None,
        description="Category (general) or dimension (enterprise): one of its domain's "
        "subdivisions; needed when the domain declares any.",
    )
    family: Id = Field(description="The task family (one of this catalog's families).")
    variant: Text | None = Field(default=None, description="Label of this variant in its family.")
    scenario_category: Id | None = Field(
        default=None, description="One of the release's scenario_categories."
    )
    operation_type: Id | None = Field(
        default=None, description="One of the release's operation_types."
    )
    difficulty: Id | None = Field(
        default=None, description="One of the release's difficulty_tiers."
    )
    interaction: Literal["single-turn", "multi-turn"] | None = Field(
        default=None, description="Whether the task is one request or a conversation."
    )
    group: Group = Field(description="'public', or 'held-out' (never shown per task, §4.4).")
    industry: Text | None = Field(
        default=None, description="Industry of the task's business setting."
    )
    company_size: Text | None = Field(
        default=None, description="Size of the company in the setting."
    )
    role: Text | None = Field(default=None, description="The role the agent acts for.")
    process_stage: Text | None = Field(default=None, description="The business process stage.")
    risk_level: Id | None = Field(default=None, description="One of the release's risk_levels.")
    key_process_chain: Id | None = Field(
        default=None, description="One of the release's key_process_chains, if any."
    )
    functional_boundary: Bool = Field(
        default=False,
        description="The correct behaviour is to refuse or redirect an unsupported request.",
    )
    exception_class: Id | None = Field(
        default=None, description="One of the release's exception_classes, if any."
    )
    scoring: Scoring = Field(description="The task's frozen scoring configuration (§4.3).")
    budgets: Budgets | None = Field(default=None, description="The task's run budgets.")
    multi_solution: Text | None = Field(
        default=None, description="Statement of allowed multiple solutions."
    )
    known_limitations: Text | None = Field(
        default=None, description="Known limitations of the task."
    )
    source: Text | None = Field(default=None, description="Where the task comes from.")
    licence: Text | None = Field(default=None, description="Licence of the task and its assets.")
    card: TaskCard | None = Field(default=None, description="The task card (§2.4.3).")
    facets: dict[Id, Id | tuple[Id, ...]] = Field(
        default_factory=dict,
        description="Facet id → value, for every facet of the release that cuts the task's "
        "domain (each value one of the facet's); a list of values for a facet that allows "
        "several.",
    )
    sets: tuple[Id, ...] = Field(
        default=(),
        description="The task sets of its domain the task belongs to (e.g. [lite, full]); "
        "needed when the domain declares sets.",
    )


class Catalog(Versioned):
    """``results/<version>/tasks.yaml``: task families and tasks, frozen with the release."""

    release: Id = Field(description="The release version this catalog belongs to.")
    families: tuple[Family, ...] = Field(min_length=1, description="The task families.")
    tasks: tuple[Task, ...] = Field(min_length=1, description="The tasks of the release.")
