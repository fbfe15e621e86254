"""Methodology and the publishing guide: how numbers are made, and how to submit inputs."""

from __future__ import annotations

from generator.models.schema import json_schemas
from generator.models.schema import render as render_schema
from generator.pages.context import VersionContext
from generator.pages.render import Page, environment, render


def methodology_page(ctx: VersionContext) -> Page:
    markdown = render(
        environment(),
        "methodology.md.j2",
        release=ctx.release,
        stats=ctx.release.statistics,
        groups=ctx.release.groups,
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
