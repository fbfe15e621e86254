"""The catalog's items as the run checks use them (:func:`generator.check.runs.catalog_items`),
built once per catalog: every declared item, what the run outcome needs of each task (its
scoring mode, w, all-or-nothing, §4.3(1), (3)), the items of each module (§4.2(1)) and the
items that designate evidence (§4.3(2))."""

from __future__ import annotations

from typing import Any

from generator.check.runs import catalog_items
from generator.load import Inputs
from generator.protocol.outcome import FATAL, JUDGE, RULE


def _key(items: Any, task: str, item: str) -> int:
    index = items.index
    return int(index.table[index.task_code[task], index.id_code[item]])


def test_each_task_declares_its_scoring(small: Any) -> None:
    items = catalog_items(small.catalog)
    scorings = [t.scoring for t in small.catalog.tasks]
    assert items.tasks.dual.tolist() == [s.mode == "dual-channel" for s in scorings]
    assert items.modes == [s.mode for s in scorings]
    # w for a dual-channel task; a rule-only task's Task Score is R alone (§4.3(3))
    assert items.tasks.rule_weight.tolist() == [s.rule_weight or 1.0 for s in scorings]
    assert items.tasks.all_or_nothing.tolist() == [
        s.rule_scoring == "all-or-nothing" for s in scorings
    ]
    counts = [
        [
            sum(not i.fatal for i in s.rule_items),
            sum(i.fatal for i in s.rule_items),
            len(s.judge_items),
        ]
        for s in scorings
    ]
    assert items.tasks.items[:, [RULE, FATAL, JUDGE]].tolist() == counts
    assert items.scopes == [(t.domain, t.subdivision) for t in small.catalog.tasks]


def test_each_item_with_its_kind_levels_and_evidence(small: Any) -> None:
    items = catalog_items(small.catalog)
    rules, judges = 0, 0
    for task in small.catalog.tasks:
        for rule in task.scoring.rule_items:
            k = _key(items, task.id, rule.id)
            assert items.items.kind[k] == (FATAL if rule.fatal else RULE)
            assert (items.items.max_level[k], items.items.pass_level[k]) == (1, 1)
            assert not items.designates[k]
            rules += 1
        for judge in task.scoring.judge_items:
            k = _key(items, task.id, judge.id)
            assert items.items.kind[k] == JUDGE
            assert items.items.max_level[k] == judge.max_level
            assert items.items.pass_level[k] == judge.passing_level
            assert items.designates[k] == bool(judge.evidence)
            judges += 1
    assert items.designates.sum() == 1  # J1 of t2
    assert (rules, judges) == (8, 2)


def test_module_items_and_ranks_within_a_task(small: Any) -> None:
    """m1 of t2 holds R2 and J2; each item's rank among its task's items is below the widest
    task's item count, so (record, rank) names an item once within a record."""
    items = catalog_items(small.catalog)
    t2 = items.index.task_code["t2"]
    assert {key: keys.tolist() for key, keys in items.module_items.items()} == {
        (t2, "m1"): [_key(items, "t2", "R2"), _key(items, "t2", "J2")]
    }
    sizes = [len(t.scoring.rule_items) + len(t.scoring.judge_items) for t in small.catalog.tasks]
    assert items.width == max(sizes)
    for code, size in enumerate(sizes):
        assert sorted(items.local[items.index.task == code].tolist()) == list(range(size))


def test_module_items_are_the_items_each_task_declares_in_each_module(inputs: Inputs) -> None:
    assert len(inputs.releases) == 2  # v1.0 and v1.1
    for version in inputs.releases:
        assert version.catalog is not None
        catalog = version.catalog.model
        items = catalog_items(catalog)
        index = items.index
        expected = {
            (code, module.id): sorted(
                index.table[code, index.id_code[i.id]]
                for i in (*t.scoring.rule_items, *t.scoring.judge_items)
                if i.module == module.id
            )
            for code, t in enumerate(catalog.tasks)
            for module in t.scoring.modules
        }
        found = {key: sorted(keys.tolist()) for key, keys in items.module_items.items()}
        assert found == {key: keys for key, keys in expected.items() if keys}
        assert any(found.values())


def test_judge_only_tasks_have_a_judge_channel_and_measure_tasks_their_metric(
    profiled: Any,
) -> None:
    items = catalog_items(profiled.catalog)
    scorings = [t.scoring for t in profiled.catalog.tasks]
    assert {s.mode for s in scorings} == {"measure", "judge-only", "rule-only"}
    assert items.tasks.dual.tolist() == [s.mode == "judge-only" for s in scorings]
    assert items.measure == [s.measure for s in scorings]
    assert items.failure_value == [s.failure_value for s in scorings]
