"""The columns of a runs file from validated pydantic records (the line-by-line path), and
the parts of one file read by both paths joined in line order."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from generator.load.runcolumns import (
    EVIDENCE,
    MEASURES,
    MODULES,
    RUN_COLUMNS,
    VERDICTS,
    RunColumns,
    empty_columns,
    finish,
    typed,
)
from generator.models.runs import RunRecord
from generator.protocol.items import LISTS


def columns_from_records(records: list[RunRecord], lines: list[int]) -> RunColumns:
    """The same columns from validated pydantic records (the line-by-line path)."""
    runs = pd.DataFrame(
        {
            "line": lines,
            "task": [r.task for r in records],
            "run": [r.run for r in records],
            "status": [r.status for r in records],
            "cause": [r.cause for r in records],
            "retries": [r.retries for r in records],
            "delivery": [r.delivery for r in records],
            "judge_valid": pd.array([r.judge_valid for r in records], dtype="boolean").astype(
                "Int8"
            ),
            "input_tokens": [r.input_tokens for r in records],
            "output_tokens": [r.output_tokens for r in records],
            "duration_s": [r.duration_s for r in records],
            "turns": [r.turns for r in records],
            "failure_type": [r.failure_type for r in records],
        },
        columns=list(RUN_COLUMNS),
    )
    # verdicts record by record, each record's lists in order (rules, fatal, judge)
    rows: list[tuple[int, int, int, str, float]] = []
    evidence: list[tuple[int, int, str]] = []
    modules: list[tuple[int, int, str]] = []
    measures: list[tuple[int, int, str, float]] = []
    for row, r in enumerate(records):
        for kind, rule_list in ((LISTS["rules"], r.rules), (LISTS["fatal"], r.fatal)):
            rows += [(row, kind, pos, v.id, int(v.passed)) for pos, v in enumerate(rule_list)]
        for pos, j in enumerate(r.judge):
            rows.append((row, LISTS["judge"], pos, j.id, j.level))
            evidence += [(row, pos, e) for e in j.evidence]
        modules += [(row, pos, m) for pos, m in enumerate(r.modules_failed)]
        measures += [(row, pos, m.id, m.value) for pos, m in enumerate(r.measures)]
    return finish(
        runs,
        _unzip(rows, VERDICTS),
        _unzip(evidence, EVIDENCE),
        _unzip(modules, MODULES),
        _unzip(measures, MEASURES),
    )


def _unzip(rows: list[tuple[Any, ...]], names: tuple[str, ...]) -> dict[str, Any]:
    """Tuples as columns: strings as a Series, values (1/0, levels, measures) as float64
    arrays, other numbers as int64 arrays."""
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in names]
    return {
        name: pd.Series(list(values), dtype=object)
        if name in ("id", "module")
        else np.array(values, dtype=np.float64 if name == "value" else np.int64)
        for name, values in zip(names, columns, strict=True)
    }


def concat_columns(parts: list[RunColumns]) -> RunColumns:
    """Columns of several parts of one file, rows renumbered in order of line."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return empty_columns()
    if len(parts) == 1:
        return parts[0]
    offset = 0
    runs, verdicts, evidence, modules, measures = [], [], [], [], []
    for p in parts:
        runs.append(p.runs)
        verdicts.append(p.verdicts.assign(row=p.verdicts["row"].to_numpy(np.int64) + offset))
        evidence.append(p.evidence.assign(row=p.evidence["row"].to_numpy(np.int64) + offset))
        modules.append(p.modules.assign(row=p.modules["row"].to_numpy(np.int64) + offset))
        measures.append(p.measures.assign(row=p.measures["row"].to_numpy(np.int64) + offset))
        offset += len(p)
    all_runs = pd.concat(runs, ignore_index=True)
    order = np.argsort(all_runs["line"].to_numpy(), kind="stable")
    new_row = np.empty(len(order), np.int64)
    new_row[order] = np.arange(len(order))

    def cat(frames: list[pd.DataFrame], column: str) -> pd.DataFrame:
        out = pd.concat(frames, ignore_index=True)
        out[column] = out[column].astype(str)
        out = out.assign(row=new_row[out["row"].to_numpy()])
        out = out.sort_values(["row", *(["kind"] if "kind" in out else []), "pos"], kind="stable")
        return out.reset_index(drop=True)

    runs_out = all_runs.iloc[order].reset_index(drop=True)
    for column, dtype in RUN_COLUMNS.items():
        if dtype == "category":
            runs_out[column] = runs_out[column].astype(object).astype("category")
    tables = (
        cat(verdicts, "id"),
        cat(evidence, "id"),
        cat(modules, "module"),
        cat(measures, "id"),
    )
    columns = [
        {str(k): v if k in ("id", "module") else v.to_numpy() for k, v in t.items()} for t in tables
    ]
    return RunColumns(runs_out, *typed(*columns))
