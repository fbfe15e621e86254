"""Long tables show their first rows and load the rest on demand (page weight at scale)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from serve import serve
from synthetic import make_release

from generator.build import build_site
from generator.check import check_inputs
from generator.load import load_inputs
from generator.pages.task.pages import RUNS_INLINE


@pytest.fixture(scope="module")
def many_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A synthetic release with more runs per task than a page shows inline."""
    root = tmp_path_factory.mktemp("many-runs")
    make_release().write_release(
        root, tasks_general=6, tasks_enterprise=8, combinations=8, runs=5, rules=6, judges=2
    )
    inputs, problems = load_inputs(root)
    assert not [p for p in problems + check_inputs(inputs) if p.severity == "error"]
    out = root.parent / "many-runs-site"
    build_site(inputs, out, strict=False, progress=lambda _: None)
    yield from ((url, out) for url in serve(out))


def test_a_long_runs_table_loads_its_rows_on_demand(
    page: Page, many_runs: tuple[str, Path]
) -> None:
    server, site = many_runs
    task = sorted((site / "v1.0" / "tasks").glob("*.html"))[1]
    rows = re.findall(r'data-rows="([^"]+)"', task.read_text("utf-8"))
    assert [r for r in rows if r.endswith(f"-task-{task.stem}-runs.rows.txt")]
    assert all((task.parent / r).is_file() for r in rows)
    page.goto(f"{server}/v1.0/tasks/{task.name}")
    table = page.locator("#table-runs table")
    assert table.locator("tbody tr").count() == 0, "no per-run rows in the page itself"
    page.locator("details:has(#table-runs) > summary").click()  # the runs are folded
    status = page.locator("#table-runs .lg-more [role=status]")
    total = int(
        re.findall(r"^([\d,]+) rows load on demand", status.inner_text())[0].replace(",", "")
    )
    assert total > RUNS_INLINE
    page.locator("#table-runs .lg-more button").click()
    expect(table.locator("tbody tr")).to_have_count(total)
    expect(status).to_have_text(f"Showing all {total} rows.")
    table.locator("th", has_text="Run").click()  # sorting covers the loaded rows
    assert table.locator("tbody tr").count() == total
