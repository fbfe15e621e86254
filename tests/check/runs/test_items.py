"""Section 3 of the run checks (:func:`generator.check.runs.items.check_items`): a record's
item verdicts. The modules it names as failed are modules of its task, and none of their
items is recorded as passing (§4.2(1), §4.3(1): a missing module scores 0); each verdict names
an item of its own list (fatal items are recorded separately, §4.3(1)) once; a Judge level lies
within its item's levels 0..G (§4.3(2)). Missing verdicts and evidence have modules of their
own (test_missing.py, test_evidence.py)."""

from __future__ import annotations

from typing import Any

import numpy as np
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.check.runs import check_runs, repeat_counts
from generator.check.runs.columns import Found
from generator.check.runs.items import check_items


def _items(small: Any, records: list[Any], open_: list[bool] | None = None) -> list[Any]:
    runs = small.checks(records)
    found = Found()
    mask = np.ones(len(records), bool) if open_ is None else np.array(open_, bool)
    check_items(runs, mask, found)
    return small.reported(runs, found)


def _declared(small: Any, task: str, fatal: bool) -> list[str]:
    scoring = next(t.scoring for t in small.catalog.tasks if t.id == task)
    return sorted(i.id for i in scoring.rule_items if i.fatal == fatal)


def test_verdicts_that_keep_the_rules_pass(small: Any) -> None:
    runs = small.checks(small.full())
    found = Found()
    checks = check_items(runs, np.ones(len(runs.records), bool), found)
    assert small.reported(runs, found) == []
    assert checks.allowed.all()
    assert checks.in_open.all()
    # the Judge verdicts are those of t2's runs, two each
    assert checks.judge.sum() == 2 * small.release.runs_per_task


def test_a_failed_module_the_task_does_not_declare(small: Any) -> None:
    records = [
        small.record("t2", modules_failed=["m1"], rules=[small.rule("R1"), small.rule("R2", False)],
                     judge=[small.judge("J1", 4, "E1"), small.judge("J2", 0)]),
        small.record("t2", modules_failed=["m1", "m9"]),
        small.record("t1", modules_failed=["m1"]),
    ]  # fmt: skip
    problems = _items(small, records)
    assert [(p.line, p.field) for p in problems if "module of" in p.message] == [
        (3, "modules_failed[1]"),
        (4, "modules_failed[0]"),
    ]
    m9, t1 = (p for p in problems if "module of" in p.message)
    assert "'m9' is not a module of t2" in m9.message
    assert "['m1']" in m9.message
    assert "'m1' is not a module of t1" in t1.message
    assert "none declared" in t1.message


def test_an_item_of_a_failed_module_cannot_pass(small: Any) -> None:
    """m1 holds R2 and J2: named as failed, they score 0 (§4.2(1)), so a record that names
    m1 and still passes them contradicts itself; the other module's items are unaffected."""
    zeroed = [small.rule("R1"), small.rule("R2", False)]
    records = [
        small.record("t2", modules_failed=["m1"], rules=zeroed,
                     judge=[small.judge("J1", 4, "E1"), small.judge("J2", 0)]),
        small.record("t2", 2, modules_failed=["m1"]),
    ]  # fmt: skip
    problems = _items(small, records)
    assert [(p.line, p.field) for p in problems] == [(3, "rules[1]"), (3, "judge[1]")]
    assert all("failed module 'm1'" in p.message for p in problems)
    assert "'R2'" in problems[0].message
    assert "'J2'" in problems[1].message


