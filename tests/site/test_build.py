"""Building the example site: complete, equal to the engine, private, deterministic, atomic."""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from pagetools import shown_estimate

from generator.build import build_site
from generator.disclosure.fingerprint import fingerprint
from generator.load import Inputs, load_inputs
from generator.models import Task
from generator.pages import Page
from generator.pages.domain.pages import page_stem
from generator.score.report import build_report
from generator.site import build as site_build
from generator.site import engines, forked
from generator.site import parts as site_parts

pytestmark = pytest.mark.slow  # builds the example site again and again

REPO = Path(__file__).resolve().parents[2]


def _quiet(_: str) -> None:
    pass


def _digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_every_combination_task_and_deep_dive_has_a_page(inputs: Inputs, site: Path) -> None:
    combinations, tasks, dives = 0, 0, 0
    for version in inputs.releases:
        assert version.release is not None
        assert version.catalog is not None
        root = site / version.folder
        for bundle in version.bundles:
            assert (root / "combinations" / f"{bundle.bundle.model.combination.id}.html").is_file()
            combinations += 1
        for task in version.catalog.model.tasks:
            page = root / "tasks" / f"{task.id}.html"
            assert page.is_file() == (task.group == "public"), task.id
            tasks += 1
        for task_id in version.release.model.deep_dives:
            assert (root / "deep-dives" / f"{task_id}.html").is_file()
            dives += 1
        for page in (
            "index",
            "general/index",
            "enterprise/index",
            "efficiency",
            "contamination",
            "methodology",
            "publishing",
        ):
            assert (root / f"{page}.html").is_file(), page
    # five and three combinations, 34 tasks and six deep dives in each of v1.0 and v1.1
    assert (combinations, tasks, dives) == (8, 68, 12)


def _texts(task: Task) -> set[str]:
    """A task's id, title and every longer free text of its card."""
    card = task.card.model_dump()
    longer = {
        v for v in [*card.values(), task.multi_solution] if isinstance(v, str) and len(v) > 30
    }
    return {task.id, task.title} | longer


def test_held_out_tasks_appear_nowhere(inputs: Inputs, site: Path) -> None:
    """No held-out id, title or card text in any file: pages, downloads, search index, sitemap."""
    assert len(inputs.releases) == 2  # v1.0 and v1.1
    for version in inputs.releases:
        assert version.catalog is not None
        tasks = version.catalog.model.tasks
        public = set().union(*(_texts(t) for t in tasks if t.group == "public"))
        secret = set().union(*(_texts(t) for t in tasks if t.group == "held-out")) - public
        assert len(secret) >= 3 * sum(t.group == "held-out" for t in tasks)
        scanned = set()
        for path in (site / version.folder).rglob("*"):
            if not path.is_file() or "assets" in path.parts:  # assets are the theme's own
                continue
            text = path.read_bytes().decode("utf-8", errors="replace")
            leaked = [t for t in secret if t in text]
            assert not leaked, (path, leaked)
            scanned.add(path.relative_to(site / version.folder).as_posix())
        assert {"search/search_index.json", "sitemap.xml", "index.html"} <= scanned


def test_page_numbers_equal_the_report(inputs: Inputs, site: Path) -> None:
    """Every published scope's scores, on the domain page that holds them (its headline,
    group or sub-division page) and in that table's download, equal the report's; a
    withheld scope says why on one of the domain's pages."""
    withheld, scores = 0, 0
    for version in inputs.releases:
        for domain in ("general", "enterprise"):
            report = build_report(version, domain)
            folder = site / version.folder / domain
            every = "\n".join(html.unescape(p.read_text("utf-8")) for p in folder.glob("*.html"))
            for scope in report.scopes:
                if scope.withheld:
                    assert html.unescape(scope.withheld) in every
                    withheld += 1
                    continue
                stem = page_stem(scope)
                page = html.unescape((folder / f"{stem}.html").read_text(encoding="utf-8"))
                assert version.release is not None
                code, s = version.release.model.benchmark.code, scope.scope
                parts = [code, version.folder, domain, s.subdivision, s.group, "scores"]
                name = "-".join(p for p in parts if p) + ".csv"
                download = folder / name
                text = download.read_text(encoding="utf-8-sig")  # written with a BOM
                rows = {r["combination"]: r for r in csv.DictReader(io.StringIO(text))}
                for c in scope.combinations:
                    row = rows[c.combination]
                    assert row["status"] == c.status
                    if c.task_score is None or c.task_score.value is None:
                        continue
                    assert float(row["task_score"]) == round(c.task_score.value, 6)
                    shown = shown_estimate(c.task_score)
                    assert shown in page, (scope.title, c.combination, shown)
                    scores += 1
    assert withheld > 0
    assert scores > 0


