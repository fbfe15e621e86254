"""The task catalog: tasks, their families, and each task's frozen scoring assets.

Fields follow the task metadata of §2.6 and Appendix F; scoring assets follow §4.3.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from pydantic import Field, StrictInt, model_validator

from generator.models.base import (
    Bool,
    Contract,
    Fraction,
    Id,
    Markdown,
    PosInt,
    Text,
    Versioned,
)

ScoringMode = Literal["rule-only", "dual-channel"]
Group = Literal["public", "held-out"]


class Family(Contract):
    """A task family: template variants that count as one scenario (§2.3)."""

    id: Id
    title: Text
    domain: Id
    description: Text | None = None


class Module(Contract):
    """An independently scored module; its items score 0 when it is missing (§4.2)."""

    id: Id
    title: Text


class RuleItem(Contract):
    id: Id
    title: Text
    module: Id | None = None
    fatal: Bool = Field(
        default=False,
        description="A fatal item zeroes the run when it fails and stays out of R's denominator.",
    )


class Evidence(Contract):
    """Frozen evidence bound to Judge items: source + location + original text (§4.3)."""

    id: Id
    source: Text
    location: Text
    excerpt: Text


class JudgeItem(Contract):
    id: Id
    title: Text
    max_level: StrictInt = Field(
        ge=1, le=100, description="G: levels run 0..G; a pass/fail item has max_level 1."
    )
    pass_level: PosInt | None = Field(
        default=None,
        description="Lowest level that counts as a pass for success (§4.2(3)); default max_level.",
    )
    module: Id | None = None
    evidence: tuple[Id, ...] = Field(default=(), description="Designated evidence ids.")

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

    mode: ScoringMode
    rule_weight: Fraction | None = Field(
        default=None, description="w: the rule channel's weight; required for dual-channel tasks."
    )
    rule_scoring: Literal["itemized", "all-or-nothing"] = "itemized"
    core_delivery: Text = Field(description="What the core delivery threshold D checks.")
    modules: tuple[Module, ...] = ()
    rule_items: tuple[RuleItem, ...] = Field(min_length=1)
    judge_items: tuple[JudgeItem, ...] = ()
    evidence: tuple[Evidence, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Scoring:
        problems: list[str] = []
        if self.mode == "dual-channel":
            if self.rule_weight is None:
                problems.append("a dual-channel task needs rule_weight between 0 and 1")
            if not self.judge_items:
                problems.append("a dual-channel task needs at least one judge item")
        else:
            if self.rule_weight is not None:
                problems.append("rule_weight applies to dual-channel tasks only; remove it")
            if self.judge_items:
                problems.append("a rule-only task has no judge items; use mode dual-channel")
        if not any(not item.fatal for item in self.rule_items):
            problems.append("every task needs at least one ordinary (non-fatal) rule item (§4.3)")
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


class Budgets(Contract):
    timeout_s: PosInt
    max_steps: PosInt
    max_tokens: PosInt


class TaskCard(Contract):
    """The five-element task card of §2.4.3 (score composition is generated)."""

    description: Markdown
    input_assets: Markdown | None = None
    checkpoints: Markdown | None = None
    underspecification: Markdown | None = None


class Task(Contract):
    id: Id
    title: Text
    domain: Id
    subdivision: Id = Field(description="Category (general) or dimension (enterprise).")
    family: Id
    variant: Text | None = Field(default=None, description="Label of this variant in its family.")
    scenario_category: Id
    operation_type: Id
    difficulty: Id
    interaction: Literal["single-turn", "multi-turn"]
    group: Group
    industry: Text
    company_size: Text
    role: Text
    process_stage: Text
    risk_level: Id
    key_process_chain: Id | None = None
    functional_boundary: Bool = Field(
        default=False,
        description="The correct behaviour is to refuse or redirect an unsupported request.",
    )
    exception_class: Id | None = None
    scoring: Scoring
    budgets: Budgets
    multi_solution: Text = Field(description="Statement of allowed multiple solutions.")
    known_limitations: Text
    source: Text
    licence: Text
    card: TaskCard


class Catalog(Versioned):
    """``results/<version>/tasks.yaml``: task families and tasks, frozen with the release."""

    release: Id = Field(description="The release version this catalog belongs to.")
    families: tuple[Family, ...] = Field(min_length=1)
    tasks: tuple[Task, ...] = Field(min_length=1)
