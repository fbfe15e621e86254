"""What a reader meets on a phone, in the search, in the sidebar, on the landing page and in a
saved download."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

PHONE = {"width": 390, "height": 844}

#: Box edges of an element, as the browser lays it out.
BOX = "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def _overflowing(page: Page) -> int:
    """The index of the first table wider than its box on the page."""
    found: int = page.evaluate(
        """() => [...document.querySelectorAll('.lg-table')].findIndex(b => {
            const s = b.querySelector('.lg-scroll'); return s.scrollWidth > s.clientWidth + 1; })"""
    )
    assert found >= 0, "the page has a table wider than a phone"
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_wide_table_on_a_phone_keeps_its_first_column_and_says_it_scrolls(
    page: Page, server: str, scheme: str, screenshots: Path
) -> None:
    page.set_viewport_size(PHONE)
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.goto(f"{server}/v1.1/enterprise/index.html")
    block = page.locator(".lg-table").nth(_overflowing(page))
    box = block.locator(".lg-scroll")
    block.scroll_into_view_if_needed()
    expect(block).to_have_class(re.compile(r"\blg-overflow\b"))
    hint = block.locator(".lg-hint")
    expect(hint).to_be_visible()
    assert "scroll" in hint.inner_text()
    cells = block.locator("tbody tr").first.locator("td")
    first, name, third = cells.first, cells.nth(1), cells.nth(2)
    # The domain's table ranks first: the rank and what it ranks both stay in view.
    assert block.locator("th").first.inner_text() == "Rank"
    caption = block.locator(".lg-caption")
    before, third_before = first.evaluate(BOX), third.evaluate(BOX)
    page.screenshot(path=screenshots / f"phone-table-{scheme}.png")
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; b.dispatchEvent(new Event('scroll')); }")
    after, third_after, name_after = first.evaluate(BOX), third.evaluate(BOX), name.evaluate(BOX)
    assert third_after[0] < third_before[0], "the other columns scrolled"
    assert (after[1], after[3]) == (before[1], before[3]), "the table does not move"
    edge = box.evaluate(BOX)[0]
    assert edge <= after[0] <= edge + 1, "the first column stays at the box's left edge"
    assert abs(name_after[0] - after[2]) <= 1, "the name stays beside the rank"
    expect(hint).to_be_hidden()  # scrolled to the end: nothing more to the right
    # The first column hides what scrolls beneath it: it has the page's own background.
    colours = first.evaluate(
        """e => [getComputedStyle(e).backgroundColor,
                 getComputedStyle(document.querySelector('.md-main')).backgroundColor,
                 getComputedStyle(document.body).backgroundColor]"""
    )
    assert colours[0] not in ("rgba(0, 0, 0, 0)", "transparent"), colours
    # The caption's text lies inside the screen, scrolled or not.
    left, _, right, _ = caption.evaluate(BOX)
    assert left >= 0
    assert right <= PHONE["width"]
    page.screenshot(path=screenshots / f"phone-table-scrolled-{scheme}.png")


def test_a_table_that_fits_shows_no_scroll_cue(page: Page, server: str) -> None:
    page.goto(f"{server}/v1.1/index.html")
    fits = page.evaluate(
        """() => [...document.querySelectorAll('.lg-table')].filter(b => {
            const s = b.querySelector('.lg-scroll'); return s.scrollWidth <= s.clientWidth; })
            .map(b => [b.classList.contains('lg-overflow'), !!b.querySelector('.lg-hint')])"""
    )
    assert fits, "the release home has a table that fits at 1280 px"
    assert all(flags == [False, False] for flags in fits), fits


def test_the_header_title_wraps_on_a_phone_instead_of_being_cut(page: Page, server: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{server}/v1.1/enterprise/index.html")
    title = page.locator(".md-header__topic .md-ellipsis").first
    cut = title.evaluate("e => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight")
    assert not cut
    _, top, right, bottom = title.evaluate(BOX)
    header = page.locator(".md-header").evaluate(BOX)
    assert header[1] <= top
    assert bottom <= header[3]
    assert right <= PHONE["width"]


def _search(page: Page, server: str, query: str) -> list[tuple[str, str]]:
    """(link, title) of each result, best first."""
    page.goto(f"{server}/v1.1/index.html")
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially(query, delay=30)
    results = page.locator(".md-search-result__item > .md-search-result__link")
    expect(results.first).to_be_visible(timeout=10_000)
    page.wait_for_timeout(300)  # the last keystroke's results
    heading = "h1, h2"  # a page's result, or a section's
    return [
        (str(r.get_attribute("href")), r.locator(heading).first.inner_text()) for r in results.all()
    ]


def test_a_task_id_finds_its_task_page_first_and_the_deep_dive_is_told_apart(
    page: Page, server: str, site: Path
) -> None:
    dives = sorted(p.stem for p in (site / "v1.1" / "deep-dives").glob("*.html"))
    tasks = {p.stem for p in (site / "v1.1" / "tasks").glob("*.html")}
    both = [t for t in dives if t in tasks and t != "index"]
    assert both, "a deep dive of a public task"
    task = both[0]
    results = _search(page, server, task)
    link, title = results[0]
    assert link.endswith(f"/v1.1/tasks/{task}.html"), results[:3]
    assert title.endswith(f"— task {task}")
    titles = dict(results)
    dive = next(t for href, t in titles.items() if href.endswith(f"/deep-dives/{task}.html"))
    assert dive.endswith(f"— deep dive {task}")
    assert dive != title


def test_diff_pages_do_not_crowd_a_search_for_a_combination(page: Page, server: str) -> None:
    results = _search(page, server, "opencode")
    assert results
    assert not [link for link, _ in results if "/diffs/" in link and "index" not in link]
    assert "/combinations/" in results[0][0] or "/cards/" in results[0][0], results[:3]


def test_the_landing_page_asks_for_nothing_missing(page: Page, server: str) -> None:
    failed: list[str] = []
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page.goto(f"{server}/index.html", wait_until="load")
    page.wait_for_timeout(500)  # a browser asks for the icon after the load
    assert page.locator("link[rel=icon]").count() == 1
    assert not failed, failed
    assert not [u for u in requested if u.endswith("favicon.ico")]


def test_the_sidebar_title_never_lies_over_a_section_heading(page: Page, server: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server}/v1.1/tasks/index.html")
    sidebar = page.locator(".md-sidebar--primary .md-sidebar__scrollwrap")
    title = page.locator(".md-sidebar--primary .md-nav--primary > .md-nav__title")
    headings = page.locator(".md-sidebar--primary .md-nav__item--section > .md-nav__link")
    assert headings.count() >= 3
    height = sidebar.evaluate("e => e.scrollHeight - e.clientHeight")
    assert height > 0, "the navigation is taller than the window"
    compared = 0
    for top in range(0, height + 40, 40):
        sidebar.evaluate(f"e => {{ e.scrollTop = {top}; }}")
        t = title.evaluate(BOX)
        for box in headings.evaluate_all(f"es => es.map({BOX})"):
            overlap = min(t[3], box[3]) - max(t[1], box[1])
            assert overlap <= 0, (top, t, box)
            compared += 1
    assert compared >= headings.count()


def test_a_download_names_its_version_and_domain_and_keeps_its_signs(
    page: Page, server: str
) -> None:
    page.goto(f"{server}/v1.1/enterprise/index.html")
    link = page.locator(".lg-downloads a", has_text="CSV").first
    href = str(link.get_attribute("href"))
    assert href.startswith("lg-bench-v1.1-enterprise-")
    body = page.request.get(f"{server}/v1.1/enterprise/{href}").body()
    assert body.startswith(b"\xef\xbb\xbf")  # Excel reads the file as UTF-8
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows
    assert {(r["version"], r["domain"]) for r in rows} == {("v1.1", "enterprise")}
    notes = [r["judge_note"] for r in rows if r.get("judge_note")]
    shown = page.locator(".lg-note").first.inner_text()
    assert notes, "a withheld Judge score gives its reason"
    assert all(n in shown and "§" in n for n in notes)
    assert all(r["judge_tasks"] == "" or r["judge_tasks"].isdigit() for r in rows)
