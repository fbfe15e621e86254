"""A public task's own tables: its metadata (§2.6), its frozen scoring items and evidence
(§4.3), and its means by combination (§5.2 part 2)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from typing import Any

from generator.models import Task
from generator.models.catalog import Evidence, JudgeItem, RuleItem
from generator.pages.blocks.cells import STATUS_TEXT, combo_cell
from generator.pages.blocks.columns import Column, Field, Spec, pairs, sorted_as
from generator.pages.blocks.outcome import Outcome, outcome_of
from generator.pages.blocks.tables import Cell, Table
from generator.pages.blocks.text import score
from generator.pages.context import VersionContext
from generator.protocol.order import First, metric_first
from generator.score.results import TaskRow

Item = RuleItem | JudgeItem


def _title(values: Iterable[Any], key: str | None) -> str:
    """The title of the enumeration value ``key`` (the key itself if it has none)."""
    if key is None:
        return "—"
    return next((v.title for v in values if v.id == key), key)


def _placement(ctx: VersionContext, task: Task) -> list[tuple[str, str]]:
    """Where the task sits: domain, sub-division, family."""
    domain = ctx.release.domain(task.domain)
    subdivision = next((x.title for x in domain.subdivisions if x.id == task.subdivision), None)
    variant = f" — variant: {task.variant}" if task.variant else ""
    where = [("Domain", domain.title)]
    if domain.subdivision_label and task.subdivision:
        where.append((domain.subdivision_label.capitalize(), subdivision or task.subdivision))
    return [*where, ("Task family", task.family + variant)]


def _boundary(ctx: VersionContext, task: Task) -> str | None:
    """Whether the task is a functional-boundary one: said where a domain reports the
    boundary view (§4.2) or the task is one; else not a field of this release."""
    if task.functional_boundary:
        return "yes"
    return "no" if any(d.business_views for d in ctx.release.domains) else None


def _classification(ctx: VersionContext, task: Task) -> list[tuple[str, str]]:
    """The task's factors, each by its enumeration title (§2.6)."""
    enums = ctx.release.enumerations
    rows = [
        ("Scenario category", _title(enums.scenario_categories, task.scenario_category)),
        ("Operation type", _title(enums.operation_types, task.operation_type)),
        ("Difficulty", _title(enums.difficulty_tiers, task.difficulty)),
        ("Interaction", task.interaction),
        ("Group", task.group),
        ("Industry", task.industry),
        ("Company size", task.company_size),
        ("Role", task.role),
        ("Process stage", task.process_stage),
        ("Business risk", _title(enums.risk_levels, task.risk_level)),
        ("Key-process chain", _title(enums.key_process_chains, task.key_process_chain)),
        ("Functional-boundary task", _boundary(ctx, task)),
        ("Exception class", _title(enums.exception_classes, task.exception_class)),
    ]
    declared: list[str] = [*ctx.release.profile.task_fields]
    declared += ["key_process_chain"] if enums.key_process_chains else []
    declared += ["exception_class"] if enums.exception_classes else []
    return _given(rows, task, declared, CLASSIFICATION)


def _terms(ctx: VersionContext, task: Task) -> list[tuple[str, str]]:
    """The task's budgets, known limits and provenance."""
    b = task.budgets
    budgets = f"{b.timeout_s:,} s, {b.max_steps:,} steps, {b.max_tokens:,} tokens" if b else None
    rows = [
        ("Budgets", budgets),
        ("Multiple solutions", task.multi_solution),
        ("Known limitations", task.known_limitations),
        ("Source", task.source),
        ("Licence", task.licence),
    ]
    return _given(rows, task, ctx.release.profile.task_fields, TERMS)


#: The task field behind each row of :func:`_classification` and :func:`_terms`.
CLASSIFICATION = (
    "scenario_category",
    "operation_type",
    "difficulty",
    "interaction",
    "group",
    "industry",
    "company_size",
    "role",
    "process_stage",
    "risk_level",
    "key_process_chain",
    "functional_boundary",
    "exception_class",
)
TERMS = ("budgets", "multi_solution", "known_limitations", "source", "licence")


def _given(
    rows: list[tuple[str, str | None]], task: Task, required: Sequence[str], fields: Sequence[str]
) -> list[tuple[str, str]]:
    """The rows whose field the task gives, or the release declares (then "—" when not
    given)."""
    return [
        (label, "—" if value is None else value)
        for (label, value), name in zip(rows, fields, strict=True)
        if (getattr(task, name) is not None and value is not None) or name in required
    ]


METADATA = pairs(("Field", "field"), ("Value", "value"))


def metadata_table(ctx: VersionContext, task: Task) -> Table:
    entries = _placement(ctx, task) + _classification(ctx, task) + _terms(ctx, task)
    return METADATA.table("metadata", "Task metadata (§2.6)", entries)


def _is_judge(item: Item) -> bool:
    return isinstance(item, JudgeItem)


def _is_rule(item: Item) -> bool:
    return isinstance(item, RuleItem)


def _kind_shown(item: Item) -> str:
    if isinstance(item, JudgeItem):
        return "Judge item"
    return "fatal rule item" if item.fatal else "rule item"


