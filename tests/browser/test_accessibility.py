"""axe-core on every page type, light and dark; screenshots of the main pages to look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser

PAGE_TYPES = {
    "landing": "index.html",
    "release-home": "v1.0/index.html",
    "domain": "v1.0/enterprise/index.html",
    "domain-group": "v1.0/enterprise/held-out.html",
    "sub-division": "v1.0/enterprise/finance.html",
    "result-card": "v1.0/combinations/lingee.html",
    "efficiency": "v1.0/efficiency.html",
    "deep-dive": "v1.0/deep-dives/finance-fa-20.html",
    "task": "v1.0/tasks/finance-gl-05.html",
    "index": "v1.0/tasks/index.html",
    "contamination": "v1.0/contamination.html",
    "methodology": "v1.0/methodology.html",
    "publishing": "v1.0/publishing.html",
}
SCREENSHOTS = ("release-home", "domain", "result-card", "deep-dive")
#: The page types a declared profile adds or changes (the EnterpriseBench-shaped example):
#: a measured domain, a facet value's scopes, a result card with carried state, the views.
PROFILED_TYPES = {
    "release-home": "v1.0/index.html",
    "measured-domain": "v1.0/beer-game/index.html",
    "facet-value": "v1.0/qa/difficulty-hard.html",
    "carried-state-card": "v1.0/combinations/amem-gpt-4.1.html",
    "board": "v1.0/views/by-backbone.html",
    "grid": "v1.0/views/qa-grid.html",
    "dimensions": "v1.0/views/consulting-dimensions.html",
    "resources": "v1.0/views/qa-resources.html",
    "methodology": "v1.0/methodology.html",
}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation(browser: Browser, server: str, scheme: str) -> None:
    assert not _violations(browser, server, scheme, PAGE_TYPES)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_declared_profile_s_pages_are_accessible(
    browser: Browser, profiled_server: str, scheme: str
) -> None:
    assert not _violations(browser, profiled_server, scheme, PROFILED_TYPES)


def _violations(browser: Browser, server: str, scheme: str, types: dict[str, str]) -> list[str]:
    """axe-core's serious and critical violations on each page, light or dark."""
    context = browser.new_context(color_scheme=scheme)  # type: ignore[arg-type]
    page = context.new_page()
    axe = Axe()
    found = []
    for name, path in types.items():
        page.goto(f"{server}/{path}", wait_until="load")
        for violation in axe.run(page).response["violations"]:
            if violation["impact"] in {"serious", "critical"}:
                targets = [n["target"] for n in violation["nodes"][:3]]
                found.append(f"{name}: {violation['id']} ({violation['impact']}) at {targets}")
    context.close()
    return found


#: The screens the screenshots are taken on: a laptop's first screen, and a phone's.
SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("screen", sorted(SCREENS))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots(
    browser: Browser, server: str, screenshots: Path, scheme: str, screen: str
) -> None:
    context = browser.new_context(
        color_scheme=scheme,  # type: ignore[arg-type]
        viewport=SCREENS[screen],  # type: ignore[arg-type]
    )
    page = context.new_page()
    for name in SCREENSHOTS:
        page.goto(f"{server}/{PAGE_TYPES[name]}", wait_until="load")
        scheme_used = page.locator("body").get_attribute("data-md-color-scheme")
        assert scheme_used == ("slate" if scheme == "dark" else "default")
        # nothing wider than the screen: a wide table scrolls in its own box
        assert page.evaluate("document.documentElement.scrollWidth") <= SCREENS[screen]["width"]
        path = screenshots / f"{name}-{scheme}-{screen}.png"
        page.screenshot(path=str(path), full_page=False)
        assert path.stat().st_size > 10_000
    context.close()
