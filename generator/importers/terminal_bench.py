"""Terminal-Bench runs and Harbor jobs → what they record (to be written)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from generator.importers.registry import BuiltIn
from generator.importers.source import Imported, SourceError


def read_terminal_bench(sources: Sequence[Path], scorer: str | None) -> Imported:
    raise SourceError("terminal-bench", "not yet")


IMPORTER = BuiltIn("Terminal-Bench runs and Harbor jobs", read_terminal_bench)
