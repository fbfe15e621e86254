"""A combination's standing in a scope before any number: scored, not covered, without
valid runs, or withheld (§4.2, §4.4, §5.3)."""

from __future__ import annotations

from builders import bundle, catalog, release, run, task, version

from generator.models import Release
from generator.score.frame import build_frame
from generator.score.plan import has_views, plan_combination
from generator.score.runs import score_runs
from generator.score.scope import Scope
from generator.score.table import TaskTable, scope_view, task_table

HELD = [task(f"h{i}", group="held-out") for i in range(1, 4)]
TASKS = [task("t1"), task("t2", sub="b", judge=(2,)), *HELD]


def _table(
    runs: dict[str, list], bundles: dict | None = None, **extra: object
) -> tuple[TaskTable, Release, dict]:
    rel = release(**extra)
    frame = build_frame(version(rel, catalog(TASKS), runs, bundles))
    table = task_table(frame.tasks, score_runs(frame), sorted(frame.bundles), _scope())
    return table, rel, dict(frame.bundles)


def _scope(**update: object) -> Scope:
    return Scope(version="v0.1", domain="office").model_copy(update=update)


def _full(tid: str) -> list:
    judge = (2,) if tid == "t2" else ()
    return [run(tid, i, judge=judge) for i in (1, 2)]


def test_a_complete_combination_is_scored_with_masks_over_the_scope() -> None:
    runs = {"p": [r for t in ("t1", "t2", "h1", "h2", "h3") for r in _full(t)]}
    table, rel, bundles = _table(runs)
    view = scope_view(table, _scope(group="public"))
    plan = plan_combination(view, table, 0, bundles["p"], rel)
    assert plan.result is None  # scored: the aggregation forms its numbers
    assert plan.covered.tolist() == plan.data.tolist() == plan.full.tolist() == [True, True]
    assert plan.judged is not None
    assert plan.judged.tolist() == [False, True]  # only t2 enables the Judge
    assert plan.coverage is not None
    assert (plan.coverage.valid_runs, plan.coverage.expected_runs) == (4, 4)
    assert plan.coverage.complete


def test_declared_not_covered_is_not_zero() -> None:
    declared = {
        "p": bundle("p", not_covered=[{"domain": "office", "subdivision": "b", "reason": "why"}])
    }
    table, rel, bundles = _table({"p": _full("t1")}, declared)
    view = scope_view(table, _scope(subdivision="b"))
    plan = plan_combination(view, table, 0, bundles["p"], rel)
    assert plan.result is not None
    assert plan.result.status == "not-covered"
    assert plan.result.note == "office/b: why"
    assert plan.coverage is None


def test_no_valid_run_in_the_scope() -> None:
    table, rel, bundles = _table({"p": [run("t1", 1, valid=False), *_full("t2")]})
    view = scope_view(table, _scope(subdivision="a", group="public"))
    plan = plan_combination(view, table, 0, bundles["p"], rel)
    assert plan.result is not None
    assert plan.result.status == "no-valid-runs"
    assert plan.coverage is not None
    assert (plan.coverage.incomplete_runs, plan.coverage.incomplete_causes) == (1, {"crash": 1})


def test_held_out_results_need_every_held_out_task_complete() -> None:
    runs = {"p": [*_full("t1"), *_full("t2"), *_full("h1"), *_full("h2"), run("h3", 1)]}
    table, rel, bundles = _table(runs)
    plan = plan_combination(scope_view(table, _scope()), table, 0, bundles["p"], rel)
    assert plan.result is not None
    assert plan.result.status == "withheld"
    assert "2 of 3 held-out tasks have all 2 valid runs" in (plan.result.note or "")
    public = plan_combination(
        scope_view(table, _scope(group="public")), table, 0, bundles["p"], rel
    )
    assert public.result is None  # the public group does not depend on held-out runs


def test_business_views_are_reported_where_the_domain_declares_them() -> None:
    _, rel, _ = _table({"p": _full("t1")})
    assert has_views(rel, Scope(version="v0.1", domain="erp"))
    assert not has_views(rel, Scope(version="v0.1", domain="office"))
