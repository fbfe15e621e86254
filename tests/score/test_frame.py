"""The frame's runs table equals one built record by record from the runs files."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from builders import read_records

from generator.load import load_inputs
from generator.score.frame import RUN_DTYPES, build_frame

REPO = Path(__file__).resolve().parents[2]


def test_runs_table_equals_the_records() -> None:
    inputs, _ = load_inputs(REPO)
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
