"""No page or download of an example shows a blank where a word belongs (issue 27,
:mod:`blanks`): here the EnterpriseBench-shaped and the minimal examples; Lingee's site in
``tests/site/test_validity.py`` and the EnterpriseClawBench-shaped one in
``tests/test_example_enterpriseclawbench.py``, beside the builds they share."""

from __future__ import annotations

from pathlib import Path

import pytest
from blanks import blanks, written
from conftest import EXAMPLES

from generator.build import build_site
from generator.load import load_inputs


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
