"""Section 1 of the run checks (:func:`generator.check.runs.keys.check_keys`): a record's
task is in the catalog, its (task, run) pair is its own, and its scope is covered (§4.2:
valid runs are counted per task; §5.3: a scope not covered is disclosed, not run)."""

from __future__ import annotations

from typing import Any

from generator.check.runs.columns import Found
from generator.check.runs.keys import check_keys, unknown_task


def test_known_new_covered_records_pass_and_go_on(small: Any) -> None:
    runs = small.checks(small.full())
    found = Found()
    keyed = check_keys(runs, found)
    assert small.reported(runs, found) == []
    assert keyed.all()


def test_a_task_outside_the_catalog_is_named_with_the_version(small: Any) -> None:
    records = [small.record("t1", 1), small.record("t1", 2).model_copy(update={"task": "t9"})]
    runs = small.checks(records)
    found = Found()
    keyed = check_keys(runs, found)
    [problem] = small.reported(runs, found)
    assert (problem.line, problem.field) == (3, "task")
    assert "'t9'" in problem.message
    assert small.release.version in problem.message
    assert keyed.tolist() == [True, False]


def test_a_repeated_task_and_run_points_to_the_first_record(small: Any) -> None:
    """One record per (combination, task, run): the second and third of t1 run 1 are
    reported, each naming the line of the first; another run of the task is not."""
    records = [small.record("t1", 1), small.record("t1", 2), small.record("t1", 1)]
    records += [small.record("t2", 1), small.record("t1", 1)]
    runs = small.checks(records)
    found = Found()
    keyed = check_keys(runs, found)
    problems = small.reported(runs, found)
    first = small.lines(len(records))[0]
    assert [(p.line, p.field) for p in problems] == [(4, "run"), (6, "run")]
    assert all(f"first on line {first}" in p.message for p in problems)
    assert all("'t1' run 1" in p.message for p in problems)
    assert keyed.tolist() == [True, True, False, True, False]


def test_runs_of_a_scope_declared_not_covered_are_refused(small: Any) -> None:
    """A bundle that declares the erp domain not covered holds no runs of its tasks; a
    declared sub-division covers only that one."""
    records = [small.record("t1"), small.record("t3")]
    for declared in ({"domain": "erp"}, {"domain": "erp", "subdivision": "x"}):
        runs = small.checks(records, not_covered=[{**declared, "reason": "no adapter"}])
        found = Found()
        keyed = check_keys(runs, found)
        [problem] = small.reported(runs, found)
        assert (problem.line, problem.field) == (3, "task")
        assert "'t3'" in problem.message
        assert "not covered" in problem.message
        assert keyed.tolist() == [True, False]
    runs = small.checks(records, not_covered=[{"domain": "erp", "subdivision": "y", "reason": "-"}])
    found = Found()
    assert check_keys(runs, found).all()
    assert found.by_row == {}


def test_each_record_gets_its_first_key_problem_only(small: Any) -> None:
    """The first key problem a reader would fix, once: an unknown task is not also a
    duplicate, and a duplicate in a scope not covered is reported as a duplicate."""
    records = [small.record("t1").model_copy(update={"task": "t9"})] * 2
    records += [small.record("t3"), small.record("t3")]
    runs = small.checks(records, not_covered=[{"domain": "erp", "reason": "no adapter"}])
    found = Found()
    check_keys(runs, found)
    assert [(p.line, p.field) for p in small.reported(runs, found)] == [
        (2, "task"),
        (3, "task"),
        (4, "task"),
        (5, "run"),
    ]


def test_an_unknown_task_is_named_as_another_versions_or_the_nearest() -> None:
    tasks = ["finance-fa-20", "finance-ap-33"]
    assert unknown_task("finance-fa-21", "v1.1", tasks, {"finance-fa-21": "v1.0"}) == (
        "'finance-fa-21' is not a task of v1.1: it is a task of v1.0; run it under that "
        "version's folder"
    )
    assert unknown_task("finance-ap33", "v1.1", tasks, {}) == (
        "'finance-ap33' is not a task of v1.1; did you mean 'finance-ap-33'?"
    )
    assert unknown_task("zzz", "v1.1", tasks, {}) == "'zzz' is not a task of v1.1"
