"""The vectorised run scores equal the per-record formulas, on the example and on any data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from budget import examples
from builders import COST, catalog, profiled, read_records, release, run, task, version
from hypothesis import given, settings
from hypothesis import strategies as st
from outcome_oracle import run_outcome

from generator.load import load_inputs
from generator.models import RunRecord
from generator.score.frame import build_frame
from generator.score.runs import failed_verdicts, score_runs

REPO = Path(__file__).resolve().parents[2]


def _compare(loaded: Any, records: list[RunRecord] | None = None) -> int:
    scored = score_runs(build_frame(loaded))
    tasks = {t.id: t for t in loaded.catalog.model.tasks}
    if records is None:
        records = [r for b in loaded.bundles for r in read_records(REPO / b.runs_path)]
    assert len(records) == len(scored)
    checked = 0
    for record, (_, row) in zip(records, scored.iterrows(), strict=True):
        if record.status != "valid":
            assert np.isnan(row["score"])
            assert not row["success"]
            continue
        out = run_outcome(tasks[record.task], record)
        for column in ("score", "rule", "judge", "overall"):
            assert _same(row[column], getattr(out, column)), (column, record)
        assert bool(row["success"]) == out.success
        assert bool(row["fatal_failed"]) == out.fatal_failed
        checked += 1
    return checked


def _same(got: float, expected: float | None) -> bool:
    """A column's value equals the oracle's: NaN where the oracle has none (None or NaN)."""
    if expected is None or np.isnan(expected):
        return bool(np.isnan(got))
    return bool(got == expected or abs(got - expected) < 1e-12)


def test_example_scores_match_the_reference() -> None:
    inputs, _ = load_inputs(REPO)
    assert sum(_compare(v) for v in inputs.releases) > 600


@st.composite
def task_and_runs(draw: st.DrawFn) -> tuple[dict[str, Any], list[RunRecord]]:
    rules = draw(st.integers(1, 5))
    fatal = draw(st.integers(0, 2))
    judge = tuple(draw(st.lists(st.integers(1, 4), max_size=3)))
    spec = task(
        "t",
        rules=rules,
        fatal=fatal,
        judge=judge,
        weight=draw(st.sampled_from([0.0, 0.3, 0.5, 1.0])),
    )
    spec["scoring"]["modules"] = [{"id": "m", "title": "M"}]
    spec["scoring"]["rule_items"][0]["module"] = "m"
    if judge:
        spec["scoring"]["judge_items"][0]["module"] = "m"
        spec["scoring"]["judge_items"][-1]["pass_level"] = 1
    if draw(st.booleans()):
        spec["scoring"]["rule_scoring"] = "all-or-nothing"
    records = []
    for index in range(1, draw(st.integers(1, 4)) + 1):
        module_failed = draw(st.booleans())
        delivery = draw(st.booleans())
        # a zeroed run may lack its Judge result (then J = 0, §4.3(2))
        judged = bool(judge) and (delivery or draw(st.booleans()))
        ids = [f"R{i}" for i in range(1, rules + 1)]
        records.append(
            RunRecord.model_validate(
                {
                    "task": "t",
                    "run": index,
                    "seed": 0,
                    "status": "valid",
                    "delivery": delivery,
                    "fatal": [
                        {"id": f"F{i}", "pass": draw(st.booleans())} for i in range(1, fatal + 1)
                    ],
                    "rules": [
                        {"id": i, "pass": draw(st.booleans()) and not (module_failed and i == "R1")}
                        for i in ids
                    ],
                    "modules_failed": ["m"] if module_failed else [],
                    "judge": [
                        {
                            "id": f"J{i}",
                            "level": 0 if module_failed and i == 1 else draw(st.integers(0, g)),
                        }
                        for i, g in enumerate(judge, 1)
                        if judged
                    ],
                    "judge_valid": True if judged else None,
                    "input_tokens": 1,
                    "output_tokens": 1,
                    "duration_s": 1.0,
                    "turns": 1,
                }
            )
        )
    return spec, records


@settings(max_examples=examples(150), deadline=None)
@given(task_and_runs())
def test_vectorised_equals_reference_for_any_items(
    case: tuple[dict[str, Any], list[RunRecord]],
) -> None:
    spec, records = case
    loaded = version(release(runs_per_task=4, k=(1,)), catalog([spec]), {"c": records})
    assert _compare(loaded, records) == len(records)


@settings(max_examples=examples(100), deadline=None)
@given(task_and_runs(), st.lists(st.integers(0, 3), min_size=1, max_size=6))
def test_vectorised_equals_reference_with_runs_spread_over_bundles(
    case: tuple[dict[str, Any], list[RunRecord]], owners: list[int]
) -> None:
    """Runs are scored bundle by bundle: each bundle's verdicts and failed modules stay with
    its own runs wherever it starts (some bundles may be empty)."""
    spec, records = case
    by_combo: dict[str, list[RunRecord]] = {f"c{k}": [] for k in range(4)}
    for i, record in enumerate(records):
        by_combo[f"c{owners[i % len(owners)]}"].append(record)
    ordered = [r for combo in sorted(by_combo) for r in by_combo[combo]]
    loaded = version(release(runs_per_task=4, k=(1,)), catalog([spec]), by_combo)
    assert _compare(loaded, ordered) == len(records)


def test_failed_verdicts_are_those_of_the_runs_own_bundle() -> None:
    """A failed module marks the items of its own run only, not the run at the same row of
    another bundle, and not other modules' items of the same run."""
    spec = task("t", rules=3)
    spec["scoring"]["modules"] = [{"id": "m", "title": "M"}, {"id": "n", "title": "N"}]
    spec["scoring"]["rule_items"][0]["module"] = "m"
    spec["scoring"]["rule_items"][1]["module"] = "n"
    plain = [run("t", 1, of=3), run("t", 2, of=3)]
    failing = run("t", 2, of=3, passed=0).model_copy(update={"modules_failed": ("m",)})
    loaded = version(
        release(runs_per_task=2, k=(1,)), catalog([spec]), {"a": plain, "b": [plain[0], failing]}
    )
    frame = build_frame(loaded)
    marked = [failed_verdicts(p, frame.failed, len(frame.items)) for p in frame.parts]
    assert [m.tolist() for m in marked] == [[False] * 6, [False] * 3 + [True, False, False]]
    scored = score_runs(frame)
    assert scored["rule"].tolist() == [1.0, 1.0, 1.0, 0.0]


