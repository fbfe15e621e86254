"""The bulk path (Arrow) reads the same columns as the line-by-line path (pydantic)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from generator.load.jsonlines import read_runs
from generator.load.records import columns_from_records
from generator.load.runcolumns import RunColumns, read_fast
from generator.models.runs import RunRecord
from generator.protocol.items import LISTS

REPO = Path(__file__).resolve().parents[2]
RUN_FILES = sorted((REPO / "results").rglob("*.jsonl"))


def _canonical(columns: RunColumns) -> dict[str, pd.DataFrame]:
    out = {}
    for name in ("runs", "verdicts", "evidence", "modules", "measures"):
        frame = getattr(columns, name)
        keys = [k for k in ("row", "kind", "pos") if k in frame.columns]
        frame = frame.sort_values(keys, kind="stable") if keys else frame.copy()
        for column in frame.columns:
            if isinstance(frame[column].dtype, pd.CategoricalDtype):
                frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
        out[name] = frame.reset_index(drop=True)
    return out


def _per_line(raw: bytes) -> RunColumns:
    """The records after the header, each validated by pydantic on its own line: the oracle
    the bulk path must agree with (independent of the loader's own per-line path)."""
    records: list[RunRecord] = []
    lines: list[int] = []
    for number, line in enumerate(raw.split(b"\n")[1:], start=2):
        if line.strip():
            records.append(RunRecord.model_validate_json(line))
            lines.append(number)
    return columns_from_records(records, lines)


def _same(a: RunColumns, b: RunColumns) -> None:
    left, right = _canonical(a), _canonical(b)
    for name, frame in left.items():
        pd.testing.assert_frame_equal(frame, right[name], check_dtype=False, obj=name)


@pytest.mark.parametrize("path", RUN_FILES, ids=lambda p: f"{p.parts[-4]}/{p.parts[-2]}")
def test_bulk_and_line_by_line_read_the_same_columns(path: Path) -> None:
    raw = path.read_bytes()
    start = raw.find(b"\n") + 1
    fast = read_fast(raw, start, 2)
    assert fast is not None
    assert fast.suspect_lines == []
    _same(fast.columns, _per_line(raw))


def test_bad_lines_among_good_ones_keep_the_good_rows_and_their_lines(tmp_path: Path) -> None:
    source = RUN_FILES[0].read_text(encoding="utf-8").splitlines()
    bad = source[3].replace('"status":"valid"', '"status":"fine"')
    lines = [*source[:3], bad, *source[4:]]
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    runs, problems = read_runs(path, "runs.jsonl")
    assert [str(p).split(": ")[0:2] for p in problems] == [["runs.jsonl:4", "status"]]
    assert len(runs) == len(lines) - 2
    assert 4 not in set(runs.lines)
    assert list(runs.lines) == sorted(runs.lines)


def _long_record(run: int, level: int) -> dict[str, Any]:
    """A record with lists longer than 127 items (positions beyond int8) and a level."""
    return {
        "task": "t",
        "run": run,
        "seed": 1,
        "status": "valid",
        "delivery": True,
        "rules": [{"id": f"R{i:03}", "pass": i % 3 > 0} for i in range(300)],
        "judge": [
            {"id": f"J{i:03}", "level": level if i == 129 else i % 5, "evidence": [f"E{i}"]}
            for i in range(140)
        ],
        "modules_failed": [f"m{i}" for i in range(130)],
        "judge_valid": True,
        "input_tokens": 1,
        "output_tokens": 1,
        "duration_s": 1.0,
        "turns": 1,
    }


@pytest.mark.parametrize("level", [4, 300, 2**40, 2.5])
def test_long_lists_and_large_levels_keep_positions_and_values(
    tmp_path: Path, level: float
) -> None:
    """Positions past 127 and levels past the narrow integer types survive both paths and
    their merge (a bad line in between sends one line to pydantic); a level beyond int32 or
    not whole is kept as it is recorded (the values as float64)."""
    records = [_long_record(1, level), _long_record(2, 1), _long_record(3, level)]
    lines = [json.dumps(r) for r in records]
    lines[1] = lines[1].replace('"status": "valid"', '"status": "fine"')
    path = tmp_path / "runs.jsonl"
    path.write_text('{"format_version": 1}\n' + "\n".join(lines) + "\n", encoding="utf-8")
    runs, problems = read_runs(path, "runs.jsonl")
    assert [p.field for p in problems] == ["status"]
    v = runs.verdicts
    judge = v[v["kind"] == LISTS["judge"]]
    assert v.loc[v["kind"] == LISTS["rules"], "pos"].tolist() == 2 * list(range(300))
    at_129 = judge[judge["pos"] == 129]
    assert at_129["id"].astype(str).tolist() == ["J129", "J129"]
    assert at_129["value"].tolist() == [level] * 2
    cited = runs.evidence.merge(judge[["row", "pos", "id"]], on=["row", "pos"])
    assert len(cited) == 280
    assert (cited["id_x"].astype(str) == "E" + cited["pos"].astype(str)).all()
    assert runs.modules["pos"].tolist() == 2 * list(range(130))
    good = [RunRecord.model_validate(r) for r in (records[0], records[2])]
    slow = columns_from_records(good, [2, 4])
    expected = _canonical(slow)
    got = _canonical(runs)
    assert list(got) == list(expected) == ["runs", "verdicts", "evidence", "modules", "measures"]
    for name, frame in got.items():
        pd.testing.assert_frame_equal(frame, expected[name], check_dtype=False, obj=name)
    # fast, slow and merged columns alike hold every position and value in their own types
    raw = path.read_bytes()
    fast = read_fast(raw, raw.find(b"\n") + 1, 2)
    assert fast is not None
    for columns in (fast.columns, slow, runs):
        assert columns.verdicts["pos"].max() == 299
        assert columns.verdicts["value"].max() == max(level, 4)
        whole = float(level).is_integer() and level < 2**31
        assert (columns.verdicts["value"].dtype.kind == "f") == (not whole)


@pytest.mark.parametrize("path", RUN_FILES[:2], ids=lambda p: f"{p.parts[-4]}/{p.parts[-2]}")
def test_verdicts_take_eight_bytes_each(path: Path) -> None:
    """A million runs hold tens of millions of verdicts: row (int32) and one byte each for
    list, position, id code and value while they are small, and so on both read paths."""
    raw = path.read_bytes()
    start = raw.find(b"\n") + 1
    fast = read_fast(raw, start, 2)
    assert fast is not None
    for columns in (fast.columns, _per_line(raw)):
        verdicts = columns.verdicts
        size = verdicts.memory_usage(index=False).sum() - verdicts["id"].cat.categories.nbytes
        assert size == 8 * len(verdicts)
        assert verdicts["row"].dtype == np.int32


def _profiled_record(run: int, level: float, **fields: Any) -> dict[str, Any]:
    """A record as a release with measured metrics writes it: a list of measures, counts
    only where the release declares them, a level that need not be whole."""
    record = {
        "task": "t",
        "run": run,
        "seed": run,
        "status": "valid",
        "delivery": True,
        "judge": [{"id": "J1", "level": level}, {"id": "J2", "level": 1}],
        "judge_valid": True,
        "measures": [{"id": "cost", "value": -12.25 * run}, {"id": "calls", "value": run}],
    }
    record.update(fields)
    return {k: v for k, v in record.items() if v is not None}


@pytest.mark.parametrize("level", [3, 7.5])
def test_measures_left_out_counts_and_levels_read_alike(tmp_path: Path, level: float) -> None:
    """Measures, counts a record leaves out (NaN) and levels whole or not: the bulk path,
    pydantic line by line and their merge around a bad line give the same columns."""
    records = [
        _profiled_record(1, level, input_tokens=2**53, output_tokens=7, turns=3),
        _profiled_record(2, 2, measures=[], duration_s=0.25),
        _profiled_record(3, level, status="fine"),
        _profiled_record(4, level, measures=[{"id": "cost", "value": 1e15}]),
    ]
    raw = ('{"format_version": 1}\n' + "\n".join(json.dumps(r) for r in records)).encode()
    good = raw.replace(b'"fine"', b'"valid"')
    fast = read_fast(good, good.find(b"\n") + 1, 2)
    assert fast is not None
    assert fast.suspect_lines == []
    _same(fast.columns, _per_line(good))
    path = tmp_path / "runs.jsonl"
    path.write_bytes(raw)
    runs, problems = read_runs(path, "runs.jsonl")
    assert [(p.line, p.field) for p in problems] == [(4, "status")]
    kept = [RunRecord.model_validate(r) for r in records if r["status"] == "valid"]
    _same(runs, columns_from_records(kept, [2, 3, 5]))
    counts = runs.runs[["input_tokens", "output_tokens", "duration_s", "turns"]]
    assert counts.dtypes.eq("float64").all()
    assert counts["input_tokens"].tolist()[0] == 2**53  # whole counts stay exact
    assert counts.isna().sum().tolist() == [2, 2, 2, 2]
    measures = runs.measures
    assert list(
        zip(measures["row"], measures["id"].astype(str), measures["value"], strict=True)
    ) == [
        (0, "cost", -12.25),
        (0, "calls", 1.0),
        (2, "cost", 1e15),
    ]
