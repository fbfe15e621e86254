"""Domain pages in layers: the domain's headline table first; its details, each group and
each sub-division one click away, on a page of its own in the domain's folder.

A scope with nothing publishable is one line; a withheld number links to where it can be
read (the public group of the same tasks); a scope too small to order shows no ranks or
differences (``generator.pages.domain.results``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from generator.models.release import Domain, Release
from generator.pages.blocks.cells import display_name, elsewhere_link, release_notice
from generator.pages.blocks.differences import differences_table
from generator.pages.blocks.downloads import scope_described
from generator.pages.blocks.render import RESULT_PAGES_BOOST, Page, environment, render, tables_html
from generator.pages.blocks.tables import Table
from generator.pages.context import VersionContext
from generator.pages.domain.business import business_table, failure_table, rule_class_table
from generator.pages.domain.results import scope_table
from generator.pages.domain.usage import usage_table
from generator.score.results import Report, ScopeResult

#: How the pages name a scope's group of tasks.
GROUPS = {"all": "All tasks", "public": "Public group", "held-out": "Held-out group"}
#: Page stems of the domain's own pages; a sub-division page never takes one of them.
RESERVED = ("index", "all", "public", "held-out")


@dataclass(frozen=True)
class DomainPage:
    """A page of a domain and the label the navigation gives it."""

    label: str
    page: Page


def _tasks(n: int) -> str:
    return f"{n} task" + ("" if n == 1 else "s")


def table_id(scope: ScopeResult) -> str:
    """The prefix of a scope's table ids (unique within the domain)."""
    return f"{scope.scope.slug or 'domain'}-{scope.scope.group}"


def page_stem(scope: ScopeResult) -> str:
    """The page a scope's tables are on: the domain's all-tasks scores on ``index`` (its
    other tables on ``all``), a domain group on its own, a sub-division's scopes together."""
    sub, group = scope.scope.slug, scope.scope.group
    if sub is None:
        return "index" if group == "all" else group
    return f"sub-{sub}" if sub in RESERVED else sub


def _public_of(report: Report, scope: ScopeResult) -> ScopeResult | None:
    """The published public group of the scope's tasks, where a number withheld from the
    scope (for too few held-out tasks, §4.4) can be read instead."""
    if scope.scope.group == "public":
        return None
    return next(
        (
            s
            for s in report.scopes
            if s.scope.cut == scope.scope.cut and s.scope.group == "public" and not s.withheld
        ),
        None,
    )


def _elsewhere(report: Report, scope: ScopeResult, here: str, table: str) -> str:
    """A link to the ``table`` ("scores", "business") of the scope's public group."""
    public = _public_of(report, scope)
    if public is None:
        return ""
    stem = page_stem(public)
    page = "" if stem == here else f"{stem}.html"
    return elsewhere_link(f"{page}#table-{table_id(public)}-{table}", GROUPS["public"])


def _details(ctx: VersionContext, report: Report, scope: ScopeResult, here: str) -> list[Table]:
    """A scope's tables beside its scores: business views, differences, failure types."""
    stats = ctx.release.statistics
    tid = table_id(scope)
    found = (
        usage_table(ctx, scope, f"{tid}-usage"),
        business_table(ctx, scope, f"{tid}-business", _elsewhere(report, scope, here, "business")),
        differences_table(
            scope,
            f"{tid}-differences",
            stats.min_tasks_to_order,
            stats.min_tasks_to_resample,
            stats.confidence,
            partial(display_name, ctx),
            ctx.release.outcome(scope.scope.domain),
        ),
        failure_table(ctx, scope, f"{tid}-failures"),
        rule_class_table(ctx, scope, f"{tid}-rule-classes"),
    )
    return [t for t in found if t is not None]


#: How the link to a detail page names each kind of table it holds (by the table id's end).
DETAIL_WORDS = {
    "usage": "reliability and cost",
    "business": "business views",
    "differences": "paired differences",
    "failures": "failure types",
    "rule-classes": "rule classes",
}


def detail_summary(tables: list[Table]) -> str:
    """What a detail page holds, in the words of :data:`DETAIL_WORDS`, in page order."""
    kinds = [k for t in tables for k in DETAIL_WORDS if t.id.endswith(f"-{k}")]
    return ", ".join(DETAIL_WORDS[k] for k in dict.fromkeys(kinds))


def _scores(ctx: VersionContext, report: Report, scope: ScopeResult, here: str) -> Table:
    elsewhere = _elsewhere(report, scope, here, "scores")
    return scope_table(ctx, scope, f"{table_id(scope)}-scores", 1, elsewhere)


def _section(
    ctx: VersionContext, report: Report, scope: ScopeResult, here: str, scores: bool = True
) -> tuple[list[Table], dict[str, Any]]:
    """A scope's part of a page: its tables, or (withheld) the one line saying why."""
    label = GROUPS[scope.scope.group]
    if scope.withheld:
        return [], {"label": label, "scope": scope, "tables": []}
    tables = [_scores(ctx, report, scope, here)] if scores else []
    tables = scope_described(ctx, scope, tables + _details(ctx, report, scope, here))
    return tables, {"label": label, "scope": scope, "tables": [t.id for t in tables]}


