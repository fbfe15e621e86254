"""Run records in bulk: parse a runs file into columns with Arrow, against the schema and
checks derived from :class:`generator.models.runs.RunRecord` (:mod:`generator.load.runschema`).

A file that fails the parse, or rows that fail a check, are validated again line by line with
pydantic (:mod:`generator.load.jsonlines`, which builds the same columns from its records with
:mod:`generator.load.records`), naming the line, the field and what was expected. So a good
file is read at Arrow's speed, and a bad one gets the same messages, found in one pass.

It pays: loading and validating the reference release (139,000 runs, 147 MB) took 4.3 s
with it and 40.4 s with every file read line by line, the whole build 52.0 s and 82.0 s
(``bench/tricks.py --trick arrow-runs``, 2026-12-04,
``bench/results/2026-12-04-arrow-runs.json``, one build a side). The tests of this module
bind the two paths to the same columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pj

from generator.load.rawlines import not_utf8_lines, suspect_nulls
from generator.load.runschema import PARSE, flag_rows, to_bools
from generator.protocol.items import LISTS

if TYPE_CHECKING:
    from generator.load.items import ItemIndex


# Columns of the runs table and their dtypes (strings as pandas categoricals).
RUN_COLUMNS: dict[str, Any] = {
    "line": "int64",
    "task": "category",
    "run": "int64",
    "status": "category",
    "cause": "category",
    "retries": "int64",
    "delivery": "bool",
    "judge_valid": "Int8",  # 1, 0, or <NA> when not recorded (rule-only tasks)
    # optional counts: NaN where a record leaves them out (exact up to 2**53, the model's bound)
    "input_tokens": "float64",
    "output_tokens": "float64",
    "duration_s": "float64",
    "turns": "float64",
    "failure_type": "category",
}


@dataclass(frozen=True)
class RunColumns:
    """A runs file's valid records as columns.

    ``runs``: one row per record (row number = position). ``verdicts``: one row per item
    verdict: ``row``, ``kind`` (0 rules, 1 fatal, 2 judge), ``pos`` (index in its list),
    ``id`` and ``value`` (1/0 for rule items, the level for Judge items: integers while
    every level is whole, float64 once one is not). ``evidence``: the evidence ids each
    Judge verdict cites (``row``, ``pos``, ``id``). ``modules``: the modules each run names
    as failed (``row``, ``pos``, ``module``). ``measures``: the values of the release's
    measured metrics each run records (``row``, ``pos``, ``id``, ``value`` as float64).
    """

    runs: pd.DataFrame
    verdicts: pd.DataFrame
    evidence: pd.DataFrame
    modules: pd.DataFrame
    measures: pd.DataFrame

    def __len__(self) -> int:
        return len(self.runs)

    @property
    def lines(self) -> np.ndarray:
        return self.runs["line"].to_numpy()


#: Column names of the item tables.
VERDICTS = ("row", "kind", "pos", "id", "value")
EVIDENCE = ("row", "pos", "id")
MODULES = ("row", "pos", "module")
MEASURES = ("row", "pos", "id", "value")


def empty_columns() -> RunColumns:
    """The columns of a file without records."""

    def none(names: tuple[str, ...]) -> dict[str, Any]:
        return {
            n: pd.Series([], dtype=object) if n in ("id", "module") else np.empty(0, np.int64)
            for n in names
        }

    runs = pd.DataFrame({c: [] for c in RUN_COLUMNS})  # as an empty list of records gives
    return finish(runs, none(VERDICTS), none(EVIDENCE), none(MODULES), none(MEASURES))


# ------------------------------------------------------------------ reading


@dataclass
class FastRead:
    """What the bulk path made of a file: columns, and the lines it could not vouch for."""

    columns: RunColumns
    suspect_lines: list[int] = field(default_factory=list)


def read_fast(raw: bytes, start: int, first_line: int) -> FastRead | None:
    """Parse ``raw[start:]`` (the records after the header) in bulk.

    None when the bulk parse fails or the rows do not map one to one onto lines (blank
    lines, two objects on a line): the caller then reads the file line by line.
    """
    body = memoryview(raw)[start:]
    if not body.nbytes:
        return FastRead(empty_columns())
    expected = raw.count(b"\n", start) + (0 if raw.endswith(b"\n") else 1)
    try:
        table = pj.read_json(pa.BufferReader(pa.py_buffer(body)), parse_options=PARSE)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if table.num_rows != expected:
        return None
    bad = flag_rows(table)
    suspects = {first_line + int(i) for i in np.flatnonzero(bad)}
    suspects |= suspect_nulls(raw, start) | not_utf8_lines(raw, start)
    keep = np.ones(table.num_rows, dtype=bool)
    keep[[line - first_line for line in suspects]] = False
    good = table.filter(pa.array(keep)) if not keep.all() else table
    lines = np.flatnonzero(keep) + first_line
    return FastRead(_columns(good, lines), sorted(suspects))


def item_table(index: ItemIndex, tasks: pd.Series, ids: pd.Series) -> np.ndarray:
    """(task code, item-id code) of a file's categorical columns -> declared item of the
    catalog's ``index``, or -1: a verdict's item is then two array lookups away."""
    task = np.array([index.task_code.get(t, -1) for t in tasks.cat.categories], np.int64)
    item_id = np.array([index.id_code.get(i, -1) for i in ids.cat.categories], np.int64)
    table = np.full((len(task), len(item_id)), -1, np.int32)
    table[np.ix_(task >= 0, item_id >= 0)] = index.table[
        np.ix_(task[task >= 0], item_id[item_id >= 0])
    ]
    return table


def _category(array: pa.ChunkedArray | pa.Array) -> pd.Series:
    series: pd.Series = pc.dictionary_encode(array).to_pandas()
    return series


def _int_type(high: int) -> type[np.signedinteger[Any]]:
    """The narrowest signed integer type holding 0..``high``."""
    for dtype in (np.int8, np.int16, np.int32):
        if high <= np.iinfo(dtype).max:
            return dtype
    return np.int64


def _narrow(values: np.ndarray) -> np.ndarray:
    """Non-negative integers in the narrowest type that holds them."""
    return values.astype(_int_type(int(values.max(initial=0))), copy=False)


#: Rows of one runs file: at most 1 GiB, so fewer than 2**31 lines.
ROW = np.int32
_INT32_MAX = int(np.iinfo(np.int32).max)


def levels(values: np.ndarray) -> np.ndarray:
    """Verdict values (1/0, Judge levels) as integers when every one is whole and within
    int32, as they are otherwise (float64, exactly as recorded): whole levels keep a
    verdict at eight bytes, continuous ones lose nothing."""
    if values.dtype.kind != "f":
        return values
    if len(values) and (values.max() > _INT32_MAX or np.any(np.mod(values, 1.0) != 0)):
        return values.astype(np.float64, copy=False)
    return values.astype(np.int64)


def typed(
    verdicts: dict[str, Any],
    evidence: dict[str, Any],
    modules: dict[str, Any],
    measures: dict[str, Any],
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The item tables, from their columns, in compact types: a million runs hold tens of
    millions of verdicts. Rows int32; positions and whole values in the narrowest type that
    holds them (verdicts' positions and those of the evidence they cite alike: they are
    joined on them), other values as float64; ids as categoricals with sorted categories.
    Each column is converted once and not copied again."""
    high = max(int(verdicts["pos"].max(initial=0)), int(evidence["pos"].max(initial=0)))
    pos = _int_type(high)
    value = levels(np.asarray(verdicts["value"]))
    tables = (
        {
            "row": verdicts["row"].astype(ROW),
            "kind": verdicts["kind"].astype(np.int8),
            "pos": verdicts["pos"].astype(pos),
            "id": _sorted_category(verdicts["id"]),
            "value": _narrow(value) if value.dtype.kind in "iu" else value,
        },
        {
            "row": evidence["row"].astype(ROW),
            "pos": evidence["pos"].astype(pos),
            "id": _sorted_category(evidence["id"]),
        },
        {
            "row": modules["row"].astype(ROW),
            "pos": _narrow(modules["pos"]),
            "module": _sorted_category(modules["module"]),
        },
        {
            "row": measures["row"].astype(ROW),
            "pos": _narrow(np.asarray(measures["pos"])),
            "id": _sorted_category(measures["id"]),
            "value": np.asarray(measures["value"], dtype=np.float64),
        },
    )
    v, e, m, x = (pd.DataFrame(t, copy=False) for t in tables)
    return v, e, m, x