def test_every_table_has_its_downloads(site: Path) -> None:
    pages = list((site / "v1.0").rglob("*.html"))
    linked = 0
    for page in pages:
        for href in re.findall(r'href="([^"]+\.(?:csv|json))"', page.read_text("utf-8")):
            assert (page.parent / href).is_file(), (page, href)
            linked += 1
    assert linked > 100
    name = "lg-bench-v1.0-release-components.json"
    data = json.loads((site / "v1.0" / name).read_text("utf-8"))
    assert data["rows"][0]["component"] == "Tasks"


def test_pages_load_nothing_from_another_host(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert site / "v1.0" / "index.html" in pages
    for page in pages:
        text = page.read_text("utf-8")
        loads = re.findall(r'<(?:script|link|img|iframe)[^>]+(?:src|href)="([^"]+)"', text)
        external = [u for u in loads if re.match(r"^(https?:)?//", u)]
        assert not external, (page, external)
        assert "fonts.googleapis" not in text


def test_version_selector_data_and_landing(site: Path) -> None:
    versions = json.loads((site / "versions.json").read_text("utf-8"))
    assert [v["version"] for v in versions] == ["v1.1", "v1.0"]
    assert versions[0]["aliases"] == ["latest"]
    assert "url=../v1.1/index.html" in (site / "latest" / "index.html").read_text("utf-8")
    deep = (site / "latest" / "general" / "index.html").read_text("utf-8")
    assert "url=../../v1.1/general/index.html" in deep
    landing = (site / "index.html").read_text("utf-8")
    assert 'href="v1.0/index.html"' in landing
    assert not re.search(r"\d\.\d{3}", landing), "the landing page shows no scores"


def test_the_landing_and_redirect_pages_name_an_icon_that_exists(site: Path) -> None:
    pages = [site / "index.html", *sorted((site / "latest").rglob("*.html"))]
    assert len(pages) > 2
    for page in pages:
        icons = re.findall(r'<link rel="icon" href="([^"]+)"', page.read_text("utf-8"))
        assert len(icons) == 1, page
        icon = (page.parent / icons[0]).resolve()
        assert icon.is_file(), (page, icons[0])
        assert icon.read_text("utf-8").startswith("<svg")


def _builds_the_site(inputs: Inputs, site: Path, out: Path) -> None:
    """A strict build into ``out`` writes the shared example site, byte for byte."""
    build_site(inputs, out, strict=True, progress=_quiet)
    assert _digest(out) == _digest(site)


def test_two_builds_are_identical(inputs: Inputs, site: Path, tmp_path: Path) -> None:
    _builds_the_site(inputs, site, tmp_path / "again")


def test_pages_rendered_in_one_process_are_the_same_site(
    inputs: Inputs, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(forked, "FORK", False)
    _builds_the_site(inputs, site, tmp_path / "alone")


def test_a_part_without_task_pages_forks_no_worker(
    inputs: Inputs, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three parts with every task page in the first: the two empty parts fork nothing
    (the downloads' writer forks, once per version), and the site is the same."""
    monkeypatch.setattr(site_parts, "FIRST_PART_TASKS", 1.0)
    monkeypatch.setattr(site_build, "PARTS", 3)
    started: list[object] = []
    start = forked.start

    def counted(work: forked.Work) -> AbstractContextManager[forked.Worker]:
        started.append(work)
        return start(work)

    monkeypatch.setattr(forked, "start", counted)
    _builds_the_site(inputs, site, tmp_path / "one-part")
    assert len(started) == len(inputs.releases)
    assert not any(getattr(work, "func", None) is site_build._render_part for work in started)


@pytest.mark.parametrize("fork", [True, False], ids=["forked", "inline"])
def test_a_failing_worker_fails_the_build_and_leaves_the_previous_site(
    fork: bool, inputs: Inputs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = site_build._write_downloads

    def full_disk(pages: list[Page], folder: Path) -> None:
        if any(p.path.startswith("tasks/") for p in pages) and pages[0].path != "index.md":
            raise OSError(28, "No space left on device (simulated)")
        written(pages, folder)

    def breaking() -> None:
        monkeypatch.setattr(forked, "FORK", fork and forked.FORK)
        monkeypatch.setattr(site_build, "_write_downloads", full_disk)

    _fails_and_keeps_the_site(inputs, tmp_path, breaking, OSError)


def test_failed_build_leaves_the_previous_site(
    inputs: Inputs, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any) -> list[str]:
        raise engines.EngineFailed("mkdocs failed: simulated")

    def breaking() -> None:
        monkeypatch.setattr(engines, "run", broken)

    _fails_and_keeps_the_site(inputs, tmp_path, breaking, engines.EngineFailed)


def _fails_and_keeps_the_site(
    inputs: Inputs, tmp_path: Path, breaking: Callable[[], None], error: type[Exception]
) -> None:
    """Build, break the build with ``breaking``, build again: it fails with ``error``
    ("simulated"), and the first site stays as it was, with no staging left behind."""
    out = tmp_path / "published"
    build_site(inputs, out, strict=False, progress=_quiet)
    before = _digest(out)
    breaking()
    with pytest.raises(error, match="simulated"):
        build_site(inputs, out, strict=False, progress=_quiet)
    assert _digest(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["published"], "no staging left behind"


def test_build_command_refuses_bad_input_and_keeps_the_site(
    example: Path, run_cli: Any, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    first = run_cli("build", "--root", str(example), "--out", str(out))
    assert first.exit_code == 0, first.output
    assert first.output.startswith(f"built {out}: v1.0, v1.1; 0 warning(s)")
    before = _digest(out)
    (example / "results/v1.0/tasks.yaml").write_text("")
    second = run_cli("build", "--root", str(example), "--out", str(out))
    assert second.exit_code == 1
    assert "results/v1.0/tasks.yaml: file is empty" in second.output
    assert _digest(out) == before


def test_strict_build_fails_on_an_input_warning(
    example: Path, run_cli: Any, tmp_path: Path
) -> None:
    (example / "results/v1.0/notes.txt").write_text("scratch")
    out = tmp_path / "site"
    result = run_cli("build", "--root", str(example), "--out", str(out), "--strict")
    assert result.exit_code == 1
    assert "notes.txt: warning: not part of the input format" in result.output
    assert not out.exists()


def test_vendored_plotly_matches_the_python_package() -> None:
    from plotly.offline import get_plotlyjs_version

    head = (REPO / "site_src/assets/javascripts/plotly-basic.min.js").read_text("utf-8")[:200]
    assert f"plotly.js (basic - minified) v{get_plotlyjs_version()}" in head


def test_a_bundle_without_consent_leaves_no_trace(
    example: Path, run_cli: Any, tmp_path: Path
) -> None:
    """§7.2: nothing of an unconsented bundle is published, and the build says so."""
    bundle = example / "results/v1.0/bundles/opencode/bundle.yaml"
    bundle.write_text(bundle.read_text().replace("granted: true", "granted: false"))
    inputs, _ = load_inputs(example)
    v10 = next(v for v in inputs.releases if v.folder == "v1.0")
    loaded = next(b.bundle.model for b in v10.bundles if b.folder == "opencode")
    card = inputs.cards[loaded.combination.harnesscard].model
    traces = {loaded.combination.title, fingerprint(card, loaded)}
    out = tmp_path / "site"
    result = run_cli("build", "--root", str(example), "--out", str(out), "--strict")
    assert result.exit_code == 0, result.output
    assert "consent.granted: false: not published (§7.2)" in result.output
    assert "not published (no consent): v1.0/opencode" in result.output
    assert "; 0 warning(s), 1 notice;" in result.output  # a notice, not counted as a warning
    scanned = 0
    for path in (out / "v1.0").rglob("*"):
        if path.is_file() and "assets" not in path.parts:
            text = path.read_bytes().decode("utf-8", errors="replace")
            assert not [t for t in traces if t in text], path
            assert not re.search(r"\bopencode\b(?!-)", text), path
            scanned += 1
    assert scanned > 100
    # The same combination in v1.1 has consent and is published there.
    assert (out / "v1.1" / "combinations" / "opencode.html").is_file()


def test_build_refuses_to_replace_a_folder_it_did_not_build(inputs: Inputs, tmp_path: Path) -> None:
    precious = tmp_path / "documents"
    precious.mkdir()
    (precious / "thesis.txt").write_text("irreplaceable")
    with pytest.raises(site_build.BuildFailed, match="did not build"):
        build_site(inputs, precious, strict=False, progress=_quiet)
    assert [p.name for p in precious.iterdir()] == ["thesis.txt"]


def test_a_rebuild_reuses_unchanged_versions_exactly(
    example: Path, run_cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "site"
    assert run_cli("build", "--root", str(example), "--out", str(out)).exit_code == 0
    page = out / "v1.0" / "index.html"
    inode = page.stat().st_ino
    bundle = example / "results/v1.1/bundles/lingee/bundle.yaml"
    bundle.write_text(bundle.read_text() + "# a new submission\n")
    again = run_cli("build", "--root", str(example), "--out", str(out))
    assert again.exit_code == 0, again.output
    assert again.output.rstrip().endswith("unchanged, reused: v1.0")
    assert page.stat().st_ino == inode, "v1.0 was taken over, not rebuilt"
    monkeypatch.setenv("LG_BENCH_NO_CACHE", "1")
    fresh = tmp_path / "fresh"
    assert run_cli("build", "--root", str(example), "--out", str(fresh)).exit_code == 0
    assert _digest(out) == _digest(fresh)
    # Any change to a version's inputs (or to a HarnessCard) rebuilds it.
    monkeypatch.delenv("LG_BENCH_NO_CACHE")
    card = example / "harnesscards/opencode-0.9.yaml"
    card.write_text(card.read_text() + "# edited\n")
    third = run_cli("build", "--root", str(example), "--out", str(out))
    assert third.exit_code == 0
    assert "reused" not in third.output
    assert page.stat().st_ino != inode