def _kind(item: Item) -> str:
    return "judge" if isinstance(item, JudgeItem) else _kind_shown(item)


def _levels(item: Item) -> str:
    if isinstance(item, RuleItem):
        return "pass/fail"
    return f"0–{item.max_level}" + (f", pass at {item.pass_level}" if item.pass_level else "")


def _evidence(item: Item) -> list[str]:
    return list(item.evidence) if isinstance(item, JudgeItem) else []


#: A row per scoring item: rule items pass or fail, Judge items have levels (§4.3).
SCORING: Spec[Item] = Spec(
    (
        Column("Item", attrgetter("id")),
        Column("Kind", _kind_shown),
        Column("Checks", attrgetter("title")),
        Column("Module", lambda i: i.module or "—"),
        Column("Levels", _levels),
    ),
    (
        Field("item", attrgetter("id")),
        Field("kind", _kind),
        Field("title", attrgetter("title")),
        Field("module", attrgetter("module")),
        Field("levels", _levels, when=_is_rule),
        Field("max_level", attrgetter("max_level"), "integer", _is_judge),
        Field("pass_level", attrgetter("passing_level"), "integer", _is_judge),
        Field("evidence", _evidence, "array", _is_judge),
    ),
)


def scoring_table(task: Task) -> Table:
    items: list[Item] = [*task.scoring.rule_items, *task.scoring.judge_items]
    return SCORING.table("scoring", "Scoring items, frozen before evaluation (§4.3)", items)


def composition(task: Task) -> str:
    s = task.scoring
    ordinary = sum(not i.fatal for i in s.rule_items)
    fatal = sum(i.fatal for i in s.rule_items)
    text = f"{ordinary} ordinary rule item(s) ({s.rule_scoring}), {fatal} fatal item(s)"
    overall = sum(j.overall for j in s.judge_items)
    judged = len(s.judge_items) - overall
    apart = " and a judged overall, kept as a figure of its own" if overall else ""
    if s.mode == "dual-channel":
        w = s.rule_weight or 0.0
        text += f", {judged} Judge item(s){apart}. Dual-channel: S = {w:g}·R + {1 - w:g}·J"
    elif s.mode == "judge-only":
        text += f", {judged} Judge item(s){apart}. Judge-only: S = J"
    elif s.mode == "measure":
        return (
            text + f". Measure: S is the run's {s.measure} when the core delivery threshold "
            f"and every fatal item pass, else {s.failure_value:g} (the task's failure value)."
        )
    else:
        text += ". Rule-only: S = R"
    return text + " when the core delivery threshold and every fatal item pass, else 0."


def _task_score_cell(outcome: Outcome) -> Callable[[TaskRow], Cell]:
    def show(r: TaskRow) -> Cell:
        if STATUS_TEXT[r.status] or r.score is None or outcome.plain:
            return Cell(STATUS_TEXT[r.status] or score(r.score), r.score)
        return Cell(score(r.score / (outcome.metric.scale or 1.0)), r.score)

    return show


def results_spec(ctx: VersionContext, domain: str) -> Spec[TaskRow]:
    """A row per combination: the task's means over its valid runs (a score's first click
    sorts best first), the score in its domain's outcome metric."""

    def best(metric: str) -> First | None:
        return metric_first(ctx.release, metric)

    outcome = outcome_of(ctx, domain)
    header = outcome.title if outcome.plain else f"{outcome.title} ({outcome.qualifier})"

    return Spec(
        (
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 1)),
            Column(header, lambda r: r, _task_score_cell(outcome), first=best(outcome.metric.id)),
            Column("Rule score", attrgetter("rule"), sorted_as(score), first=best("rule_score")),
            Column("Judge score", attrgetter("judge"), sorted_as(score), first=best("judge_score")),
            Column("Valid runs", attrgetter("valid_runs"), sorted_as(str)),
            Column("Successful runs", attrgetter("successes"), sorted_as(str)),
        ),
        (
            *(Field(n, attrgetter(n)) for n in ("task", "title", "subdivision", "combination")),
            Field("status", attrgetter("status")),
            *(Field(n, attrgetter(n), "number") for n in ("score", "rule", "judge")),
            *(Field(n, attrgetter(n), "integer") for n in ("valid_runs", "successes")),
        ),
    )


def results_table(ctx: VersionContext, task: Task) -> Table:
    return results_spec(ctx, task.domain).table(
        "results",
        "Task means by combination (over valid runs)",
        ctx.task_rows.get(task.id, []),
        "One task is not a sample: do not rank combinations on it (§5.3).",
    )


#: A row per piece of frozen evidence bound to Judge items (§4.3).
EVIDENCE: Spec[Evidence] = Spec(
    tuple(
        Column(title, attrgetter(name))
        for title, name in (
            ("Evidence", "id"),
            ("Source", "source"),
            ("Location", "location"),
            ("Excerpt", "excerpt"),
        )
    ),
    tuple(Field(name, attrgetter(name)) for name in ("id", "source", "location", "excerpt")),
)


def evidence_table(task: Task) -> Table | None:
    if not task.scoring.evidence:
        return None
    caption = "Frozen evidence bound to Judge items (source, location, text)"
    return EVIDENCE.table("evidence", caption, task.scoring.evidence)
