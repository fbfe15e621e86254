"""Text forms of a :class:`~generator.score.results.Report`, by format name: JSON (stable,
documented by its schema, :mod:`generator.score.render_json`), CSV (one long table,
:mod:`generator.score.render_csv`) and Markdown (readable tables,
:mod:`generator.score.render_markdown`); the last two are tables of typed cells
(:mod:`generator.score.tables`) written by one writer each."""

from __future__ import annotations

from collections.abc import Callable

from generator.score.render_csv import CSV_COLUMNS, to_csv
from generator.score.render_json import to_json
from generator.score.render_markdown import to_markdown
from generator.score.results import Report
from generator.score.rounding import DECIMALS

RENDERERS: dict[str, Callable[[Report], str]] = {
    "json": to_json,
    "csv": to_csv,
    "markdown": to_markdown,
}

__all__ = ["CSV_COLUMNS", "DECIMALS", "RENDERERS", "to_csv", "to_json", "to_markdown"]
