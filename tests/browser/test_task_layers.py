"""Task pages and deep dives in layers: the answer on top and every other table one click
away, still sortable and downloadable (each page's height: test_pages.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from serve import LAPTOP


def _task_pages(site: Path) -> list[str]:
    """Every task page and deep dive of the example, as site-relative URLs."""
    found = [
        p.relative_to(site).as_posix()
        for folder in ("tasks", "deep-dives")
        for p in site.glob(f"v*/{folder}/*.html")
        if p.name != "index.html"
    ]
    return sorted(found)


@pytest.mark.parametrize("folder", ["tasks", "deep-dives"])
def test_opening_a_fold_shows_its_table_sortable(
    page: Page, server: str, site: Path, folder: str
) -> None:
    page.set_viewport_size(LAPTOP)  # type: ignore[arg-type]
    rel = next(p for p in _task_pages(site) if f"/{folder}/" in p)
    page.goto(f"{server}/{rel}")
    # the answer is open: the results table is outside every fold and visible
    expect(page.locator("#table-results table")).to_be_visible()
    assert page.locator("details #table-results").count() == 0
    folds = page.locator("details.lg-fold")
    assert folds.count() >= 4
    for i in range(folds.count()):
        fold = folds.nth(i)
        tables = fold.locator(".lg-table table")
        expect(tables.first).to_be_hidden()
        fold.locator("> summary").click()
        expect(tables.first).to_be_visible()
        # the download links of the folded table are there once opened
        expect(fold.locator(".lg-table a[href$='.csv']").first).to_be_visible()
    runs = page.locator("#table-runs table")
    header = runs.locator("th").first
    header.click()
    assert header.get_attribute("aria-sort") in {"ascending", "descending"}
