"""Section 2, counts and measures (:func:`generator.check.runs.measures.check_measures`): a run
records the counts the release's metrics are computed from, each measured metric at most once
and within its range, and a delivered valid run of a measure task the value it scores in.

On the profiled release of conftest (measured ``cost``, ``calls``, ``rating``; duration
reported, tokens and turns not), good and bad records side by side; the whole of
:func:`check_runs` is compared with the per-record rules (tests/reference_runs.py) on
records damaged by hypothesis.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from budget import examples
from edit import edit_runs, line_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_runs import check_runs_reference

from generator.check.runs import check_runs
from generator.check.runs.columns import Found
from generator.check.runs.measures import check_measures, needed_counts, range_text
from generator.models.profile import RUN_FIELDS, Range
from generator.models.runs import RunRecord


def _problems(kit: Any, records: list[RunRecord]) -> list[Any]:
    runs = kit.checks(records)
    found = Found()
    check_measures(runs, np.ones(len(records), dtype=bool), found)
    return kit.reported(runs, found)


def _measured(kit: Any) -> list[str]:
    return sorted(m.id for m in kit.release.metrics if m.measured)


def test_a_profiled_bundle_that_keeps_the_rules_has_no_problem(profiled: Any) -> None:
    """No token or turn counts (the release reports none), measures on every run."""
    records = profiled.full()
    assert all(r.input_tokens is None and r.turns is None for r in records)
    assert list(check_runs(profiled.release, profiled.catalog, profiled.loaded(records))) == []


def test_counts_are_needed_where_a_declared_metric_is_computed_from_them(
    profiled: Any, small: Any
) -> None:
    declared = {m.id for m in profiled.release.metrics}
    assert needed_counts(profiled.checks([])) == {
        c: [m for m in RUN_FIELDS if m in declared and c in RUN_FIELDS[m]] for c in ("duration_s",)
    }
    assert list(needed_counts(small.checks([]))) == [
        "input_tokens",
        "output_tokens",
        "duration_s",
        "turns",
    ]
    good = profiled.record("t1")
    no_duration = profiled.record("t1", 2, duration_s=None)
    [problem] = _problems(profiled, [good, no_duration])
    assert (problem.line, problem.field) == (3, "duration_s")
    assert problem.message.startswith("missing; the release reports duration_s")
    # Lingee's defaults: every count is needed
    problems = _problems(small, [small.record("t1", input_tokens=None, turns=None)])
    assert [(p.line, p.field) for p in problems] == [(2, "input_tokens"), (2, "turns")]
    assert "total_tokens" in problems[0].message


def test_measures_name_declared_measured_metrics_once_within_their_range(profiled: Any) -> None:
    allowed = _measured(profiled)
    good = profiled.record(
        "j1", measures=[{"id": "cost", "value": -1e9}, {"id": "calls", "value": 0}]
    )
    records = [
        good,
        profiled.record("t1", measures=[{"id": "cots", "value": 1}]),
        profiled.record("t1", 2, measures=[{"id": "task_score", "value": 1}]),
        profiled.record(
            "j1", 2, measures=[{"id": "calls", "value": 2}, {"id": "calls", "value": 2}]
        ),
        profiled.record(
            "m1", measures=[{"id": "cost", "value": 1}, {"id": "rating", "value": 10.5}]
        ),
        profiled.record(
            "m1", 2, measures=[{"id": "cost", "value": 0}, {"id": "calls", "value": -1}]
        ),
    ]
    problems = _problems(profiled, records)
    assert [(p.line, p.field) for p in problems] == [
        (3, "measures[0].id"),
        (4, "measures[0].id"),
        (5, "measures[0].id"),
        (5, "measures[1].id"),
        (6, "measures[1].value"),
        (7, "measures[1].value"),
    ]
    unknown, engine, twice, _, high, low = (p.message for p in problems)
    assert unknown.startswith(f"'cots' is not a measured metric of {profiled.release.version}")
    assert f"expected one of {allowed}" in unknown
    assert "'cost'" in unknown.split(str(allowed))[1]  # did you mean
    assert "the engine computes it" in engine
    assert twice == "'calls' appears 2 times"
    bounds = {m.id: m.bounds for m in profiled.release.metrics}
    assert high == f"10.5 is outside rating's range; expected {range_text(bounds['rating'])}"
    assert low == f"-1 is outside calls's range; expected {range_text(bounds['calls'])}"


def test_range_text_names_the_open_ends() -> None:
    assert range_text(Range(low=0, high=10)) == "0..10"
    assert range_text(Range()) == "at least 0"
    assert range_text(Range(low=None, high=2.5)) == "at most 2.5"
    assert range_text(Range(low=None)) == "any number"


def test_a_delivered_measure_run_records_the_value_its_task_scores_in(profiled: Any) -> None:
    """Left out of a valid run that D and the fatal items did not zero, the value is an
    error: the engine would score the run as failed (its failure value). A zeroed or
    incomplete run may leave it out."""
    task = next(t for t in profiled.catalog.tasks if t.scoring.mode == "measure")
    other = [{"id": "calls", "value": 1}]
    records = [
        profiled.record(task.id),
        profiled.record(task.id, 2, measures=other),  # the error
        profiled.record(task.id, 1, measures=[], delivery=False),
        profiled.record(task.id, 2, measures=[], fatal=[profiled.rule("F1", False)]),
        profiled.record(task.id, 1, measures=[], status="incomplete", cause="crash"),
        profiled.record("t1", measures=[]),  # not a measure task
    ]
    [problem] = _problems(profiled, records)
    assert (problem.line, problem.field) == (3, "measures")
    measure, failure = task.scoring.measure, task.scoring.failure_value
    assert problem.message.startswith(f"no value for {measure!r}, the metric {task.id} scores in")
    assert f"failure_value, {failure:.0f})" in problem.message


def test_validate_reads_measures_and_counts_in_bulk_and_reports_them(
    example: Path, run_cli: Any
) -> None:
    """On the example (Lingee's defaults: every count reported, no measured metric), a run
    file written with a measure and without a count is read in bulk and reported at its
    lines."""
    runs = "results/v1.0/bundles/deepseek-harness-standard/runs.jsonl"

    def change(records: list[dict[str, Any]]) -> None:
        del records[0]["input_tokens"]
        records[1]["measures"] = [{"id": "cost", "value": 1.5}]

    edit_runs(example / runs, change)
    first = line_of(example / runs, '"run"')
    result = run_cli("validate", "--root", str(example))
    assert result.exit_code == 1
    assert f"{runs}:{first}: input_tokens: missing; the release reports input_tokens" in (
        result.output
    )
    assert (
        f"{runs}:{first + 1}: measures[0].id: 'cost' is not a measured metric of v1.0; "
        "it declares none" in result.output
    )


IDS = ["cost", "calls", "rating", "cots", "task_score"]


def _damage(kit: Any, record: RunRecord, draw: st.DrawFn) -> RunRecord:
    """One change a pipeline might make to a profiled record, keeping it a RunRecord."""
    what = draw(
        st.sampled_from(["drop", "add", "value", "count", "level", "delivery", "status", "fatal"])
    )
    measures = list(record.measures)
    update: dict[str, Any] = {}
    if what == "drop" and measures:
        measures.pop(draw(st.integers(0, len(measures) - 1)))
    elif what == "add":
        value = draw(st.sampled_from([-1.0, 0.0, 2.5, 10.0, 10.5, 1e6]))
        measures.append(
            type(measures[0])(id=draw(st.sampled_from(IDS)), value=value) if measures else None
        )
        measures = [m for m in measures if m is not None]
    elif what == "value" and measures:
        i = draw(st.integers(0, len(measures) - 1))
        value = draw(st.sampled_from([-3.0, 0.0, 11.0, 1e15]))
        measures[i] = measures[i].model_copy(update={"value": value})
    elif what == "count":
        update[draw(st.sampled_from(["duration_s", "input_tokens", "turns"]))] = None
    elif what == "level" and record.judge:
        level = draw(st.sampled_from([0.0, 0.5, 3.0, 9.75, 10.0, 10.5]))
        update["judge"] = (record.judge[0].model_copy(update={"level": level}), *record.judge[1:])
    elif what == "delivery":
        update["delivery"] = not record.delivery
    elif what == "status":
        update.update(status="incomplete", cause="crash")
    elif what == "fatal" and record.fatal:
        update["fatal"] = (record.fatal[0].model_copy(update={"passed": False}),)
    update["measures"] = tuple(measures)
    return record.model_copy(update=update)


@settings(
    max_examples=examples(150),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_column_checks_equal_the_per_record_rules(
    profiled: Any, continuous: Any, data: st.DataObject
) -> None:
    kit = data.draw(st.sampled_from([profiled, continuous]))
    records = kit.full()
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(records) - 1))
        records[i] = _damage(kit, records[i], data.draw)
    loaded = kit.loaded(records)
    lines = kit.lines(len(records))
    expected = sorted(check_runs_reference(kit.release, kit.catalog, loaded, records, lines))
    assert sorted(check_runs(kit.release, kit.catalog, loaded)) == expected
