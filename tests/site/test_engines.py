"""``build --engine zensical``: its pages carry the tables, charts and navigation of the
mkdocs build, the shared navigation of pages outside the nav included."""

from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path

import pytest
from synthetic import make_release

from generator.build import build_site
from generator.check import check_inputs
from generator.load import Inputs, load_inputs
from generator.pages import NAV_CHILDREN

pytestmark = pytest.mark.slow  # builds with each engine

_TABLE = re.compile(r"<table\b.*?</table>", re.DOTALL)
_CHART = re.compile(r"Plotly\.newPlot\(.*?</script>", re.DOTALL)
_LINK = re.compile(r'<a href="([^"]*)"[^>]*class="md-nav__link[^"]*"[^>]*>(.*?)</a>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def _pages(site: Path) -> dict[str, str]:
    """Every page of every version (not the landing page or the redirects of latest/)."""
    return {
        p.relative_to(site).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(site.glob("v*/**/*.html"))
    }


def _navigation(page: str, rel: str) -> list[tuple[str, str]]:
    """The links of the primary sidebar of page ``rel``: the page each leads to (``./x``
    and ``x`` are the same), and its label."""
    start = page.index('data-md-type="navigation"')
    end = page.find('data-md-type="toc"', start)
    sidebar = page[start : end if end > 0 else len(page)]
    return [
        (
            posixpath.normpath(posixpath.join(posixpath.dirname(rel), href)),
            " ".join(html.unescape(_TAG.sub(" ", label)).split()),
        )
        for href, label in _LINK.findall(sidebar)
    ]


def _same_content(mkdocs: Path, zensical: Path) -> list[str]:
    """Compare the two sites page by page; return the pages that show a table."""
    ours, theirs = _pages(mkdocs), _pages(zensical)
    assert sorted(theirs) == sorted(ours)
    with_tables = []
    for rel, page in ours.items():
        other = theirs[rel]
        assert "<!--lg-" not in other, f"{rel}: a block or navigation was not put in"
        assert _TABLE.findall(other) == _TABLE.findall(page), rel
        assert _CHART.findall(other) == _CHART.findall(page), rel
        assert _navigation(other, rel) == _navigation(page, rel), rel
        if _TABLE.search(page):
            with_tables.append(rel)
    return with_tables


def _built(inputs: Inputs, out: Path, engine: str) -> Path:
    assert build_site(inputs, out, strict=True, progress=lambda _: None, engine=engine) == []
    return out


def test_zensical_pages_carry_the_tables_charts_and_navigation(
    inputs: Inputs, site: Path, tmp_path: Path
) -> None:
    zensical = _built(inputs, tmp_path / "zensical", "zensical")
    with_tables = _same_content(site, zensical)
    charts = [rel for rel, page in _pages(site).items() if _CHART.search(page)]
    assert with_tables, "the example must show tables"
    assert charts, "the example must show charts"
    versions = sorted(p.name for p in site.glob("v*") if p.is_dir())
    assert versions == ["v1.0", "v1.1"]
    for version in versions:
        assert (zensical / version / "search.json").is_file()


def test_zensical_shares_the_navigation_of_pages_outside_it(tmp_path: Path) -> None:
    root = tmp_path / "release"
    make_release().write_release(
        root, tasks_general=30, tasks_enterprise=36, combinations=2, runs=2, rules=2, judges=1
    )
    inputs, problems = load_inputs(root)
    assert not [p for p in problems + check_inputs(inputs) if p.severity == "error"]
    mkdocs = _built(inputs, tmp_path / "mkdocs", "mkdocs")
    zensical = _built(inputs, tmp_path / "zensical", "zensical")
    _same_content(mkdocs, zensical)
    tasks = sorted((zensical / "v1.0" / "tasks").glob("*.html"))
    assert len(tasks) > NAV_CHILDREN, "the release must have more public tasks than the nav lists"
    navigations = {
        str(_navigation(t.read_text(encoding="utf-8"), "v1.0/tasks/x.html")) for t in tasks[1:]
    }
    assert len(navigations) == 1
    assert navigations != {"[]"}


def test_a_zensical_warning_fails_a_strict_build(tmp_path: Path) -> None:
    """A page that links to a page that does not exist: zensical's warning, located."""
    from generator.site import engines

    docs = tmp_path / "project" / "docs"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n\n[gone](missing.md)\n", encoding="utf-8")
    config = tmp_path / "project" / "mkdocs.yml"
    config.write_text(
        "site_name: T\ndocs_dir: docs\nsite_dir: site\nuse_directory_urls: false\n"
        "theme:\n  name: material\n",
        encoding="utf-8",
    )
    assert [w for w in engines.run(config, False, "zensical") if w.startswith("index.md:3:")]
    with pytest.raises(engines.EngineFailed, match=r"index\.md:3:\d+: "):
        engines.run(config, True, "zensical")
