"""Configuration differences between two combinations of a version, one page per pair."""

from __future__ import annotations

from itertools import combinations

from markupsafe import Markup

from generator.disclosure.diff import configuration_fields, diff, field_label
from generator.models.base import is_recorded
from generator.pages.blocks.cells import display_names
from generator.pages.blocks.downloads import described
from generator.pages.blocks.render import Page, environment, render, tables_html
from generator.pages.blocks.tables import Cell, Row, Table
from generator.pages.blocks.text import escape_html
from generator.pages.context import VersionContext


def diff_path(a: str, b: str) -> str:
    first, second = sorted((a, b))
    return f"diffs/{first}--{second}.md"


def related(ctx: VersionContext, combo: str) -> list[tuple[str, str]]:
    """Other combinations sharing this one's harness or model, with what they share."""
    mine = ctx.frame.bundles[combo].combination
    out = []
    for other, bundle in sorted(ctx.frame.bundles.items()):
        if other == combo:
            continue
        theirs = bundle.combination
        shared = [
            what
            for what, same in (
                ("harness", theirs.harnesscard == mine.harnesscard),
                (
                    "model",  # a version nobody recorded is not known to be shared
                    (theirs.model.name, theirs.model.version)
                    == (mine.model.name, mine.model.version)
                    and is_recorded(mine.model.version),
                ),
            )
            if same
        ]
        if shared:
            out.append((other, " and ".join(shared)))
    return out


def diff_pages(ctx: VersionContext) -> list[Page]:
    fields = {
        c: configuration_fields(ctx.cards[b.combination.harnesscard], b)
        for c, b in ctx.frame.bundles.items()
    }
    pages, names = [], display_names(ctx)
    for a, b in combinations(sorted(fields), 2):
        result = diff(fields[a], fields[b])
        na, nb = names[a], names[b]
        table = Table(
            "differences",
            f"Fields that differ: {na} and {nb}",
            ("Field", na, nb),
            tuple(
                Row(
                    (Cell(field_label(k)), Cell(va), Cell(vb)),
                    {"field": k, "label": field_label(k), a: va, b: vb},
                )
                for k, va, vb in result.differing
            ),
        )
        (table,) = described(ctx, [table], ("diff", f"{min(a, b)}--{max(a, b)}"))
        same = "".join(
            f"<li>{escape_html(field_label(k))}: {escape_html(v)}</li>" for k, v in result.identical
        )
        unknown = escape_html(", ".join(map(field_label, result.unknown)))
        markdown = render(
            environment(),
            "diff.md.j2",
            a=a,
            b=b,
            na=na,
            nb=nb,
            fa=ctx.fingerprints[a],
            fb=ctx.fingerprints[b],
            count=len(result.differing),
            tables=tables_html([table], f"{min(a, b)}--{max(a, b)}"),
            identical=Markup(
                f'<details class="lg-identical"><summary>{len(result.identical)} '
                f"identical fields</summary><ul>{same}</ul></details>"
                + (
                    f"<p>{len(result.unknown)} field(s) not recorded on either side, so not "
                    f"known to be the same: {unknown}.</p>"
                    if result.unknown
                    else ""
                )
            ),
        )
        # Left out of the search: the pairs' pages would crowd every search for a name.
        title = f"{na} vs {nb}"
        pages.append(Page(diff_path(a, b), title, markdown, (table,), searched=False))
    return pages


def diffs_index(ctx: VersionContext, pages: list[Page]) -> Page:
    """Every pair of combinations and how many configuration fields differ."""
    rows = []
    for page in pages:
        a, b = page.stem.split("--")
        differing = len(page.tables[0].rows)
        link = f'<a href="{escape_html(page.stem)}.html">{escape_html(page.title)}</a>'
        rows.append(
            Row(
                (Cell(link, page.title, html=True), Cell(str(differing), differing)),
                {"a": a, "b": b, "differing_fields": differing, "page": f"{page.stem}.html"},
            )
        )
    table = Table(
        "pairs",
        "Pairs of combinations and the number of configuration fields that differ",
        ("Pair", "Differing fields"),
        tuple(rows),
    )
    (table,) = described(ctx, [table], ("diff",))
    markdown = render(
        environment(),
        "diffs.md.j2",
        count=len(ctx.frame.bundles),
        version=ctx.version,
        tables=tables_html([table], "index"),
    )
    return Page("diffs/index.md", "Configuration differences", markdown, (table,), wide=True)