def test_a_verdict_in_the_wrong_list(small: Any) -> None:
    """A fatal item listed among the ordinary rules is named, with where it belongs."""
    records = [
        small.record("t1", rules=[small.rule("R1"), small.rule("R2"), small.rule("F1")]),
        small.record("t1", rules=[small.rule("R1"), small.rule("R2"), small.rule("R7")]),
        small.record("t1", fatal=[small.rule("F1"), small.rule("R1")]),
    ]
    problems = _items(small, records)
    assert [(p.line, p.field) for p in problems] == [
        (2, "rules[2].id"),
        (3, "rules[2].id"),
        (4, "fatal[1].id"),
    ]
    ordinary, fatal = _declared(small, "t1", False), _declared(small, "t1", True)
    assert "list it under 'fatal'" in problems[0].message
    assert f"expected one of {ordinary}" in problems[0].message
    assert "'R7'" in problems[1].message
    assert "list it under" not in problems[1].message
    assert "list it under 'rules'" in problems[2].message
    assert f"expected one of {fatal}" in problems[2].message


def test_an_item_recorded_twice(small: Any) -> None:
    records = [small.record("t1", rules=[small.rule("R1"), small.rule("R2"), small.rule("R1")])]
    problems = _items(small, records)
    assert [(p.line, p.field) for p in problems] == [(2, "rules[0].id"), (2, "rules[2].id")]
    assert all("'R1' appears 2 times" in p.message for p in problems)


def test_a_judge_level_above_the_items_maximum(small: Any) -> None:
    judge_items = next(t.scoring.judge_items for t in small.catalog.tasks if t.id == "t2")
    top = {j.id: j.max_level for j in judge_items}
    records = [
        small.record("t2", judge=[small.judge("J1", top["J1"], "E1"), small.judge("J2", 0)]),
        small.record("t2", 2, judge=[small.judge("J1", top["J1"] + 1), small.judge("J2", 2)]),
    ]
    problems = _items(small, records)
    assert [(p.line, p.field) for p in problems] == [(3, "judge[0].level"), (3, "judge[1].level")]
    assert f"expected 0..{top['J1']}" in problems[0].message
    assert f"expected 0..{top['J2']}" in problems[1].message


def test_records_not_open_are_not_looked_at(small: Any) -> None:
    """Records that an earlier section stopped (an unknown task, a missing Judge result)
    get no item problems on top."""
    twice = [small.rule("R1"), small.rule("R1")]
    problems = _items(small, [small.record("t1", rules=twice)] * 2, open_=[False, True])
    assert {p.line for p in problems} == {3}


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(0, 50), max_size=40), st.sampled_from([51, 10**9]))
def test_repeat_counts_in_place_and_by_hashing(keys: list[int], scale: int) -> None:
    """Both ways of counting repeats (a dense count for a small range of keys, hashing for
    a large one) give each key's number of occurrences."""
    values = np.array(keys, dtype=np.int64) * (scale // 51)
    bound = 51 * (scale // 51)
    expected = [keys.count(k) for k in keys]
    assert repeat_counts(values, bound).tolist() == expected


def _failure(kit: Any) -> str:
    """A failure type of the release, for a run that did not succeed."""
    return str(kit.release.enumerations.failure_types[0].id)


def test_levels_are_whole_unless_the_release_allows_continuous_ones(
    profiled: Any, continuous: Any
) -> None:
    top = next(j.max_level for t in profiled.catalog.tasks for j in t.scoring.judge_items)
    between = profiled.judge("J1", 2.5)
    above = profiled.judge("J1", top + 0.5)
    records = [
        profiled.record(
            "j1", judge=[between, profiled.judge("J2", 1)], failure_type=_failure(profiled)
        ),
        profiled.record("j1", 2, judge=[above, profiled.judge("J2", 1)]),
    ]
    problems = sorted(check_runs(profiled.release, profiled.catalog, profiled.loaded(records)))
    assert [(p.line, p.field) for p in problems] == [(2, "judge[0].level"), (3, "judge[0].level")]
    assert problems[0].message == (
        f"2.5 is between levels; expected a whole level 0..{top}; this release does not "
        "allow continuous levels"
    )
    assert problems[1].message.startswith(f"{top + 0.5} is above J1's maximum")
    allowed = list(check_runs(continuous.release, continuous.catalog, continuous.loaded(records)))
    assert allowed == problems[1:]
