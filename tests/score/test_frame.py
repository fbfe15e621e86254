"""The frame's runs table equals one built record by record from the runs files."""

from __future__ import annotations

import math
from pathlib import Path

import builders
import numpy as np
import pandas as pd
from builders import read_records

from generator.load import load_inputs
from generator.models.profile import Metric, Range
from generator.models.runs import Measure
from generator.score.frame import RUN_DTYPES, build_frame

REPO = Path(__file__).resolve().parents[2]


def test_runs_table_equals_the_records() -> None:
    inputs, _ = load_inputs(REPO)
    assert len(inputs.releases) == 2  # v1.0 and v1.1
    for version in inputs.releases:
        frame = build_frame(version)
        rows = [
            {
                "combination": b.bundle.model.combination.id,
                "task": r.task,
                "run": r.run,
                "valid": r.status == "valid",
                "delivery": r.delivery,
                "judge_valid": r.judge_valid is True,
                "retries": r.retries,
                "cause": r.cause or "",
                "input_tokens": r.input_tokens,
                "output_tokens": r.output_tokens,
                "duration_s": r.duration_s,
                "turns": r.turns,
                "failure_type": r.failure_type or "",
            }
            for b in version.bundles
            for r in read_records(REPO / b.runs_path)
        ]
        expected = pd.DataFrame(rows, columns=list(RUN_DTYPES)).astype(RUN_DTYPES)
        expected.index.name = "rid"
        pd.testing.assert_frame_equal(frame.runs, expected)
        assert (frame.runs["cause"] != "").any()  # both kinds of cause are compared
        assert (frame.runs["cause"] == "").any()


def test_measured_metrics_are_float_columns_of_the_runs_table() -> None:
    """Each measured metric the release declares is a column named by its id, in the
    declared order, holding each run's value and NaN where a run records none; counts a
    run leaves out are NaN."""
    base = builders.release()
    declared = (
        Metric(id="cost", title="Cost", direction="lower", measured=True, range=Range(low=None)),
        Metric(id="calls", title="Calls", direction="lower", measured=True),
    )
    release = base.model_copy(update={"metrics": (*base.metrics, *declared)})
    catalog = builders.catalog([builders.task("t1"), builders.task("t2")])
    records = [
        builders.run("t1", 1).model_copy(
            update={"measures": (Measure(id="calls", value=3), Measure(id="cost", value=-2.5))}
        ),
        builders.run("t1", 2).model_copy(update={"measures": (Measure(id="calls", value=1e6),)}),
        builders.run("t2", 1).model_copy(update={"input_tokens": None, "turns": None}),
    ]
    runs = {"a": records[:2], "b": records[2:]}
    frame = build_frame(builders.version(release, catalog, runs))
    assert list(frame.runs.columns) == [*RUN_DTYPES, "cost", "calls"]
    for metric in ("cost", "calls"):
        assert frame.runs[metric].dtype == "float64"
        expected = [
            next((m.value for m in r.measures if m.id == metric), math.nan) for r in records
        ]
        np.testing.assert_array_equal(frame.runs[metric].to_numpy(), np.array(expected))
    for count in ("input_tokens", "output_tokens", "turns"):
        recorded = [getattr(r, count) for r in records]
        assert [None if math.isnan(x) else x for x in frame.runs[count]] == recorded
    empty = build_frame(builders.version(release, catalog, {}))
    assert list(empty.runs.columns) == list(frame.runs.columns)
    assert (empty.runs.dtypes == frame.runs.dtypes).all()
