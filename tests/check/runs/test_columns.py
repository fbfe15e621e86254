"""What every section of the run checks reads (:mod:`generator.check.runs.columns`): the
records and their verdicts as named columns, each verdict with the item of its id declared by
its record's task, and the problems found, by record."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from generator.check.runs import catalog_items
from generator.check.runs.columns import Found, Labels, run_checks
from generator.protocol.outcome import FATAL, JUDGE, RULE


def test_labels_read_a_categorical_column() -> None:
    labels = Labels(pd.Series(["b", None, "a", "b"], dtype="category"))
    assert [labels[r] for r in range(4)] == ["b", None, "a", "b"]
    assert labels.present().tolist() == [True, False, True, True]
    assert labels.among(["b", "z"]).tolist() == [True, False, False, True]
    assert labels.among([]).tolist() == [False] * 4


def test_found_keeps_problems_by_record_in_order() -> None:
    found = Found()
    found.add(np.array([3, 1]), "task", lambda r: f"row {r}")
    found.add(np.array([3]), "run", "fixed text")
    found.item(1, "rules[0].id", "an item")
    assert found.by_row == {
        3: [("task", "row 3"), ("run", "fixed text")],
        1: [("task", "row 1"), ("rules[0].id", "an item")],
    }
    assert found.item_rows == {1}  # only item problems stop the outcome check


def test_records_name_their_task_and_its_declaration(small: Any) -> None:
    records = [
        small.record("t2"),
        small.record("t1", 2, status="incomplete", cause="crash", delivery=False),
        small.record("t1").model_copy(update={"task": "t9", "judge_valid": False}),
    ]
    runs = small.checks(records)
    got = runs.records
    codes = {t.id: k for k, t in enumerate(small.catalog.tasks)}
    assert len(got) == 3
    assert got.line.tolist() == small.lines(3)
    assert [got.task[r] for r in range(3)] == ["t2", "t1", "t9"]
    assert got.code.tolist() == [codes["t2"], codes["t1"], -1]
    assert got.run.tolist() == [1, 2, 1]
    assert got.valid.tolist() == [True, False, True]
    assert [got.cause[r] for r in range(3)] == [None, "crash", None]
    assert got.delivery.tolist() == [True, False, True]
    assert got.judge_valid[0] == 1
    assert math.isnan(got.judge_valid[1])  # not recorded
    assert got.judge_valid[2] == 0
    assert got.dual.tolist() == [True, False, False]
    for name in ("input_tokens", "output_tokens", "duration_s", "turns"):
        assert got.counts[name].tolist() == [float(getattr(r, name)) for r in records]
    per_task = np.array([10, 20, 30])
    assert got.per_task(per_task).tolist() == [20, 10, 0]  # an unknown task reads zero


def test_each_verdict_finds_the_item_its_task_declares(small: Any) -> None:
    """Each verdict: its list and position, its id, and the item of that id in its record's
    task (t2 here, whose items share ids with t1's), with that item's own kind."""
    rules = [small.rule("R1"), small.rule("F1"), small.rule("J1"), small.rule("R9", False)]
    records = [small.record("t1"), small.record("t2", rules=rules, judge=[small.judge("J2", 0)])]
    runs = small.checks(records)
    index, verdicts = runs.catalog.index, runs.verdicts
    assert len(verdicts) == sum(len(r.rules) + len(r.fatal) + len(r.judge) for r in records)
    second = {
        (int(verdicts.kind[i]), int(verdicts.pos[i])): i
        for i in np.flatnonzero(verdicts.row == 1).tolist()
    }
    t2 = index.task_code["t2"]
    declared = {index.id[k]: (k, int(index.kind[k])) for k in np.flatnonzero(index.task == t2)}
    expected = {
        (RULE, 0): ("R1", 1, *declared["R1"]),
        (RULE, 1): ("F1", 1, *declared["F1"]),
        (RULE, 2): ("J1", 1, *declared["J1"]),
        (RULE, 3): ("R9", 0, -1, -1),  # t2 declares no R9
        (FATAL, 0): ("F1", 1, *declared["F1"]),
        (JUDGE, 0): ("J2", 0, *declared["J2"]),
    }
    assert {
        key: (verdicts.id[i], int(verdicts.value[i]), int(verdicts.item[i]),
              int(verdicts.item_kind[i]))
        for key, i in second.items()
    } == expected  # fmt: skip
    assert declared["F1"][1] == FATAL
    assert declared["J1"][1] == JUDGE


def test_a_scope_not_covered_marks_its_tasks(small: Any) -> None:
    catalog = [(t.domain, t.subdivision) for t in small.catalog.tasks]
    for declared in ({"domain": "office"}, {"domain": "office", "subdivision": "b"}):
        runs = small.checks([], not_covered=[{**declared, "reason": "no adapter"}])
        expected = [
            d == declared["domain"] and declared.get("subdivision", s) == s for d, s in catalog
        ]
        assert runs.uncovered.tolist() == expected
        assert any(expected)
        assert not all(expected)


def test_run_checks_keeps_what_it_is_given(small: Any) -> None:
    items = catalog_items(small.catalog)
    loaded = small.loaded([small.record("t1")])
    runs = run_checks(small.release, items, loaded)
    assert (runs.release, runs.catalog, runs.loaded) == (small.release, items, loaded)


def test_each_measure_keeps_its_record_position_and_value(profiled: Any) -> None:
    records = [profiled.record("j1"), profiled.record("t1", measures=[]), profiled.record("m1")]
    measures = profiled.checks(records).measures
    expected = [
        (row, pos, m.id, m.value)
        for row, r in enumerate(records)
        for pos, m in enumerate(r.measures)
    ]
    assert len(measures) == len(expected)
    got = zip(measures.row, measures.pos, range(len(measures)), measures.value, strict=True)
    assert [(int(r), int(p), measures.id[i], float(v)) for r, p, i, v in got] == expected
    counts = profiled.checks(records).records.counts
    assert np.isnan(counts["input_tokens"]).all()  # the profiled records leave them out


def test_a_task_set_left_out_marks_only_the_tasks_of_no_other_set(small: Any) -> None:
    """A bundle that leaves the Full set out still covers the tasks that are in Lite too."""
    tasks = tuple(
        t.model_copy(update={"sets": ("lite", "full") if i % 2 == 0 else ("full",)})
        for i, t in enumerate(small.catalog.tasks)
    )
    catalog = small.catalog.model_copy(update={"tasks": tasks})
    left = [{"domain": "office", "task_set": "full", "reason": "Lite only"}]
    runs = run_checks(small.release, catalog_items(catalog), small.loaded([], not_covered=left))
    expected = [t.domain == "office" and t.sets == ("full",) for t in tasks]
    assert runs.uncovered.tolist() == expected
    assert any(expected)
    assert not all(expected)
