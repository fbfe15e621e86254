"""The detail one click away (the efficiency charts of each domain, a HarnessCard's layers,
the measured coverage of the intervals, the release's components and factors): it opens with
a click, and a chart inside a closed <details> draws at its column's full width once the
reader opens it. That every page is at most four screens tall is checked where every page is
visited (test_pages.py)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

WIDTHS = """box => [...box.querySelectorAll('.lg-chart .js-plotly-plot')].map(d => ({
    id: d.id,
    plot: d.querySelector('svg.main-svg').getBoundingClientRect().width,
    column: d.parentElement.getBoundingClientRect().width}))"""


def test_charts_in_a_closed_details_draw_at_full_width_when_opened(
    page: Page, server: str, site: Path
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    paths = sorted(str(p.relative_to(site)) for p in site.glob("v*/efficiency.html"))
    assert paths == ["v1.0/efficiency.html", "v1.1/efficiency.html"]
    for path in paths:
        page.goto(f"{server}/{path}", wait_until="load")
        boxes = page.locator("details.lg-efficiency")
        assert boxes.count() >= 1
        for i in range(boxes.count()):
            box = boxes.nth(i)
            assert box.evaluate("b => b.open") is False  # closed until asked
            box.locator("summary").click()
            page.wait_for_timeout(500)  # lg-charts.js: resize, then fit the legend
            charts = box.evaluate(WIDTHS)
            assert charts
            for c in charts:
                assert c["plot"] > 0, c
                assert abs(c["plot"] - c["column"]) <= 1, c


def test_a_harnesscard_s_layers_open_with_a_click(page: Page, server: str, site: Path) -> None:
    paths = sorted(str(p.relative_to(site)) for p in site.glob("v*/cards/*.html"))
    assert len(paths) == 6  # three cards in each of v1.0 and v1.1
    for path in paths:
        page.goto(f"{server}/{path}", wait_until="load")
        layers = page.locator("details.lg-layer")
        assert layers.count() >= 1
        first = layers.first
        table = first.locator("table")
        assert not table.is_visible()
        first.locator("summary").click()
        assert table.is_visible()
