"""The whole-version item breakdown equals a per-task computation from first principles."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from generator.load import load_inputs
from generator.score.frame import VersionFrame, build_frame
from generator.score.items import COLUMNS, item_breakdowns, task_efficiencies

REPO = Path(__file__).resolve().parents[2]
KINDS = {0: "rule", 1: "fatal", 2: "judge"}


def _one_task(frame: VersionFrame, task: str) -> pd.DataFrame:
    """Every (valid run, item) pair of the task, each a level: the recorded one, or 0 when the
    verdict is missing or its module failed; then counted per (combination, item)."""
    runs = frame.runs[(frame.runs["task"] == task) & frame.runs["valid"]]
    items = frame.items[frame.items["task"] == task]
    failed = set(zip(frame.failed["rid"], frame.failed["item"], strict=True))
    recorded = {
        (r, i): v for r, i, v in frame.verdicts[["rid", "item", "value"]].itertuples(index=False)
    }
    rows = []
    for combo in sorted(runs["combination"].unique()):
        mine = runs[runs["combination"] == combo].index
        for item, it in items.iterrows():
            levels = [0 if (r, item) in failed else recorded.get((r, item), 0) for r in mine]
            passed = sum(lv >= it["pass_level"] and lv > 0 for lv in levels)
            rows.append(
                (
                    combo,
                    it["item_id"],
                    KINDS[it["kind"]],
                    len(mine),
                    passed,
                    float(np.mean(levels)),
                    it["max_level"],
                )
            )
    return pd.DataFrame(rows, columns=COLUMNS)


def test_breakdowns_equal_the_per_task_computation() -> None:
    inputs, _ = load_inputs(REPO)
    checked = 0
    for version in inputs.releases:
        frame = build_frame(version)
        found = item_breakdowns(frame)
        for task in frame.tasks.index:
            expected = _one_task(frame, task)
            if expected.empty:
                assert task not in found
                continue
            pd.testing.assert_frame_equal(found[task], expected, check_dtype=False)
            checked += 1
    assert checked > 50


def test_efficiency_means_over_valid_runs() -> None:
    inputs, _ = load_inputs(REPO)
    frame = build_frame(inputs.releases[0])
    table = task_efficiencies(frame)
    task = "finance-fa-20"
    runs = frame.runs[(frame.runs["task"] == task) & frame.runs["valid"]]
    for row in table[task].itertuples():
        mine = runs[runs["combination"] == row.combination]
        assert row.valid_runs == len(mine)
        assert row.input_tokens == mine["input_tokens"].mean()
        assert row.total_tokens == mine["input_tokens"].mean() + mine["output_tokens"].mean()
