"""Charts in a real browser: hover boxes show the text the generator wrote, the colours follow
Material's scheme when the reader switches it, no toolbar, nothing cut at 390 px, and a
combination on another tokenizer gets a chart of its own while the others' frontier is drawn."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from edit import replace
from playwright.sync_api import Browser, Page
from serve import serve

from generator.build import build_site
from generator.load import Inputs, load_inputs

EFFICIENCY = "v1.0/efficiency.html"
DRAWN = """() => [...document.querySelectorAll('.lg-chart .plotly-graph-div')]
    .every(d => d.querySelector('svg.main-svg'))"""


def _open(page: Page, url: str) -> None:
    """A page with every chart shown: the efficiency page keeps each domain's charts in a
    closed <details>, opened here as a reader's click would."""
    page.goto(url, wait_until="load")
    for summary in page.locator("details.lg-efficiency > summary").all():
        summary.click()
    page.wait_for_function(DRAWN, timeout=15_000)
    page.wait_for_timeout(300)  # lg-charts.js: colours and height after the first drawing


def _text(html: str) -> str:
    """What a hover box reads: the generator's text with its tags as line breaks."""
    return re.sub(r"<br>", "", re.sub(r"</?b>", "", html)).replace("&amp;", "&")


def test_hover_shows_the_text_written_for_the_point(
    page: Page, server: str, inputs: Inputs
) -> None:
    titles = {
        b.bundle.model.combination.title for r in inputs.releases for b in r.bundles if b.bundle
    }
    _open(page, f"{server}/{EFFICIENCY}")
    figure = page.locator("figure.lg-chart").first
    figure.scroll_into_view_if_needed()
    point = figure.locator(".scatterlayer .trace").first.locator("path.point").first
    box = point.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    hover = figure.locator(".hoverlayer .hovertext")
    hover.wait_for(timeout=5_000)
    shown = hover.text_content() or ""
    written = figure.evaluate(
        "f => f.querySelector('.js-plotly-plot').data.find(t => t.text).text[0]"
    )
    assert shown == _text(written)
    assert any(shown.startswith(t.replace(" × ", " ×")) for t in titles)  # full name first
    assert "Task Score " in shown
    assert not re.search(r"\d\.\d{4,}|\d+\.\d+k\b", shown)  # no raw plotly number


def test_charts_follow_the_scheme_the_reader_picks(browser: Browser, server: str) -> None:
    context = browser.new_context(color_scheme="light")
    page = context.new_page()
    _open(page, f"{server}/{EFFICIENCY}")

    def colours() -> list[tuple[str, str]]:
        return [
            tuple(pair)
            for pair in page.evaluate(
                """() => [...document.querySelectorAll('.lg-chart .js-plotly-plot')].map(d => [
                getComputedStyle(d.querySelector('svg.main-svg')).backgroundColor,
                getComputedStyle(d.querySelector('.xtick text')).fill])"""
            )
        ]

    def background() -> str:
        """Material's background colour of the scheme shown."""
        return str(
            page.evaluate(
                """() => { const probe = document.createElement('div');
                  probe.style.background = 'var(--md-default-bg-color)';
                  document.body.appendChild(probe);
                  const colour = getComputedStyle(probe).backgroundColor;
                  probe.remove(); return colour; }"""
            )
        )

    light = colours()
    assert {bg for bg, _ in light} == {background()}
    page.locator("label[for='__palette_1']").click()
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    page.wait_for_timeout(500)
    dark = colours()
    assert {bg for bg, _ in dark} == {background()}
    assert dark[0][0] != light[0][0]  # the chart left its white box
    assert dark[0][1] != light[0][1]  # and its text turned light
    context.close()


def test_no_toolbar(page: Page, server: str) -> None:
    _open(page, f"{server}/{EFFICIENCY}")
    assert page.locator(".lg-chart").count() >= 8
    page.locator(".lg-chart .js-plotly-plot").first.hover()
    assert page.locator(".lg-chart .modebar-btn").count() == 0


