"""A page per HarnessCard (§5.1.2): its layers field by field, completeness, JSON export."""

from __future__ import annotations

import json

from generator.disclosure import completeness
from generator.models import HarnessCard
from generator.pages.blocks.downloads import described
from generator.pages.blocks.render import Page, environment, render, tables_html
from generator.pages.blocks.tables import Cell, Row, Table
from generator.pages.blocks.text import escape, render_markdown, spelled
from generator.pages.combination.card_tables import card_tables
from generator.pages.context import VersionContext


def completeness_table(card: HarnessCard) -> Table:
    """Per layer and overall: the minimum fields disclosed, and (where the card has any)
    those withheld (the vendor declines) and not recorded (the source does not say),
    counted apart."""
    result = completeness(card)
    titles = {
        name: type(card.layers).model_fields[name].title or name for name, _ in card.layers.items()
    }
    # the optional columns: (header, place in a row's counts), where the card has any
    optional = (("withheld", "Withheld", 1), ("not_recorded", "Not recorded", 2))
    shown = [(header, i) for count, header, i in optional if getattr(result, count)]

    def row(title: str, key: str, counts: tuple[int, int, int, int]) -> Row:
        d, t = counts[0], counts[3]
        share = d / t if t else 0.0
        cells = (
            Cell(title),
            Cell(f"{d} of {t}", share),
            Cell(f"{share:.0%}", share),
            *(Cell(str(counts[i]), counts[i]) for _, i in shown),
        )
        data = {
            "layer": key,
            "disclosed": d,
            "withheld": counts[1],
            "not_recorded": counts[2],
            "minimum_fields": t,
            "share": share,
        }
        return Row(cells, data)

    rows = [row(titles[name], name, (d, w, n, t)) for name, d, w, n, t in result.layers]
    overall = (result.disclosed, result.withheld, result.not_recorded, result.total)
    rows.append(row(f"All {spelled(len(result.layers))} layers", "all", overall))
    return Table(
        "completeness",
        "Completeness: disclosed share of the minimum fields",
        ("Layer", "Disclosed", "Share", *(header for header, _ in shown)),
        tuple(rows),
        "Withheld: the vendor declines to tell. Not recorded: the source of the results does "
        "not say. Both count as not disclosed; additional vendor fields do not count.",
    )


def card_page(ctx: VersionContext, card: HarnessCard) -> Page:
    users = sorted(c for c, b in ctx.frame.bundles.items() if b.combination.harnesscard == card.id)
    tables = [completeness_table(card), *card_tables(card)]
    tables = described(ctx, tables, ("harnesscard", card.id), (("harnesscard", card.id),))
    export = (
        json.dumps(card.model_dump(mode="json"), indent=2, sort_keys=False, ensure_ascii=False)
        + "\n"
    )
    links = ", ".join(f"[{escape(c)}](../combinations/{c}.md)" for c in users)
    markdown = render(
        environment(),
        "harnesscard.md.j2",
        card=card,
        tables=tables_html(tables, card.id),
        layers=[(t.id, t.caption) for t in tables[1:]],
        users=links,
        notes=render_markdown(card.notes) if card.notes else "",
    )
    return Page(
        f"cards/{card.id}.md",
        card.harness.title,
        markdown,
        tuple(tables),
        extra_files={f"{card.id}.harnesscard.json": export},
    )
