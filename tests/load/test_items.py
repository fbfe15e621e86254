"""The catalog's declared items as arrays (generator/load/items.py), against the catalog."""

from __future__ import annotations

import pandas as pd
from builders import catalog, task

from generator.load.items import FATAL, JUDGE, RULES, item_index
from generator.models import Catalog


def _catalog() -> Catalog:
    tasks = [
        task("t1", rules=2, fatal=1),
        task("t2", judge=(4, 1), rules=1),
        task("t3", rules=3),
    ]
    tasks[1]["scoring"]["judge_items"][0]["pass_level"] = 3
    tasks[1]["scoring"]["modules"] = [{"id": "m2", "title": "M"}, {"id": "m1", "title": "M"}]
    tasks[1]["scoring"]["rule_items"][0]["module"] = "m1"
    return catalog(tasks)


def test_every_declared_item_has_one_row_found_by_task_and_id() -> None:
    cat = _catalog()
    index = item_index(cat)
    declared = [
        (t.id, i.id) for t in cat.tasks for i in (*t.scoring.rule_items, *t.scoring.judge_items)
    ]
    assert len(index.id) == len(declared)
    for row, (tid, iid) in enumerate(declared):  # catalog order: rule items, then Judge items
        assert index.tasks[index.task[row]] == tid
        assert index.id[row] == iid
        assert index.table[index.task_code[tid], index.id_code[iid]] == row
    # an id a task does not declare finds no row, though another task declares it
    assert index.table[index.task_code["t1"], index.id_code["J1"]] == -1
    assert index.table[index.task_code["t2"], index.id_code["R3"]] == -1


def test_kinds_levels_modules_and_counts_follow_the_declarations() -> None:
    cat = _catalog()
    index = item_index(cat)
    judged = 0
    for t in cat.tasks:
        code = index.task_code[t.id]
        rows = [r for r in range(len(index.id)) if index.task[r] == code]
        fatal = [i.id for i in t.scoring.rule_items if i.fatal]
        ordinary = [i.id for i in t.scoring.rule_items if not i.fatal]
        judge = {j.id: j for j in t.scoring.judge_items}
        kinds = {str(index.id[r]): int(index.kind[r]) for r in rows}
        assert kinds == {
            **dict.fromkeys(ordinary, RULES),
            **dict.fromkeys(fatal, FATAL),
        } | dict.fromkeys(judge, JUDGE)
        assert index.counts[code].tolist() == [len(ordinary), len(fatal), len(judge)]
        assert index.allowed.get((t.id, RULES), []) == sorted(ordinary)
        assert index.modules[t.id] == sorted(m.id for m in t.scoring.modules)
        for r in rows:
            item = judge.get(str(index.id[r]))
            if item is not None:
                assert index.max_level[r] == item.max_level
                # §4.2(3): the pass level defaults to the top level
                want = item.max_level if item.pass_level is None else item.pass_level
                assert index.pass_level[r] == want
                judged += 1
    assert judged == 2  # the catalog's two Judge items
    t2 = index.task_code["t2"]
    r1 = int(index.table[t2, index.id_code["R1"]])
    assert index.module[r1] == "m1"
    j1 = int(index.table[t2, index.id_code["J1"]])
    assert (index.max_level[j1], index.pass_level[j1]) == (4, 3)


def test_the_index_depends_on_the_catalog_only() -> None:
    one, other = item_index(_catalog()), item_index(_catalog())  # equal catalogs
    assert (one.tasks, one.ids, one.allowed, one.modules) == (
        other.tasks,
        other.ids,
        other.allowed,
        other.modules,
    )


def test_task_codes_map_a_categorical_column_and_unknown_tasks_to_minus_one() -> None:
    index = item_index(_catalog())
    column = pd.Series(["t3", "zz", "t1", None, "t3"], dtype="category")
    codes = index.task_codes(column)
    want = [index.task_code.get(v, -1) if v is not None else -1 for v in column]
    assert codes.tolist() == want
    assert codes.tolist() == [2, -1, 0, -1, 2]
