"""Domain pages: a scope's scores, business views, paired differences and failure types."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from generator.pages.cells import (
    RUNS_MARK,
    STATUS_TEXT,
    VIEWS,
    combo_cell,
    estimate_cell,
    groups_note,
    judge_cell,
    rank_note,
    release_notice,
    runs_basis,
    runs_note,
    view_cell,
)
from generator.pages.columns import (
    Column,
    Field,
    Show,
    Spec,
    estimate_fields,
    fields,
    only,
    plain,
    sorted_as,
    whole,
)
from generator.pages.context import VersionContext
from generator.pages.downloads import judge_fields, scope_described
from generator.pages.render import RESULT_PAGES_BOOST, Page, environment, render, tables_html
from generator.pages.tables import Cell, Table
from generator.pages.text import (
    count,
    interval,
    one_decimal,
    score,
)
from generator.score.results import (
    BusinessViews,
    CombinationScores,
    Difference,
    Efficiency,
    Reliability,
    Report,
    ScopeResult,
)


def _scored(c: CombinationScores) -> bool:
    return c.status == "scored"


def _unscored(c: CombinationScores) -> bool:
    return c.status != "scored"


def _status_cell(c: CombinationScores) -> Cell:
    status = STATUS_TEXT[c.status]
    return Cell(f"{status}: {c.note}" if c.note else status)


def _rank_cell(c: CombinationScores) -> Cell:
    return Cell(c.rank_text or "—", c.rank)


def _efficiency(name: str) -> Callable[[CombinationScores], Any]:
    return lambda c: getattr(c.efficiency, name) if c.efficiency else None


def _coverage_text(c: CombinationScores) -> str:
    cov = c.coverage
    text = "complete"
    if cov is not None and not cov.complete:
        text = (
            f"incomplete: {cov.valid_runs} of {cov.expected_runs} runs valid, "
            f"{cov.valid_tasks} of {cov.covered_tasks} tasks"
        )
    if cov is not None and cov.not_covered:
        text += "; not covered: " + ", ".join(n.split(":")[0] for n in cov.not_covered)
    return text


def _reliability_cell(ks: list[int]) -> Callable[[CombinationScores], Cell]:
    """reliability@k for every k of the release, sorted by the first."""

    def show(c: CombinationScores) -> Cell:
        rel = {r.k: r for r in c.reliability}
        text = " / ".join(score(rel[k].value) if k in rel else "—" for k in ks)
        if c.reliability_excluded:
            text += f" ({c.reliability_excluded} task(s) excluded)"
        return Cell(text, rel[ks[0]].value if ks and ks[0] in rel else None)

    return show


def _reliability_at(k: int) -> Callable[[CombinationScores], Reliability | None]:
    return lambda c: next((r for r in c.reliability if r.k == k), None)


def _score_columns(ctx: VersionContext, depth: int) -> tuple[Column[CombinationScores], ...]:
    """The scope table's columns; a combination without scores shows why, in place of them."""
    ks = list(ctx.release.reliability_k)

    def scored(header: str, value: Callable[[CombinationScores], Any], show: Show) -> Column[Any]:
        return Column(header, value, show, _scored)

    return (
        Column("Rank", whole, _rank_cell, _scored, lambda _: Cell("—")),
        Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, depth)),
        Column(
            f"Task Score [{ctx.release.statistics.confidence:.0%} CI]",
            attrgetter("task_score"),
            estimate_cell,
            _scored,
            _status_cell,
        ),
        scored("Rule score", attrgetter("rule_score"), estimate_cell),
        scored("Judge score", whole, judge_cell),
        scored("Success rate", attrgetter("success_rate"), estimate_cell),
        scored("reliability@" + "/".join(map(str, ks)), whole, _reliability_cell(ks)),
        scored("Tokens / task", _efficiency("total_tokens"), sorted_as(count)),
        scored("Duration s", _efficiency("duration_s"), sorted_as(one_decimal)),
        scored("Turns", _efficiency("turns"), sorted_as(one_decimal)),
        scored("Coverage", _coverage_text, plain),
    )


def _score_fields(ctx: VersionContext) -> tuple[Field[CombinationScores], ...]:
    """The scope table's download fields: every estimate with its interval (§4.2)."""
    coverage = attrgetter("coverage")
    return (
        Field("combination", attrgetter("combination")),
        Field("fingerprint", lambda c: ctx.fingerprints.get(c.combination)),
        Field("status", attrgetter("status")),
        Field("note", attrgetter("note"), when=_unscored),
        *only(
            _scored,
            (
                Field("rank", attrgetter("rank"), "integer"),
                Field("rank_worst", attrgetter("rank_worst"), "integer"),
                Field("pareto", attrgetter("pareto"), "boolean"),
                *estimate_fields("task_score", attrgetter("task_score")),
                *estimate_fields("rule_score", attrgetter("rule_score")),
                *estimate_fields("judge_score", attrgetter("judge_score")),
                *judge_fields(),
                *estimate_fields("success_rate", attrgetter("success_rate")),
                *(
                    f
                    for k in ctx.release.reliability_k
                    for f in estimate_fields(f"reliability_at_{k}", _reliability_at(k))
                ),
                *fields(Efficiency.model_fields, attrgetter("efficiency"), "number"),
                *fields(("valid_runs", "expected_runs", "incomplete_runs"), coverage, "integer"),
                *fields(("valid_tasks",), coverage, "integer"),
                *fields(("complete",), coverage, "boolean"),
            ),
        ),
    )


