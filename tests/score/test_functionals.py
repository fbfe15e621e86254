"""Each task's statistics as forms of its free values (generator/score/functionals.py),
checked against the engine's own per-task numbers on the three example releases."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from generator.build import load_checked
from generator.score.functionals import coordinates, figure_functionals
from generator.score.intervals import figure
from generator.score.report import extra_columns, published_frame
from generator.score.runs import score_runs
from generator.score.scope import Scope
from generator.score.table import TaskTable, task_table

REPO = Path(__file__).resolve().parents[2]


def _table(root: Path, version: str, domain: str) -> tuple[TaskTable, Any, pd.DataFrame]:
    inputs, _ = load_checked(root, False)
    loaded = {r.folder: r for r in inputs.releases}[version]
    frame = published_frame(loaded)
    runs = score_runs(frame)
    scope = Scope(version=frame.version, domain=domain)
    table = task_table(
        frame.tasks, runs, sorted(frame.bundles), scope, extra_columns(runs, frame.release)
    )
    return table, frame, runs


def _residues(table: TaskTable, runs: pd.DataFrame) -> dict[tuple[int, int], float]:
    """Each (combination, task)'s residue from its runs, by its definition: the mean over
    valid runs of what the zeroed ones would have scored, w·R + (1 − w)·J."""
    out = {}
    valid = runs[runs["valid"]]
    for (combo, task), mine in valid.groupby(["combination", "task"]):
        if str(task) not in table.tasks.index:
            continue
        t = int(table.tasks.index.get_loc(str(task)))
        declared = table.tasks.iloc[t]
        w = float(declared["rule_weight"]) if bool(declared["dual"]) else 1.0
        would = w * mine["rule"].fillna(0) + (1 - w) * mine["judge"].fillna(0)
        out[(table.combos.index(str(combo)), t)] = float((would - mine["score"]).mean())
    return out


CASES = [
    (REPO, "v1.1", "general"),
    (REPO, "v1.0", "enterprise"),
    (REPO / "examples" / "enterpriseclawbench", "v1.0", "workplace"),
]


@pytest.mark.parametrize(("root", "version", "domain"), CASES)
def test_forms_reproduce_the_engines_task_numbers(root: Path, version: str, domain: str) -> None:
    """Every form evaluated at the engine's own numbers gives the engine's number: S from
    R, J and the residue (computed from the runs by its definition: 0 without a zeroed run),
    R from its rule classes, J and each dimension from the channels where every channel's
    items are one group (no dimensions), J and each channel from the dimensions likewise."""
    table, frame, runs = _table(root, version, domain)
    coords = coordinates(table, frame.items)
    residues = _residues(table, runs)
    checked: dict[str, int] = {}
    for k in range(len(table.combos)):
        for t, forms in coords.forms.items():
            means = {name: float(values[k, t]) for name, values in table.means.items()}
            if np.isnan(means["score"]):
                continue
            known = {n: v for n, v in means.items() if not np.isnan(v)}
            known["zeroed"] = residues[(k, t)]
            known |= _groups(forms, known)
            for statistic, form in forms.items():
                if statistic == "score" or (statistic in known and all(p in known for p in form)):
                    if statistic == "rule" and np.isnan(means["rule"]):
                        continue
                    got = sum(c * known.get(p, 0.0) for p, c in form.items())
                    assert got == pytest.approx(means[statistic], abs=1e-9), (k, t, statistic)
                    checked[statistic] = checked.get(statistic, 0) + 1
            assert known["zeroed"] >= -1e-12, "a residue is what zeroed runs would have scored"
    assert checked.get("score", 0) > 0, checked
    if root != REPO:  # the ClawBench-shaped example declares channels and rule classes
        assert checked.get("rule", 0) > 0, checked
        assert checked.get("judge", 0) > 0, checked


def _groups(forms: dict[str, Any], known: dict[str, float]) -> dict[str, float]:
    """The Judge item groups' values where the engine's numbers give them: a lone group is
    J, and a group alone in its channel (or dimension) is that channel's score."""
    groups = sorted({p for f in forms.values() for p in f if p.startswith("judged:")})
    pairs = [p.removeprefix("judged:").split("|") for p in groups]
    out = {}
    for p, pair in zip(groups, pairs, strict=True):
        for by, column in ((0, "channel"), (1, "dimension")):
            name = f"{column}:{pair[by]}"
            alone = sum(q[by] == pair[by] for q in pairs) == 1
            if pair[by] and alone and name in known:
                out[p] = known[name]
        if len(groups) == 1 and "judge" in known:
            out[p] = known["judge"]
    return out


def test_the_forms_rest_on_the_declaration_alone() -> None:
    """Every statistic's form is the same whatever the results: a gate that followed the
    numbers would publish different figures for different held-out results."""
    table, frame, _ = _table(REPO, "v1.1", "enterprise")
    scrambled = dataclasses.replace(
        table, means={n: np.random.default_rng(0).random(v.shape) for n, v in table.means.items()}
    )
    assert coordinates(scrambled, frame.items).forms == coordinates(table, frame.items).forms


def test_an_equal_share_second_moment_lies_on_products_alone() -> None:
    table, frame, _ = _table(REPO, "v1.1", "general")
    coords = coordinates(table, frame.items)
    rows = np.arange(len(table.tasks))
    held = coords.held
    fig = figure(np.full(len(rows), 0.5), held, np.full(len(rows), 3))
    first, second = figure_functionals(coords, 0, "score", fig, rows, True)
    assert first
    assert all(c[0] == "m1" for c in first)  # type: ignore[index]
    assert second
    assert all(c[0] == "m2" for c in second)  # type: ignore[index]
    assert {c[1] for c in first} == {int(t) for t in np.flatnonzero(held)}  # type: ignore[index]
