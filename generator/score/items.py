"""Item-level reconstruction of one public task (§5.2 part 4): verdicts across runs."""

from __future__ import annotations

import pandas as pd

from generator.score.frame import KIND_FATAL, KIND_JUDGE, VersionFrame


def item_breakdown(frame: VersionFrame, task: str) -> pd.DataFrame:
    """Per (combination, item) of a task: runs, passes, mean level and evidence cited.

    Only valid runs count. Items of a failed module count as failed (level 0), as they score.
    Columns: combination, item_id, kind ('rule', 'fatal', 'judge'), title-free keys,
    valid_runs, passed, mean_level, max_level.
    """
    runs = frame.runs[(frame.runs["task"] == task) & frame.runs["valid"]]
    items = frame.items[frame.items["task"] == task].reset_index()
    if runs.empty or items.empty:
        return pd.DataFrame(
            columns=[
                "combination",
                "item_id",
                "kind",
                "valid_runs",
                "passed",
                "mean_level",
                "max_level",
            ]
        )
    grid = runs.reset_index()[["rid", "combination"]].merge(items, how="cross")
    verdicts = frame.verdicts[frame.verdicts["rid"].isin(runs.index)]
    grid = grid.merge(verdicts, on=["rid", "item"], how="left")
    failed = frame.failed.assign(module_failed=True)
    grid = grid.merge(failed, on=["rid", "item"], how="left")
    grid["module_failed"] = grid["module_failed"].fillna(False).astype(bool)
    level = grid["value"].fillna(0).where(~grid["module_failed"], 0)
    grid["level"] = level
    grid["ok"] = (level >= grid["pass_level"]) & (level > 0)
    grid["kind_name"] = grid["kind"].map({0: "rule", KIND_FATAL: "fatal", KIND_JUDGE: "judge"})
    out = (
        grid.groupby(["combination", "item", "item_id", "kind_name", "max_level"], sort=True)
        .agg(valid_runs=("rid", "nunique"), passed=("ok", "sum"), mean_level=("level", "mean"))
        .reset_index()
        .sort_values(["combination", "item"])
        .rename(columns={"kind_name": "kind"})
    )
    return out[
        ["combination", "item_id", "kind", "valid_runs", "passed", "mean_level", "max_level"]
    ].reset_index(drop=True)


def task_efficiency(frame: VersionFrame, task: str) -> pd.DataFrame:
    """Per combination, means over the task's valid runs of tokens, duration and turns."""
    runs = frame.runs[(frame.runs["task"] == task) & frame.runs["valid"]]
    out = runs.groupby("combination").agg(
        valid_runs=("run", "size"),
        input_tokens=("input_tokens", "mean"),
        output_tokens=("output_tokens", "mean"),
        duration_s=("duration_s", "mean"),
        turns=("turns", "mean"),
    )
    out["total_tokens"] = out["input_tokens"] + out["output_tokens"]
    return out.reset_index()