def scope_spec(ctx: VersionContext, depth: int) -> Spec[CombinationScores]:
    """One row per combination: scores with intervals, rates, efficiency, coverage."""
    return Spec(_score_columns(ctx, depth), _score_fields(ctx))


def _order(c: CombinationScores) -> tuple[int, float, str]:
    value = c.task_score.value if c.task_score and c.task_score.value is not None else -1.0
    return (c.rank or 10**6, -value, c.combination)


def _scope_note(ctx: VersionContext, scope: ScopeResult) -> str:
    """What the ranks, comparison groups, † marks and withheld Judge scores mean."""
    stats = ctx.release.statistics
    notes = []
    if any(c.status == "scored" for c in scope.combinations):
        notes.append(rank_note(stats.min_tasks_to_order, stats.confidence))
    if scope.comparison_groups:
        notes.append(groups_note(scope.comparison_groups, ctx.release.varying()))
    if any(runs_basis(c) for c in scope.combinations):
        notes.append(runs_note(stats.min_tasks_to_resample))
    coverage = {c.judge_coverage for c in scope.combinations if c.judge_coverage}
    notes += [f"Judge score {r}." for r in sorted(coverage) if r.startswith("withheld")]
    return " ".join(notes)


def scope_table(ctx: VersionContext, scope: ScopeResult, tid: str, depth: int) -> Table:
    """One row per combination, best ranked first: :func:`scope_spec`."""
    ordered = sorted(scope.combinations, key=_order)
    return scope_spec(ctx, depth).table(tid, scope.title, ordered, _scope_note(ctx, scope))


def _reading(minimum: int, resample: int) -> Callable[[Difference], str]:
    """What a paired difference says: significant, noise, or too few tasks to judge."""

    def read(d: Difference) -> str:
        if d.tasks < minimum or d.interval == "runs":
            return f"too few common tasks (< {max(minimum, resample)}) to judge"
        return "significant" if d.significant else "inside the noise: no difference"

    return read


def _difference_interval(d: Difference) -> str:
    return interval(d.low, d.high) + (RUNS_MARK if d.interval == "runs" else "")


def differences_spec(minimum: int, resample: int, confidence: float) -> Spec[Difference]:
    """A row per pair of combinations: the paired difference, its interval, its reading."""
    return Spec(
        (
            Column("a − b", lambda d: f"{d.a} − {d.b}"),
            Column("Difference", attrgetter("value"), sorted_as(score)),
            Column(f"{confidence:.0%} CI", _difference_interval),
            Column("Common tasks", attrgetter("tasks"), sorted_as(str)),
            Column("Reading", _reading(minimum, resample)),
        ),
        (
            Field("a", attrgetter("a")),
            Field("b", attrgetter("b")),
            Field("difference", attrgetter("value"), "number"),
            Field("low", attrgetter("low"), "number"),
            Field("high", attrgetter("high"), "number"),
            Field("tasks", attrgetter("tasks"), "integer"),
            Field("interval", attrgetter("interval")),
            Field("significant", attrgetter("significant"), "boolean"),
        ),
    )


def differences_table(
    scope: ScopeResult, tid: str, minimum: int, resample: int, confidence: float
) -> Table | None:
    if not scope.differences:
        return None
    pairs = scope.differences
    judged = [d for d in pairs if d.tasks >= minimum and d.interval == "tasks"]
    significant = sum(d.significant for d in judged)
    note = (
        f"{significant} of {len(pairs)} pairs differ significantly (the {confidence:.0%} "
        f"interval of the paired difference excludes 0, over at least {minimum} common tasks)."
    )
    if any(d.interval == "runs" for d in pairs):
        note += f" {runs_note(resample)}"
    inline = len(pairs) if len(pairs) <= DIFFERENCES_INLINE else 0
    spec = differences_spec(minimum, resample, confidence)
    return spec.table(tid, f"Paired differences — {scope.title}", pairs, note, inline)


#: Pairs a differences table shows in the page; more (over ten combinations) load on demand:
#: 20 combinations make 190 pairs in each of dozens of scopes (page weight at scale).
DIFFERENCES_INLINE = 45


def _view(name: str) -> Callable[[BusinessViews], Cell]:
    return lambda b: view_cell(getattr(b, name), name, b.withheld)


