"""The agreement view in a browser, on a copy of the EnterpriseBench-shaped example whose
bundles carry second raters: a row per rater whose figures are those of the table's JSON
download, the page no wider than a phone and without a serious accessibility violation,
light or dark, and its lead saying how the figures are formed."""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page
from serve import serve

from generator.build import build_site
from generator.load import load_inputs

ROOT = Path(__file__).resolve().parents[2] / "examples" / "enterprisebench"
RATERS = {"humans": ("Human experts", "human", -1), "judge2": ("Second judge", "judge", 0)}


def _rate(root: Path) -> None:
    """Two raters on the Judge items of two bundles' runs (levels moved at random), and an
    agreement view of the judged domain."""
    version = root / "results" / "v1.0"
    tasks = yaml.safe_load((version / "tasks.yaml").read_text(encoding="utf-8"))["tasks"]
    tops = {
        t["id"]: {j["id"]: j["max_level"] for j in t["scoring"].get("judge_items", [])}
        for t in tasks
    }
    domain = next(t["domain"] for t in tasks if tops[t["id"]])
    rng = random.Random(1)
    for folder in sorted((version / "bundles").iterdir())[:2]:
        records = (folder / "runs.jsonl").read_text(encoding="utf-8").splitlines()[1:]
        listed = []
        for rid, (title, kind, bias) in RATERS.items():
            lines = ['{"format_version": 1}']
            for line in records:
                record: dict[str, Any] = json.loads(line)
                if not record.get("judge"):
                    continue
                top = tops[record["task"]]
                levels = [
                    {
                        "id": v["id"],
                        "level": max(
                            0, min(top[v["id"]], round(v["level"]) + bias + rng.randint(-1, 1))
                        ),
                    }
                    for v in record["judge"]
                ]
                lines.append(
                    json.dumps({"task": record["task"], "run": record["run"], "judge": levels})
                )
            (folder / f"{rid}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
            listed.append({"id": rid, "title": title, "kind": kind, "verdicts": f"{rid}.jsonl"})
        with (folder / "bundle.yaml").open("a", encoding="utf-8") as out:
            out.write(yaml.safe_dump({"raters": listed}, sort_keys=False))
    release = version / "release.yaml"
    data = yaml.safe_load(release.read_text(encoding="utf-8"))
    view = {"kind": "agreement", "id": "agreement", "title": "Rater agreement", "domain": domain}
    data["profile"]["views"].append(view)
    release.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


@pytest.fixture(scope="module")
def rated_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rated") / "root"
    shutil.copytree(ROOT, root)
    _rate(root)
    loaded, problems = load_inputs(root)
    assert not [p for p in problems if p.severity == "error"]
    out = root.parent / "site"
    assert build_site(loaded, out, strict=True, progress=lambda _: None) == []
    return out


@pytest.fixture(scope="module")
def rated_server(rated_site: Path) -> Iterator[str]:
    yield from serve(rated_site)


def _records(site: Path) -> list[dict[str, Any]]:
    (download,) = site.glob("v1.0/views/*-views-agreement-*.json")
    data = json.loads(download.read_text(encoding="utf-8"))
    rows: list[dict[str, Any]] = data["rows"]
    return rows


def test_each_row_shows_the_figures_its_download_holds(
    page: Page, rated_server: str, rated_site: Path
) -> None:
    records = _records(rated_site)
    assert sorted(r["rater"] for r in records) == sorted(RATERS)
    page.goto(f"{rated_server}/v1.0/views/agreement.html", wait_until="load")
    rows = page.locator("table tbody tr")
    assert rows.count() == len(records)
    for i, record in enumerate(records):
        cells = [c.inner_text() for c in rows.nth(i).locator("td").all()]
        assert cells[0] == RATERS[record["rater"]][0]
        for cell, name in zip(cells[2:5], ("spearman", "mae", "difference"), strict=True):
            value = float(cell.split("\u00a0")[0].split(" ")[0])
            decimals = len(cell.split("\u00a0")[0].split(".")[1])
            assert value == pytest.approx(record[name], abs=0.51 * 10**-decimals)
            assert "[" in cell  # every figure with its interval
        assert cells[5:] == [str(record["runs"]), str(record["tasks"])]
    lead = page.locator("article p").filter(has_text="Spearman").first.inner_text()
    assert "resample the rated tasks" in lead


def test_the_page_fits_a_phone(page: Page, rated_server: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{rated_server}/v1.0/views/agreement.html", wait_until="load")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_accessibility_violation(
    browser: Browser, rated_server: str, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{rated_server}/v1.0/views/agreement.html", wait_until="load")
    found = [
        f"{v['id']} ({v['impact']})"
        for v in Axe().run(page).response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]
    context.close()
    assert found == []
