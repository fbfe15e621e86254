"""No page or download of any example shows a blank where a word belongs (issue 27): no
table cell is empty, and no cell or CSV field reads ``None``, ``nan``, ``NaN``, ``null`` or
``undefined`` — unless the inputs wrote that very text (a vendor may disclose "None" as a
HarnessCard value). Over the four example sites: Lingee's, the two profile examples' and the
minimal one ``init`` writes."""

from __future__ import annotations

import csv
import html
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import EXAMPLES

from generator.build import build_site
from generator.load import load_inputs

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


@pytest.fixture(scope="module", params=sorted(set(EXAMPLES) - {"lingee", "enterpriseclawbench"}))
def built(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    """A build of an example the shared fixtures do not build (its inputs' root, its site)."""
    root = EXAMPLES[request.param]
    inputs, problems = load_inputs(root)
    assert not [p for p in problems if p.severity == "error"]
    out = tmp_path_factory.mktemp(f"blanks-{request.param}") / "site"
    build_site(inputs, out, strict=False, progress=lambda _: None)
    return root, out


def test_no_blank_in_the_lingee_site(site: Path) -> None:
    assert blanks(site, written(EXAMPLES["lingee"])) == []


def test_no_blank_in_the_clawbench_shaped_site(claw_site: Path) -> None:
    assert blanks(claw_site, written(EXAMPLES["enterpriseclawbench"])) == []


def test_no_blank_in_the_other_example_sites(built: tuple[Path, Path]) -> None:
    root, site = built
    assert blanks(site, written(root)) == []


def test_the_search_finds_a_blank(tmp_path: Path) -> None:
    """The check itself: an empty cell, a 'None' cell and a 'nan' field are found; a
    'None' the inputs wrote is not."""
    (tmp_path / "p.html").write_text("<td>1</td><td> </td><td><b>None</b></td>", encoding="utf-8")
    (tmp_path / "t.csv").write_text("a,b\nnan,None\n", encoding="utf-8")
    assert blanks(tmp_path, frozenset()) == [
        "p.html: cell ''",
        "p.html: cell 'None'",
        "t.csv:2: 'nan'",
        "t.csv:2: 'None'",
    ]
    assert blanks(tmp_path, frozenset({"None"})) == ["p.html: cell ''", "t.csv:2: 'nan'"]
