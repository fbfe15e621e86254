"""The transfer view of a small version with an experiment, in a browser: listed under
'Views', its per-task fold closed until clicked and then showing the public targets only,
at most four screens, and readable at 390 px (only a table's own box scrolls sideways)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from experimenttools import HELD_TARGETS, PUBLIC_TARGETS, VIEW, write_root
from playwright.sync_api import Page
from serve import serve, too_tall

from generator.build import build_site
from generator.load import load_inputs

PATH = f"v0.1/views/{VIEW['id']}.html"


@pytest.fixture(scope="module")
def transfer_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = write_root(tmp_path_factory.mktemp("experiment"))
    loaded, problems = load_inputs(root)
    assert not [p for p in problems if p.severity == "error"]
    out = root / "site"
    assert build_site(loaded, out, strict=True, progress=lambda _: None) == []
    yield from serve(out)


def test_the_fold_opens_on_the_public_targets_only(page: Page, transfer_server: str) -> None:
    page.goto(f"{transfer_server}/{PATH}", wait_until="load")
    nav = page.locator("nav.md-nav--primary .md-nav__item--nested", has_text="Views").first
    assert nav.locator(f"a[href$='{Path(PATH).name}']").count() >= 1
    fold = page.locator("details#tasks")
    assert fold.get_attribute("open") is None
    rows = fold.locator("tbody tr")
    assert not rows.first.is_visible()
    fold.locator("summary").click()
    assert rows.first.is_visible()
    text = fold.inner_text()
    assert all(t.upper() in text for t in PUBLIC_TARGETS)
    body = page.locator("article").inner_text()
    assert not [h for h in HELD_TARGETS if h.upper() in body.split()]


def test_the_page_is_short_and_fits_a_phone(page: Page, transfer_server: str) -> None:
    assert too_tall(page, transfer_server, [PATH]) == {}
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{transfer_server}/{PATH}", wait_until="load")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