def _sorted_category(values: pd.Series | pa.Array) -> pd.Categorical:
    """Strings as a categorical with sorted categories (nulls missing), as
    ``astype("category")`` makes them; a categorical only has its categories reordered."""
    if isinstance(values, pa.Array):
        encoded = pc.dictionary_encode(values)
        names = encoded.dictionary.to_pylist()
        order = sorted(range(len(names)), key=names.__getitem__)
        rank = np.empty(len(names) + 1, np.int64)
        rank[order] = np.arange(len(names))
        rank[-1] = -1  # null
        indices = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False)
        categories = pd.Index([names[i] for i in order], dtype="str")
        return pd.Categorical.from_codes(rank[indices], categories=categories, validate=False)
    if not isinstance(values.dtype, pd.CategoricalDtype):
        values = values.astype("category")
    out: pd.Categorical = values.cat.reorder_categories(sorted(values.cat.categories)).array
    return out


def _list_parts(lists: pa.Array) -> tuple[pa.Array, np.ndarray, np.ndarray]:
    """The items of a list array, each item's row and its position in its list."""
    offsets = np.asarray(lists.offsets.to_numpy(), dtype=np.int64)
    if lists.null_count and np.diff(offsets)[to_bools(pc.is_null(lists))].any():
        # a null list that spans values (Arrow's reader writes them empty): make it empty
        lists = pc.fill_null(lists, pa.scalar([], lists.type))
        offsets = np.asarray(lists.offsets.to_numpy(), dtype=np.int64)
    flat = pc.list_flatten(lists)
    rows = np.asarray(pc.list_parent_indices(lists).to_numpy(), dtype=np.int64)
    pos = np.arange(len(flat), dtype=np.int64) - (offsets[rows] - offsets[0])
    return flat, rows, pos


