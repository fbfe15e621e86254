"""Result cards as a reader sees them: the answer in about four screens at 1280 px, every
collapsed part opening onto its tables, its charts drawn to the page's width when opened,
and a link into a collapsed part opening it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page
from serve import too_tall

from generator.load import Inputs


def _cards(site: Path, inputs: Inputs) -> list[str]:
    """Every result card of the example, relative to the site."""
    found = []
    for loaded in inputs.releases:
        assert loaded.release is not None
        folder = site / loaded.release.model.version / "combinations"
        found += [
            p.relative_to(site).as_posix()
            for p in sorted(folder.glob("*.html"))
            if p.name != "index.html"
        ]
    return found


def test_every_result_card_fits_in_about_four_screens(
    page: Page, server: str, site: Path, inputs: Inputs
) -> None:
    cards = _cards(site, inputs)
    assert len(cards) > len(inputs.releases)

    def scores_shown(card: Page) -> None:
        assert card.locator("#table-scores").is_visible()  # the answer, not collapsed

    assert too_tall(page, server, cards, scores_shown) == {}


def test_opening_a_part_shows_its_tables_and_draws_its_charts(
    page: Page, server: str, site: Path, inputs: Inputs
) -> None:
    charts = 0
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 800})
        rel = _cards(site, inputs)[0]
        page.goto(f"{server}/{rel}", wait_until="load")
        parts = page.locator("details.lg-detail")
        assert parts.count() >= 5
        for i in range(parts.count()):
            part = parts.nth(i)
            tables = part.locator(".lg-table table")
            assert tables.count() >= 1
            assert not part.evaluate("d => d.open")
            assert not tables.first.is_visible()
            part.locator("summary").click()
            for t in range(tables.count()):
                assert tables.nth(t).is_visible()
            inner = part.evaluate("d => d.getBoundingClientRect().width")
            for chart in part.locator(".lg-chart .js-plotly-plot").all():
                page.wait_for_function(
                    "d => d.querySelector('svg.main-svg') && d.getBoundingClientRect().width > 0",
                    arg=chart.element_handle(),
                    timeout=10_000,
                )
                page.wait_for_timeout(300)  # the resize on opening
                drawn = chart.evaluate(
                    "d => d.querySelector('svg.main-svg').getBoundingClientRect().width"
                )
                assert 0 < drawn <= inner
                charts += 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert charts >= 2


def test_a_link_into_a_collapsed_part_opens_it(
    page: Page, server: str, site: Path, inputs: Inputs
) -> None:
    rel = _cards(site, inputs)[0]
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server}/{rel}#table-configuration", wait_until="load")
    part = page.locator("details#configuration-record")
    assert part.evaluate("d => d.open")
    assert page.locator("#table-configuration table").is_visible()
    page.evaluate("location.hash = 'table-reliability'")
    page.wait_for_function("() => document.getElementById('stability').open", timeout=5_000)
    assert page.locator("#table-reliability table").is_visible()
