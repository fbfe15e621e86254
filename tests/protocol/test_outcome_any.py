"""The run outcome on columns (:mod:`generator.protocol.outcome`) equals the per-record
oracle (``tests/outcome_oracle.py``) for any tasks and records hypothesis draws: every scoring
mode, judged overall items, non-integer Judge levels, measured values present or not, several
tasks at once."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from budget import examples
from builders import task
from hypothesis import given, settings
from hypothesis import strategies as st
from outcome_columns import outcomes_on_columns
from outcome_oracle import run_outcome

from generator.models import RunRecord, Task

MODES = ("rule-only", "dual-channel", "judge-only", "measure")
JUDGED = ("dual-channel", "judge-only")
MEASURED = "cost"  # the measured metric of every measure task drawn


@st.composite
def any_task(draw: st.DrawFn, tid: str) -> Task:
    """A task of any mode: 0-5 ordinary items (1-5 on rule-only and dual-channel tasks),
    0-2 fatal ones and, on a Judge-enabled task, 1-4 Judge items and perhaps a judged
    overall, some items in one of 0-2 modules; a measure task scores in :data:`MEASURED`,
    with any failure value."""
    mode = draw(st.sampled_from(MODES))
    judged = mode in JUDGED
    judge = tuple(draw(st.lists(st.integers(1, 10), min_size=1, max_size=4))) if judged else ()
    spec = task(
        tid,
        rules=draw(st.integers(0 if mode in ("judge-only", "measure") else 1, 5)),
        fatal=draw(st.integers(0, 2)),
        judge=judge,
        weight=draw(st.sampled_from([0.0, 0.25, 0.5, 0.7, 1.0])),
    )
    scoring = spec["scoring"]
    scoring["mode"] = mode
    if mode == "judge-only":
        del scoring["rule_weight"]  # w = 0: S = J
    if mode == "measure":
        scoring["measure"] = MEASURED
        scoring["failure_value"] = draw(st.floats(-1e6, 1e6))
    if judged and draw(st.booleans()):
        top = draw(st.integers(1, 10))
        scoring["judge_items"].append({"id": "O", "title": "o", "max_level": top, "overall": True})
    modules = [f"m{k}" for k in range(draw(st.integers(0, 2)))]
    scoring["modules"] = [{"id": m, "title": m} for m in modules]
    ordinary = [i for i in scoring["rule_items"] if not i.get("fatal")]
    for item in [*ordinary, *scoring.get("judge_items", [])]:
        module = draw(st.sampled_from([None, *modules]))
        if module is not None:
            item["module"] = module
    for item in scoring.get("judge_items", []):
        item["pass_level"] = draw(st.integers(1, item["max_level"]))
    for item in [*ordinary, *scoring.get("judge_items", [])]:
        item["weight"] = draw(st.sampled_from([1.0, 1.0, 0.5, 2.0, 0.15]))
    if draw(st.booleans()):
        scoring["rule_scoring"] = "all-or-nothing"
    return Task.model_validate(spec)


@st.composite
def any_record(draw: st.DrawFn, t: Task, index: int) -> RunRecord:
    """A record of ``t``: any verdicts (each item at most once, some missing, in any order),
    Judge levels whole or not, failed modules, D, status, measured values (its task's metric
    or not, perhaps none); a Judge result whenever the oracle needs one. Half the records
    pass every ordinary and Judge item, so that D, a fatal item, a failed module or the Judge
    result alone decides their success."""
    s = t.scoring
    perfect = draw(st.booleans())

    def some(items: list[Any]) -> list[Any]:
        kept = [i for i in items if perfect or draw(st.integers(0, 4)) > 0]  # some missing
        return draw(st.permutations(kept))

    def passes(fatal: bool) -> bool:
        return draw(st.integers(0, 3)) > 0 if fatal else perfect or draw(st.booleans())

    def level(top: int) -> float:
        if perfect:
            return top
        return draw(st.one_of(st.integers(0, top), st.floats(0, top), st.sampled_from([top])))

    rules = [{"id": i.id, "pass": passes(i.fatal)} for i in some(list(s.rule_items))]
    judge = [{"id": j.id, "level": level(j.max_level)} for j in some(list(s.judge_items))]
    valid = draw(st.integers(0, 5)) > 0
    delivery = draw(st.integers(0, 3)) > 0
    passed = {r["id"] for r in rules if r["pass"]}
    modules = [m.id for m in s.modules]
    zeroed = not delivery or any(i.fatal and i.id not in passed for i in s.rule_items)
    judge_valid = None
    if s.mode in JUDGED:
        judge_valid = True if valid and not zeroed else draw(st.sampled_from([True, False, None]))
    metrics = draw(st.lists(st.sampled_from([MEASURED, "tokens"]), unique=True))
    return RunRecord.model_validate(
        {
            "task": t.id,
            "run": index,
            "seed": index,
            "status": "valid" if valid else "incomplete",
            "cause": None if valid else "crash",
            "delivery": delivery,
            "fatal": [r for r in rules if r["id"].startswith("F")],
            "rules": [r for r in rules if r["id"].startswith("R")],
            "modules_failed": draw(st.lists(st.sampled_from(modules), unique=True))
            if modules
            else [],
            "judge": judge,
            "judge_valid": judge_valid,
            "measures": [{"id": m, "value": draw(st.floats(-1e6, 1e6))} for m in metrics],
            "input_tokens": 1,
            "output_tokens": 1,
            "duration_s": 1.0,
            "turns": 1,
        }
    )


@st.composite
def tasks_and_records(draw: st.DrawFn) -> tuple[list[Task], list[RunRecord]]:
    tasks = [draw(any_task(f"t{k}")) for k in range(draw(st.integers(1, 3)))]
    picks = draw(st.lists(st.sampled_from(tasks), min_size=1, max_size=12))
    return tasks, [draw(any_record(t, k)) for k, t in enumerate(picks, 1)]


def _same(got: float, expected: float | None) -> bool:
    """A column's value equals the oracle's: NaN where it has none (None or NaN)."""
    if expected is None or np.isnan(expected):
        return bool(np.isnan(got))
    return bool(got == pytest.approx(expected, abs=1e-12))


@settings(max_examples=examples(400), deadline=None, derandomize=True, database=None)
@given(tasks_and_records())
def test_columns_equal_the_oracle_for_any_records(
    case: tuple[list[Task], list[RunRecord]],
) -> None:
    """Run by run, over several tasks at once: R, J, S, the judged overall, success and
    fatal failure as the oracle computes them; an evaluation-incomplete run gets no score,
    no overall and no success."""
    tasks, records = case
    out = outcomes_on_columns(tasks, records)
    by_id = {t.id: t for t in tasks}
    assert records  # tasks_and_records() draws one to twelve
    for k, record in enumerate(records):
        if record.status != "valid":
            assert np.isnan([out.rule[k], out.judge[k], out.score[k], out.overall[k]]).all()
            assert not out.success[k]
            assert not out.fatal_failed[k]
            continue
        expected = run_outcome(by_id[record.task], record)
        assert _same(out.rule[k], expected.rule)
        assert _same(out.judge[k], expected.judge)
        assert _same(out.score[k], expected.score)
        assert not np.isnan(out.score[k])
        assert _same(out.overall[k], expected.overall)
        assert bool(out.success[k]) == expected.success
        assert bool(out.fatal_failed[k]) == expected.fatal_failed
