"""The rules between run records, the task catalog and the bundle, section by section
(:func:`generator.check.runs.check_runs`): each record is reported where it breaks a rule,
at its line of the runs file; a record stopped by one section gets no problems of the later
ones; the bundle's completeness is judged only when every record is clean.

Hypothesis damages records of the example (which has fatal items, modules, designated
evidence, rule-only and dual-channel tasks, not-covered scopes) in the ways a submitter's
pipeline might, and the column checks must return what the per-record rules
(tests/reference_runs.py) return, line by line.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from budget import examples
from builders import read_records
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_runs import check_runs_reference

from generator.check.runs import catalog_items, check_runs
from generator.errors import Problem
from generator.load import Inputs, LoadedBundle
from generator.load.records import columns_from_records
from generator.models import RunRecord
from generator.models.runs import JudgeVerdict, Measure, RuleVerdict

IDS = ["R01", "R02", "R03", "R09", "R30", "F01", "F02", "J01", "J02", "J05", "E1", "E9"]
MODULES = ["turn-1", "turn-2", "turn-3", "turn-9", "m1"]


@pytest.fixture(scope="module")
def example_v1(inputs: Inputs) -> Any:
    """The example's v1.0: its release, catalog, bundles and each bundle's records."""
    version = next(v for v in inputs.releases if v.folder == "v1.0")
    assert version.release is not None
    assert version.catalog is not None
    bundles = {b.folder: b for b in version.bundles}
    records = {name: read_records(inputs.root / b.runs_path) for name, b in bundles.items()}
    return version.release.model, version.catalog.model, bundles, records


def _rule(draw: st.DrawFn) -> RuleVerdict:
    return RuleVerdict(id=draw(st.sampled_from(IDS)), passed=draw(st.booleans()))


def _judge(draw: st.DrawFn) -> JudgeVerdict:
    return JudgeVerdict(
        id=draw(st.sampled_from(IDS)),
        level=draw(st.integers(0, 6)),
        evidence=tuple(draw(st.lists(st.sampled_from(IDS), max_size=2))),
    )


def _damage(record: RunRecord, draw: st.DrawFn, tasks: list[str]) -> RunRecord:
    """One change a pipeline might make to a record, keeping it a valid RunRecord."""
    what = draw(
        st.sampled_from(
            ["task", "run", "status", "cause", "delivery", "judge_valid", "failure",
             "drop", "add", "repeat", "move", "level", "evidence", "modules", "count",
             "measure"]
        )
    )  # fmt: skip
    lists = {"rules": list(record.rules), "fatal": list(record.fatal), "judge": list(record.judge)}
    update: dict[str, Any] = {}
    name = draw(st.sampled_from(["rules", "fatal", "judge"]))
    items: list[Any] = lists[name]
    if what == "task":
        update["task"] = draw(st.sampled_from([*tasks[:8], "no-such-task"]))
    elif what == "run":
        update["run"] = draw(st.integers(1, 5))
    elif what == "status":
        update["status"] = draw(st.sampled_from(["valid", "incomplete"]))
    elif what == "cause":
        update["cause"] = draw(st.sampled_from([None, "environment-startup", "no-such-cause"]))
    elif what == "delivery":
        update["delivery"] = not record.delivery
    elif what == "judge_valid":
        update["judge_valid"] = draw(st.sampled_from([None, True, False]))
    elif what == "failure":
        update["failure_type"] = draw(
            st.sampled_from([None, "missing-deliverable", "semantic-quality", "no-such-type"])
        )
    elif what == "drop" and items:
        items.pop(draw(st.integers(0, len(items) - 1)))
    elif what == "add":
        items.append(_judge(draw) if name == "judge" else _rule(draw))
    elif what == "repeat" and items:
        items.append(items[draw(st.integers(0, len(items) - 1))])
    elif what == "move" and lists["rules"]:
        lists["fatal"].append(lists["rules"].pop(0))
    elif what == "level" and lists["judge"]:
        i = draw(st.integers(0, len(lists["judge"]) - 1))
        level = draw(st.one_of(st.integers(0, 9), st.sampled_from([0.5, 2.25, 9.5])))
        lists["judge"][i] = lists["judge"][i].model_copy(update={"level": level})
    elif what == "evidence" and lists["judge"]:
        i = draw(st.integers(0, len(lists["judge"]) - 1))
        cited = tuple(draw(st.lists(st.sampled_from(IDS), max_size=3)))
        lists["judge"][i] = lists["judge"][i].model_copy(update={"evidence": cited})
    elif what == "count":
        update[draw(st.sampled_from(["input_tokens", "output_tokens", "duration_s", "turns"]))] = (
            None
        )
    elif what == "measure":  # the example declares no measured metric
        update["measures"] = (Measure(id=draw(st.sampled_from(["cost", "turns"])), value=1.0),)
    elif what == "modules":
        update["modules_failed"] = tuple(draw(st.lists(st.sampled_from(MODULES), max_size=2)))
    update.update({k: tuple(v) for k, v in lists.items()})
    return record.model_copy(update=update)


@settings(
    max_examples=examples(300),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_column_checks_equal_the_per_record_rules(example_v1: Any, data: st.DataObject) -> None:
    release, catalog, bundles, records_by_bundle = example_v1
    name = data.draw(st.sampled_from(sorted(bundles)))
    loaded: LoadedBundle = bundles[name]
    records = list(records_by_bundle[name])
    tasks = sorted({t.id for t in catalog.tasks})
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(records) - 1))
        records[i] = _damage(records[i], data.draw, tasks)
    lines = list(range(2, len(records) + 2))
    damaged = dataclasses.replace(loaded, runs=columns_from_records(records, lines))
    expected = sorted(check_runs_reference(release, catalog, damaged, records, lines))
    found = sorted(check_runs(release, catalog, damaged))
    assert found == expected


def test_the_example_has_what_the_damage_needs(example_v1: Any) -> None:
    _, catalog, _, _ = example_v1
    assert any(t.scoring.modules for t in catalog.tasks)
    assert any(j.evidence for t in catalog.tasks for j in t.scoring.judge_items)
    assert any(i.fatal for t in catalog.tasks for i in t.scoring.rule_items)


@pytest.mark.parametrize("length", [128, 300])
def test_long_lists_are_checked_like_short_ones(example_v1: Any, length: int) -> None:
    """Positions past 127 (stored in a wider integer type) name the right items, and
    evidence is matched to its verdict there too; 128 items is the edge of int8."""
    release, catalog, bundles, records_by_bundle = example_v1
    cited = {(t.id, j.id): j.evidence for t in catalog.tasks for j in t.scoring.judge_items}
    name, i = next(
        (name, k)
        for name in sorted(bundles)
        for k, r in enumerate(records_by_bundle[name])
        if r.status == "valid" and any(cited.get((r.task, j.id)) for j in r.judge)
    )
    records = list(records_by_bundle[name])
    record = records[i]
    judge = next(j for j in record.judge if cited.get((record.task, j.id)))
    extra = [
        judge.model_copy(update={"evidence": ("E9",) if k == length - 1 else ()})
        for k in range(len(record.judge), length)
    ]
    rules = [record.rules[0]] * (length - len(record.rules))
    records[i] = record.model_copy(
        update={"judge": (*record.judge, *extra), "rules": (*record.rules, *rules)}
    )
    lines = list(range(2, len(records) + 2))
    damaged = dataclasses.replace(bundles[name], runs=columns_from_records(records, lines))
    found = sorted(check_runs(release, catalog, damaged))
    assert found == sorted(check_runs_reference(release, catalog, damaged, records, lines))
    assert any(p.field == f"judge[{length - 1}].evidence" for p in found)
    assert any(p.field == f"rules[{length - 1}].id" for p in found)


def test_items_passed_in_give_the_problems_of_items_built_here(example_v1: Any) -> None:
    """One catalog_items for all bundles reports what each bundle's own would, here on a
    bundle whose records name failed modules and repeat items."""
    release, catalog, bundles, records_by_bundle = example_v1
    items = catalog_items(catalog)
    assert len(bundles) == 5  # v1.0's five bundles
    for name, loaded in sorted(bundles.items()):
        records = list(records_by_bundle[name])
        records[0] = records[0].model_copy(
            update={"rules": (*records[0].rules, records[0].rules[0]), "modules_failed": ("x",)}
        )
        lines = list(range(2, len(records) + 2))
        damaged = dataclasses.replace(loaded, runs=columns_from_records(records, lines))
        shared = list(check_runs(release, catalog, damaged, items))
        assert shared == list(check_runs(release, catalog, damaged))
        assert shared


def test_a_clean_bundle_has_no_problem(small: Any) -> None:
    assert list(check_runs(small.release, small.catalog, small.loaded(small.full()))) == []


def test_each_record_stops_at_the_first_section_it_fails(small: Any) -> None:
    """Located at the runs file's line; an unknown task's items and a repeated run's fields
    are not looked at, a dual-channel run without its Judge result gets no item or outcome
    problem, and a record with an item problem no outcome problem."""
    twice = [small.rule("R1"), small.rule("R1")]
    failed = [small.rule("R1"), small.rule("R2", False)]
    records = [
        small.record("t1"),
        small.record("t1", rules=twice).model_copy(update={"task": "t9"}),  # keys
        small.record("t1", status="incomplete"),  # keys: (t1, 1) again, and no cause
        small.record("t2", judge=[small.judge("J1", 9)], judge_valid=False),  # fields
        small.record("t1", 2, rules=twice),  # items, and it did not succeed
        small.record("t2", 2, rules=failed),  # outcome: no failure type
    ]
    problems = list(check_runs(small.release, small.catalog, small.loaded(records)))
    assert [(p.path, p.line, p.field) for p in problems] == [
        (small.runs_path, 3, "task"),
        (small.runs_path, 4, "run"),
        (small.runs_path, 5, "judge_valid"),
        (small.runs_path, 6, "rules[0].id"),
        (small.runs_path, 6, "rules[1].id"),
        (small.runs_path, 6, "rules"),
        (small.runs_path, 7, "failure_type"),
    ]
    assert all(isinstance(p, Problem) and p.severity == "error" for p in problems)


def test_completeness_is_judged_only_for_clean_records(small: Any) -> None:
    """A bundle short of runs is told so when its records are clean; while some record has
    a problem, or lines of the runs file were rejected, the counts would be wrong."""
    short = [r for r in small.full() if (r.task, r.run) != ("t1", 2)]
    loaded = small.loaded(short)
    [problem] = check_runs(small.release, small.catalog, loaded)
    assert (problem.path, problem.line, problem.field) == (
        small.bundle_path,
        small.evaluation_line,
        "evaluation",
    )
    rejected = dataclasses.replace(loaded, runs_clean=False)
    assert list(check_runs(small.release, small.catalog, rejected)) == []
    broken = [*short, small.record("t1", 2, cause="crash")]  # a valid run with a cause
    assert [p.field for p in check_runs(small.release, small.catalog, small.loaded(broken))] == [
        "cause"
    ]
