"""Each aggregate of a combination in a scope as a ratio of sums over tasks, and the value it
publishes (generator/score/figures.py), against a recomputation from the runs (§4.2)."""

from __future__ import annotations

import math

import numpy as np
from builders import catalog, release, run, task, version
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score.figures import figures, nanmean, point_values
from generator.score.frame import build_frame
from generator.score.plan import plan_combination
from generator.score.runs import score_runs
from generator.score.scope import Scope
from generator.score.table import scope_view, task_table

RULES = 4


def _figures(domain: str, passed: list[list[int]]) -> tuple[dict, dict]:
    """Figures and point values of combination 'p', task i passing passed[i][r] of its rules
    in run r."""
    sub = "a" if domain == "office" else "x"
    tasks = [task(f"t{i}", domain, sub, rules=RULES) for i in range(len(passed))]
    runs = [
        run(f"t{i}", r + 1, passed=n, of=RULES)
        for i, ns in enumerate(passed)
        for r, n in enumerate(ns)
    ]
    rel = release()
    frame = build_frame(version(rel, catalog(tasks), {"p": runs}))
    scope = Scope(version="v0.1", domain=domain)
    table = task_table(frame.tasks, score_runs(frame), sorted(frame.bundles), scope)
    view = scope_view(table, scope)
    plan = plan_combination(view, table, 0, frame.bundles["p"], rel)
    figs = figures(view, table, 0, plan, rel)
    return figs, point_values(view, table, 0, plan, figs)


runs_of_tasks = st.lists(
    st.lists(st.integers(0, RULES), min_size=2, max_size=2), min_size=1, max_size=6
)


@settings(max_examples=25, deadline=None)
@given(runs_of_tasks)
def test_task_score_is_the_mean_of_task_means(passed: list[list[int]]) -> None:
    figs, values = _figures("office", passed)
    expected = sum(sum(n / RULES for n in ns) / len(ns) for ns in passed) / len(passed)
    assert math.isclose(values["score"], expected, abs_tol=1e-12)
    assert math.isclose(figs["score"].value, expected, abs_tol=1e-12)
    assert figs["score"].tasks == len(passed)


@settings(max_examples=25, deadline=None)
@given(runs_of_tasks)
def test_success_rate_pools_the_runs_that_pass_every_item(passed: list[list[int]]) -> None:
    figs, _ = _figures("office", passed)
    successes = sum(n == RULES for ns in passed for n in ns)
    assert figs["success"].pooled == (successes, sum(len(ns) for ns in passed))


def test_business_views_only_where_the_domain_reports_them() -> None:
    views = {"risk", "key_process", "fatal", "boundary"}
    office, _ = _figures("office", [[RULES, 1]])
    erp, _ = _figures("erp", [[RULES, 1]])
    assert not views & set(office)
    assert views <= set(erp)
    assert {"score", "rule", "success", "reliability@1", "reliability@2"} <= set(office) & set(erp)


def test_nanmean_leaves_out_missing_values() -> None:
    values = np.array([0.25, np.nan, 0.75, np.nan])
    assert nanmean(values) == np.mean(values[~np.isnan(values)])
    assert math.isnan(nanmean(np.array([np.nan])))
