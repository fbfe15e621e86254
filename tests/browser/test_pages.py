"""Every page of the example site in a real browser: no errors, nothing from another host,
every chart drawn."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page
from serve import local_only, too_tall

CHARTS_DRAWN = """() => [...document.querySelectorAll('div.plotly-graph-div')]
    .filter(d => !d.querySelector('svg.main-svg')).length"""


@pytest.mark.parametrize("version", ["v1.0", "v1.1"])
def test_every_page_loads_cleanly_and_fits_four_screens(
    page: Page, server: str, site: Path, version: str
) -> None:
    """Every page of the version, visited once at a laptop's size: no console error,
    nothing from another host, every chart drawn, and at most four screens tall (the answer
    on top, the detail one click away) — result cards, task pages, deep dives, the domains'
    pages and their sub-pages alike."""
    errors: list[str] = []
    external = local_only(page, server)
    page.on(
        "console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None
    )
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    charts = [0]

    def drawn(loaded: Page) -> None:
        count = loaded.locator("div.plotly-graph-div").count()
        if count:
            loaded.wait_for_function(f"() => ({CHARTS_DRAWN})() === 0", timeout=15_000)
            charts[0] += count

    pages = [*html_pages(site, version), "index.html"]
    kinds = ("/index.html", "efficiency.html", "/combinations/", "/tasks/", "/deep-dives/")
    assert all(any(k in p for p in pages) for k in (*kinds, "/cards/", "/general/"))
    assert too_tall(page, server, pages, drawn) == {}
    assert len(pages) >= 40
    assert charts[0] >= 8
    assert not errors, errors[:10]
    assert not external, external[:10]


def test_charts_have_a_text_alternative(page: Page, server: str) -> None:
    page.goto(f"{server}/v1.0/efficiency.html")
    figures = page.locator("figure.lg-chart")
    assert figures.count() >= 8
    for i in range(figures.count()):
        link = figures.nth(i).locator("figcaption a")
        target = (link.get_attribute("href") or "").lstrip("#")
        assert page.locator(f"[id='{target}'] table").count() == 1


def html_pages(site: Path, version: str) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in (site / version).rglob("*.html"))
