"""The documentation site builds strict, offline: every link and anchor resolves, no page
loads anything from another host, and two builds are byte-identical."""

from __future__ import annotations

import time
from pathlib import Path

import click
import pytest
from linktools import broken_links, leaves, parse

from generator.docsite import build as docsite
from generator.docsite.build import GENERATED, INCLUDED, MARKER, build_docs, stage


@pytest.fixture(scope="module")
def docs_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One strict build of the documentation site."""
    out = tmp_path_factory.mktemp("docs") / "site"
    started = time.perf_counter()
    assert build_docs(out) == []
    print(f"docs site built in {time.perf_counter() - started:.1f} s")
    return out


def test_every_page_of_docs_and_every_generated_page_is_built(docs_site: Path) -> None:
    sources = [p.relative_to(docsite.DOCS) for p in docsite.DOCS.rglob("*.md")]
    names = [*sources, *map(Path, GENERATED), *map(Path, INCLUDED)]
    assert Path("index.md") in names
    assert {Path("reference/commands.md"), Path("measured.md")} <= set(names)
    for name in names:
        assert (docs_site / name.with_suffix(".html")).is_file(), name
    assert (docs_site / MARKER).is_file()


def test_every_local_link_and_anchor_resolves(docs_site: Path) -> None:
    checked, broken = broken_links(docs_site)
    assert checked > 0
    assert not broken, broken[:20]


def test_no_page_loads_anything_from_another_host(docs_site: Path) -> None:
    pages = list(docs_site.rglob("*.html"))
    assert pages
    for page in pages:
        parsed = parse(page)
        loads = [link for link in parsed.loads if leaves(link) and not link.startswith("data:")]
        assert loads == [], page
        outside = [link for link in parsed.links if leaves(link)]
        assert outside == [], page
    styles = list(docs_site.rglob("*.css"))
    assert styles
    for style in styles:
        text = style.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text, style
        assert "@import url(http" not in text, style


def test_two_builds_are_byte_identical(docs_site: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    build_docs(again)
    first = {p.relative_to(docs_site): p.read_bytes() for p in docs_site.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys()
    assert [name for name in first if first[name] != second[name]] == []


def test_a_build_replaces_an_earlier_build_but_no_other_folder(tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(click.ClickException, match="not a documentation build"):
        build_docs(other)
    assert (other / "keep.txt").read_text(encoding="utf-8") == "mine"


def test_staging_writes_the_generated_pages_and_a_strict_configuration(tmp_path: Path) -> None:
    config = stage(tmp_path)
    text = config.read_text(encoding="utf-8")
    assert "strict: true" in text
    assert "font: false" in text
    assert sorted(GENERATED) == ["reference/commands.md", "reference/inputs.md"]
    assert sorted(INCLUDED) == ["measured.md"]
    for name, write in GENERATED.items():
        assert (tmp_path / "docs" / name).read_text(encoding="utf-8") == write()
    for name, source in INCLUDED.items():
        assert (tmp_path / "docs" / name).read_bytes() == source.read_bytes()
