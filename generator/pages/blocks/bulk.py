"""Table downloads and rows for every task of a version at once, column by column.

A release at benchmark scale has hundreds of thousands of per-task rows (item verdicts and
runs of 1,400 tasks). Written record by record they would cost most of a build, so tables
whose rows come from one version-wide frame are written here in bulk instead: each column's
distinct values are encoded once (as :class:`~generator.pages.blocks.tables.Table` would encode
them), taken by code for every row, joined into lines with Arrow, and cut into one text per
task. The result is the same text as ``Table.to_csv`` / ``Table.to_json`` / ``rows_html``
give for the same records and cells (tested), only written once per distinct value.

Measured at bench's reference scale (``bench/tricks.py --trick bulk-tables``, medians of two
builds a side, ``bench/results/2026-12-04-tricks-bulk.json``): the pages take 6.3 s with
it and 20.1 s record by record, the whole build 26.5 s and 41.6 s.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from generator.pages.blocks.columns import Column, Field, Show
from generator.pages.blocks.tables import Cell, Prepared, csv_cell, td
from generator.score.rounding import DECIMALS
from generator.score.tables import csv_field, csv_line

Encode = Callable[[Any], str]


def _plain(value: Any) -> Any:
    """A record value as ``Table`` stores it: NaN is None, floats rounded, tuples as lists."""
    if isinstance(value, float):
        return None if value != value else round(value, DECIMALS)
    if isinstance(value, tuple):
        return list(value)
    return value


def _json_value(value: Any) -> str:
    return json.dumps(_plain(value), ensure_ascii=False, allow_nan=False)


def _csv_value(value: Any) -> str:
    """One CSV field as ``Table.to_csv`` writes it inside a row."""
    return csv_field(csv_cell(_plain(value)))


def encoded(values: pd.Series | np.ndarray | pd.DataFrame, encode: Encode) -> pa.Array:
    """``encode`` applied to every value (a frame's row: a tuple), once per distinct one."""
    if isinstance(values, pd.DataFrame):
        codes, first = _row_codes(values)
        columns = [_python(values[c].to_numpy()[first]) for c in values.columns]
        uniques = list(zip(*columns, strict=True))
    else:
        codes, found = _factorize(pd.Series(values, copy=False))
        uniques = _python(found)
    texts = pa.array([encode(u) for u in uniques], pa.string())
    return texts.take(pa.array(codes))


def _factorize(series: pd.Series) -> tuple[np.ndarray, Any]:
    """``pd.factorize`` with missing values kept as a value, and -0.0 apart from 0.0: equal
    numbers, written differently ("-0.0"). Floats are told apart by their bits."""
    if series.dtype == np.float64:
        bits, found_bits = pd.factorize(series.to_numpy().view(np.int64), use_na_sentinel=False)
        return bits, np.asarray(found_bits).view(np.float64)
    codes, found = pd.factorize(series, use_na_sentinel=False)
    return codes, found


def _row_codes(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """A code per row, equal for equal rows, and the first row of each code."""
    key = np.zeros(len(frame), dtype=np.int64)
    span = 1
    for column in frame.columns:
        codes, found = _factorize(frame[column])
        span *= max(len(found), 1)
        if span >= 1 << 62:  # the mixed-radix key would overflow: let the codes so far count
            key, _ = pd.factorize(key)
            span = int(key.max(initial=0)) + 1
            span *= max(len(found), 1)
        key = key * max(len(found), 1) + codes  # mixed radix: distinct rows, distinct keys
    _, first, codes = np.unique(key, return_index=True, return_inverse=True)
    return codes, first


def _python(uniques: Any) -> list[Any]:
    """Distinct values as Python objects; every kind of missing value (None, NaN, NA) as
    None."""
    values = uniques.tolist() if hasattr(uniques, "tolist") else list(uniques)
    return [None if u is None or u is pd.NA or u is pd.NaT or u != u else u for u in values]


def joined(parts: list[pa.Array | str]) -> list[str]:
    """Row-wise concatenation of arrays and constant strings."""
    if not any(isinstance(p, pa.Array) for p in parts):
        raise ValueError("at least one part must be a column")
    return pc.binary_join_element_wise(*parts, "").to_pylist()  # type: ignore[no-any-return]


def json_lines(records: pd.DataFrame) -> list[str]:
    """Each row as ``json.dumps`` of its record (keys in column order, floats rounded)."""
    parts: list[pa.Array | str] = []
    for i, name in enumerate(records.columns):
        key = json.dumps(str(name), ensure_ascii=False)
        parts += [("{" if i == 0 else ", ") + key + ": ", encoded(records[name], _json_value)]
    return joined([*parts, "}"])


def csv_lines(records: pd.DataFrame) -> list[str]:
    """Each row as the CSV line ``Table.to_csv`` writes for its record."""
    parts: list[pa.Array | str] = []
    for i, name in enumerate(records.columns):
        if i:
            parts.append(",")
        parts.append(encoded(records[name], _csv_value))
    return joined(parts)


def html_rows(cells: list[tuple[pd.Series | np.ndarray, Encode]]) -> list[str]:
    """Each row as ``<tr>`` of its cells; each cell's HTML is ``encode`` of one value."""
    parts: list[pa.Array | str] = ["<tr>"]
    for values, encode in cells:
        parts.append(encoded(values, encode))
    return joined([*parts, "</tr>"])


def cell(
    text: Callable[[Any], str], sort: Callable[[Any], str | float | int | None] | None = None
) -> Encode:
    """A ``<td>`` made from one value: its text and, if given, its sort key."""
    return encoder(lambda value: Cell(text(value), None if sort is None else sort(value)))


def encoder(show: Show) -> Encode:
    """A ``<td>`` made from one value, as ``show`` shows it (:func:`~tables.td`)."""
    return lambda value: td(show(value))


def records(declared: Iterable[Field[pd.DataFrame]], frame: pd.DataFrame) -> pd.DataFrame:
    """A column-wise table's download records: each field takes its column from ``frame``."""
    return pd.DataFrame({f.name: f.value(frame) for f in declared})


def spec_rows(columns: Iterable[Column[pd.DataFrame]], records: pd.DataFrame) -> list[str]:
    """Each row's HTML: each column's values taken from ``records`` and shown as its
    ``show`` says, once per distinct value."""
    return html_rows([(c.value(records), encoder(c.show)) for c in columns])


def groups(keys: pd.Series) -> Iterator[tuple[str, slice]]:
    """(key, row slice) for each run of equal keys in a frame sorted by key."""
    values = keys.astype(str).to_numpy()
    if not len(values):
        return
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    ends = np.r_[starts[1:], len(values)]
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        yield str(values[start]), slice(start, end)


def downloads(
    records: pd.DataFrame, by: pd.Series, table: str, caption: str
) -> Mapping[str, Prepared]:
    """Per key of ``by`` (rows sorted by it): the CSV and JSON of its rows' records."""
    header = csv_line(str(c) for c in records.columns)
    js, cs = json_lines(records), csv_lines(records)
    head = json.dumps({"table": table, "caption": caption}, ensure_ascii=False)[:-1]
    out: dict[str, Prepared] = {}
    for key, part in groups(by):
        rows = js[part]
        out[key] = Prepared(
            "\n".join([header, *cs[part]]) + "\n",
            f'{head}, "rows": [\n' + ",\n".join(rows) + "\n]}\n",
        )
    return out


def rows_by_key(rows: list[str], by: pd.Series) -> Mapping[str, tuple[str, int]]:
    """Per key of ``by`` (rows sorted by it): its rows' HTML, as ``Table.rows_html`` gives it,
    and how many rows that is."""
    return {key: ("".join(rows[part]) + "\n", part.stop - part.start) for key, part in groups(by)}
