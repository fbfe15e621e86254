"""The contamination monitor: public minus held-out Task Score per domain (§4.4)."""

from __future__ import annotations

from generator.pages.cells import (
    combo_cell,
    estimate_cell,
    estimate_record,
    release_notice,
    runs_note,
)
from generator.pages.context import VersionContext
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.tables import Row, Table


def contamination_page(ctx: VersionContext) -> Page:
    env = environment()
    tables, notes = [], {}
    for domain_id, report in ctx.reports.items():
        if not report.contamination:
            notes[domain_id] = report.contamination_note or "not available"
            continue
        rows = []
        for row in report.contamination:
            rows.append(
                Row(
                    (
                        combo_cell(ctx, row.combination, 0),
                        estimate_cell(row.public),
                        estimate_cell(row.held_out),
                        estimate_cell(row.gap),
                    ),
                    {
                        "combination": row.combination,
                        **estimate_record("public", row.public),
                        **estimate_record("held_out", row.held_out),
                        **estimate_record("gap", row.gap),
                    },
                )
            )
        tables.append(
            Table(
                f"gap-{domain_id}",
                f"Public − held-out — {report.domain_title}",
                ("Combination", "Public", "Held-out", "Gap (public − held-out)"),
                tuple(rows),
                runs_note(ctx.release.statistics.min_tasks_to_resample)
                if any(
                    e.interval == "runs"
                    for r in report.contamination
                    for e in (r.public, r.held_out, r.gap)
                )
                else "",
            )
        )
    markdown = render(
        env,
        "contamination.md.j2",
        notice=release_notice(ctx),
        reports=ctx.reports,
        tables=tables_html(tables, "contamination"),
        notes=notes,
    )
    return Page("contamination.md", "Contamination monitor", markdown, tuple(tables))
