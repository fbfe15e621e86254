"""One domain's runs per (combination, task), and the scopes cut from it (§4.2)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from builders import bundle, catalog, release, run, task, version

from generator.errors import Refused
from generator.score.frame import build_frame
from generator.score.runs import score_runs
from generator.score.scope import Scope
from generator.score.table import MEANS, not_covered, scope_view, task_table

TASKS = [
    task("t2", sub="b"),
    task("t1", rules=4),
    task("h1", group="held-out"),
    task("e1", domain="erp", sub="x"),
]
# (passed of 4 for t1, of 2 otherwise); R = passed / N when D passes (§4.3)
RUNS = {
    "q": [run("t1", 1, passed=4, of=4), run("t1", 2, passed=1, of=4), run("t2", 1, valid=False)],
    "p": [
        run("t1", 1, passed=2, of=4, failure="wrong"),
        run("t2", 1, passed=1),
        run("t2", 2, delivery=False, failure="wrong"),
        run("h1", 1),
        run("e1", 1),
    ],
}
OFFICE = Scope(version="v0.1", domain="office")


@pytest.fixture(scope="module")
def scored() -> tuple[pd.DataFrame, pd.DataFrame, list[str]]:
    frame = build_frame(version(release(), catalog(TASKS), RUNS))
    return frame.tasks, score_runs(frame), sorted(frame.bundles)


def test_the_table_holds_the_domain_s_tasks_and_combinations_in_id_order(
    scored: tuple[pd.DataFrame, pd.DataFrame, list[str]],
) -> None:
    tasks, runs, combos = scored
    table = task_table(tasks, runs, combos, OFFICE)
    assert list(table.tasks.index) == ["h1", "t1", "t2"]  # erp's e1 is another domain
    assert table.combos == ("p", "q")
    assert table.valid.shape == (2, 3)


def test_per_task_means_and_counts_over_valid_runs(
    scored: tuple[pd.DataFrame, pd.DataFrame, list[str]],
) -> None:
    tasks, runs, combos = scored
    table = task_table(tasks, runs, combos, OFFICE)
    p, q = table.combos.index("p"), table.combos.index("q")
    h1, t1, t2 = (list(table.tasks.index).index(t) for t in ("h1", "t1", "t2"))
    score = table.means["score"]
    assert score[q, t1] == pytest.approx((4 / 4 + 1 / 4) / 2)
    assert score[p, t1] == pytest.approx(2 / 4)
    assert score[p, t2] == pytest.approx((1 / 2 + 0) / 2)  # D failed: S = 0
    assert np.isnan(score[q, t2])  # its only run is incomplete: no value, not 0
    assert np.isnan(score[q, h1])
    assert table.valid[:, [h1, t1, t2]].tolist() == [[1, 1, 2], [0, 2, 0]]
    assert table.invalid[q, t2] == 1
    assert table.causes["crash"][q, t2] == 1
    assert table.successes[q, t1] == 1  # every item passes only in run 1
    assert table.failures["wrong"][p].tolist() == [0, 1, 1]
    assert set(table.means) == set(MEANS)


def test_runs_of_another_version_are_refused(
    scored: tuple[pd.DataFrame, pd.DataFrame, list[str]],
) -> None:
    tasks, runs, combos = scored
    mixed = runs.assign(version=np.where(runs["task"] == "t1", "v9", runs["version"]))
    with pytest.raises(Refused):
        task_table(tasks, mixed, combos, OFFICE)


def test_scope_views_select_subdivision_and_group(
    scored: tuple[pd.DataFrame, pd.DataFrame, list[str]],
) -> None:
    tasks, runs, combos = scored
    table = task_table(tasks, runs, combos, OFFICE)
    ids = list(table.tasks.index)

    def rows(**scope: str) -> list[str]:
        view = scope_view(table, OFFICE.model_copy(update=scope))
        assert list(view.columns["subdivision"]) == list(table.tasks["subdivision"].iloc[view.rows])
        return [ids[r] for r in view.rows]

    assert rows() == ["h1", "t1", "t2"]
    assert rows(group="public") == ["t1", "t2"]
    assert rows(group="held-out") == ["h1"]
    assert rows(subdivision="b") == ["t2"]
    assert rows(subdivision="a", group="public") == ["t1"]
    # the seed follows the task set, not the scope's name
    b_all = scope_view(table, OFFICE.model_copy(update={"subdivision": "b"}))
    b_public = scope_view(table, OFFICE.model_copy(update={"subdivision": "b", "group": "public"}))
    assert b_all.seed_key == b_public.seed_key
    assert scope_view(table, OFFICE).seed_key != b_all.seed_key


def test_not_covered_removes_the_declared_scopes_only() -> None:
    columns = {
        "domain": np.array(["office", "office", "office"]),
        "subdivision": np.array(["a", "b", "b"]),
    }
    declared = bundle(
        "p",
        not_covered=[
            {"domain": "office", "subdivision": "b", "reason": "no adapter"},
            {"domain": "erp", "reason": "not offered"},
        ],
    )
    covered, notes = not_covered(declared, OFFICE, columns)
    assert covered.tolist() == [True, False, False]
    assert notes == ["office/b: no adapter"]
    sub_a = OFFICE.model_copy(update={"subdivision": "a"})
    covered, notes = not_covered(declared, sub_a, columns)
    assert notes == []  # a declaration for b says nothing about a
    whole = bundle("p", not_covered=[{"domain": "office", "reason": "none"}])
    covered, notes = not_covered(whole, OFFICE, columns)
    assert not covered.any()
    assert notes == ["office: none"]
