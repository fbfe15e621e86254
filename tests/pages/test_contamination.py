"""The contamination monitor against the reports: the public − held-out gap of every
combination per domain, or why a domain has none (§4.4)."""

from __future__ import annotations

import html

from pagetools import shown

from generator.pages import VersionContext
from generator.pages.contamination import contamination_page
from generator.score.results import Estimate


def _shown(e: Estimate) -> str:
    mark = " †" if e.interval == "runs" else ""
    return f"{e.value:.3f} [{e.low:.3f}, {e.high:.3f}]{mark}"


def _check(ctx: VersionContext) -> int:
    page = contamination_page(ctx)
    text = html.unescape(shown(page))
    tables = {t.caption: t for t in page.tables}
    gaps = 0
    for report in ctx.reports.values():
        table = tables.get(f"Public − held-out — {report.domain_title}")
        if not report.contamination:
            assert table is None
            assert f"Not available: {report.contamination_note or 'not available'}" in text
            continue
        assert table is not None
        assert [r.record["combination"] for r in table.rows] == [
            c.combination for c in report.contamination
        ]
        for row, c in zip(table.rows, report.contamination, strict=True):
            shown_cells = [cell.text for cell in row.cells[1:]]
            assert shown_cells == [_shown(c.public), _shown(c.held_out), _shown(c.gap)]
            assert (row.record["gap"], row.record["gap_low"]) == (c.gap.value, c.gap.low)
            gaps += 1
        figures = [e for c in report.contamination for e in (c.public, c.held_out, c.gap)]
        assert ("†" in table.note) == any(e.interval == "runs" for e in figures)
    return gaps


def test_every_gap_of_the_example_is_shown(contexts: list[VersionContext]) -> None:
    assert all(_check(ctx) for ctx in contexts)


def test_a_domain_without_held_out_tasks_says_why(small: VersionContext) -> None:
    assert _check(small)
    without = [r for r in small.reports.values() if not r.contamination]
    assert without  # ERP has public tasks only
    assert all(r.contamination_note for r in without)
