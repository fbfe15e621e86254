"""The paired-differences tables of the domain pages against the report's differences."""

from __future__ import annotations

from generator.pages import VersionContext
from generator.pages.blocks.differences import DIFFERENCES_INLINE
from generator.pages.blocks.tables import Table
from generator.pages.domain.pages import domain_pages
from generator.score.results import Report


def _by_caption(ctx: VersionContext, report: Report) -> dict[str, Table]:
    """Every table of the domain's pages, by caption."""
    return {t.caption: t for p in domain_pages(ctx, report) for t in p.page.tables}


def test_the_differences_table_lists_exactly_the_report_s_differences(
    ctx: VersionContext,
) -> None:
    stats = ctx.release.statistics
    shown, absent = 0, 0
    for report in ctx.reports.values():
        tables = _by_caption(ctx, report)
        for scope in report.scopes:
            table = tables.get(f"Paired differences — {scope.title}")
            if not scope.withheld:  # the report says why a scope too small orders nothing
                assert (scope.tasks < stats.min_tasks_to_order) == (scope.unordered is not None)
            if scope.withheld or not scope.differences or scope.unordered is not None:
                assert table is None
                absent += 1
                continue
            assert table is not None
            shown += 1
            got = [
                (r.record["a"], r.record["b"], r.record["difference"], r.record["significant"])
                for r in table.rows
            ]
            assert got == [(d.a, d.b, d.value, d.significant) for d in scope.differences]
            judged = [d for d in scope.differences if d.judged]
            assert judged == [
                d
                for d in scope.differences
                if d.tasks >= stats.min_tasks_to_order and d.interval == "tasks"
            ]
            significant = sum(d.significant for d in judged)
            assert f"{significant} of {len(scope.differences)} pairs" in table.note
            assert table.paged == (len(scope.differences) > DIFFERENCES_INLINE)
    assert shown > 0  # each version here has scopes with a differences table ...
    assert absent > 0  # ... and scopes without one


def test_a_cost_s_differences_read_in_its_scale_and_direction() -> None:
    """Lower is better: the note says a negative a − b favours a; values in units of 10⁴."""
    from generator.models.profile import Metric
    from generator.pages.blocks.differences import differences_table
    from generator.score.results import Difference, ScopeResult
    from generator.score.scope import Scope

    d = Difference(
        a="p",
        b="q",
        value=-25_000.0,
        low=-40_000.0,
        high=-10_000.0,
        tasks=8,
        significant=True,
        judged=True,
    )
    scope = ScopeResult(
        scope=Scope(version="v", domain="game"),
        title="Game",
        tasks=8,
        combinations=[],
        differences=[d],
    )
    cost = Metric(id="cost", title="Cost", direction="lower", measured=True, scale=10_000)
    table = differences_table(scope, "t", 5, 5, 0.95, str, cost)
    assert table is not None
    assert "Differences of Cost, shown ×10⁴: lower is better, so a negative a − b favours a." in (
        table.note
    )
    (row,) = table.rows
    assert row.cells[1].text == f"{d.value / 1e4:.2f}"
    assert row.cells[2].text.startswith(f"[{d.low / 1e4:.2f}")
    plain = differences_table(scope, "t", 5, 5, 0.95, str)
    assert plain is not None
    assert "favours" not in plain.note
