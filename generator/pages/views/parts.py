"""What the pages of the declared views share: the combinations and their places on the
axes, the scope a view shows, the labels of its cells (not evaluated, carried state, rank)
and the page that holds a view's tables."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from markupsafe import Markup

from generator.models.profile import Metric
from generator.models.views import View
from generator.pages.blocks.cells import CARRIED, release_notice, runs_note
from generator.pages.blocks.downloads import described
from generator.pages.blocks.measures import Figure
from generator.pages.blocks.outcome import domain_channels
from generator.pages.blocks.render import Page, environment, render, tables_html
from generator.pages.blocks.tables import Table
from generator.pages.blocks.text import escape, escape_html, spelled
from generator.pages.context import VersionContext
from generator.score.declared import axis_values as axis_values  # the order of a view's axis
from generator.score.results import CombinationInfo, ScopeResult

#: Said in a view's cell where no combination sits (no bundle at that place).
NOT_EVALUATED = "not evaluated"


#: Beside a figure of a combination that carries state across tasks, where a view's cells
#: are narrow: spelled out in its title and in the table's note.
MARK = "◇"


def sub_line(text: str, carried: bool) -> str:
    """A figure's second line (safe HTML): ``text`` and, if the combination carries state,
    the mark, its meaning in its title."""
    mark = f'<abbr title="{CARRIED}">{MARK}</abbr>' if carried else ""
    parts = " ".join(p for p in (escape_html(text), mark) if p)
    return f'<br><span class="lg-sub">{parts}</span>' if parts else ""


def combinations(ctx: VersionContext) -> dict[str, CombinationInfo]:
    """Every combination the version's reports name, by id, in id order."""
    found = {c.id: c for r in ctx.reports.values() for c in r.combinations}
    return dict(sorted(found.items()))


def axis_title(ctx: VersionContext, axis: str) -> str:
    return next((a.title for a in ctx.release.profile.axes if a.id == axis), axis)


def slug(text: str) -> str:
    """Text as part of a table id or file name: lower case, words joined by '-'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def shown_scope(ctx: VersionContext, domain: str, facets: Mapping[str, str]) -> ScopeResult | None:
    """The scope a view shows for the domain cut to ``facets`` (none: the whole domain), as
    the report marks it (:func:`generator.score.declared.view_scopes`: all its tasks, unless
    its public tasks publish more combinations); None if neither is published."""
    report = ctx.reports.get(domain)
    if report is None:
        return None
    return next(
        (s for s in report.scopes if s.views and dict(s.scope.facets) == dict(facets)), None
    )


def public_note() -> str:
    """Why a view shows a scope's public tasks rather than all of them."""
    return (
        "Over all its tasks, more combinations would be withheld: held-out results are "
        "published only where no held-out task can be isolated (§4.4)."
    )


def carried_note(marked: bool = True) -> str:
    """What the carried-state label (``marked``: its mark) means."""
    said = f"{MARK} {CARRIED}" if marked else f"“{CARRIED}”"
    return (
        f"{said}: the method keeps something from task to task (a memory, a "
        "playbook, an evolving prompt), so its runs are not independent and its "
        "reliability@k is withheld (§4.2(3))."
    )


def rank_text(best: int, worst: int) -> str:
    return f"rank {best}" if best == worst else f"rank {best}–{worst}"


def view_page(
    ctx: VersionContext,
    view: View,
    lead: str,
    tables: list[Table],
    headings: Sequence[str],
    *,
    leads: Sequence[str] = (),
    folded: Sequence[str] = (),
    charts: bool = False,
) -> Page:
    """The view's page (views/<id>.md): its lead, then a section per table, each table's
    downloads named by the view and their records saying which view (and domain). A
    section may open with its own ``leads`` entry (safe HTML, e.g. a chart) and hold its
    table in a closed box summarised by its ``folded`` entry (empty: the table shown);
    ``charts``: the page draws charts."""
    about: tuple[tuple[str, str], ...] = (("view", view.id),)
    domain = getattr(view, "domain", None)  # a board's rows are of several domains
    if domain is not None:
        about += (("domain", domain),)
    tables = described(ctx, tables, ("views",), about)
    sections = [
        {
            "heading": h,
            "lead": Markup(leads[i]) if i < len(leads) else "",
            "table": t.id,
            "folded": folded[i] if i < len(folded) else "",
        }
        for i, (h, t) in enumerate(zip(headings, tables, strict=True))
    ]
    markdown = render(
        environment(),
        "view.md.j2",
        title=view.title,
        notice=release_notice(ctx),
        lead=Markup(lead),
        sections=sections,
        tables=tables_html(tables, view.id),
    )
    return Page(
        f"views/{view.id}.md", view.title, markdown, tuple(tables), charts=charts, wide=True
    )


def scope_lead(ctx: VersionContext, domain: str, scope: ScopeResult | None) -> str:
    """Which tasks of the domain the view rests on (of its first task set, where it has
    sets)."""
    found = ctx.release.domain(domain)
    link = f"[{escape(found.title)}](../{escape(domain)}/index.md)"
    if scope is None:
        return f"Not published: the {link} domain has no published scope."
    of = f"of the {link} domain"
    if found.task_sets:
        of = f"of the {escape(found.task_sets[0].title)} set of the {link} domain"
    if scope.scope.group == "public":
        return f"Over the {spelled(scope.tasks)} public tasks {of}. " + escape(public_note())
    return f"Over the {spelled(scope.tasks)} tasks {of}."


def runs_mark(ctx: VersionContext, figures: Sequence[Figure | None]) -> str:
    """The † note, when one of the figures' intervals covers run noise only."""
    shown = [e for e in figures if e is not None and e.low is not None]
    if any(e.interval == "runs" for e in shown):
        return " " + runs_note(ctx.release.statistics.min_tasks_to_resample)
    return ""


def channels_note(ctx: VersionContext, domain: str, metric: Metric) -> str:
    """Where a view shows the score that combines Judge channels, where each channel stands
    beside it (the leaderboard, the domain's tables, the result cards); empty otherwise."""
    used = domain_channels(ctx, domain)
    if not used or metric.id != ctx.release.outcome(domain).id:
        return ""
    named = " and ".join(c.title for c in used)
    return (
        f" {metric.title} combines the {named} Judge channels; each channel's figure, with its "
        "interval and the tasks it judged, stands beside it on the domain's leaderboard and "
        "tables."
    )
