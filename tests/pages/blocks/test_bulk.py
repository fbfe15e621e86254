"""Bulk-written downloads and rows equal what ``Table`` writes record by record."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
from budget import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.pages.blocks import bulk
from generator.pages.blocks.tables import Cell, Row, Table
from generator.pages.blocks.text import score

TEXT = st.text(
    st.characters(blacklist_categories=["Cs"]), max_size=12
)  # quotes, commas, newlines, formula starts, markup: all of it
FLOATS = st.one_of(
    st.none(), st.floats(allow_nan=True, allow_infinity=False, width=64), st.just(1 / 3)
)


@st.composite
def frames(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(1, 25))
    keys = sorted(draw(st.lists(st.sampled_from("abc"), min_size=n, max_size=n)))
    return pd.DataFrame(
        {
            "key": keys,
            "label": draw(st.lists(TEXT, min_size=n, max_size=n)),
            "count": draw(st.lists(st.integers(-5, 10**12), min_size=n, max_size=n)),
            "value": pd.Series(draw(st.lists(FLOATS, min_size=n, max_size=n)), dtype=float),
            "flag": pd.Series(
                draw(st.lists(st.sampled_from([True, False, None]), min_size=n, max_size=n)),
                dtype=object,
            ),
            "ids": pd.Series(
                draw(st.lists(st.lists(TEXT, max_size=2).map(tuple), min_size=n, max_size=n)),
                dtype=object,
            ),
        }
    )


def _record(row: dict[str, Any]) -> dict[str, Any]:
    """What a page builder puts in a Row's record for these values."""
    value = row["value"]
    return {
        "label": row["label"],
        "count": int(row["count"]),
        "value": None if value is None or math.isnan(value) else float(value),
        "flag": row["flag"],
        "ids": list(row["ids"]),
    }


def _one_by_one(frame: pd.DataFrame, key: str) -> Table:
    part = frame[frame["key"] == key]
    rows = []
    for row in part.to_dict("records"):
        record = _record(row)
        cells = (
            Cell(record["label"]),
            Cell(score(record["value"]), record["value"]),
            Cell(str(record["count"]), record["count"]),
        )
        rows.append(Row(cells, record))
    return Table("t", 'Caption "quoted" — ✓', ("Label", "Value", "Count"), tuple(rows))


# 0.0 and -0.0 are equal (one code, if factorized as values) but written differently.
MINUS_ZERO = pd.DataFrame(
    {
        "key": ["a"] * 3,
        "label": [""] * 3,
        "count": [0] * 3,
        "value": pd.Series([float("nan"), 0.0, -0.0]),
        "flag": pd.Series([True] * 3, dtype=object),
        "ids": pd.Series([()] * 3, dtype=object),
    }
)


@settings(max_examples=examples(150), deadline=None)
@given(frames())
@example(MINUS_ZERO)
def test_bulk_downloads_and_rows_equal_the_record_by_record_tables(frame: pd.DataFrame) -> None:
    records = frame[["label", "count", "value", "flag", "ids"]]
    files = bulk.downloads(records, frame["key"], "t", 'Caption "quoted" — ✓')
    number = lambda v: None if v is None else float(v)  # noqa: E731
    html = bulk.html_rows(
        [
            (frame["label"], bulk.cell(str)),
            (frame["value"], bulk.cell(lambda v: score(number(v)), number)),
            (frame["count"], bulk.cell(str, int)),
        ]
    )
    rows = bulk.rows_by_key(html, frame["key"])
    assert sorted(files) == sorted(rows) == sorted(set(frame["key"]))
    for key, prepared in files.items():
        table = _one_by_one(frame, key)
        assert prepared.csv == table.to_csv()
        assert prepared.json == table.to_json()
        assert rows[key] == (table.rows_html(), len(table.rows))


def test_groups_are_the_runs_of_equal_keys() -> None:
    keys = pd.Series(["a", "a", "b", "c", "c", "c"])
    assert list(bulk.groups(keys)) == [("a", slice(0, 2)), ("b", slice(2, 3)), ("c", slice(3, 6))]
    assert list(bulk.groups(pd.Series([], dtype=str))) == []


@settings(max_examples=examples(100), deadline=None)
@given(frames())
def test_a_frame_is_encoded_row_by_row_once_per_distinct_row(frame: pd.DataFrame) -> None:
    columns = frame[["key", "count", "value", "flag"]]
    calls: list[tuple[Any, ...]] = []

    def encode(row: tuple[Any, ...]) -> str:
        calls.append(row)
        return repr(row)

    got = bulk.encoded(columns, encode).to_pylist()
    expected = [
        repr(tuple(None if v is None or v != v else v for v in row))
        for row in columns.itertuples(index=False, name=None)
    ]
    assert got == expected
    assert len(calls) == len(set(calls)) == len(set(expected))
