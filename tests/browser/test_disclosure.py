"""What a customer checks: a difference page reads in field labels (light, dark, phone), and
a downloaded configuration record gives the fingerprint the result card shows."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from generator.disclosure.diff import field_label

PAIR = "v1.0/diffs/lingee--opencode"


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (1280, "dark"), (390, "light")])
def test_a_difference_page_names_fields_by_their_labels(
    page: Page, server: str, width: int, scheme: str
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.goto(f"{server}/{PAIR}.html")
    download = page.locator(".lg-downloads a", has_text="JSON").first.get_attribute("href")
    folder = PAIR.rsplit("/", 1)[0]
    rows = json.loads(page.request.get(f"{server}/{folder}/{download}").body())["rows"]
    table = page.locator("table.lg-sortable").first
    first = table.locator("tbody tr td:first-child")
    expect(first).to_have_count(len(rows))
    shown = [c.inner_text().strip() for c in first.all()]
    assert shown == [field_label(r["field"]) for r in rows]
    assert not [s for s in shown if s.startswith(("card.", "configuration.", "combination."))]
    # every label can be read whole: its cell lies inside the page or its scrolling table
    cell = first.first
    assert cell.evaluate("c => c.scrollWidth <= c.clientWidth + 1")
    identical = page.locator("details.lg-identical")
    identical.locator("summary").click()
    items = identical.locator("li").all_inner_texts()
    assert items
    assert not [i for i in items if i.startswith(("card.", "configuration.", "combination."))]


def test_a_downloaded_configuration_record_gives_the_card_s_fingerprint(
    page: Page, server: str, site: Path
) -> None:
    page.goto(f"{server}/v1.0/combinations/lingee.html")
    link = page.locator('a[href$=".configuration-record.json"]').first
    href = link.get_attribute("href")
    assert href is not None
    record = json.loads(page.request.get(f"{server}/v1.0/combinations/{href}").body())
    text = json.dumps(
        record["fingerprinted"], sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    recomputed = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    assert recomputed == record["fingerprint"]
    expect(page.locator("article")).to_contain_text(recomputed)