def _views_of(name: str) -> Callable[[CombinationScores], Any]:
    return lambda c: getattr(c.business, name)


def business_spec(ctx: VersionContext) -> Spec[CombinationScores]:
    """A row per combination: the business views (§4.2), each with its interval."""
    titles = (
        "Risk-weighted score",
        "Key-process end-to-end success",
        "Fatal-error rate",
        "Functional-boundary correctness",
    )
    business = attrgetter("business")
    return Spec(
        (
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 1)),
            *(Column(t, business, _view(n)) for t, n in zip(titles, VIEWS, strict=True)),
        ),
        (
            Field("combination", attrgetter("combination")),
            Field("withheld", lambda c: c.business.withheld, "array"),
            *(f for n in VIEWS for f in estimate_fields(n, _views_of(n))),
        ),
    )


def _runs_shown(b: BusinessViews) -> bool:
    """Whether a view the page shows has an interval of run noise only."""
    shown = [getattr(b, n) for n in VIEWS if n not in b.withheld]
    return any(e is not None and e.interval == "runs" for e in shown)


def business_table(ctx: VersionContext, scope: ScopeResult, tid: str) -> Table | None:
    views = [c for c in scope.combinations if c.business is not None]
    if not views:
        return None
    note = (
        "Rates are shares of valid runs; their intervals resample tasks (a task's runs are "
        "not independent draws). The risk-weighted score uses the release's frozen risk "
        "weights."
    )
    if any(_runs_shown(c.business) for c in views if c.business is not None):
        note += f" {runs_note(ctx.release.statistics.min_tasks_to_resample)}"
    return business_spec(ctx).table(tid, f"Business views — {scope.title}", views, note)


def _failures(kind: str) -> Callable[[CombinationScores], int]:
    return lambda c: c.failure_types.get(kind, 0)


def _valid_runs(c: CombinationScores) -> int:
    return c.coverage.valid_runs if c.coverage else 0


def _failed_cell(c: CombinationScores) -> Cell:
    total = sum(c.failure_types.values())
    return Cell(f"{total} of {_valid_runs(c)}", total)


def failure_spec(ctx: VersionContext) -> Spec[CombinationScores]:
    """A row per combination: its failed valid runs by failure type (§4.2)."""
    types = ctx.release.enumerations.failure_types
    return Spec(
        (
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 1)),
            *(Column(f.title, _failures(f.id), sorted_as(str)) for f in types),
            Column("Failed runs", whole, _failed_cell),
        ),
        (
            Field("combination", attrgetter("combination")),
            Field("valid_runs", _valid_runs, "integer"),
            *(Field(f.id, _failures(f.id), "integer") for f in types),
        ),
    )


def failure_table(ctx: VersionContext, scope: ScopeResult, tid: str) -> Table | None:
    scored = [c for c in scope.combinations if c.status == "scored"]
    if not scored:
        return None
    note = "Counts of valid runs that did not succeed, by failure type (§4.2)."
    return failure_spec(ctx).table(tid, f"Failure types — {scope.title}", scored, note)


def _scope_section(ctx: VersionContext, scope: ScopeResult) -> tuple[list[Table], dict[str, Any]]:
    tid = f"{scope.scope.subdivision or 'domain'}-{scope.scope.group}"
    if scope.withheld:
        return [], {"scope": scope, "tables": []}
    tables = [scope_table(ctx, scope, f"{tid}-scores", 1)]
    for extra in (
        business_table(ctx, scope, f"{tid}-business"),
        differences_table(
            scope,
            f"{tid}-differences",
            ctx.release.statistics.min_tasks_to_order,
            ctx.release.statistics.min_tasks_to_resample,
            ctx.release.statistics.confidence,
        ),
        failure_table(ctx, scope, f"{tid}-failures"),
    ):
        if extra is not None:
            tables.append(extra)
    tables = scope_described(ctx, scope, tables)
    return tables, {"scope": scope, "tables": [t.id for t in tables]}


def domain_page(ctx: VersionContext, report: Report) -> Page:
    env = environment()
    tables: list[Table] = []
    parts: dict[str, list[dict[str, Any]]] = {}
    for scope in report.scopes:
        t, section = _scope_section(ctx, scope)
        tables += t
        title, _, group = scope.title.partition(" — ")
        section["heading"] = group[:1].upper() + group[1:]
        parts.setdefault(title, []).append(section)
    sections = [{"title": title, "sections": items} for title, items in parts.items()]
    domain = next(d for d in ctx.release.domains if d.id == report.domain)
    html = tables_html(tables, "index")
    markdown = render(
        env,
        "domain.md.j2",
        report=report,
        domain=domain,
        sections=sections,
        tables=html,
        notice=release_notice(ctx),
    )
    path, boost = f"{report.domain}/index.md", RESULT_PAGES_BOOST
    return Page(path, domain.title, markdown, tuple(tables), wide=True, search_boost=boost)
