"""Stage 4, pages: every page of a version (Markdown plus table downloads) from the reports."""

from __future__ import annotations

from dataclasses import replace

from generator.pages.cards import combination_page, combinations_index
from generator.pages.context import VersionContext, version_context
from generator.pages.diffs import diff_pages, diffs_index
from generator.pages.efficiency import efficiency_page
from generator.pages.guide import methodology_page, publishing_page
from generator.pages.harnesscards import card_page
from generator.pages.render import Page
from generator.pages.results import contamination_page, domain_page, home_page
from generator.pages.tasks import index_page, task_page, task_tables

NavItem = tuple[str, "str | list[NavItem]"]
#: Pages listed under a nav section; a longer section shows its index page only.
NAV_CHILDREN = 40


def version_pages(ctx: VersionContext) -> tuple[list[Page], list[dict[str, object]]]:
    """All pages of one version and its navigation, in reading order."""
    home = home_page(ctx)
    domains = [domain_page(ctx, ctx.reports[d.id]) for d in ctx.release.domains]
    combos = [combination_page(ctx, c) for c in sorted(ctx.frame.bundles)]
    used = sorted({b.combination.harnesscard for b in ctx.frame.bundles.values()})
    cards = [card_page(ctx, ctx.cards[c]) for c in used]
    diffs = diff_pages(ctx)
    diff_index = diffs_index(ctx, diffs)
    bulk = task_tables(ctx)
    dives = [task_page(ctx, ctx.tasks[t], True, bulk) for t in ctx.release.deep_dives]
    tasks = [task_page(ctx, t, False, bulk) for t in ctx.public_tasks()]
    combo_index, dive_index, task_index = (
        combinations_index(ctx),
        index_page(ctx, True),
        index_page(ctx, False),
    )
    singles = [
        efficiency_page(ctx),
        contamination_page(ctx),
        methodology_page(ctx),
        publishing_page(ctx),
    ]

    def section(title: str, index: Page, children: list[Page]) -> dict[str, object]:
        """A nav section; beyond NAV_CHILDREN pages only the index (every page would carry
        the whole list otherwise: O(pages²) bytes)."""
        listed = children if len(children) <= NAV_CHILDREN else []
        return {title: [index.path, *[{p.title: p.path} for p in listed]]}

    # Pages left out of the nav share its rendering, per folder (overrides/main.html).
    for group in (combos, diffs, dives, tasks):
        if len(group) > NAV_CHILDREN:
            group[:] = [replace(p, shared_nav=p.path.rsplit("/", 1)[0]) for p in group]

    pages = [
        home,
        *domains,
        combo_index,
        *combos,
        *cards,
        diff_index,
        *diffs,
        dive_index,
        *dives,
        task_index,
        *tasks,
        *singles,
    ]

    nav: list[dict[str, object]] = [{home.title: home.path}]
    nav += [{p.title: p.path} for p in domains]
    nav.append(section("Result cards", combo_index, combos))
    nav.append({"HarnessCards": [{p.title: p.path} for p in cards]})
    nav.append(section("Configuration differences", diff_index, diffs))
    nav.append({singles[0].title: singles[0].path})
    nav.append(section("Deep dives", dive_index, dives))
    nav.append(section("Public tasks", task_index, tasks))
    nav += [{p.title: p.path} for p in singles[1:]]
    return pages, nav


__all__ = ["Page", "VersionContext", "version_context", "version_pages"]
