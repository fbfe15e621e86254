"""The page contexts the page tests share: the example's versions, and a small synthetic one."""

from __future__ import annotations

from pathlib import Path

import pytest
from pagetools import small_version

from generator.load import Inputs, load_inputs
from generator.pages import VersionContext, version_context
from generator.score.version import ScoredVersion, score_version


@pytest.fixture(scope="session")
def contexts(inputs: Inputs) -> list[VersionContext]:
    """Every version of the example, scored and made into a page context."""
    return [version_context(score_version(r), inputs.cards) for r in inputs.releases]


@pytest.fixture(scope="session")
def small() -> VersionContext:
    """The small version of ``pagetools``: two tokenizers, a withheld scope, no consent."""
    return small_version()


@pytest.fixture(params=["small", "v1.0", "v1.1"])
def ctx(request: pytest.FixtureRequest, small: VersionContext) -> VersionContext:
    """The small version and each version of the example, in turn."""
    if request.param == "small":
        return small
    found: list[VersionContext] = request.getfixturevalue("contexts")
    return next(c for c in found if c.version == request.param)


@pytest.fixture(scope="session")
def enterprise(repo_root: Path) -> VersionContext:
    """The EnterpriseBench-shaped example (examples/enterprisebench), scored: a release that
    declares its metrics, facets, axes and views."""
    loaded, problems = load_inputs(repo_root / "examples" / "enterprisebench")
    assert not [p for p in problems if p.severity == "error"]
    (release,) = loaded.releases
    return version_context(score_version(release), loaded.cards)


@pytest.fixture(scope="session")
def clawbench(claw_inputs: Inputs, claw_scored: ScoredVersion) -> VersionContext:
    """The EnterpriseClawBench-shaped example (examples/enterpriseclawbench), scored: Judge
    channels, task sets, a multi-valued facet, an experiment and second raters."""
    return version_context(claw_scored, claw_inputs.cards)
