"""The views' pages of the EnterpriseBench-shaped example in a browser: listed under 'Views'
in the nav, each at most four screens at 1280 px, readable at 390 px (a board's row names
whole, the page itself never wider than the screen), and a board's rows never reordered
into a mix by a click on a combination's header."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page
from serve import too_tall

ROOT = Path(__file__).resolve().parents[2] / "examples" / "enterprisebench"


@pytest.fixture(scope="module")
def views_site(profiled_site: Path) -> Path:
    return profiled_site


@pytest.fixture(scope="module")
def views_server(profiled_server: str) -> str:
    return profiled_server


def _views(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.glob("v*/views/*.html"))


def test_the_nav_lists_every_view(page: Page, views_server: str, views_site: Path) -> None:
    paths = _views(views_site)
    assert len(paths) >= 4
    page.goto(f"{views_server}/{paths[0]}", wait_until="load")
    section = page.locator("nav.md-nav--primary .md-nav__item--nested", has_text="Views")
    links = section.first.locator("a[href$='.html']")
    hrefs = {links.nth(i).get_attribute("href") or "" for i in range(links.count())}
    assert {Path(p).name for p in paths} <= {Path(h).name for h in hrefs}


def test_each_view_is_at_most_four_screens(page: Page, views_server: str, views_site: Path) -> None:
    paths = _views(views_site)
    assert len(paths) == 5  # the five views the example declares
    assert too_tall(page, views_server, paths) == {}


def test_a_view_fits_a_phone(page: Page, views_server: str, views_site: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    paths = _views(views_site)
    assert len(paths) == 5  # the five views the example declares
    tables = 0
    for path in paths:
        page.goto(f"{views_server}/{path}", wait_until="load")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 390, path  # only a table's own box scrolls sideways
        for table in page.locator("table").all():
            squeezed = [w for w in table.evaluate(WORDS) if w["word"] > w["cell"] + 1]
            assert squeezed == [], path  # a row's name is never broken inside a word
            tables += 1
    assert tables == 8  # over the five views


#: Per row, the width of the first cell's content box and of the widest word of its first
#: line (the row's name), in the cell's font.
WORDS = """t => [...t.tBodies[0].rows].map(r => {
    const c = r.cells[0], s = getComputedStyle(c);
    const pen = document.createElement("canvas").getContext("2d");
    pen.font = s.font;
    const words = (c.firstChild ? c.firstChild.textContent : "").split(/\\s+/);
    return {name: c.textContent,
            cell: c.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight),
            word: Math.max(0, ...words.map(w => pen.measureText(w).width))};
})"""
ORDER = "t => [...t.tBodies[0].rows].map(r => r.cells[0].textContent)"


def test_a_board_keeps_its_rows_in_order_when_a_column_is_clicked(
    page: Page, views_server: str, views_site: Path
) -> None:
    boards = [p for p in _views(views_site) if "by-backbone" in p]
    assert boards
    page.goto(f"{views_server}/{boards[0]}", wait_until="load")
    table = page.locator("table").first
    before = table.evaluate(ORDER)
    headers = table.locator("thead th")
    assert headers.count() > 1
    for i in range(1, headers.count()):
        headers.nth(i).click()
        after = table.evaluate(ORDER)
        assert after in (before, before[::-1])
