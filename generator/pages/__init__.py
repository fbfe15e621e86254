"""Stage 4, pages: every page of a version (Markdown plus table downloads) from the reports."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace

from generator.models import Task
from generator.pages.cards import combination_page, combinations_index
from generator.pages.contamination import contamination_page
from generator.pages.context import VersionContext, cited_evidence, version_context
from generator.pages.declared import view_nav, view_pages
from generator.pages.diffs import diff_pages, diffs_index
from generator.pages.domains import domain_pages
from generator.pages.efficiency import efficiency_page
from generator.pages.guide import methodology_page, publishing_page
from generator.pages.harnesscards import card_page
from generator.pages.home import home_page
from generator.pages.render import RESULT_PAGES_BOOST, Page
from generator.pages.tasks import TaskTables, index_page, task_entry, task_page, task_tables

NavItem = tuple[str, "str | list[NavItem]"]
#: Pages listed under a nav section; a longer section shows its index page only.
NAV_CHILDREN = 40


#: When the pages are split in parts (:func:`version_pages`), the share of the task pages
#: that go with every other page. Measured at reference scale (bench/run.py's release, one
#: version, CPU seconds of ``version_pages`` per part, 2026-12-01): a task page costs about
#: 7.5 ms (1,120 public tasks: 8.2 s), every other page together about 0.3 s once the
#: templates are compiled, which each part pays (the worker forks before the parent
#: renders). So an even cut balances two parts: 0.5 gave parts of 4.4 s and 4.3 s, 0.3 left
#: the second at 5.7 s against 3.8 s; the 0.4 this replaced (tuned when every other page
#: cost a fifth of the task pages) leaves the second part about 0.6 s longer.
FIRST_PART_TASKS = 0.5


def task_parts(tasks: Sequence[Task], parts: int) -> list[list[Task]]:
    """``tasks`` cut into ``parts`` consecutive runs: the first part (which also has every
    other page) gets :data:`FIRST_PART_TASKS` of them, the others equal shares."""
    if parts == 1:
        return [list(tasks)]
    first = round(len(tasks) * FIRST_PART_TASKS)
    rest = len(tasks) - first
    cuts = [0, first, *(first + rest * i // (parts - 1) for i in range(1, parts))]
    return [list(tasks[a:b]) for a, b in itertools.pairwise(cuts)]


def version_pages(
    ctx: VersionContext, part: int = 0, parts: int = 1, bulk: TaskTables | None = None
) -> tuple[list[Page], list[dict[str, object]]]:
    """The pages of one version and its navigation, in reading order.

    Split in ``parts`` (rendered in separate processes), part ``part``: part 0 has every
    page but the task pages of the other parts (:func:`task_parts`), and the navigation;
    the other parts have their task pages only. ``bulk``: the version's task tables, if
    made already (:func:`task_tables`); else those of the part's tasks are made."""
    public = ctx.public_tasks()
    share = task_parts(public, parts)[part]
    if bulk is None:
        ids = [t.id for t in share] + (list(ctx.release.deep_dives) if part == 0 else [])
        bulk = task_tables(ctx, None if parts == 1 else ids)
    tasks = [task_page(ctx, t, False, bulk) for t in share]
    tasks = _outside_nav(tasks, len(public))
    if part > 0:
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
    "task_parts",
    "version_context",
    "version_pages",
]
