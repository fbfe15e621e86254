"""Serve the built example site on 127.0.0.1 and drive Debian's Chromium with Playwright."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, HostileSite, build_hostile
from serve import NO_OTHER_HOST, serve

from generator.build import build_site
from generator.load import load_inputs

CHROMIUM = "/usr/bin/chromium"

HERE = Path(__file__).resolve().parent
PROFILED = HERE.parents[1] / "examples" / "enterprisebench"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Without Chromium (.ci/run installs it), say why the browser tests do not run."""
    if Path(CHROMIUM).exists():
        return
    mark = pytest.mark.skip(reason=f"{CHROMIUM} not installed (apt-get install chromium)")
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(mark)


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[str]:
    """Base URL of the built site, served from a local thread."""
    yield from serve(site)


@pytest.fixture(scope="session")
def profiled_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One strict build of the EnterpriseBench-shaped example (a declared profile)."""
    loaded, problems = load_inputs(PROFILED)
    assert not [p for p in problems if p.severity == "error"]
    out = tmp_path_factory.mktemp("profiled") / "site"
    assert build_site(loaded, out, strict=True, progress=lambda _: None) == []
    return out


@pytest.fixture(scope="session")
def profiled_server(profiled_site: Path) -> Iterator[str]:
    """Base URL of the EnterpriseBench-shaped example's site."""
    yield from serve(profiled_site)


@pytest.fixture(scope="session")
def hostile_server(hostile_site: HostileSite) -> Iterator[str]:
    """Base URL of the site built from inputs full of script payloads."""
    yield from serve(hostile_site.site)


@pytest.fixture(scope="session", params=sorted(EXAMPLES))
def hostile_example(
    request: pytest.FixtureRequest,
    hostile_site: HostileSite,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[HostileSite, str]]:
    """Each of the three examples built from inputs full of payloads, and its base URL."""
    name = request.param
    if name == "lingee":
        built = hostile_site
    else:
        built = build_hostile(EXAMPLES[name], tmp_path_factory.mktemp(f"hostile-{name}"))
    for url in serve(built.site):
        yield built, url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
            NO_OTHER_HOST,
        ],
    }


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Folder the tests write screenshots into (reported at the end of the run)."""
    # one folder per test process (pytest-xdist's workers run at once)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    folder = Path(__file__).resolve().parents[2] / "build" / "screenshots" / worker
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say where the screenshots are, so a reader of the run can look at them."""
    folder = Path(__file__).resolve().parents[2] / "build" / "screenshots"
    shots = sorted(folder.rglob("*.png")) if folder.is_dir() else []
    if shots:
        terminalreporter.write_line(f"screenshots ({len(shots)}): {folder}")