def _page(
    ctx: VersionContext,
    domain: Domain,
    stem: str,
    title: str,
    parts: list[tuple[list[Table], dict[str, Any]]],
    lead: str,
) -> Page:
    tables = [t for found, _ in parts for t in found]
    markdown = render(
        environment(),
        "domain-part.md.j2",
        title=title,
        domain=domain,
        lead=lead,
        sections=[section for _, section in parts],
        tables=tables_html(tables, stem),
        notice=release_notice(ctx),
    )
    return Page(
        f"{domain.id}/{stem}.md",
        title,
        markdown,
        tuple(tables),
        wide=True,
        search_boost=RESULT_PAGES_BOOST,
    )


def _group_lead(scope: ScopeResult) -> str:
    if scope.scope.group == "held-out":
        return "Held-out tasks appear only in these aggregates, never one by one (§4.4)."
    return "Every public task also has a page of its own, under Public tasks."


def _cuts(
    domain: Domain, report: Report, release: Release
) -> list[tuple[str, str, list[ScopeResult]]]:
    """The domain's parts shown on a page each, in report order: (title, lead, scopes) of
    each sub-division, then of each facet value or pair of them (§4.2); a value of a facet
    whose values overlap says that a task counts in each of its values."""
    subs = {s.id: s for s in domain.subdivisions}
    multi = {f.id: f.title.lower() for f in release.profile.facets if f.multi}
    grouped: dict[str, list[ScopeResult]] = {}
    for scope in report.scopes:
        if scope.scope.cut is not None:
            grouped.setdefault(scope.scope.cut, []).append(scope)
    out = []
    for cut, scopes in grouped.items():
        sub = subs.get(cut) if not scopes[0].scope.facets else None
        if sub is not None:
            title, lead = (
                sub.title,
                f"The {domain.subdivision_label} {sub.title} of the {domain.title}.",
            )
        elif scopes[0].scope.task_set is not None:
            task_set = next(s for s in domain.task_sets if s.id == scopes[0].scope.task_set)
            title = f"{task_set.title} set"
            first = domain.task_sets[0].title
            lead = (
                f"The {task_set.title} set of the {domain.title}: published apart from the "
                f"{first} set, which the domain's other pages show, and never pooled with it; "
                "the two are compared under Views."
            )
        else:
            title = scopes[0].title.rsplit(" — ", 1)[0]
            lead = f"The {domain.title} tasks of {title}."
            for facet, _ in scopes[0].scope.facets:
                if facet in multi:
                    lead += (
                        f" A task counts in each of its values of {multi[facet]}, so these "
                        "tasks overlap those of its other values, and the values are never "
                        "summed."
                    )
        out.append((title, lead, scopes))
    return out


def domain_pages(ctx: VersionContext, report: Report) -> list[DomainPage]:
    """The domain's pages, its headline page first, in the order the navigation lists them."""
    domain = ctx.release.domain(report.domain)
    top = [s for s in report.scopes if s.scope.whole]
    headline = next(s for s in top if s.scope.group == "all")
    out: list[DomainPage] = []
    links: list[dict[str, Any]] = []

    def add(label: str, page: Page, summary: str) -> None:
        out.append(DomainPage(label, page))
        links.append({"label": label, "path": page.path.split("/")[-1], "summary": summary})

    if not headline.withheld:
        detail = _section(ctx, report, headline, "all", scores=False)
        if detail[0]:
            title = f"{domain.title} — all tasks in detail"
            page = _page(ctx, domain, "all", title, [detail], "")
            add("All tasks in detail", page, detail_summary(detail[0]))
    for scope in top:
        if scope is headline:
            continue
        label = GROUPS[scope.scope.group]
        if scope.withheld:
            links.append({"label": label, "path": "", "summary": scope.withheld})
            continue
        stem = page_stem(scope)
        part = _section(ctx, report, scope, stem)
        page = _page(
            ctx, domain, stem, f"{domain.title} — {label.lower()}", [part], _group_lead(scope)
        )
        add(label, page, _tasks(scope.tasks))
    for title, lead, scopes in _cuts(domain, report, ctx.release):
        shown = [s for s in scopes if not s.withheld]
        if not shown:
            links.append({"label": title, "path": "", "summary": scopes[0].withheld})
            continue
        stem = page_stem(scopes[0])
        parts = [_section(ctx, report, s, stem) for s in scopes]
        page = _page(ctx, domain, stem, f"{title} — {domain.title}", parts, lead)
        published = ", ".join(f"{GROUPS[s.scope.group].lower()} ({s.tasks})" for s in shown)
        add(title, page, f"{_tasks(max(s.tasks for s in scopes))}; published: {published}")

    tables = (
        []
        if headline.withheld
        else scope_described(ctx, headline, [_scores(ctx, report, headline, "index")])
    )
    markdown = render(
        environment(),
        "domain.md.j2",
        report=report,
        domain=domain,
        headline=headline,
        links=links,
        tables=tables_html(tables, "index"),
        notice=release_notice(ctx),
    )
    index = Page(
        f"{domain.id}/index.md",
        domain.title,
        markdown,
        tuple(tables),
        wide=True,
        search_boost=RESULT_PAGES_BOOST,
    )
    return [DomainPage(domain.title, index), *out]