def test_judged_overall_is_kept_apart_and_zero_in_a_failed_module() -> None:
    """The overall's g/G is its own figure, out of J; in a failed module it is 0 even when
    the run, as it may, records no verdict for it (§4.2(1))."""
    spec = task("t", rules=1, judge=(4,))
    spec["scoring"]["modules"] = [{"id": "m", "title": "M"}]
    top, level = 10, 7
    overall = {"id": "O", "title": "o", "max_level": top, "overall": True, "module": "m"}
    spec["scoring"]["judge_items"].append(overall)
    rated = run("t", 1, of=1, judge=(4, level))
    rated = rated.model_copy(
        update={"judge": (rated.judge[0], rated.judge[1].model_copy(update={"id": "O"}))}
    )
    failed = run("t", 2, of=1, judge=(4,)).model_copy(update={"modules_failed": ("m",)})
    records = [rated, failed]
    loaded = version(release(runs_per_task=2, k=(1,)), catalog([spec]), {"c": records})
    assert _compare(loaded, records) == len(records)
    scored = score_runs(build_frame(loaded))
    assert scored["overall"].tolist() == [level / top, 0.0]
    assert scored["judge"].tolist() == [1.0, 1.0]  # J1 alone: the overall is out of J


def _judged_tasks() -> list[dict[str, Any]]:
    """A judge-only task (a fatal item, two Judge items and a judged overall) and a measure
    task (one ordinary item scoring beside the measured 'cost')."""
    judged = task("j", rules=0, fatal=1, judge=(4, 10))
    del judged["scoring"]["rule_weight"]
    judged["scoring"]["mode"] = "judge-only"
    judged["scoring"]["judge_items"].append(
        {"id": "O", "title": "o", "max_level": 10, "pass_level": 6, "overall": True}
    )
    measured = task("m", rules=1)
    measured["scoring"].update(mode="measure", measure="cost", failure_value=1e4)
    return [judged, measured]


def _with(record: RunRecord, **update: Any) -> RunRecord:
    return RunRecord.model_validate({**record.model_dump(by_alias=True), **update})


