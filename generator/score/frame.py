"""Columnar tables of one version: tasks, declared items, runs and item verdicts.

This is the only place that walks pydantic records one by one; everything downstream works
on whole columns (a later stage reads the runs files straight into columns instead).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from generator.load import LoadedRelease
from generator.models import Bundle, Catalog, Release

KIND_RULE, KIND_FATAL, KIND_JUDGE = 0, 1, 2

# Explicit column types, so a version without runs still has boolean and numeric columns.
RUN_DTYPES: dict[str, Any] = {
    "combination": str,
    "task": str,
    "run": "int64",
    "valid": bool,
    "delivery": bool,
    "judge_valid": bool,
    "retries": "int64",
    "cause": str,
    "input_tokens": "int64",
    "output_tokens": "int64",
    "duration_s": "float64",
    "turns": "int64",
    "failure_type": str,
}


@dataclass(frozen=True)
class VersionFrame:
    """Everything the engine needs about one version, as columns.

    ``tasks``: one row per task (index ``task``). ``items``: one row per declared item with
    its integer ``item`` key. ``runs``: one row per run record (index ``rid``).
    ``verdicts``: one row per recorded item verdict (``rid``, ``item``, ``value``: 1/0 for
    rule items, the level for Judge items). ``failed``: (``rid``, ``item``) pairs whose
    module the run names as failed.
    """

    version: str
    release: Release
    bundles: Mapping[str, Bundle]
    tasks: pd.DataFrame
    items: pd.DataFrame
    runs: pd.DataFrame
    verdicts: pd.DataFrame
    failed: pd.DataFrame


def _tasks(release: Release, catalog: Catalog) -> pd.DataFrame:
    weights = {r.id: r.weight for r in release.enumerations.risk_levels}
    rows = []
    for t in catalog.tasks:
        s = t.scoring
        rows.append(
            {
                "task": t.id,
                "title": t.title,
                "domain": t.domain,
                "subdivision": t.subdivision,
                "group": t.group,
                "dual": s.mode == "dual-channel",
                "rule_weight": s.rule_weight if s.rule_weight is not None else 1.0,
                "all_or_nothing": s.rule_scoring == "all-or-nothing",
                "n_rule": sum(not i.fatal for i in s.rule_items),
                "n_fatal": sum(i.fatal for i in s.rule_items),
                "n_judge": len(s.judge_items),
                "risk_weight": weights.get(t.risk_level, np.nan),
                "chain": t.key_process_chain or "",
                "boundary": t.functional_boundary,
            }
        )
    return pd.DataFrame(rows).set_index("task")


def _items(catalog: Catalog) -> pd.DataFrame:
    rows = []
    for t in catalog.tasks:
        for i in t.scoring.rule_items:
            kind = KIND_FATAL if i.fatal else KIND_RULE
            rows.append((t.id, i.id, kind, i.module or "", 1, 1))
        for j in t.scoring.judge_items:
            rows.append((t.id, j.id, KIND_JUDGE, j.module or "", j.max_level, j.passing_level))
    frame = pd.DataFrame(
        rows, columns=["task", "item_id", "kind", "module", "max_level", "pass_level"]
    )
    frame.index.name = "item"
    return frame


def build_frame(version: LoadedRelease) -> VersionFrame:
    """Columns of a loaded, checked version (release, catalog and bundles all present)."""
    assert version.release is not None
    assert version.catalog is not None
    release, catalog = version.release.model, version.catalog.model
    items = _items(catalog)
    item_key = {
        (t, i): k for k, (t, i) in enumerate(zip(items["task"], items["item_id"], strict=True))
    }
    run_cols: dict[str, list[object]] = {c: [] for c in RUN_DTYPES}
    v_rid: list[int] = []
    v_item: list[int] = []
    v_value: list[int] = []
    f_rid: list[int] = []
    f_task_module: list[tuple[str, str]] = []
    rid = 0
    bundles = {}
    for loaded in version.bundles:
        bundle = loaded.bundle.model
        combo = bundle.combination.id
        bundles[combo] = bundle
        for r in loaded.runs.records:
            run_cols["combination"].append(combo)
            run_cols["task"].append(r.task)
            run_cols["run"].append(r.run)
            run_cols["valid"].append(r.status == "valid")
            run_cols["delivery"].append(r.delivery)
            run_cols["judge_valid"].append(r.judge_valid is True)
            run_cols["retries"].append(r.retries)
            run_cols["cause"].append(r.cause or "")
            run_cols["input_tokens"].append(r.input_tokens)
            run_cols["output_tokens"].append(r.output_tokens)
            run_cols["duration_s"].append(r.duration_s)
            run_cols["turns"].append(r.turns)
            run_cols["failure_type"].append(r.failure_type or "")
            for group in (r.rules, r.fatal):
                for v in group:
                    v_rid.append(rid)
                    v_item.append(item_key[(r.task, v.id)])
                    v_value.append(int(v.passed))
            for j in r.judge:
                v_rid.append(rid)
                v_item.append(item_key[(r.task, j.id)])
                v_value.append(j.level)
            for module in r.modules_failed:
                f_rid.append(rid)
                f_task_module.append((r.task, module))
            rid += 1
    runs = pd.DataFrame(run_cols).astype(RUN_DTYPES)
    runs.index.name = "rid"
    verdicts = pd.DataFrame(
        {
            "rid": np.asarray(v_rid, dtype=np.int64),
            "item": np.asarray(v_item, dtype=np.int64),
            "value": np.asarray(v_value, dtype=np.int64),
        }
    )
    failed = _failed_items(items, f_rid, f_task_module)
    return VersionFrame(
        release.version, release, bundles, _tasks(release, catalog), items, runs, verdicts, failed
    )


def _failed_items(
    items: pd.DataFrame, rids: list[int], task_modules: list[tuple[str, str]]
) -> pd.DataFrame:
    """(rid, item) for every declared item whose module a run names as failed."""
    if not rids:
        return pd.DataFrame({"rid": np.empty(0, np.int64), "item": np.empty(0, np.int64)})
    named = pd.DataFrame(
        {"rid": rids, "task": [t for t, _ in task_modules], "module": [m for _, m in task_modules]}
    )
    declared = items.reset_index()[["item", "task", "module"]]
    pairs = named.merge(declared, on=["task", "module"])
    return pairs[["rid", "item"]].astype(np.int64).reset_index(drop=True)
