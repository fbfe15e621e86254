"""The bulk path (Arrow) reads the same columns as the line-by-line path (pydantic)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest

from generator.load.jsonlines import _line_by_line, read_runs
from generator.load.runcolumns import (
    SCHEMA,
    RunColumns,
    arrow_schema,
    columns_from_records,
    read_fast,
)
from generator.models.runs import RunRecord

REPO = Path(__file__).resolve().parents[2]
RUN_FILES = sorted((REPO / "results").rglob("*.jsonl"))


def _canonical(columns: RunColumns) -> dict[str, pd.DataFrame]:
    out = {}
    for name in ("runs", "verdicts", "evidence", "modules"):
        frame = getattr(columns, name)
        keys = [k for k in ("row", "kind", "pos") if k in frame.columns]
        frame = frame.sort_values(keys, kind="stable") if keys else frame.copy()
        for column in frame.columns:
            if isinstance(frame[column].dtype, pd.CategoricalDtype):
                frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
        out[name] = frame.reset_index(drop=True)
    return out


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
    records, lines, problems = _line_by_line(raw, start, 2, path.name, None)
    assert problems == []
    _same(fast.columns, columns_from_records(records, lines))


def test_the_schema_comes_from_the_model() -> None:
    assert arrow_schema(RunRecord) == SCHEMA
    assert set(SCHEMA.names) == {f.alias or n for n, f in RunRecord.model_fields.items()}
    judge = SCHEMA.field("judge").type.value_type
    assert judge.field("level").type == pa.int64()
    assert SCHEMA.field("rules").type.value_type.field("pass").type == pa.bool_()


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
