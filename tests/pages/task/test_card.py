"""A public task's own tables against its catalog entry and its rows in the report."""

from __future__ import annotations

import re

from pagetools import TASKS

from generator.models.catalog import JudgeItem, RuleItem
from generator.pages import VersionContext
from generator.pages.task.card import (
    composition,
    evidence_table,
    metadata_table,
    results_table,
    scoring_table,
)
from generator.score.rounding import fixed


def test_the_scoring_table_has_every_item_of_its_kind(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    tasks = 0
    for ctx in [small, *contexts]:
        for task in ctx.public_tasks():
            tasks += 1
            table = scoring_table(task)
            items: list[RuleItem | JudgeItem] = [
                *task.scoring.rule_items,
                *task.scoring.judge_items,
            ]
            assert [r.record["item"] for r in table.rows] == [i.id for i in items]
            for row, item in zip(table.rows, items, strict=True):
                if isinstance(item, JudgeItem):
                    assert row.record["kind"] == "judge"
                    assert row.record["max_level"] == item.max_level
                    assert row.record["evidence"] == list(item.evidence)
                else:
                    assert row.record["kind"] == ("fatal rule item" if item.fatal else "rule item")
                    assert "max_level" not in row.record
    assert tasks == 48  # the public tasks: six in the small version, 20 in v1.0, 22 in v1.1


def test_composition_counts_the_items_and_states_the_formula(small: VersionContext) -> None:
    for spec in TASKS:
        task = small.tasks[spec["id"]]
        text = composition(task)
        items = spec["scoring"]["rule_items"]
        fatal = sum(bool(i.get("fatal")) for i in items)
        assert text.startswith(f"{len(items) - fatal} ordinary rule item(s)")
        assert f", {fatal} fatal item(s)" in text
        judge = spec["scoring"].get("judge_items", [])
        if judge:
            w = spec["scoring"]["rule_weight"]
            assert f"{len(judge)} Judge item(s)" in text
            assert f"S = {w:g}·R + {1 - w:g}·J" in text
        else:
            assert "Rule-only: S = R" in text


def test_the_results_table_is_the_task_s_rows_of_the_report(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    tasks = 0
    for ctx in [small, *contexts]:
        for task in ctx.public_tasks():
            tasks += 1
            rows = [r for rep in ctx.reports.values() for r in rep.tasks if r.task == task.id]
            table = results_table(ctx, task)
            assert [r.record for r in table.rows] == [
                r.model_dump(include=set(table.rows[0].record)) for r in rows
            ]
            for row, r in zip(table.rows, rows, strict=True):
                if r.status == "scored":
                    assert row.cells[1].text == fixed(r.score, 3)
                else:
                    assert row.cells[1].text == r.status.replace("-", " ")
    assert tasks == 48  # the public tasks: six in the small version, 20 in v1.0, 22 in v1.1


def test_metadata_names_each_factor_by_its_title(contexts: list[VersionContext]) -> None:
    ctx = contexts[0]
    difficulties = {d.id: d.title for d in ctx.release.enumerations.difficulty_tiers}
    tasks = ctx.public_tasks()
    assert len(tasks) == 20  # v1.0's public tasks
    for task in tasks:
        entries = {r.record["field"]: r.record["value"] for r in metadata_table(ctx, task).rows}
        domain = next(d for d in ctx.release.domains if d.id == task.domain)
        assert entries["Domain"] == domain.title
        assert entries["Difficulty"] == difficulties.get(task.difficulty, task.difficulty)
        assert entries["Group"] == "public"
        b = task.budgets
        assert [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", entries["Budgets"])] == [
            b.timeout_s,
            b.max_steps,
            b.max_tokens,
        ]


def test_the_evidence_table_only_with_evidence(contexts: list[VersionContext]) -> None:
    with_evidence = 0
    for task in contexts[0].public_tasks():
        table = evidence_table(task)
        if not task.scoring.evidence:
            assert table is None
            continue
        with_evidence += 1
        assert table is not None
        assert [r.record["id"] for r in table.rows] == [e.id for e in task.scoring.evidence]
    assert 0 < with_evidence < len(contexts[0].public_tasks())
