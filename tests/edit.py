"""Small helpers that change one input file of a copied example, for bad-input tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def replace(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace the first ``count`` occurrences of ``old``; fail loudly if absent."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def line_of(path: Path, needle: str) -> int:
    """1-based number of the first line containing ``needle``."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def edit_runs(path: Path, change: Callable[[list[dict[str, Any]]], None]) -> None:
    """Rewrite a runs file through ``change``, which edits the record list in place."""
    lines = path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines[1:]]
    change(records)
    body = [lines[0]] + [json.dumps(r, separators=(",", ":")) for r in records]
    path.write_text("\n".join(body) + "\n", encoding="utf-8")
