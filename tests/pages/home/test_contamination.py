"""The contamination monitor against the reports: the public − held-out gap of every
combination per domain, or why a domain has none (§4.4)."""

from __future__ import annotations

import html

from pagetools import shown, shown_estimate

from generator.pages import VersionContext
from generator.pages.home.contamination import contamination_page


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
            assert shown_cells == [
                shown_estimate(c.public),
                shown_estimate(c.held_out),
                shown_estimate(c.gap),
            ]
            assert (row.record["gap"], row.record["gap_low"]) == (c.gap.value, c.gap.low)
            gaps += 1
        figures = [e for c in report.contamination for e in (c.public, c.held_out, c.gap)]
        assert ("†" in table.note) == any(e.interval == "runs" for e in figures)
    return gaps


def test_every_gap_of_the_example_is_shown(contexts: list[VersionContext]) -> None:
    gaps = [_check(ctx) for ctx in contexts]
    assert len(gaps) == 2  # v1.0 and v1.1
    assert all(gaps)  # each version shows gaps


def test_a_domain_without_held_out_tasks_says_why(small: VersionContext) -> None:
    assert _check(small)
    without = [r for r in small.reports.values() if not r.contamination]
    assert without  # ERP has public tasks only
    assert all(r.contamination_note for r in without)
