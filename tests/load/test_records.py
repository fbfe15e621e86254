"""Columns from pydantic records, and parts of one file joined in line order."""

from __future__ import annotations

import math

import pandas as pd
from builders import run

from generator.load.records import columns_from_records, concat_columns
from generator.load.runcolumns import RunColumns
from generator.models import RunRecord
from generator.models.runs import Measure
from generator.protocol.items import LISTS


def _records() -> list[RunRecord]:
    first = run("a", 1, passed=1, of=3, fatal=(True, False), judge=(2, 0))
    judge = [
        first.judge[0].model_copy(update={"evidence": ("E1", "E2")}),
        first.judge[1].model_copy(update={"evidence": ("E3",)}),
    ]
    first = first.model_copy(
        update={
            "judge": tuple(judge),
            "modules_failed": ("m1", "m2"),
            "measures": (Measure(id="cost", value=2.5), Measure(id="calls", value=3)),
        }
    )
    third = run("a", 2, passed=0, of=1, judge=(1,))
    third = third.model_copy(
        update={
            "judge": (third.judge[0].model_copy(update={"level": 0.5}),),
            "measures": (Measure(id="cost", value=-1e6),),
        }
    )
    # a release declaring no token or turn metric: a run may leave them out
    fourth = run("c", 1, passed=2, of=2).model_copy(update={"input_tokens": None, "turns": None})
    return [first, run("b", 2, valid=False), third, fourth]


def _verdicts_by_hand(records: list[RunRecord]) -> list[tuple[int, int, int, str, float]]:
    out = []
    for row, r in enumerate(records):
        out += [(row, LISTS["rules"], p, v.id, int(v.passed)) for p, v in enumerate(r.rules)]
        out += [(row, LISTS["fatal"], p, v.id, int(v.passed)) for p, v in enumerate(r.fatal)]
        out += [(row, LISTS["judge"], p, v.id, v.level) for p, v in enumerate(r.judge)]
    return out


def _verdicts(columns: RunColumns) -> list[tuple[int, int, int, str, float]]:
    v = columns.verdicts
    return [
        (int(r), int(k), int(p), str(i), float(x))
        for r, k, p, i, x in zip(v["row"], v["kind"], v["pos"], v["id"], v["value"], strict=True)
    ]


def test_one_run_row_per_record_with_its_line() -> None:
    records = _records()
    columns = columns_from_records(records, [2, 5, 6, 9])
    assert len(columns) == len(records)
    assert columns.lines.tolist() == [2, 5, 6, 9]
    runs = columns.runs
    assert runs["task"].astype(str).tolist() == [r.task for r in records]
    assert runs["status"].astype(str).tolist() == [r.status for r in records]
    for name in ("input_tokens", "output_tokens", "duration_s", "turns"):
        recorded = [getattr(r, name) for r in records]
        assert [None if math.isnan(x) else x for x in runs[name]] == recorded
        assert runs[name].dtype == "float64"
    # judge_valid: 1, 0 or missing (rule-only runs do not record it)
    assert [None if pd.isna(x) else int(x) for x in runs["judge_valid"]] == [
        None if r.judge_valid is None else int(r.judge_valid) for r in records
    ]


def test_verdicts_evidence_and_modules_keep_their_lists_and_positions() -> None:
    records = _records()
    columns = columns_from_records(records, [2, 3, 4, 5])
    assert sorted(_verdicts(columns)) == sorted(_verdicts_by_hand(records))
    evidence = columns.evidence
    assert list(zip(evidence["row"], evidence["pos"], evidence["id"].astype(str), strict=True)) == [
        (0, 0, "E1"),
        (0, 0, "E2"),
        (0, 1, "E3"),
    ]
    modules = columns.modules
    assert modules["module"].astype(str).tolist() == ["m1", "m2"]
    assert modules["pos"].tolist() == [0, 1]
    assert _measures(columns) == _measures_by_hand(records)


def _measures_by_hand(records: list[RunRecord]) -> list[tuple[int, int, str, float]]:
    return [
        (row, p, m.id, m.value) for row, r in enumerate(records) for p, m in enumerate(r.measures)
    ]


def _measures(columns: RunColumns) -> list[tuple[int, int, str, float]]:
    x = columns.measures
    assert x["value"].dtype == "float64"
    return [
        (int(r), int(p), str(i), float(v))
        for r, p, i, v in zip(x["row"], x["pos"], x["id"], x["value"], strict=True)
    ]


def test_parts_read_apart_join_as_if_read_whole() -> None:
    """A file read partly in bulk, partly line by line: rows end in line order and every
    verdict follows its run."""
    records = _records()
    lines = [2, 3, 4, 5]
    whole = columns_from_records(records, lines)
    odd = columns_from_records([records[0], records[2]], [2, 4])
    even = columns_from_records([records[1], records[3]], [3, 5])
    joined = concat_columns([even, odd])
    assert joined.lines.tolist() == lines
    assert joined.runs["task"].astype(str).tolist() == whole.runs["task"].astype(str).tolist()
    assert sorted(_verdicts(joined)) == sorted(_verdicts(whole))
    assert joined.evidence["row"].tolist() == whole.evidence["row"].tolist()
    assert joined.modules["row"].tolist() == whole.modules["row"].tolist()
    assert _measures(joined) == _measures(whole)
    pd.testing.assert_frame_equal(joined.runs, whole.runs)


def test_empty_parts_are_dropped() -> None:
    records = _records()
    part = columns_from_records(records, [2, 3, 4, 5])
    empty = columns_from_records([], [])
    assert len(empty) == 0
    assert concat_columns([empty, part]) is part
    assert len(concat_columns([empty, empty])) == 0
