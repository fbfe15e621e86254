"""The per-run and per-item tables of the public tasks against the run records themselves."""

from __future__ import annotations

import json
from statistics import mean

import pytest
from pagetools import row_texts, small_runs

from generator.models import RunRecord
from generator.models.catalog import JudgeItem, RuleItem
from generator.pages import VersionContext
from generator.pages.blocks.cells import display_names
from generator.pages.task.runs import (
    RUNS_INLINE,
    breakdown_table,
    cited_table,
    efficiency_table,
    runs_table,
    task_tables,
)


def _published(ctx: VersionContext) -> dict[str, list[RunRecord]]:
    return {c: r for c, r in small_runs().items() if c in ctx.frame.bundles}


def test_the_runs_table_holds_every_published_run_of_the_task(small: VersionContext) -> None:
    bulk = task_tables(small)
    runs = _published(small)
    assert "hidden" in small_runs()
    assert "hidden" not in runs
    tasks = small.public_tasks()
    assert [t.id for t in tasks] == ["e1", "e2", "t1", "t2", "t3", "t4"]
    for task in tasks:
        table = runs_table(task, bulk)
        records = json.loads(table.to_json())["rows"]
        want = sorted(
            ((c, r) for c, records in runs.items() for r in records if r.task == task.id),
            key=lambda cr: (cr[0], cr[1].run),
        )
        assert [(r["combination"], r["run"]) for r in records] == [(c, r.run) for c, r in want]
        for got, (_, r) in zip(records, want, strict=True):
            if r.status != "valid":
                assert got["status"].startswith("evaluation-incomplete")
                assert got["delivery"] is None
                assert got["success"] is None
                continue
            assert got["status"] == "valid"
            assert got["delivery"] is r.delivery
            ordinary = [v.passed for v in r.rules]
            if not task.scoring.judge_items and not r.fatal:
                assert got["rule"] == pytest.approx(sum(ordinary) / len(ordinary), abs=1e-6)
                assert got["score"] == got["rule"]
        assert table.total == len(want)
        assert table.paged == (len(want) > RUNS_INLINE)
        names = display_names(small)  # the same harness × model: each with its id
        assert [row[0] for row in row_texts(table.rows_html())] == [names[c] for c, _ in want]
        assert len(set(names.values())) == len(names)


def test_each_verdict_counts_the_valid_runs_that_pass_it(small: VersionContext) -> None:
    bulk = task_tables(small)
    runs = _published(small)
    checked = 0
    for task in small.public_tasks():
        table = breakdown_table(small, task, bulk)
        combos = [r.combination for r in small.task_rows[task.id]]
        assert list(table.columns[3:]) == [display_names(small)[c] for c in combos]
        rows = row_texts(table.rows_html())
        items: list[RuleItem | JudgeItem] = [*task.scoring.rule_items, *task.scoring.judge_items]
        assert [row[0] for row in rows] == [i.id for i in items]
        for row, item in zip(rows, items, strict=True):
            for combo, cell in zip(combos, row[3:], strict=True):
                valid = [r for r in runs[combo] if r.task == task.id and r.status == "valid"]
                if isinstance(item, JudgeItem):
                    levels = [j.level for r in valid for j in r.judge if j.id == item.id]
                    assert cell == f"{mean(levels):.2f} of {item.max_level}"
                    continue
                verdicts = [
                    v.passed for r in valid for v in (*r.rules, *r.fatal) if v.id == item.id
                ]
                assert cell == f"{sum(verdicts)} of {len(valid)}", (task.id, combo, item.id)
                checked += 1
    assert checked


def test_efficiency_is_the_mean_over_valid_runs(small: VersionContext) -> None:
    bulk = task_tables(small)
    runs = _published(small)
    tasks = small.public_tasks()
    assert [t.id for t in tasks] == ["e1", "e2", "t1", "t2", "t3", "t4"]
    for task in tasks:
        table = efficiency_table(task, bulk)
        assert table.rows
        for row in table.rows:
            valid = [
                r
                for r in runs[row.record["combination"]]
                if r.task == task.id and r.status == "valid"
            ]
            assert row.record["valid_runs"] == len(valid)
            assert row.record["input_tokens"] == pytest.approx(mean(r.input_tokens for r in valid))
            assert row.record["turns"] == pytest.approx(mean(r.turns for r in valid))


def test_cited_evidence_is_listed_where_valid_runs_cite_some(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    tasks = small.public_tasks()
    assert [t.id for t in tasks] == ["e1", "e2", "t1", "t2", "t3", "t4"]
    assert all(cited_table(t, task_tables(small)) is None for t in tasks)
    ctx = contexts[0]
    bulk = task_tables(ctx)
    listed = 0
    for task in ctx.public_tasks():
        table = cited_table(task, bulk)
        cited = ctx.cited.get(task.id, {})
        assert (table is None) == (not cited)
        if table is not None:
            assert [
                ((r.record["combination"], r.record["item"]), r.record["evidence_cited"])
                for r in table.rows
            ] == list(cited.items())
            listed += 1
    assert listed


def test_tables_of_some_tasks_are_those_of_all(contexts: list[VersionContext]) -> None:
    ctx = contexts[0]
    whole = task_tables(ctx)
    tasks = ctx.public_tasks()
    some = [t.id for t in tasks[::3]]
    part = task_tables(ctx, some)
    assert 1 < len(some) < len(tasks)
    for task in tasks:
        if task.id not in some:
            assert task.id not in part.run_files
            continue
        for make in (breakdown_table,):
            assert make(ctx, task, part).to_html("x") == make(ctx, task, whole).to_html("x")
            assert make(ctx, task, part).to_csv() == make(ctx, task, whole).to_csv()
        for table in (runs_table, efficiency_table):
            assert table(task, part).to_json() == table(task, whole).to_json()
            assert table(task, part).rows_html() == table(task, whole).rows_html()


def test_the_runs_note_says_how_s_is_made_in_each_mode() -> None:
    """Rule-only and dual-channel as before; judge-only S = J; a measure task names its
    metric and failure value (all from the task's scoring block)."""
    from builders import task

    from generator.models import Task
    from generator.pages.task.pages import TaskTables
    from generator.pages.task.runs import runs_table

    judged = task("j", judge=(10,))
    judged["scoring"].update(mode="judge-only", rule_weight=None, rule_items=[])
    measured = task("m")
    measured["scoring"].update(mode="measure", rule_items=[], measure="cost", failure_value=9e4)
    empty = TaskTables.__new__(TaskTables)
    object.__setattr__(empty, "run_files", {})
    notes = {
        t["id"]: runs_table(Task.model_validate(t), empty).note
        for t in (task("r"), judged, measured)
    }
    assert notes["r"].startswith("S = 0 when D or a fatal item fails, else R or w·R + (1 − w)·J")
    assert notes["j"].startswith("S = J, 0 when D or a fatal item fails")
    assert notes["m"].startswith(
        "S is the run's cost in its own unit (not scaled), or the failure value 90000"
    )