def _judge_only_runs(levels: list[dict[str, Any]]) -> list[RunRecord]:
    """Runs of the judge-only task: at ``levels``, at every maximum, zeroed without a Judge
    result."""
    base = run("j", 1, of=0, fatal=(True,))
    top = [{"id": "J1", "level": 4}, {"id": "J2", "level": 10}, {"id": "O", "level": 10}]
    return [
        _with(base, judge=levels, judge_valid=True),
        _with(base, run=2, judge=top, judge_valid=True),
        _with(base, run=3, delivery=False, judge=[], judge_valid=None),
    ]


def test_judge_only_runs_score_as_the_oracle() -> None:
    """S = J over the Judge items but the overall, which is kept per run; a zeroed run
    without its Judge result has J = 0."""
    levels = [{"id": "J1", "level": 3}, {"id": "J2", "level": 7}, {"id": "O", "level": 5}]
    records = _judge_only_runs(levels)
    loaded = version(release(runs_per_task=3, k=(1,)), catalog(_judged_tasks()), {"c": records})
    assert _compare(loaded, records) == len(records)
    scored = score_runs(build_frame(loaded))
    assert scored["judge"].tolist()[2] == 0.0
    assert scored["success"].tolist() == [False, True, False]


def test_non_integer_levels_score_as_the_oracle() -> None:
    levels = [{"id": "J1", "level": 2.5}, {"id": "J2", "level": 7.5}, {"id": "O", "level": 5.5}]
    records = _judge_only_runs(levels)
    loaded = version(release(runs_per_task=3, k=(1,)), catalog(_judged_tasks()), {"c": records})
    assert _compare(loaded, records) == len(records)


def test_measure_runs_score_as_the_oracle() -> None:
    """S is the run's measured value; zeroed or without one, the task's failure value."""
    rel = release(runs_per_task=3, k=(1,))
    metrics = [m.model_dump(exclude_none=True) for m in rel.metrics] + [COST]
    base = run("m", 1, of=1)
    records = [
        _with(base, measures=[{"id": "cost", "value": 250.0}]),
        _with(base, run=2, measures=[{"id": "other", "value": 1.0}]),
        _with(base, run=3, delivery=False, measures=[{"id": "cost", "value": 3.0}]),
    ]
    loaded = version(
        release(runs_per_task=3, k=(1,), metrics=metrics), catalog(_judged_tasks()), {"c": records}
    )
    assert _compare(loaded, records) == len(records)


def test_a_version_of_item_less_tasks_scores() -> None:
    """A version whose only tasks are measure tasks without rule items has no declared item
    (an empty item table): its runs still score, success resting on D alone."""
    spec = _judged_tasks()[1]
    spec["scoring"]["rule_items"] = []
    records = [run("m", 1, of=0), run("m", 2, of=0, delivery=False)]
    loaded = version(release(runs_per_task=2, k=(1,)), catalog([spec]), {"c": records})
    scored = score_runs(build_frame(loaded))
    assert scored["success"].tolist() == [r.delivery for r in records]
    assert scored["rule"].isna().all()


def test_a_run_zeroed_before_judging_scores_0_on_every_judged_group() -> None:
    """A run zeroed by its delivery threshold without a Judge result: J = 0, every item at
    its lowest level (§4.3(2)), so each judged dimension of its task is 0 too — and a
    dimension the task has no item of stays empty — so that J is the weighted sum of its
    groups run by run (score/functionals.py)."""
    spec = task("t", rules=1, judge=(4, 2))
    spec["scoring"]["judge_items"][0]["dimension"] = "structure"
    judged = run("t", 1, of=1, judge=(3, 2))
    zeroed = _with(run("t", 2, of=1), delivery=False, judge=[], judge_valid=None)
    # the Judge ran but its result is not valid: its partial verdicts do not count
    partial = _with(run("t", 3, of=1, judge=(4, 2)), delivery=False, judge_valid=False)
    records = [judged, zeroed, partial]
    loaded = version(profiled(), catalog([spec]), {"c": records})
    assert _compare(loaded, records) == len(records)
    scored = score_runs(build_frame(loaded))
    assert scored["judge"].tolist() == [(3 / 4 + 2 / 2) / 2, 0.0, 0.0]
    assert scored["dimension:structure"].tolist() == [3 / 4, 0.0, 0.0]
