"""The search for blanks on a built site (issue 27): an empty table cell, or a cell or CSV
field reading ``None``, ``nan``, ``NaN``, ``null`` or ``undefined`` that the inputs did not
write themselves (a vendor may disclose "None" as a HarnessCard value)."""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

BLANKS = frozenset({"None", "nan", "NaN", "null", "undefined"})
CELL = re.compile(r"<td\b[^>]*>(.*?)</td>", re.DOTALL)


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data.strip()
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def written(root: Path) -> frozenset[str]:
    """The blank-looking texts the inputs themselves wrote."""
    found: set[str] = set()
    for path in sorted(root.glob("harnesscards/*.yaml")) + sorted(root.rglob("results/**/*.yaml")):
        found.update(
            s for s in _strings(yaml.safe_load(path.read_text(encoding="utf-8"))) if s in BLANKS
        )
    return frozenset(found)


def blanks(site: Path, allowed: frozenset[str]) -> list[str]:
    """Each blank cell or field: where it is."""
    out = []
    for page in sorted(site.rglob("*.html")):
        for match in CELL.finditer(page.read_text(encoding="utf-8")):
            text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", match.group(1))).split())
            if not text or (text in BLANKS and text not in allowed):
                out.append(f"{page.relative_to(site)}: cell {text!r}")
    for table in sorted(site.rglob("*.csv")):
        for n, row in enumerate(csv.reader(io.StringIO(table.read_text(encoding="utf-8"))), 1):
            out += [f"{table.relative_to(site)}:{n}: {f!r}" for f in row if f in BLANKS - allowed]
    return out
