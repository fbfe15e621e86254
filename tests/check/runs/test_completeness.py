"""The bundle's completeness (:func:`generator.check.runs.completeness.check_completeness`):
formal results complete every prescribed task and valid run count; until then the bundle is
marked an incomplete evaluation and its coverage disclosed (§4.2). Evaluation-incomplete
runs are not valid runs (§4.3(4)); a scope declared not covered is not prescribed (§5.3)."""

from __future__ import annotations

from typing import Any

from generator.check.runs.completeness import check_completeness


def _short_of_t1(small: Any) -> list[Any]:
    """Every prescribed run, but t1's last is evaluation-incomplete."""
    records = small.full()
    last = small.release.runs_per_task - 1
    records[last] = records[last].model_copy(update={"status": "incomplete", "cause": "crash"})
    return records


def test_a_complete_bundle_declared_complete(small: Any) -> None:
    assert list(check_completeness(small.checks(small.full()))) == []


def test_complete_with_a_task_short_of_valid_runs(small: Any) -> None:
    prescribed = small.release.runs_per_task
    [problem] = check_completeness(small.checks(_short_of_t1(small)))
    assert (problem.path, problem.line, problem.field, problem.severity) == (
        small.bundle_path,
        small.evaluation_line,
        "evaluation",
        "error",
    )
    covered = len(small.catalog.tasks)
    assert f"1 of {covered} covered tasks lack the prescribed {prescribed} valid runs" in (
        problem.message
    )
    assert f"t1 ({prescribed - 1} valid)" in problem.message
    assert "expected evaluation: incomplete" in problem.message


def test_a_scope_not_covered_is_not_short(small: Any) -> None:
    records = [r for r in small.full() if r.task != "t3"]
    runs = small.checks(records, not_covered=[{"domain": "erp", "reason": "no adapter"}])
    assert list(check_completeness(runs)) == []
    [problem] = check_completeness(small.checks(records))
    assert "t3 (0 valid)" in problem.message


def test_runs_of_unknown_tasks_count_for_none(small: Any) -> None:
    records = [r for r in small.full() if r.task != "t3"]
    records += [small.record("t3", k).model_copy(update={"task": "t9"}) for k in (1, 2)]
    [problem] = check_completeness(small.checks(records))
    assert "t3 (0 valid)" in problem.message


def test_declared_incomplete(small: Any) -> None:
    """Declared incomplete while short: as it should be. Declared incomplete with every
    prescribed run: a warning, the declaration undersells the results."""
    short = small.checks(_short_of_t1(small), evaluation="incomplete")
    assert list(check_completeness(short)) == []
    [problem] = check_completeness(small.checks(small.full(), evaluation="incomplete"))
    assert (problem.path, problem.line, problem.field, problem.severity) == (
        small.bundle_path,
        small.evaluation_line,
        "evaluation",
        "warning",
    )
    assert f"every covered task has {small.release.runs_per_task} valid runs" in problem.message
