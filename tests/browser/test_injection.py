"""Script payloads in every free-text field, in a real browser: none of them runs.

Every payload would call ``__pwn(n)`` (see tests/hostile.py). The page defines ``__pwn`` before
anything else loads, so a payload that ran would be recorded, as would any dialog it opened
(``alert``) or any request it made to another host (a tracking pixel).
"""

from __future__ import annotations

from pathlib import Path

from conftest import HostileSite
from playwright.sync_api import Dialog, Page, expect
from serve import local_only

TRAP = "window.__pwned = []; window.__pwn = (n) => window.__pwned.push(n);"
#: Open every collapsed block, as a reader would (a toggle event fires for each), let the
#: events run, and return what ran.
OPEN_ALL = """async () => {
  document.querySelectorAll("details:not([open])").forEach((d) => { d.open = true; });
  await new Promise((done) => setTimeout(done, 20));
  return window.__pwned;
}"""


def _trap(page: Page, server: str) -> tuple[list[str], list[str]]:
    dialogs: list[str] = []

    def dialog(d: Dialog) -> None:
        dialogs.append(f"{page.url}: {d.message}")
        d.dismiss()

    page.add_init_script(TRAP)
    page.on("dialog", dialog)
    external = local_only(page, server)
    return dialogs, external


def test_no_payload_runs_on_any_page_of_the_three_examples(
    page: Page, hostile_example: tuple[HostileSite, str]
) -> None:
    """Every page of each example, its free text full of payloads (the refused ones too,
    past validation): no payload runs, no dialog opens, nothing loads from another host."""
    built, server = hostile_example
    dialogs, external = _trap(page, server)
    site = built.site
    pages = sorted(  # latest/ holds redirects to the newest version's pages
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if p.relative_to(site).parts[0] != "latest"
    )
    ran: list[str] = []
    for rel in pages:
        page.goto(f"{server}/{rel}", wait_until="load")
        fired = page.evaluate(OPEN_ALL)
        if fired:
            ran.append(f"{rel}: {fired}")
    assert len(pages) > 10  # the minimal example has the fewest: 13
    assert ran == []
    assert dialogs == []
    assert external == []


def test_no_payload_runs_from_search_results(page: Page, hostile_server: str) -> None:
    """Material renders search results as HTML from the index: type a payload's words."""
    dialogs, _ = _trap(page, hostile_server)
    page.goto(f"{hostile_server}/v1.0/index.html")
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially("onerror", delay=30)
    results = page.locator(".md-search-result__item")
    expect(results.first).to_be_visible(timeout=10_000)
    assert results.count() > 3
    for i in range(min(results.count(), 5)):
        results.nth(i).hover()
    assert page.evaluate("window.__pwned") == []
    assert dialogs == []


def test_payloads_read_as_text(page: Page, hostile_server: str, hostile_site: HostileSite) -> None:
    page.goto(f"{hostile_server}/v1.0/cards/lingee-2.3.html")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    body = page.locator("article").inner_text()
    assert "<script>__pwn(" in body or "<img src=x onerror=__pwn(" in body
    assert Path(hostile_site.site / "v1.0" / "cards" / "lingee-2.3.html").is_file()


def test_a_request_to_another_host_is_seen_and_reaches_nothing(
    page: Page, hostile_server: str
) -> None:
    """The watch the tests above rely on: a page's request to another host is listed, and
    fails, as the browser resolves no other host."""
    dialogs, external = _trap(page, hostile_server)
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto(f"{hostile_server}/v1.0/index.html")
    page.evaluate(
        """() => new Promise((done) => {
            const img = new Image();
            img.onerror = img.onload = () => done(null);
            img.src = "http://tracker.example/pixel.png";
        })"""
    )
    assert external == ["http://tracker.example/pixel.png"]
    assert failed == external
    assert dialogs == []
