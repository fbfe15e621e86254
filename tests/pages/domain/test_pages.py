"""Domain pages in layers: the headline table alone first, every other table one click away
on the page of its group or sub-division, withheld numbers linked to where they can be read."""

from __future__ import annotations

import html
import re

from pagetools import shown

from generator.pages import VersionContext, version_pages
from generator.pages.domain.pages import GROUPS, domain_pages, page_stem, table_id
from generator.score.results import Report


def _reports(ctx: VersionContext) -> list[Report]:
    return [ctx.reports[d.id] for d in ctx.release.domains]


def test_the_domain_page_leads_with_the_all_tasks_table_alone(ctx: VersionContext) -> None:
    reports = _reports(ctx)
    assert len(reports) == 2  # each version here has two domains
    for report in reports:
        index = domain_pages(ctx, report)[0].page
        assert index.path == f"{report.domain}/index.md"
        headline = next(
            s for s in report.scopes if s.scope.subdivision is None and s.scope.group == "all"
        )
        assert [t.caption for t in index.tables] == ([] if headline.withheld else [headline.title])


def test_every_published_scope_is_on_the_page_of_its_group_or_sub_division(
    ctx: VersionContext,
) -> None:
    published, withheld = 0, 0
    for report in _reports(ctx):
        pages = {p.page.stem: p.page for p in domain_pages(ctx, report)}
        ids = [t.id for p in pages.values() for t in p.tables]
        assert len(ids) == len(set(ids))
        for scope in report.scopes:
            tid = table_id(scope)
            on = {stem for stem, p in pages.items() for t in p.tables if t.id.startswith(tid + "-")}
            if scope.withheld:
                assert on == set()
                withheld += 1
                continue
            published += 1
            stem = page_stem(scope)
            assert f"{tid}-scores" in {t.id for t in pages[stem].tables}
            if stem == "index":  # the headline's other tables are one click away
                assert on <= {"index", "all"}
            else:
                assert on == {stem}
    assert published > 0
    assert withheld > 0  # each version here withholds some scopes


def test_a_scope_with_nothing_publishable_is_one_line(ctx: VersionContext) -> None:
    withheld = 0
    for report in _reports(ctx):
        text = "\n".join(html.unescape(shown(p.page)) for p in domain_pages(ctx, report))
        for scope in report.scopes:
            if scope.withheld:
                lines = [line for line in text.splitlines() if scope.withheld in line]
                assert lines, scope.title
                assert all(not line.startswith("#") for line in lines)
                withheld += 1
    assert withheld > 0  # each version here withholds some scopes


def test_a_withheld_judge_score_links_to_a_page_that_shows_it(ctx: VersionContext) -> None:
    linked, expected = 0, 0
    for report in _reports(ctx):
        public = {
            s.scope.subdivision
            for s in report.scopes
            if s.scope.group == "public" and not s.withheld
        }
        expected += sum(
            (c.judge_coverage or "").startswith("withheld")
            for s in report.scopes
            if not s.withheld and s.scope.subdivision in public
            for c in s.combinations
        )
        pages = {
            p.page.path.split("/")[-1].replace(".md", ".html"): p.page
            for p in domain_pages(ctx, report)
        }
        for name, page in pages.items():
            for target, anchor in re.findall(
                r'class="lg-elsewhere" href="([^"#]*)#([^"]+)"', shown(page)
            ):
                there = pages[target or name]
                table = next(t for t in there.tables if t.anchor == anchor)
                assert "withheld" not in " ".join(c.text for r in table.rows for c in r.cells[:3])
                linked += 1
    assert linked >= expected


def test_held_out_tasks_never_appear_one_by_one(ctx: VersionContext) -> None:
    held_out = [t.id for t in ctx.catalog.tasks if t.group == "held-out"]
    pages = [p.page for report in _reports(ctx) for p in domain_pages(ctx, report)]
    records = [str(r.record) for page in pages for t in page.tables for r in t.rows]
    assert held_out
    assert len(pages) > len(_reports(ctx))  # a domain's index and more
    assert records
    text = "\n".join([*map(shown, pages), *records])
    for task in held_out:
        assert task not in text


def test_the_navigation_lists_the_pages_under_their_domain(ctx: VersionContext) -> None:
    _, nav = version_pages(ctx)
    reports = _reports(ctx)
    assert len(reports) == 2  # each version here has two domains
    for report in reports:
        layer = domain_pages(ctx, report)
        entry = next(e for e in nav if layer[0].page.title in e)
        assert entry[layer[0].page.title] == [
            layer[0].page.path,
            *[{p.label: p.page.path} for p in layer[1:]],
        ]
        groups = {
            GROUPS[s.scope.group]
            for s in report.scopes
            if s.scope.subdivision is None and s.scope.group != "all" and not s.withheld
        }
        assert groups <= {p.label for p in layer}
