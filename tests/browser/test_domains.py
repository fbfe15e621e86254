"""Domain pages as a reader sees them at 1280 px: the first click on a score sorts best
first, a withheld number links to where it can be read (each page's height: test_pages.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def _column_values(page: Page, header: str) -> list[float]:
    table = page.locator("table.lg-sortable").first
    headers = [h.inner_text() for h in table.locator("th").all()]
    column = next(i for i, h in enumerate(headers) if h.startswith(header))
    cells = table.locator(f"tbody tr td:nth-child({column + 1})").all()
    return [float(v) for c in cells if (v := c.get_attribute("data-sort"))]


def test_the_first_click_on_a_score_sorts_best_first(page: Page, server: str) -> None:
    page.goto(f"{server}/v1.0/general/index.html")
    table = page.locator("table.lg-sortable").first
    header = table.locator("th", has_text="Task Score")
    expect(header).to_have_attribute("data-sort-first", "desc")
    header.click()
    expect(header).to_have_attribute("aria-sort", "descending")
    values = _column_values(page, "Task Score")
    assert len(values) >= 3
    assert values == sorted(values, reverse=True)


def test_the_first_click_on_a_cost_sorts_cheapest_first(page: Page, server: str) -> None:
    page.goto(f"{server}/v1.0/general/all.html")
    table = page.locator("table.lg-sortable").first
    header = table.locator("th", has_text="Duration")
    expect(header).to_have_attribute("data-sort-first", "asc")
    header.click()
    expect(header).to_have_attribute("aria-sort", "ascending")
    values = _column_values(page, "Duration")
    assert values == sorted(values)


def test_a_withheld_judge_score_links_to_where_it_is_shown(page: Page, server: str) -> None:
    page.goto(f"{server}/v1.1/enterprise/index.html")
    link = page.locator("table.lg-sortable a.lg-elsewhere").first
    expect(link).to_be_visible()
    box = link.bounding_box()
    assert box is not None
    assert box["height"] < 30  # one line
    link.click()
    page.wait_for_url("**/v1.1/enterprise/public.html#table-*")
    anchor = page.url.split("#", 1)[1]
    target = page.locator(f"#{anchor} table")
    expect(target).to_be_visible()
    headers = [h.inner_text() for h in target.locator("th").all()]
    judge = headers.index("Judge score")
    cells = target.locator(f"tbody tr td:nth-child({judge + 1})").all()
    assert cells
    assert all(c.get_attribute("data-sort") for c in cells)  # a number in every row


LINES = """(cell) => { const r = document.createRange(); r.selectNodeContents(cell);
    return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; }"""


def test_an_interval_stays_on_one_line(page: Page, server: str) -> None:
    page.goto(f"{server}/v1.0/general/index.html")
    table = page.locator("table.lg-sortable").first
    headers = [h.inner_text() for h in table.locator("th").all()]
    column = next(i for i, h in enumerate(headers) if h.startswith("Task Score"))
    cells = table.locator(f"tbody tr td:nth-child({column + 1})").all()
    assert cells
    for cell in cells:
        assert "[" in cell.inner_text()
        assert cell.evaluate(LINES) == 1, cell.inner_text()
