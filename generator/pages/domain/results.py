"""The tables of the domain pages: a scope's scores and its reliability and cost (laid out in
pages by :mod:`.pages`; business views and failure types in :mod:`.business`, paired
differences in :mod:`generator.pages.blocks.differences`)."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from generator.pages.blocks.cells import (
    FEWER_MARK,
    STATUS_TEXT,
    combo_cell,
    estimate_cell,
    fewer_note,
    fewer_tasks,
    gated_cell,
    groups_note,
    judge_cell,
    rank_note,
    runs_basis,
    runs_note,
)
from generator.pages.blocks.columns import (
    Column,
    Field,
    Show,
    Spec,
    estimate_fields,
    fields,
    only,
    plain,
    whole,
)
from generator.pages.blocks.downloads import judge_fields
from generator.pages.blocks.outcome import (
    Outcome,
    cells_column,
    channel_columns,
    channel_fields,
    outcome_of,
    report_order,
)
from generator.pages.blocks.tables import RANK, Cell, Table
from generator.pages.context import VersionContext
from generator.pages.domain.usage import is_scored as _scored
from generator.pages.domain.usage import reliability_at
from generator.protocol.order import metric_first
from generator.score.gating import GATED
from generator.score.results import (
    EFFICIENCY_COUNTS,
    CombinationScores,
    ScopeResult,
)


def _unscored(c: CombinationScores) -> bool:
    return c.status != "scored"


def _status_cell(ctx: VersionContext) -> Callable[[CombinationScores], Cell]:
    """Why a combination has no scores; a 'not covered' declaration names its scope by
    title."""

    def show(c: CombinationScores) -> Cell:
        status = STATUS_TEXT[c.status]
        if not c.note:
            return Cell(status)
        note = c.note
        if c.status == "not-covered":
            note = "; ".join(_titled(ctx, part) for part in c.note.split("; "))
        return Cell(f"{status}: {note}")

    return show


def _titled(ctx: VersionContext, note: str) -> str:
    """A declaration "where: reason" with its place by title."""
    _, sep, reason = note.partition(": ")
    return f"{_place(ctx, note)}: {reason}" if sep else note


def _rank_cell(c: CombinationScores) -> Cell:
    return Cell(c.rank_text or "—", c.rank)


def _efficiency(name: str) -> Callable[[CombinationScores], Any]:
    return lambda c: getattr(c.efficiency, name) if c.efficiency else None


def _place(ctx: VersionContext, note: str) -> str:
    """A 'not covered' declaration ("general/image-processing: reason") by its title."""
    where = note.split(": ", 1)[0]
    domain_id, _, sub = where.partition("/")
    domain = ctx.release.find_domain(domain_id)
    if domain is None:
        return where
    if not sub:
        return domain.title
    return next((s.title for s in domain.subdivisions if s.id == sub), where)


def _coverage_text(ctx: VersionContext) -> Callable[[CombinationScores], str]:
    """The tasks a combination's scores rest on, of the scope's tasks; the valid runs when
    some are missing; what it does not cover, by title."""

    def text(c: CombinationScores) -> str:
        cov = c.coverage
        if cov is None:
            return "—"
        shown = f"{cov.valid_tasks} of {cov.scope_tasks} tasks"
        if not cov.complete:
            shown += f"; {cov.valid_runs} of {cov.expected_runs} runs valid"
        if cov.not_covered:
            shown += "; not covered: " + ", ".join(_place(ctx, n) for n in cov.not_covered)
        return shown

    return text


def _ranked(scope: ScopeResult | None) -> bool:
    """Whether the report finds the scope has tasks enough to order its combinations
    (ranks, differences)."""
    return scope is None or scope.unordered is None


def _task_score_cell(
    fewer: dict[str, int], outcome: Outcome
) -> Callable[[CombinationScores], Cell]:
    """The Task Score (the domain's outcome) with its interval, ‡ when it rests on fewer
    tasks than the others."""

    def show(c: CombinationScores) -> Cell:
        cell = outcome.cell(c.task_score)
        return cell._replace(text=cell.text + FEWER_MARK) if c.combination in fewer else cell

    return show


def _score_columns(
    ctx: VersionContext, depth: int, scope: ScopeResult | None, elsewhere: str
) -> tuple[Column[CombinationScores], ...]:
    """The scope table's columns; a combination without scores shows why, in place of them.
    A scope too small to order shows no rank; a withheld Judge score links ``elsewhere``."""
    fewer = fewer_tasks(scope.combinations) if scope is not None else {}
    release = ctx.release
    outcome = outcome_of(ctx, scope.scope.domain if scope else release.domains[0].id)

    def scored(
        header: str, value: Callable[[CombinationScores], Any], show: Show, metric: str
    ) -> Column[Any]:
        return Column(header, value, show, _scored, first=metric_first(release, metric))

    rank = Column(RANK, whole, _rank_cell, _scored, lambda _: Cell("—"), first="asc")
    return (
        *((rank,) if _ranked(scope) else ()),
        Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, depth)),
        Column(
            outcome.header(release.statistics.confidence),
            whole,
            _task_score_cell(fewer, outcome),
            _scored,
            _status_cell(ctx),
            first=metric_first(release, outcome.metric.id),
        ),
        *cells_column(ctx, scope.scope.domain if scope else "", release.statistics.confidence),
        *(
            (scored("Rule score", whole, gated_cell("rule_score", estimate_cell), "rule_score"),)
            if _has_rule_items(scope) and "rule_score" not in ctx.repeats_outcome
            else ()
        ),
        *(
            (scored("Judge score", whole, lambda c: judge_cell(c, elsewhere), "judge_score"),)
            if scope is None or ctx.declares_judge_items(scope.scope.domain)
            else ()
        ),
        *channel_columns(
            ctx,
            scope.scope.domain if scope else "",
            release.statistics.confidence,
            withheld=scope.channels_withheld if scope else None,
        ),
        *(
            (
                scored(
                    "Success rate", whole, gated_cell("success_rate", estimate_cell), "success_rate"
                ),
            )
            if "success_rate" not in ctx.repeats_outcome
            else ()
        ),
        scored("Coverage", _coverage_text(ctx), plain, ""),
    )


def _has_rule_items(scope: ScopeResult | None) -> bool:
    """Whether the scope's tasks have ordinary rule items (a judge-only or measured domain's
    have none: no rule score to show)."""
    if scope is None:
        return True
    return any(
        (c.rule_score is not None and c.rule_score.tasks) or "rule_score" in c.withheld
        for c in scope.combinations
    )


def _has(name: str) -> Callable[[CombinationScores], bool]:
    """Whether the combination has a figure a declared profile adds (none in Lingee's)."""
    return lambda c: getattr(c, name) is not None


def _score_fields(ctx: VersionContext) -> tuple[Field[CombinationScores], ...]:
    """The scope table's download fields: every estimate with its interval (§4.2)."""
    coverage = attrgetter("coverage")
    return (
        Field("combination", attrgetter("combination")),
        Field("fingerprint", lambda c: ctx.fingerprints.get(c.combination)),
        Field("status", attrgetter("status")),
        Field("note", attrgetter("note"), when=_unscored),
        Field("withheld", lambda c: "; ".join(c.withheld), when=lambda c: bool(c.withheld)),
        *only(
            _scored,
            (
                Field("rank", attrgetter("rank"), "integer"),
                Field("rank_worst", attrgetter("rank_worst"), "integer"),
                Field("pareto", attrgetter("pareto"), "boolean"),
                *estimate_fields("task_score", attrgetter("task_score")),
                Field(
                    "task_score_rerun_se",
                    attrgetter("rerun_se"),
                    "number",
                    lambda c: c.rerun_se is not None,
                ),
                *only(_has("cell_mean"), estimate_fields("cell_mean", attrgetter("cell_mean"))),
                *only(_has("overall"), estimate_fields("overall", attrgetter("overall"))),
                *estimate_fields("rule_score", attrgetter("rule_score")),
                *estimate_fields("judge_score", attrgetter("judge_score")),
                *channel_fields(ctx),
                *judge_fields(),
                *estimate_fields("success_rate", attrgetter("success_rate")),
                *(
                    f
                    for k in ctx.release.reliability_k
                    for f in estimate_fields(f"reliability_at_{k}", reliability_at(k))
                ),
                *fields(EFFICIENCY_COUNTS, attrgetter("efficiency"), "number"),
                *fields(("valid_runs", "expected_runs", "incomplete_runs"), coverage, "integer"),
                *fields(("valid_tasks",), coverage, "integer"),
                *fields(("complete",), coverage, "boolean"),
            ),
        ),
    )


def scope_spec(
    ctx: VersionContext, depth: int, scope: ScopeResult | None = None, elsewhere: str = ""
) -> Spec[CombinationScores]:
    """One row per combination: scores with intervals, rates, efficiency, coverage. Given
    its ``scope``: no rank if too small to order, ‡ beside a score over fewer tasks than the
    others; ``elsewhere``: a link to where a withheld Judge score can be read."""
    return Spec(_score_columns(ctx, depth, scope, elsewhere), _score_fields(ctx))


def _scope_note(ctx: VersionContext, scope: ScopeResult) -> str:
    """What the ranks, comparison groups, † marks and withheld Judge scores mean."""
    stats = ctx.release.statistics
    notes = []
    if scope.unordered is not None:
        notes.append(f"{scope.unordered.capitalize()}: scores without ranks or paired differences.")
    elif any(c.status == "scored" for c in scope.combinations):
        notes.append(rank_note(stats.min_tasks_to_order, stats.confidence))
    if scope.comparison_groups:
        notes.append(groups_note(ctx, scope.comparison_groups))
    if any(runs_basis(c) for c in scope.combinations):
        notes.append(runs_note(stats.min_tasks_to_resample))
    coverage = {c.judge_coverage for c in scope.combinations if c.judge_coverage}
    notes += [f"Judge score {r}." for r in sorted(coverage) if r.startswith("withheld")]
    notes += [f"{c.capitalize()} judge {r}." for c, r in sorted(scope.channels_withheld.items())]
    gated = sorted(
        {h for c in scope.combinations for h in c.withheld} & {"rule_score", "success_rate"}
    )
    minimum = ctx.release.groups.min_held_out_aggregate
    notes += [f"{n.replace('_', ' ').capitalize()} {GATED.format(minimum)}." for n in gated]
    fewer = fewer_tasks(scope.combinations)
    if fewer:
        notes.append(fewer_note(ctx, fewer, scope.tasks, scope.scope.domain))
    if ctx.repeats_outcome:
        notes.append(repeats_note(ctx, outcome_of(ctx, scope.scope.domain).title))
    return " ".join(notes)


def repeats_note(ctx: VersionContext, outcome: str = "Task Score") -> str:
    """Why a figure equal to the Task Score (titled ``outcome``) everywhere has no column of
    its own."""
    names = " and ".join(
        n.replace("_", " ").capitalize() if i == 0 else n.replace("_", " ")
        for i, n in enumerate(sorted(ctx.repeats_outcome))
    )
    both = len(ctx.repeats_outcome) > 1
    verb, they, them = ("equal", "they are", "them") if both else ("equals", "it is", "it")
    return (
        f"{names} {verb} the {outcome}, with its interval, for every combination in every "
        f"scope of this release, so {they} not shown again; the downloads keep {them}."
    )


def scope_table(
    ctx: VersionContext, scope: ScopeResult, tid: str, depth: int, elsewhere: str = ""
) -> Table:
    """One row per combination, best first as the report orders them: :func:`scope_spec`."""
    ordered = report_order(scope, scope.combinations)
    spec = scope_spec(ctx, depth, scope, elsewhere)
    return spec.table(tid, scope.title, ordered, _scope_note(ctx, scope))
