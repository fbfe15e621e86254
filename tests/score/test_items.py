"""The whole-version item breakdown equals a per-task computation from first principles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import builders as b
import numpy as np
import pandas as pd
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.load import load_inputs
from generator.load.items import ItemIndex, item_index
from generator.models import RunRecord
from generator.score.frame import VersionFrame, build_frame
from generator.score.items import COLUMNS, item_breakdown_table, task_efficiency_table

REPO = Path(__file__).resolve().parents[2]
KINDS = {0: "rule", 1: "fatal", 2: "judge"}


def item_breakdowns(frame: VersionFrame) -> dict[str, pd.DataFrame]:
    """The version's item breakdown, split by task."""
    table = item_breakdown_table(frame)
    return {
        str(task): part[COLUMNS].reset_index(drop=True)
        for task, part in table.groupby("task", sort=False)
    }


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


def test_the_breakdown_of_some_tasks_is_their_part_of_the_whole() -> None:
    inputs, _ = load_inputs(REPO)
    frame = build_frame(inputs.releases[0])
    whole = item_breakdown_table(frame)
    some = sorted(set(whole["task"]))[::3]
    expected = whole[whole["task"].isin(some)].reset_index(drop=True)
    assert 0 < len(expected) < len(whole)
    pd.testing.assert_frame_equal(item_breakdown_table(frame, some), expected)


def test_efficiency_means_over_valid_runs() -> None:
    inputs, _ = load_inputs(REPO)
    frame = build_frame(inputs.releases[0])
    table = task_efficiency_table(frame)
    task = "finance-fa-20"
    runs = frame.runs[(frame.runs["task"] == task) & frame.runs["valid"]]
    rows = table[table["task"] == task]
    assert len(rows) > 0
    for row in rows.itertuples():
        mine = runs[runs["combination"] == row.combination]
        assert row.valid_runs == len(mine)
        assert row.input_tokens == mine["input_tokens"].mean()
        assert row.total_tokens == mine["input_tokens"].mean() + mine["output_tokens"].mean()


@st.composite
def _spread_runs(draw: st.DrawFn) -> VersionFrame:
    """Two tasks (one with a module and Judge items), runs of each spread over bundles, some
    invalid, some naming the module as failed, some missing a verdict."""
    spec = b.task("t", rules=3, fatal=1, judge=(3, 2))
    spec["scoring"]["modules"] = [{"id": "m", "title": "M"}]
    spec["scoring"]["rule_items"][0]["module"] = "m"
    spec["scoring"]["judge_items"][0]["module"] = "m"
    specs = [spec, b.task("u", rules=2)]
    runs: dict[str, list[RunRecord]] = {}
    for combo in draw(st.lists(st.sampled_from("abc"), min_size=1, max_size=3, unique=True)):
        records = []
        for tid in draw(st.lists(st.sampled_from("tu"), max_size=5)):
            t = tid == "t"
            record = b.run(
                tid,
                draw(st.integers(1, 3)),
                of=3 if t else 2,
                passed=draw(st.integers(0, 3 if t else 2)),
                fatal=(draw(st.booleans()),) if t else (),
                judge=(draw(st.integers(0, 3)), draw(st.integers(0, 2))) if t else (),
                valid=draw(st.booleans()),
            )
            update: dict[str, Any] = {}
            if t and draw(st.booleans()):
                update["modules_failed"] = ("m",)
            if draw(st.booleans()):
                update["rules"] = record.rules[1:]  # a verdict left out
            records.append(record.model_copy(update=update))
        runs[combo] = records
    return build_frame(b.version(b.release(runs_per_task=3, k=(1,)), b.catalog(specs), runs))


@settings(max_examples=examples(60), deadline=None)
@given(_spread_runs())
def test_breakdowns_equal_the_per_task_computation_for_any_bundles(frame: VersionFrame) -> None:
    found = item_breakdowns(frame)
    assert list(frame.tasks.index) == ["t", "u"]
    for tid in frame.tasks.index:
        expected = _one_task(frame, tid)
        if expected.empty:
            assert tid not in found
        else:
            pd.testing.assert_frame_equal(found[tid], expected, check_dtype=False)


def _lookup(index: ItemIndex, task_codes: np.ndarray, ids: pd.Series) -> np.ndarray:
    """The declared item of each (task code, categorical item id), or -1: a verdict at a
    time, through the catalog's dictionaries."""
    return np.array(
        [
            index.table[t, index.id_code[i]] if t >= 0 and i in index.id_code else -1
            for t, i in zip(task_codes.tolist(), ids.astype(object).tolist(), strict=True)
        ],
        dtype=np.int64,
    )


def test_frame_refers_to_the_loaders_verdicts_without_copying_them() -> None:
    """One copy of the verdicts: each bundle's part of the frame holds views of the loader's
    arrays (rows, values, id codes, the runs' task codes) and a table of the bundle's
    (task, id) pairs; the item keys it looks up are those of the catalog."""
    inputs, _ = load_inputs(REPO)
    version = inputs.releases[0]
    frame = build_frame(version)
    assert len(frame.parts) == len(version.bundles)
    for part, loaded in zip(frame.parts, version.bundles, strict=True):
        verdicts = loaded.runs.verdicts
        assert part.combination == loaded.bundle.model.combination.id
        assert np.shares_memory(part.row, verdicts["row"].to_numpy())
        assert np.shares_memory(part.value, verdicts["value"].to_numpy())
        assert np.shares_memory(part.id_code, verdicts["id"].array.codes)
        assert np.shares_memory(part.run_task, loaded.runs.runs["task"].array.codes)
        shape = (len(loaded.runs.runs["task"].cat.categories), len(verdicts["id"].cat.categories))
        assert part.table.shape == shape  # the bundle's own tasks and ids
        index = item_index(version.catalog.model)
        tasks = index.task_codes(loaded.runs.runs["task"])[part.row]
        assert part.item.tolist() == _lookup(index, tasks, verdicts["id"]).tolist()
    starts = [p.start for p in frame.parts]
    assert starts == list(np.cumsum([0] + [p.runs for p in frame.parts])[:-1])
