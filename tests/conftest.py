"""Shared fixtures: the repository's example release, and writable copies of it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import budget  # noqa: F401  (loads the Hypothesis profile before any test module)
import pytest
from click.testing import CliRunner, Result
from hostile import REFUSED, Poisoner, poison

from generator.build import build_site
from generator.check import check_inputs
from generator.cli import cli
from generator.load import Inputs, load_inputs
from generator.score.version import ScoredVersion, score_version

REPO = Path(__file__).resolve().parent.parent
BROWSER = REPO / "tests" / "browser"


#: Fixtures that score or build the ClawBench-shaped example (its privacy gate makes it the
#: costliest to score, about 28 s): a test that uses one is slow.
SLOW_FIXTURES = frozenset({"claw_scored", "claw_site", "clawbench"})


#: Modules that take longest (``--durations``, 2026-12-04), run first: pytest-xdist hands
#: each worker whole modules in the order collected, and in alphabetical order these top-level
#: ones came last, so one worker ran them alone for minutes at the end.
FIRST = (
    "test_valid_builds.py",
    "test_fuzz.py",
    "test_refusals_enterpriseclawbench.py",
    "test_example_enterpriseclawbench.py",
    "score/test_leaks.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests in a real browser are marked ``browser`` and ``slow`` by where they live; tests
    on the scored ClawBench-shaped example ``slow`` by the fixtures they use. The modules of
    :data:`FIRST` are moved to the front (the order within a module is kept)."""
    for item in items:
        if BROWSER in item.path.parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    first = {(REPO / "tests" / name).resolve(): i for i, name in enumerate(FIRST)}
    items.sort(key=lambda item: first.get(item.path.resolve(), len(first)))


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root, which holds the example release."""
    return REPO


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """A writable copy of the example inputs (results/ and harnesscards/)."""
    root = tmp_path / "root"
    shutil.copytree(REPO / "results", root / "results", ignore=shutil.ignore_patterns("*.py"))
    shutil.copytree(REPO / "harnesscards", root / "harnesscards")
    return root


@pytest.fixture
def run_cli() -> Callable[..., Result]:
    """Invoke the command line in-process and return click's result."""

    def invoke(*args: str) -> Result:
        return CliRunner().invoke(cli, list(args), prog_name="python -m generator")

    return invoke


@pytest.fixture(scope="session")
def inputs() -> Inputs:
    """The example inputs, loaded once."""
    loaded, problems = load_inputs(REPO)
    assert not [p for p in problems if p.severity == "error"]
    return loaded


@pytest.fixture(scope="session")
def site(inputs: Inputs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One strict build of the example site, shared by the site and browser tests."""
    out = tmp_path_factory.mktemp("build") / "site"
    assert build_site(inputs, out, strict=True, progress=lambda _: None) == []
    return out


@pytest.fixture(scope="session")
def claw_inputs() -> Inputs:
    """The EnterpriseClawBench-shaped example's inputs, loaded once."""
    loaded, problems = load_inputs(EXAMPLES["enterpriseclawbench"])
    assert not [p for p in problems if p.severity == "error"]
    return loaded


@pytest.fixture(scope="session")
def claw_scored(claw_inputs: Inputs) -> ScoredVersion:
    """The EnterpriseClawBench-shaped example scored once (the privacy gate makes it the
    costliest example to score: its reports are shared by every module that reads them)."""
    (version,) = claw_inputs.releases
    return score_version(version)


@pytest.fixture(scope="session")
def claw_site(claw_inputs: Inputs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One build of the EnterpriseClawBench-shaped example's site, shared."""
    out = tmp_path_factory.mktemp("ecb-site") / "site"
    assert build_site(claw_inputs, out, strict=False, progress=lambda _: None) == []
    return out


#: The example releases: the repository's own (Lingee), two declared profiles, and the
#: minimal root ``python -m generator init`` writes.
EXAMPLES = {
    "lingee": REPO,
    "enterprisebench": REPO / "examples" / "enterprisebench",
    "enterpriseclawbench": REPO / "examples" / "enterpriseclawbench",
    "minimal": REPO / "examples" / "minimal",
}


@dataclass(frozen=True)
class HostileSite:
    """An example with a script payload in every free-text field, built into a site."""

    site: Path
    fields: frozenset[str]  # the model fields that carried payloads
    payloads: int


def build_hostile(source: Path, work: Path) -> HostileSite:
    """Build the example at ``source`` with payloads in every free-text field: in its files
    those validate accepts (it must accept them all), then in the loaded models the text it
    refuses (control characters, bidi overrides, links that leave the site)."""
    root = work / "root"
    shutil.copytree(source / "results", root / "results", ignore=shutil.ignore_patterns("*.py"))
    shutil.copytree(source / "harnesscards", root / "harnesscards")
    accepted = poison(root)
    loaded, problems = load_inputs(root)
    problems += check_inputs(loaded)
    assert [str(p) for p in problems if p.severity == "error"] == []
    # the title of a page and of a facet's value: written into <title> and the navigation
    pinned = dict.fromkeys(("Combination.title", "EnumValue.title"), REFUSED[0])
    refused = Poisoner(REFUSED, fit=False, pinned=pinned)
    out = work / "site"
    build_site(refused.walk_inputs(loaded), out, strict=False, progress=lambda _: None)
    fields = frozenset(accepted.fields | refused.fields)
    return HostileSite(out, fields, accepted.count + refused.count)


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> HostileSite:
    return build_hostile(REPO, tmp_path_factory.mktemp("hostile"))
