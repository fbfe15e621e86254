"""What a reader does: switch versions, search, sort a table, download its data."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect


def test_version_selector_keeps_the_page(page: Page, server: str) -> None:
    page.goto(f"{server}/v1.0/general/index.html")
    current = page.locator(".md-version__current")
    expect(current).to_have_text("v1.0")
    box = current.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.locator(".md-version__link", has_text="v1.1").click()
    page.wait_for_url(f"{server}/v1.1/general/index.html")
    expect(page.locator(".md-version__current")).to_have_text("v1.1")


def _search(page: Page, server: str, query: str) -> list[str]:
    page.goto(f"{server}/v1.0/index.html")
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(query, delay=30)  # key by key, as a reader types
    results = page.locator(".md-search-result__item")
    expect(results.first).to_be_visible(timeout=10_000)
    return [results.nth(i).inner_text() for i in range(results.count())]


def test_search_finds_a_combination_and_a_public_task(page: Page, server: str) -> None:
    assert any("OpenCode" in r for r in _search(page, server, "OpenCode"))
    assert any("Refund Reversal Chain Tracing" in r for r in _search(page, server, "refund"))


def test_clicking_a_header_sorts_the_table(page: Page, server: str) -> None:
    page.goto(f"{server}/v1.0/general/index.html")
    table = page.locator("table.lg-sortable").first
    header = table.locator("th", has_text="Task Score")
    column = [h.inner_text() for h in table.locator("th").all()].index(header.inner_text())

    def values() -> list[float]:
        cells = table.locator(f"tbody tr td:nth-child({column + 1})").all()
        return [
            float(c.get_attribute("data-sort") or "nan")
            for c in cells
            if c.get_attribute("data-sort")
        ]

    header.click()  # a score: best (highest) first
    expect(header).to_have_attribute("aria-sort", "descending")
    descending = values()
    assert descending == sorted(descending, reverse=True)
    assert len(descending) >= 3
    header.click()
    expect(header).to_have_attribute("aria-sort", "ascending")
    assert values() == sorted(descending)


def test_every_download_link_returns_its_file(page: Page, server: str, site: Path) -> None:
    checked = 0
    for html in sorted(site.rglob("*.html")):
        text = html.read_text("utf-8")
        for href in sorted(set(re.findall(r'href="([^"#]+\.(?:csv|json))"', text))):
            target = (html.parent / href).resolve()
            url = f"{server}/{target.relative_to(site).as_posix()}"
            response = page.request.get(url)
            assert response.status == 200, url
            assert response.body() == target.read_bytes(), url
            checked += 1
    assert checked > 200
