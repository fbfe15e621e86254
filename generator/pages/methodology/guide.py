"""Methodology and the publishing guide: how numbers are made, and how to submit inputs."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from generator.models.schema import json_schemas
from generator.models.schema import render as render_schema
from generator.pages.blocks.downloads import download_name
from generator.pages.blocks.render import Page, environment, render, tables_html
from generator.pages.blocks.tables import Cell, Row, Table
from generator.pages.context import VersionContext
from generator.pages.methodology.profile import declared_lines
from generator.score.results import OUTPUT_MODELS

# The measured coverage of the interval method, written by bench/coverage.py.
COVERAGE = Path(__file__).resolve().parents[3] / "site_src" / "coverage.json"


@lru_cache(maxsize=1)
def measured_coverage() -> dict[str, Any] | None:
    """What bench/coverage.py measured of the intervals (None when it has not been run)."""
    if not COVERAGE.is_file():
        return None
    found: dict[str, Any] = json.loads(COVERAGE.read_text(encoding="utf-8"))
    return found


# Rows of the coverage table: coverage first, then differences and ranks, the baseline last.
ORDER = ("coverage", "false difference", "power", "rank error", "baseline")


#: What a download holds of each measured figure, per setting.
MEASURED = ("rate", "mc_se", "hits", "trials")


def coverage_table(coverage: dict[str, Any], version: str | None = None) -> Table:
    """The measured figures: a row per figure, a column per setting (figures in the order
    first met), each cell the share ± its Monte-Carlo error; the downloads hold all counts,
    a field per setting and count (``"<setting>: rate"``), and the ``version`` whose
    methodology page shows them."""
    settings = coverage["settings"]
    found = dict.fromkeys(n for s in settings for n in s["figures"])
    names = sorted(
        found,
        key=lambda n: (next((i for i, p in enumerate(ORDER) if n.startswith(p)), len(ORDER)), n),
    )
    rows = []
    for name in names:
        cells, record = [Cell(name)], {"figure": name}
        for s in settings:
            f = s["figures"].get(name)
            cells.append(Cell("—" if f is None else f"{f['rate']:.3f} ± {f['mc_se']:.3f}"))
            for key in MEASURED:
                record[f"{s['setting']}: {key}"] = None if f is None else f.get(key)
        rows.append(Row(tuple(cells), record))
    return Table(
        "coverage",
        "Measured by bench/coverage.py on simulated releases with a known truth",
        ("Figure", *(s["setting"] for s in settings)),
        tuple(rows),
        "Each cell: the share of intervals that held the truth (coverage), or how often the "
        "event occurred, ± its Monte-Carlo standard error over releases. T tasks, n runs.",
        about=(("version", version),) if version is not None else (),
    )


def methodology_page(ctx: VersionContext) -> Page:
    coverage = measured_coverage()
    tables = [coverage_table(coverage, ctx.version)] if coverage is not None else []
    tables = [replace(t, name=download_name(ctx, "methodology", t.id)) for t in tables]
    markdown = render(
        environment(),
        "methodology.md.j2",
        release=ctx.release,
        stats=ctx.release.statistics,
        groups=ctx.release.groups,
        coverage=coverage,
        tables=tables_html(tables, "methodology"),
        declared=declared_lines(ctx.release, ctx.tasks.values(), coverage),
    )
    return Page("methodology.md", "Methodology", markdown, tuple(tables), wide=True)


def publishing_page(ctx: VersionContext) -> Page:
    schemas = {
        f"schemas/{name}": render_schema(schema)
        for name, schema in sorted(json_schemas(OUTPUT_MODELS).items())
    }
    markdown = render(
        environment(),
        "publishing.md.j2",
        release=ctx.release,
        schemas=sorted(name.removeprefix("schemas/") for name in schemas),
    )
    return Page("publishing.md", "Publishing guide", markdown, extra_files=schemas)
