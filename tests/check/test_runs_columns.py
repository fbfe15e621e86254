"""The column checks of run records report exactly what the per-record rules report.

Hypothesis damages records of the example (which has fatal items, modules, designated
evidence, rule-only and dual-channel tasks, not-covered scopes) in the ways a submitter's
pipeline might, and both checkers must return the same problems, line by line.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from builders import read_records
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_runs import check_runs_reference

from generator.check.runs import check_runs, repeat_counts
from generator.load import LoadedBundle, load_inputs
from generator.load.records import columns_from_records
from generator.models import RunRecord
from generator.models.runs import JudgeVerdict, RuleVerdict

REPO = Path(__file__).resolve().parents[2]
IDS = ["R01", "R02", "R03", "R09", "R30", "F01", "F02", "J01", "J02", "J05", "E1", "E9"]
MODULES = ["turn-1", "turn-2", "turn-3", "turn-9", "m1"]


@pytest.fixture(scope="module")
def example() -> Any:
    inputs, _ = load_inputs(REPO)
    version = next(v for v in inputs.releases if v.folder == "v1.0")
    assert version.release is not None
    assert version.catalog is not None
    bundles = {b.folder: b for b in version.bundles}
    records = {name: read_records(REPO / b.runs_path) for name, b in bundles.items()}
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
             "drop", "add", "repeat", "move", "level", "evidence", "modules"]
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
        lists["judge"][i] = lists["judge"][i].model_copy(update={"level": draw(st.integers(0, 9))})
    elif what == "evidence" and lists["judge"]:
        i = draw(st.integers(0, len(lists["judge"]) - 1))
        cited = tuple(draw(st.lists(st.sampled_from(IDS), max_size=3)))
        lists["judge"][i] = lists["judge"][i].model_copy(update={"evidence": cited})
    elif what == "modules":
        update["modules_failed"] = tuple(draw(st.lists(st.sampled_from(MODULES), max_size=2)))
    update.update({k: tuple(v) for k, v in lists.items()})
    return record.model_copy(update=update)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_column_checks_equal_the_per_record_rules(example: Any, data: st.DataObject) -> None:
    release, catalog, bundles, records_by_bundle = example
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


def test_the_example_has_what_the_damage_needs(example: Any) -> None:
    _, catalog, _, _ = example
    assert any(t.scoring.modules for t in catalog.tasks)
    assert any(j.evidence for t in catalog.tasks for j in t.scoring.judge_items)
    assert any(i.fatal for t in catalog.tasks for i in t.scoring.rule_items)


@pytest.mark.parametrize("length", [128, 300])
def test_long_lists_are_checked_like_short_ones(example: Any, length: int) -> None:
    """Positions past 127 (stored in a wider integer type) name the right items, and
    evidence is matched to its verdict there too; 128 items is the edge of int8."""
    release, catalog, bundles, records_by_bundle = example
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


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 50), max_size=40), st.sampled_from([51, 10**9]))
def test_repeat_counts_in_place_and_by_hashing(keys: list[int], scale: int) -> None:
    """Both ways of counting repeats (a dense count for a small range of keys, hashing for
    a large one) give each key's number of occurrences."""
    values = np.array(keys, dtype=np.int64) * (scale // 51)
    bound = 51 * (scale // 51)
    expected = [keys.count(k) for k in keys]
    assert repeat_counts(values, bound).tolist() == expected
