"""The scatter and effect views in a browser, on a copy of the EnterpriseBench-shaped example
that declares them: the scatter's chart is drawn from the site alone (nothing fetched from
another host), its horizontal axis logarithmic where declared, its frontier drawn, nothing cut
at 390 px; the effect's empty places read "not evaluated" and its pairs open on a click."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page
from serve import local_only, serve, too_tall

from generator.build import build_site
from generator.load import load_inputs
from generator.pages.views.parts import NOT_EVALUATED

#: The views added to the copy's release, at the end of its profile's views.
VIEWS = """
- kind: scatter
  id: calls-score
  title: Model calls against Task Score
  domain: qa
  x: model_calls
  log_x: true
- kind: scatter
  id: tokens-score
  title: Tokens against the consulting score
  domain: consulting
  x: total_tokens
- kind: effect
  id: method-effect
  title: Method effect
  domain: consulting
  within: backbone
  across: method
"""
PAGES = ("calls-score", "tokens-score", "method-effect")
DRAWN = """() => [...document.querySelectorAll('.lg-chart .plotly-graph-div')]
    .every(d => d.querySelector('svg.main-svg'))"""


@pytest.fixture(scope="module")
def charted_site(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    """The example with a scatter (log axis), a scatter of tokens and an effect, built."""
    root = tmp_path_factory.mktemp("charted")
    shutil.copytree(repo_root / "examples" / "enterprisebench", root / "example")
    release = root / "example" / "results" / "v1.0" / "release.yaml"
    data = yaml.safe_load(release.read_text(encoding="utf-8"))
    data["profile"]["views"] += yaml.safe_load(VIEWS)
    release.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    loaded, problems = load_inputs(root / "example")
    assert not [p for p in problems if p.severity == "error"]
    out = root / "site"
    assert build_site(loaded, out, strict=True, progress=lambda _: None) == []
    return out


@pytest.fixture(scope="module")
def charted(charted_site: Path) -> Iterator[str]:
    yield from serve(charted_site)


def _open(page: Page, url: str) -> None:
    page.goto(url, wait_until="load")
    page.wait_for_function(DRAWN, timeout=15_000)
    page.wait_for_timeout(300)


def _axes(page: Page) -> list[dict[str, Any]]:
    """Per chart: its horizontal axis's type, its traces' names and its points drawn."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.lg-chart .js-plotly-plot')].map(d => ({
            type: d._fullLayout.xaxis.type,
            names: d.data.map(t => t.name),
            points: d.querySelectorAll('.scatterlayer path.point').length,
            ticks: d.querySelectorAll('.xtick').length}))"""
    )


def test_the_scatter_is_drawn_offline_on_a_log_axis(page: Page, charted: str) -> None:
    foreign = local_only(page, charted)
    _open(page, f"{charted}/v1.0/views/calls-score.html")
    (chart,) = _axes(page)
    assert chart["type"] == "log"
    assert chart["points"] > 1
    assert chart["ticks"] > 1
    assert any(n.startswith("Pareto frontier") for n in chart["names"])
    _open(page, f"{charted}/v1.0/views/tokens-score.html")
    charts = _axes(page)
    assert len(charts) > 1  # a chart per tokenizer
    assert {c["type"] for c in charts} == {"linear"}
    assert foreign == []


def test_the_data_of_the_chart_is_a_click_away(page: Page, charted: str) -> None:
    _open(page, f"{charted}/v1.0/views/calls-score.html")
    box = page.locator("details.lg-view-data")
    if box.count():  # a long table is folded under the chart
        assert not box.first.locator("table").is_visible()
        box.first.locator("summary").click()
    assert page.locator("table").first.is_visible()
    assert "Pareto frontier" in (page.locator("article").text_content() or "")


def test_the_effect_says_not_evaluated_and_opens_its_pairs(page: Page, charted: str) -> None:
    page.goto(f"{charted}/v1.0/views/method-effect.html", wait_until="load")
    cells = page.locator("table td", has_text=NOT_EVALUATED)
    assert cells.count() > 0
    pairs = page.locator("details.lg-view-data")
    assert pairs.count() > 0
    first = pairs.first
    assert not first.locator("table").is_visible()
    first.locator("summary").click()
    assert first.locator("table").is_visible()


def test_the_pages_fit_a_phone_and_four_screens(browser: Browser, page: Page, charted: str) -> None:
    paths = [f"v1.0/views/{p}.html" for p in PAGES]
    assert too_tall(page, charted, paths) == {}
    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = context.new_page()
    for path in paths:
        phone.goto(f"{charted}/{path}", wait_until="load")
        phone.wait_for_function(DRAWN, timeout=15_000)
        phone.wait_for_timeout(500)  # lg-charts.js: the height after the first drawing
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390, path
        cut = phone.evaluate(
            """() => [...document.querySelectorAll('.lg-chart .js-plotly-plot')].filter(d => {
                const box = d.getBoundingClientRect(), width = document.documentElement.clientWidth;
                return ['.nsewdrag', '.xtitle', '.ytitle', 'g.legend']
                  .map(s => d.querySelector(s).getBoundingClientRect())
                  .some(r => r.left < 0 || r.right > width + 0.5
                        || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5);
            }).map(d => d.id)"""
        )
        assert cut == [], path
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation(browser: Browser, charted: str, scheme: str) -> None:
    context = browser.new_context(color_scheme=scheme)  # type: ignore[arg-type]
    page = context.new_page()
    found = []
    for name in PAGES:
        page.goto(f"{charted}/v1.0/views/{name}.html", wait_until="load")
        for violation in Axe().run(page).response["violations"]:
            if violation["impact"] in {"serious", "critical"}:
                found.append(f"{name}: {violation['id']} at {violation['nodes'][0]['target']}")
    context.close()
    assert found == []