def _column(table: pa.Table, name: str) -> pa.Array:
    column = table.column(name)
    return pa.concat_arrays(column.chunks) if column.num_chunks else pa.array([], column.type)


def _ints(array: pa.Array) -> np.ndarray:
    """An integer or boolean Arrow array without nulls as int64."""
    if pa.types.is_boolean(array.type):
        array = pc.cast(array, pa.int8())
    return np.asarray(array.to_numpy(zero_copy_only=False), dtype=np.int64)


def _floats(array: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A numeric Arrow array as float64, nulls as NaN (integers up to 2**53 exactly)."""
    as_float = pc.cast(array, pa.float64(), safe=False)
    filled = pc.fill_null(as_float, np.nan) if as_float.null_count else as_float
    return np.asarray(filled.to_numpy(zero_copy_only=False), dtype=np.float64)


def _columns(table: pa.Table, lines: np.ndarray) -> RunColumns:
    """Compact columns of a checked table; free text (rationales, notes) is not kept."""
    judge_valid = table.column("judge_valid")
    runs = pd.DataFrame(
        {
            "line": lines.astype(np.int64),
            "task": _category(table.column("task")),
            "run": table.column("run").to_numpy(),
            "status": _category(table.column("status")),
            "cause": _category(table.column("cause")),
            "retries": pc.fill_null(table.column("retries"), 0).to_numpy(),
            "delivery": table.column("delivery").to_numpy(zero_copy_only=False).astype(bool),
            "judge_valid": pd.arrays.IntegerArray(
                pc.fill_null(judge_valid, False).to_numpy(zero_copy_only=False).astype(np.int8),
                pc.is_null(judge_valid).to_numpy(zero_copy_only=False).astype(bool),
            ),
            "input_tokens": _floats(table.column("input_tokens")),
            "output_tokens": _floats(table.column("output_tokens")),
            "duration_s": _floats(table.column("duration_s")),
            "turns": _floats(table.column("turns")),
            "failure_type": _category(table.column("failure_type")),
        }
    )
    # verdicts list by list (rules, fatal, judge), each in record order
    rows, kinds, positions, ids, values = [], [], [], [], []
    evidence: dict[str, Any] = {"row": _EMPTY, "pos": _EMPTY, "id": pa.array([], pa.string())}
    for name, kind in LISTS.items():
        flat, row, pos = _list_parts(_column(table, name))
        rows.append(row)
        kinds.append(np.full(len(flat), kind, np.int8))
        positions.append(pos)
        ids.append(flat.field("id"))
        if kind == LISTS["judge"]:
            values.append(levels(_floats(flat.field("level"))))
            cited, owner, _ = _list_parts(flat.field("evidence"))
            evidence = {"row": row[owner], "pos": pos[owner], "id": cited}
        else:
            values.append(_ints(flat.field("pass")))
    verdicts = {
        "row": np.concatenate(rows),
        "kind": np.concatenate(kinds),
        "pos": np.concatenate(positions),
        "id": pa.concat_arrays(ids),
        "value": np.concatenate(values),
    }
    names, m_rows, m_pos = _list_parts(_column(table, "modules_failed"))
    measured, x_rows, x_pos = _list_parts(_column(table, "measures"))
    measures = {
        "row": x_rows,
        "pos": x_pos,
        "id": measured.field("id"),
        "value": _floats(measured.field("value")),
    }
    return finish(
        runs, verdicts, evidence, {"row": m_rows, "pos": m_pos, "module": names}, measures
    )


_EMPTY = np.empty(0, np.int64)


def finish(
    runs: pd.DataFrame,
    verdicts: dict[str, Any],
    evidence: dict[str, Any],
    modules: dict[str, Any],
    measures: dict[str, Any],
) -> RunColumns:
    runs = runs.astype(RUN_COLUMNS)
    return RunColumns(runs.reset_index(drop=True), *typed(verdicts, evidence, modules, measures))
