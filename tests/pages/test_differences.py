"""The paired-differences tables of the domain pages against the report's differences."""

from __future__ import annotations

from generator.pages import VersionContext
from generator.pages.differences import DIFFERENCES_INLINE
from generator.pages.domains import domain_pages
from generator.pages.tables import Table
from generator.score.results import Report


def _by_caption(ctx: VersionContext, report: Report) -> dict[str, Table]:
    """Every table of the domain's pages, by caption."""
    return {t.caption: t for p in domain_pages(ctx, report) for t in p.page.tables}


def test_the_differences_table_lists_exactly_the_report_s_differences(
    ctx: VersionContext,
) -> None:
    stats = ctx.release.statistics
    for report in ctx.reports.values():
        tables = _by_caption(ctx, report)
        for scope in report.scopes:
            table = tables.get(f"Paired differences — {scope.title}")
            if scope.withheld or not scope.differences or scope.tasks < stats.min_tasks_to_order:
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
