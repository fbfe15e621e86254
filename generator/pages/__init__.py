"""Stage 4, pages: every page of a version (Markdown plus table downloads) from the reports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from generator.models import Task
from generator.pages.blocks.render import RESULT_PAGES_BOOST, Page
from generator.pages.combination.card import combination_page, combinations_index
from generator.pages.combination.config_diffs import diff_pages, diffs_index
from generator.pages.combination.harnesscard import card_page
from generator.pages.context import VersionContext, cited_evidence, version_context
from generator.pages.domain.pages import domain_pages
from generator.pages.efficiency.page import efficiency_page
from generator.pages.home.contamination import contamination_page
from generator.pages.home.page import home_page
from generator.pages.methodology.guide import methodology_page, publishing_page
from generator.pages.task.pages import TaskTables, index_page, task_entry, task_page, task_tables
from generator.pages.views.declared import view_nav, view_pages

NavItem = tuple[str, "str | list[NavItem]"]
#: Pages listed under a nav section; a longer section shows its index page only.
NAV_CHILDREN = 40


def version_pages(
    ctx: VersionContext,
    share: Sequence[Task] | None = None,
    rest: bool = True,
    bulk: TaskTables | None = None,
) -> tuple[list[Page], list[dict[str, object]]]:
    """The pages of one version and its navigation, in reading order.

    ``share``: the public tasks whose pages to make (default: all of them); ``rest``: every
    other page too, and the navigation (else only the task pages, and no navigation) — how
    :mod:`generator.site.parts` splits the pages between processes. ``bulk``: the version's
    task tables, if made already (:func:`task_tables`); else those of the pages' tasks are
    made."""
    public = ctx.public_tasks()
    if bulk is None:
        ids = None
        if share is not None:
            ids = [t.id for t in share] + (list(ctx.release.deep_dives) if rest else [])
        bulk = task_tables(ctx, ids)
    share = public if share is None else share
    tasks = [task_page(ctx, t, False, bulk) for t in share]
    tasks = _outside_nav(tasks, len(public))
    if not rest:
        return tasks, []
    home = home_page(ctx)
    layers = [domain_pages(ctx, ctx.reports[d.id]) for d in ctx.release.domains]
    domains = [p.page for layer in layers for p in layer]
    views = view_pages(ctx)
    combos = [combination_page(ctx, c) for c in sorted(ctx.frame.bundles)]
    used = sorted({b.combination.harnesscard for b in ctx.frame.bundles.values()})
    cards = [card_page(ctx, ctx.cards[c]) for c in used]
    diffs = diff_pages(ctx)  # none with one combination: no section
    diff_index = [diffs_index(ctx, diffs)] if diffs else []
    dives = [task_page(ctx, ctx.tasks[t], True, bulk) for t in ctx.release.deep_dives]
    combo_index, dive_index, task_index = (
        combinations_index(ctx),
        index_page(ctx, True),
        index_page(ctx, False),
    )
    # a page with nothing to show is not built: no monitor without a held-out group
    held = any(t.group == "held-out" for t in ctx.tasks.values())
    singles = [
        efficiency_page(ctx),
        *([contamination_page(ctx)] if held else []),
        methodology_page(ctx),
        publishing_page(ctx),
    ]

    def section(title: str, index: Page, children: Sequence[Page]) -> dict[str, object]:
        """A nav section; beyond NAV_CHILDREN pages only the index (every page would carry
        the whole list otherwise: O(pages²) bytes)."""
        listed = children if len(children) <= NAV_CHILDREN else []
        return {title: [index.path, *[{p.title: p.path} for p in listed]]}

    combos, diffs, dives = (_outside_nav(group, len(group)) for group in (combos, diffs, dives))

    pages = [
        home,
        *domains,
        *views,
        combo_index,
        *combos,
        *cards,
        *diff_index,
        *diffs,
        *([dive_index, *dives] if dives else []),  # no deep dives: no section
        task_index,
        *tasks,
        *singles,
    ]

    nav: list[dict[str, object]] = [{home.title: home.path}]
    nav += [
        {index.page.title: [index.page.path, *[{p.label: p.page.path} for p in children]]}
        for index, *children in layers
    ]
    nav += view_nav(views)
    nav.append(section("Result cards", combo_index, combos))
    nav.append({"HarnessCards": [{p.title: p.path} for p in cards]})
    if diffs:
        nav.append(section("Configuration differences", diff_index[0], diffs))
    nav.append({singles[0].title: singles[0].path})
    if dives:
        nav.append(section("Deep dives", dive_index, dives))
    nav.append(section("Public tasks", task_index, [task_entry(t, False) for t in public]))
    nav += [{p.title: p.path} for p in singles[1:]]
    return pages, nav


def _outside_nav(pages: list[Page], size: int) -> list[Page]:
    """The pages of a nav section of ``size`` pages; beyond NAV_CHILDREN they are left out
    of the nav and share its rendering, per folder (overrides/main.html)."""
    if size <= NAV_CHILDREN:
        return pages
    return [replace(p, shared_nav=p.path.rsplit("/", 1)[0]) for p in pages]


__all__ = [
    "RESULT_PAGES_BOOST",
    "Page",
    "VersionContext",
    "cited_evidence",
    "version_context",
    "version_pages",
]
