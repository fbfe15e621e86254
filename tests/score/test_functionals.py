"""Each task's statistics as forms of its free values (generator/score/functionals.py),
checked against the engine's own per-task numbers on the three example releases."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from generator.build import load_checked
from generator.score.functionals import coordinates, figure_functionals
from generator.score.intervals import figure
from generator.score.report import extra_columns, published_frame
from generator.score.runs import score_runs
from generator.score.scope import Scope
from generator.score.table import TaskTable, task_table

REPO = Path(__file__).resolve().parents[2]


def _table(root: Path, version: str, domain: str) -> tuple[TaskTable, object]:
    inputs, _ = load_checked(root, False)
    loaded = {r.folder: r for r in inputs.releases}[version]
    frame = published_frame(loaded)
    runs = score_runs(frame)
    scope = Scope(version=frame.version, domain=domain)
    table = task_table(
        frame.tasks, runs, sorted(frame.bundles), scope, extra_columns(runs, frame.release)
    )
    return table, frame


@pytest.mark.parametrize(
    ("root", "version", "domain"),
    [
        (REPO, "v1.1", "general"),
        (REPO, "v1.0", "enterprise"),
    ],
)
def test_forms_reproduce_the_engines_task_numbers(root: Path, version: str, domain: str) -> None:
    """Where a form rests on free values the engine also computes (R, J, the channels, the
    rule classes), evaluating it gives the engine's own number: S from R, J and the zeroed
    residue, R from its rule classes, J from its channels (each channel's items one group)."""
    table, frame = _table(root, version, domain)
    coords = coordinates(table, frame.items)  # type: ignore[attr-defined]
    checked = 0
    for (k, t), forms in coords.forms.items():
        means = {name: float(values[k, t]) for name, values in table.means.items()}
        if np.isnan(means["score"]):
            continue
        known = {name: (0.0 if np.isnan(v) else v) for name, v in means.items()}
        score = forms["score"]
        if "zeroed" in score:
            continue  # the residue is the value that balances it, by definition
        if all(p in known for p in score):
            got = sum(c * known[p] for p, c in score.items())
            assert got == pytest.approx(means["score"], abs=1e-9), (k, t, score)
            checked += 1
        rule = forms["rule"]
        if all(p in known for p in rule) and not np.isnan(means["rule"]):
            assert sum(c * known[p] for p, c in rule.items()) == pytest.approx(means["rule"])
    assert checked > 0


def test_an_equal_share_second_moment_lies_on_products_alone() -> None:
    table, frame = _table(REPO, "v1.1", "general")
    coords = coordinates(table, frame.items)  # type: ignore[attr-defined]
    rows = np.arange(len(table.tasks))
    held = coords.held
    values = np.where(
        held, table.means["success_rate"][0] if "success_rate" in table.means else 0.5, 0.0
    )
    fig = figure(np.full(len(rows), 0.5), held, np.full(len(rows), 3))
    first, second = figure_functionals(coords, 0, "score", fig, rows, float(values.mean()), True)
    assert first
    assert all(c[0] == "m1" for c in first)  # type: ignore[index]
    assert second
    assert all(c[0] == "m2" for c in second)  # type: ignore[index]
    assert {c[1] for c in first} == {int(t) for t in np.flatnonzero(held)}  # type: ignore[index]
