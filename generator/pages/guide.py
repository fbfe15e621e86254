"""Methodology and the publishing guide: how numbers are made, and how to submit inputs."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from generator.models.schema import json_schemas
from generator.models.schema import render as render_schema
from generator.pages.context import VersionContext
from generator.pages.render import Page, environment, render

# The measured coverage of the interval method, written by bench/coverage.py.
COVERAGE = Path(__file__).resolve().parents[2] / "site_src" / "coverage.json"


@lru_cache(maxsize=1)
def measured_coverage() -> dict[str, Any] | None:
    """What bench/coverage.py measured of the intervals (None when it has not been run)."""
    if not COVERAGE.is_file():
        return None
    found: dict[str, Any] = json.loads(COVERAGE.read_text(encoding="utf-8"))
    return found


def methodology_page(ctx: VersionContext) -> Page:
    markdown = render(
        environment(),
        "methodology.md.j2",
        release=ctx.release,
        stats=ctx.release.statistics,
        groups=ctx.release.groups,
        coverage=measured_coverage(),
    )
    return Page("methodology.md", "Methodology", markdown)


def publishing_page(ctx: VersionContext) -> Page:
    schemas = {
        f"schemas/{name}": render_schema(schema) for name, schema in sorted(json_schemas().items())
    }
    markdown = render(
        environment(),
        "publishing.md.j2",
        release=ctx.release,
        schemas=sorted(name.removeprefix("schemas/") for name in schemas),
    )
    return Page("publishing.md", "Publishing guide", markdown, extra_files=schemas)