def _inside(page: Page) -> list[dict[str, Any]]:
    """Per chart: whether its plot area, axis titles and legend lie within the viewport's
    width and within the chart's own box."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.lg-chart .js-plotly-plot')].map(d => {
            const box = d.getBoundingClientRect(), width = document.documentElement.clientWidth;
            const parts = ['.nsewdrag', '.xtitle', '.ytitle', 'g.legend']
              .map(s => d.querySelector(s).getBoundingClientRect());
            return {id: d.id, ok: parts.every(r => r.left >= 0 && r.right <= width + 0.5
                     && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5),
                    plot: parts[0].width};
        })"""
    )


def test_nothing_is_cut_at_390_px(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    for path in (EFFICIENCY, "v1.1/efficiency.html", "v1.0/combinations/lingee.html"):
        _open(page, f"{server}/{path}")
        for summary in page.locator("details.lg-detail:has(.lg-chart) > summary").all():
            summary.click()  # a result card's charts are in a collapsed part
            page.wait_for_timeout(500)
        charts = _inside(page)
        assert charts
        assert [c["id"] for c in charts if not c["ok"]] == []
        assert min(c["plot"] for c in charts) > 200  # the legend below leaves the plot its width
    page.set_viewport_size({"width": 1280, "height": 844})
    _open(page, f"{server}/{EFFICIENCY}")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone turned, a window narrowed
    page.wait_for_timeout(1000)
    assert [c["id"] for c in _inside(page) if not c["ok"]] == []
    context.close()


@pytest.fixture(scope="module")
def retokenized_server(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Iterator[str]:
    """The example with the Lingee bundle of v1.0 on another tokenizer, built and served."""
    root = tmp_path_factory.mktemp("retokenized")
    shutil.copytree(repo_root / "results", root / "results", ignore=shutil.ignore_patterns("*.py"))
    shutil.copytree(repo_root / "harnesscards", root / "harnesscards")
    replace(
        root / "results/v1.0/bundles/lingee/bundle.yaml", "tokenizer: glm-5", "tokenizer: other"
    )
    loaded, _ = load_inputs(root)
    build_site(loaded, root / "site", strict=False, progress=lambda _: None)
    yield from serve(root / "site")


def test_another_tokenizer_has_its_own_chart_and_the_frontier_is_drawn(
    page: Page, retokenized_server: str
) -> None:
    _open(page, f"{retokenized_server}/{EFFICIENCY}")
    charts = page.evaluate(
        """() => [...document.querySelectorAll('.lg-chart .js-plotly-plot')].map(d => ({
            id: d.id,
            legend: [...d.querySelectorAll('g.legend .legendtext')].map(t => t.textContent),
            frontier: [...d.querySelectorAll('.scatterlayer .trace')]
              .filter((_, i) => d.data[i].name.startsWith('Pareto frontier'))
              .map(t => ({rings: t.querySelectorAll('path.point').length,
                          line: (t.querySelector('path.js-line') || {getAttribute: () => ''})
                                  .getAttribute('d') || ''}))}))"""
    )
    tokens = {c["id"]: c for c in charts if "-score-total_tokens-" in c["id"]}
    alone = [c for i, c in tokens.items() if i.endswith("-other")]
    assert alone
    for c in alone:
        assert [t for t in c["legend"] if "Lingee" in t] == c["legend"]  # Lingee alone
        assert c["frontier"] == []  # one point: no frontier
    assert len(charts) > len(tokens)  # the duration and turns charts too
    for c in charts:
        assert len(c["legend"]) == len(set(c["legend"]))  # no entry twice
    lines = [f for c in tokens.values() for f in c["frontier"]]
    assert lines
    for f in lines:  # drawn: a ring round each point on it, a line where it joins two
        assert f["rings"] >= 1
        assert (f["rings"] == 1) or "L" in f["line"]
