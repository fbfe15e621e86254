"""Domain pages against the report they are made from: every scope, every combination, every
difference, and nothing of a withheld scope."""

from __future__ import annotations

import html

import pytest
from pagetools import shown, shown_estimate

from generator.pages import VersionContext
from generator.pages.results import DIFFERENCES_INLINE, domain_page
from generator.pages.tables import Table
from generator.score.results import CombinationScores, ScopeResult


@pytest.fixture(params=["small", "v1.0", "v1.1"])
def ctx(request: pytest.FixtureRequest, small: VersionContext) -> VersionContext:
    if request.param == "small":
        return small
    found: list[VersionContext] = request.getfixturevalue("contexts")
    return next(c for c in found if c.version == request.param)


def _by_caption(tables: tuple[Table, ...]) -> dict[str, Table]:
    found = {t.caption: t for t in tables}
    assert len(found) == len(tables), "captions name tables one to one"
    return found


def _scope_tables(page_tables: dict[str, Table], scope: ScopeResult) -> list[Table]:
    return [t for caption, t in page_tables.items() if caption.endswith(scope.title)]


def test_every_combination_of_a_scope_shows_its_task_score(ctx: VersionContext) -> None:
    for report in ctx.reports.values():
        page = domain_page(ctx, report)
        tables = _by_caption(page.tables)
        for scope in report.scopes:
            if scope.withheld:
                continue
            table = tables[scope.title]
            rows = {r.record["combination"]: r for r in table.rows}
            assert sorted(rows) == sorted(c.combination for c in scope.combinations)
            score_column = next(i for i, h in enumerate(table.columns) if "Task Score" in h)
            for c in scope.combinations:
                cell = rows[c.combination].cells[score_column]
                assert rows[c.combination].record["status"] == c.status
                if c.status == "scored":
                    assert c.task_score is not None
                    assert cell.text == shown_estimate(c.task_score), (scope.title, c)
                    assert rows[c.combination].record["task_score"] == c.task_score.value
                else:
                    assert cell.text.startswith(c.status.replace("-", " ")), cell
                    assert "task_score" not in rows[c.combination].record


def test_combinations_are_listed_best_rank_first(ctx: VersionContext) -> None:
    for report in ctx.reports.values():
        tables = _by_caption(domain_page(ctx, report).tables)
        for scope in report.scopes:
            if scope.withheld:
                continue
            records = [r.record for r in tables[scope.title].rows]
            ranked = [r["rank"] for r in records if r["status"] == "scored"]
            assert ranked == sorted(ranked)
            scored = [r["status"] == "scored" for r in records]
            assert scored == sorted(scored, reverse=True)  # the unscored come last


def test_a_withheld_scope_says_why_and_shows_no_number(ctx: VersionContext) -> None:
    withheld = 0
    for report in ctx.reports.values():
        page = domain_page(ctx, report)
        text = html.unescape(shown(page))
        tables = _by_caption(page.tables)
        for scope in report.scopes:
            if not scope.withheld:
                continue
            withheld += 1
            assert scope.withheld in text
            assert _scope_tables(tables, scope) == []
    assert withheld  # every version tested has some


def test_the_differences_table_lists_exactly_the_report_s_differences(
    ctx: VersionContext,
) -> None:
    stats = ctx.release.statistics
    for report in ctx.reports.values():
        tables = _by_caption(domain_page(ctx, report).tables)
        for scope in report.scopes:
            table = tables.get(f"Paired differences — {scope.title}")
            if scope.withheld or not scope.differences:
                assert table is None
                continue
            assert table is not None
            got = [
                (r.record["a"], r.record["b"], r.record["difference"], r.record["significant"])
                for r in table.rows
            ]
            assert got == [(d.a, d.b, d.value, d.significant) for d in scope.differences]
            judged = [
                d
                for d in scope.differences
                if d.tasks >= stats.min_tasks_to_order and d.interval == "tasks"
            ]
            significant = sum(d.significant for d in judged)
            assert f"{significant} of {len(scope.differences)} pairs" in table.note
            assert table.paged == (len(scope.differences) > DIFFERENCES_INLINE)


FAILURE_KEYS = ("combination", "valid_runs")


def _views(c: CombinationScores) -> bool:
    return c.business is not None


def test_business_views_and_failures_appear_where_the_report_has_them(
    ctx: VersionContext,
) -> None:
    for report in ctx.reports.values():
        tables = _by_caption(domain_page(ctx, report).tables)
        for scope in report.scopes:
            business = tables.get(f"Business views — {scope.title}")
            failures = tables.get(f"Failure types — {scope.title}")
            if scope.withheld:
                assert business is None
                assert failures is None
                continue
            with_views = [c.combination for c in scope.combinations if _views(c)]
            assert (business is not None) == bool(with_views)
            if business is not None:
                assert [r.record["combination"] for r in business.rows] == with_views
            scored = [c for c in scope.combinations if c.status == "scored"]
            assert failures is not None
            for c, row in zip(scored, failures.rows, strict=True):
                assert row.record["combination"] == c.combination
                counted = {k: v for k, v in row.record.items() if k in c.failure_types}
                assert counted == c.failure_types
                listed = {k: v for k, v in row.record.items() if k not in FAILURE_KEYS}
                assert sum(listed.values()) == sum(c.failure_types.values())


def test_the_small_version_has_each_case(small: VersionContext) -> None:
    """What the tests above must meet: withheld scopes, a combination not covered, business
    views, and differences."""
    scopes = [s for r in small.reports.values() for s in r.scopes]
    combos = [c for s in scopes for c in s.combinations]
    assert any(s.withheld for s in scopes)
    assert {"scored", "not-covered"} <= {c.status for c in combos}
    assert any(c.business is not None for c in combos)
    assert any(c.failure_types for c in combos)
    assert all(s.differences for s in scopes if not s.withheld)


def test_the_page_lives_in_its_domain_folder_and_has_unique_table_ids(ctx: VersionContext) -> None:
    for domain in ctx.release.domains:
        page = domain_page(ctx, ctx.reports[domain.id])
        assert page.path == f"{domain.id}/index.md"
        assert page.title == domain.title
        ids = [t.id for t in page.tables]
        assert len(ids) == len(set(ids))
        for t in page.tables:
            assert t.to_html("index") in shown(page)
