"""A small report shared by the tests of its text forms (render_json, render_csv,
render_markdown): two combinations over six public and two held-out tasks."""

from __future__ import annotations

import pytest
from builders import catalog, release, run, task, version

from generator.score.report import build_report
from generator.score.results import Report

PUBLIC = [task(f"t{i}", sub="a" if i < 4 else "b", rules=3) for i in range(1, 7)]
HELD = [task(f"h{i}", group="held-out", rules=3) for i in (1, 2)]


@pytest.fixture(scope="session")
def small_report() -> Report:
    runs = {
        "p": [run(t["id"], i, of=3) for t in PUBLIC + HELD for i in (1, 2)],
        # q passes 1 of 3 items on every run: R = 1/3, a float that needs rounding
        "q": [run(t["id"], i, passed=1, of=3) for t in PUBLIC + HELD for i in (1, 2)],
    }
    return build_report(version(release(), catalog(PUBLIC + HELD), runs), "office")
