"""One build of the example site, shared by the site tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.load import Inputs, load_inputs
from generator.site import build_site

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def inputs() -> Inputs:
    loaded, problems = load_inputs(REPO)
    assert not [p for p in problems if p.severity == "error"]
    return loaded


@pytest.fixture(scope="session")
def site(inputs: Inputs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("build") / "site"
    assert build_site(inputs, out, strict=True, progress=lambda _: None) == []
    return out
