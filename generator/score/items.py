"""Item-level reconstruction of one public task (§5.2 part 4): verdicts across runs."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import pandas as pd

from generator.score.frame import KIND_FATAL, KIND_JUDGE, KIND_RULE, VersionFrame
from generator.score.runs import failed_verdicts

COLUMNS = ["combination", "item_id", "kind", "valid_runs", "passed", "mean_level", "max_level"]


def item_breakdown_table(frame: VersionFrame, tasks: Collection[str] | None = None) -> pd.DataFrame:
    """Per (task, combination, item): valid runs, passes, mean level (§5.2 part 4); of the
    ``tasks`` only, if given.

    Only valid runs count; a missing verdict and an item of a failed module count as level 0
    (failed), as they score. One pass over each bundle's verdicts; rows sorted by task,
    combination, item.
    """
    valid = frame.runs["valid"].to_numpy(dtype=bool)
    if tasks is not None:
        valid = valid & frame.runs["task"].isin(tasks).to_numpy(dtype=bool)
    runs = frame.runs[valid]
    if runs.empty:
        return pd.DataFrame(columns=["task", *COLUMNS])
    items = frame.items.reset_index()
    counts = runs.groupby(["combination", "task"], sort=False).size().rename("valid_runs")
    grid = counts.reset_index().merge(items, on="task")
    # level sums and passes per (combination, item), over the verdicts of valid runs
    n_items = len(frame.items)
    item_pass = frame.items["pass_level"].to_numpy()
    combos = {combo: k for k, combo in enumerate(dict.fromkeys(p.combination for p in frame.parts))}
    level_sum = np.zeros((len(combos), n_items))
    passed = np.zeros((len(combos), n_items), np.int64)
    for part in frame.parts:
        mine = valid[part.start : part.start + part.runs][part.row]
        every = part.item
        item = every[mine]
        failed = failed_verdicts(part, frame.failed, n_items, every)
        level = np.where(failed[mine], 0, part.value[mine])
        ok = (level >= item_pass[item]) & (level > 0)
        k = combos[part.combination]
        # integer levels: the float sums are exact (far below 2**53)
        level_sum[k] += np.bincount(item, weights=level, minlength=n_items)
        passed[k] += np.bincount(item[ok], minlength=n_items)
    at = (grid["combination"].map(combos).to_numpy(np.int64), grid["item"].to_numpy(np.int64))
    grid["passed"] = passed[at]
    grid["mean_level"] = level_sum[at] / grid["valid_runs"].to_numpy()
    grid["kind"] = grid["kind"].map({KIND_RULE: "rule", KIND_FATAL: "fatal", KIND_JUDGE: "judge"})
    grid = grid.sort_values(["task", "combination", "item"], kind="stable")
    return grid[["task", *COLUMNS]].reset_index(drop=True)


def task_efficiency_table(frame: VersionFrame) -> pd.DataFrame:
    """Per (task, combination): means over valid runs of tokens, duration and turns."""
    runs = frame.runs[frame.runs["valid"]]
    out = runs.groupby(["task", "combination"]).agg(
        valid_runs=("run", "size"),
        input_tokens=("input_tokens", "mean"),
        output_tokens=("output_tokens", "mean"),
        duration_s=("duration_s", "mean"),
        turns=("turns", "mean"),
    )
    out["total_tokens"] = out["input_tokens"] + out["output_tokens"]
    return out.reset_index()
