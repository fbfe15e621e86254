"""The contamination monitor: public minus held-out Task Score per domain (§4.4)."""

from __future__ import annotations

from operator import attrgetter

from generator.pages.blocks.cells import (
    combo_cell,
    estimate_cell,
    release_notice,
    runs_note,
)
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields
from generator.pages.blocks.downloads import described
from generator.pages.blocks.render import Page, environment, render, tables_html
from generator.pages.blocks.tables import Table
from generator.pages.context import VersionContext
from generator.score.results import Contamination, Report


def gap_spec(ctx: VersionContext) -> Spec[Contamination]:
    """A row per combination: public and held-out Task Scores and their gap (§4.4)."""
    return Spec(
        (
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 0)),
            Column("Public", attrgetter("public"), estimate_cell),
            Column("Held-out", attrgetter("held_out"), estimate_cell),
            Column("Gap (public − held-out)", attrgetter("gap"), estimate_cell),
        ),
        (
            Field("combination", attrgetter("combination")),
            *estimate_fields("public", attrgetter("public")),
            *estimate_fields("held_out", attrgetter("held_out")),
            *estimate_fields("gap", attrgetter("gap")),
        ),
    )


def _gap_table(ctx: VersionContext, domain: str, report: Report) -> Table:
    rows = report.contamination
    runs = any(e.interval == "runs" for r in rows for e in (r.public, r.held_out, r.gap))
    note = runs_note(ctx.release.statistics.min_tasks_to_resample) if runs else ""
    caption = f"Public − held-out — {report.domain_title}"
    table = gap_spec(ctx).table(f"gap-{domain}", caption, rows, note)
    return described(ctx, [table], ("contamination",), (("domain", domain),))[0]


def contamination_page(ctx: VersionContext) -> Page:
    tables, notes = [], {}
    for domain_id, report in ctx.reports.items():
        if report.contamination:
            tables.append(_gap_table(ctx, domain_id, report))
        else:
            notes[domain_id] = report.contamination_note or "not available"
    markdown = render(
        environment(),
        "contamination.md.j2",
        notice=release_notice(ctx),
        reports=ctx.reports,
        tables=tables_html(tables, "contamination"),
        notes=notes,
    )
    return Page("contamination.md", "Contamination monitor", markdown, tuple(tables))
