"""The release home in a real browser: every domain's leaderboard, with its intervals and rank
ranges, in the first screen at 1280 × 800 (light and dark); readable at 390 px, its charts
whole; the landing page leading to the latest release."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from generator.load import Inputs

DRAWN = """() => [...document.querySelectorAll('.lg-dots div.plotly-graph-div')]
    .every(d => d.querySelector('svg.main-svg'))"""
RANK = re.compile(r"^\d+(–\d+)?$")
INTERVAL = re.compile(r"^\d\.\d+\u00a0\[\d\.\d+,\u00a0\d\.\d+\]")


def _domains(inputs: Inputs) -> dict[str, list[str]]:
    """Each version's folder and its domains' titles, from the inputs."""
    out = {}
    for r in inputs.releases:
        assert r.release is not None
        out[r.folder] = [d.title for d in r.release.model.domains]
    return out


def _open(page: Page, url: str) -> None:
    page.goto(url, wait_until="load")
    page.wait_for_function(DRAWN, timeout=15_000)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_leaderboard_is_in_the_first_screen(
    browser: Browser, server: str, inputs: Inputs, screenshots: Path, scheme: str
) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        color_scheme=scheme,  # type: ignore[arg-type]
    )
    page = context.new_page()
    domains = _domains(inputs)
    assert list(domains) == ["v1.0", "v1.1"]
    for version, titles in domains.items():
        _open(page, f"{server}/{version}/index.html")
        sections = page.locator(".lg-domain")
        assert [sections.nth(i).locator("h2").inner_text() for i in range(len(titles))] == titles
        assert sections.count() == len(titles)
        for i in range(len(titles)):
            table = sections.nth(i).locator("table")
            box = table.bounding_box()
            assert box is not None
            assert box["y"] + box["height"] <= 800, f"{version}: {titles[i]} below the screen"
            rows = table.locator("tbody tr")
            assert rows.count() >= 1
            for r in range(rows.count()):
                cells = rows.nth(r).locator("td")
                assert RANK.match(cells.nth(0).inner_text().strip())
                assert INTERVAL.match(cells.nth(2).inner_text().strip())
        page.screenshot(path=str(screenshots / f"release-home-{version}-{scheme}-1280.png"))
    context.close()


def test_the_chart_follows_the_dark_scheme(browser: Browser, server: str, inputs: Inputs) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    version = next(iter(_domains(inputs)))
    _open(page, f"{server}/{version}/index.html")
    colours = page.evaluate(
        """() => {
        const text = document.querySelector('.lg-dots .annotation-text');
        const paper = document.querySelector('.lg-dots svg.main-svg');
        return [getComputedStyle(text).fill, getComputedStyle(document.body).color,
                getComputedStyle(paper).backgroundColor];
    }"""
    )
    text, body, paper = colours
    assert text == body, "chart labels take the page's text colour"
    assert paper in ("rgba(0, 0, 0, 0)", "transparent"), "no white box on the dark page"
    context.close()


def test_the_home_is_readable_on_a_phone(
    browser: Browser, server: str, inputs: Inputs, screenshots: Path
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    versions = list(_domains(inputs))
    assert versions == ["v1.0", "v1.1"]
    for version in versions:
        _open(page, f"{server}/{version}/index.html")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        clipped = page.evaluate(
            """() => [...document.querySelectorAll('.lg-dots')].filter(f => {
                const svg = f.querySelector('svg.main-svg').getBoundingClientRect();
                const box = f.getBoundingClientRect();
                return svg.width > box.width + 1 || svg.right > window.innerWidth;
            }).length"""
        )
        assert clipped == 0, "a chart wider than its screen"
        sideways = page.evaluate(
            """() => [...document.querySelectorAll('.lg-domain .lg-table')]
                .filter(t => t.scrollWidth > t.clientWidth + 1).length"""
        )
        assert sideways == 0, "a leaderboard that scrolls sideways on a phone"
        page.screenshot(path=str(screenshots / f"release-home-{version}-phone.png"))
    context.close()


def test_the_landing_page_leads_to_the_latest_release(
    page: Page, server: str, site: Path, screenshots: Path
) -> None:
    entries = json.loads((site / "versions.json").read_text(encoding="utf-8"))
    latest = next(e["version"] for e in entries if "latest" in e["aliases"])
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server}/index.html")
    lead = page.locator("a.latest")
    assert lead.count() == 1
    assert lead.get_attribute("href") == f"{latest}/index.html"
    box = lead.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= 800
    listed = page.locator("main li a")
    assert [listed.nth(i).get_attribute("href") for i in range(listed.count())] == [
        f"{e['version']}/index.html" for e in entries
    ]
    page.screenshot(path=str(screenshots / "landing-light.png"))
    lead.click()
    page.wait_for_load_state("load")
    assert page.url.endswith(f"/{latest}/index.html")
    assert page.locator(".lg-domain table").count() >= 1
