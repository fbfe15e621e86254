"""Item-level reconstruction of one public task (§5.2 part 4): verdicts across runs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from generator.score.frame import KIND_FATAL, KIND_JUDGE, KIND_RULE, VersionFrame
from generator.score.runs import is_failed

COLUMNS = ["combination", "item_id", "kind", "valid_runs", "passed", "mean_level", "max_level"]


def item_breakdowns(frame: VersionFrame) -> dict[str, pd.DataFrame]:
    """:func:`item_breakdown_table` split by task."""
    table = item_breakdown_table(frame)
    return {
        str(task): part[COLUMNS].reset_index(drop=True)
        for task, part in table.groupby("task", sort=False)
    }


def item_breakdown_table(frame: VersionFrame) -> pd.DataFrame:
    """Per (task, combination, item): valid runs, passes, mean level (§5.2 part 4).

    Only valid runs count; a missing verdict and an item of a failed module count as level 0
    (failed), as they score. One pass over all verdicts; rows sorted by task, combination,
    item.
    """
    runs = frame.runs[frame.runs["valid"]]
    if runs.empty:
        return pd.DataFrame(columns=["task", *COLUMNS])
    items = frame.items.reset_index()
    counts = runs.groupby(["combination", "task"], sort=False).size().rename("valid_runs")
    grid = counts.reset_index().merge(items, on="task")
    v = frame.verdicts
    v = v[v["rid"].isin(runs.index)]
    failed = is_failed(v, frame.failed, len(frame.items))
    level = np.where(failed, 0, v["value"].to_numpy())
    pass_level = frame.items["pass_level"].to_numpy()[v["item"].to_numpy()]
    scored = pd.DataFrame(
        {
            "combination": runs.loc[v["rid"], "combination"].to_numpy(),
            "item": v["item"].to_numpy(),
            "level": level,
            "ok": (level >= pass_level) & (level > 0),
        }
    )
    sums = scored.groupby(["combination", "item"], sort=False).agg(
        level_sum=("level", "sum"), passed=("ok", "sum")
    )
    grid = grid.merge(sums.reset_index(), on=["combination", "item"], how="left")
    grid["passed"] = grid["passed"].fillna(0).astype(np.int64)
    grid["mean_level"] = grid["level_sum"].fillna(0) / grid["valid_runs"]
    grid["kind"] = grid["kind"].map({KIND_RULE: "rule", KIND_FATAL: "fatal", KIND_JUDGE: "judge"})
    grid = grid.sort_values(["task", "combination", "item"], kind="stable")
    return grid[["task", *COLUMNS]].reset_index(drop=True)


def task_efficiencies(frame: VersionFrame) -> dict[str, pd.DataFrame]:
    """:func:`task_efficiency_table` split by task."""
    table = task_efficiency_table(frame)
    return {
        str(task): part.drop(columns="task").reset_index(drop=True)
        for task, part in table.groupby("task", sort=False)
    }


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
