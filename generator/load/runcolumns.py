"""Run records in bulk: parse a runs file into columns with Arrow, check them as columns.

The pydantic model :class:`generator.models.runs.RunRecord` stays the single source of truth
for the format. From it this module derives

- an Arrow schema (field types, nested lists of verdicts) that the JSON reader enforces while
  parsing: unknown fields, wrong types, duplicate keys and malformed JSON fail the parse;
- vectorised checks for what the schema cannot express: required fields, ranges (``ge``,
  ``le``), lengths, patterns, literals and finite numbers, derived from the fields'
  constraints. They fail closed: a constraint they do not implement sends every value of its
  field to pydantic (:func:`implemented`), and so does a stripped string with anything but
  visible ASCII at an end.

A file that fails the parse, or rows that fail a check, are validated again line by line with
pydantic (:mod:`generator.load.jsonlines`), which names the line, the field and what was
expected. So a good file is read at Arrow's speed, and a bad one gets the same messages as
before, found in one pass.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import annotated_types as at
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pj
from pydantic import BaseModel, Strict
from pydantic.fields import FieldInfo

from generator.models.runs import JudgeVerdict, RuleVerdict, RunRecord

if TYPE_CHECKING:
    from generator.load.items import ItemIndex

#: Item lists of a record and the integer kind each is stored under.
LISTS = {"rules": 0, "fatal": 1, "judge": 2}
KIND_NAMES = {v: k for k, v in LISTS.items()}

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
    "input_tokens": "int64",
    "output_tokens": "int64",
    "duration_s": "float64",
    "turns": "int64",
    "failure_type": "category",
}


@dataclass(frozen=True)
class RunColumns:
    """A runs file's valid records as columns.

    ``runs``: one row per record (row number = position). ``verdicts``: one row per item
    verdict: ``row``, ``kind`` (0 rules, 1 fatal, 2 judge), ``pos`` (index in its list),
    ``id`` and ``value`` (1/0 for rule items, the level for Judge items). ``evidence``: the
    evidence ids each Judge verdict cites (``row``, ``pos``, ``id``). ``modules``: the
    modules each run names as failed (``row``, ``pos``, ``module``).
    """

    runs: pd.DataFrame
    verdicts: pd.DataFrame
    evidence: pd.DataFrame
    modules: pd.DataFrame

    def __len__(self) -> int:
        return len(self.runs)

    @property
    def lines(self) -> np.ndarray:
        return self.runs["line"].to_numpy()


def empty_columns() -> RunColumns:
    return columns_from_records([], [])


# ------------------------------------------------------------------ schema from the model


def _unwrap(annotation: Any) -> tuple[Any, bool]:
    """(base type, nullable) of an annotation, Annotated and Optional removed."""
    nullable = False
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(annotation) if a is not type(None)]
            nullable = nullable or len(args) < len(typing.get_args(annotation))
            if len(args) != 1:
                raise TypeError(f"no Arrow type for {annotation}")
            annotation = args[0]
        else:
            return annotation, nullable


def _metadata(info: FieldInfo, annotation: Any) -> list[Any]:
    found = list(info.metadata)
    while typing.get_origin(annotation) in (typing.Annotated, typing.Union, types.UnionType):
        if typing.get_origin(annotation) is typing.Annotated:
            found += list(annotation.__metadata__)
            annotation = typing.get_args(annotation)[0]
        else:
            inner = [a for a in typing.get_args(annotation) if a is not type(None)]
            annotation = inner[0]
    out: list[Any] = []
    for m in found:
        if isinstance(m, FieldInfo):
            out += _metadata(m, m.annotation) if m.metadata else []
        elif isinstance(m, at.GroupedMetadata):  # StringConstraints, Interval, ...
            out += list(m)
        else:
            out.append(m)
    return out


# Constraints the vectorised checks implement. Anything else a model declares sends every
# value of its field to pydantic (:func:`_bad_values` fails closed), so the bulk path can
# never accept what the per-line path refuses.
_BOUNDS = (at.Ge, at.Le, at.Gt, at.Lt, at.MinLen, at.MaxLen, Strict)
# Keys of pydantic's general metadata the checks implement: a pattern, whitespace stripping
# before the length checks, and strictness (the Arrow schema already fixes each type).
_GENERAL = frozenset({"pattern", "strip_whitespace", "strict"})


def _general(m: Any) -> dict[str, Any] | None:
    """The settings of pydantic's general metadata (``_PydanticGeneralMetadata``), or None
    for any other object."""
    if type(m).__name__ != "_PydanticGeneralMetadata":
        return None
    return {key: value for key, value in vars(m).items() if value is not None}


def implemented(info: FieldInfo, annotation: Any) -> bool:
    """Whether the vectorised checks implement every constraint the field declares
    (``Strict``: the Arrow schema refuses a value of another JSON type)."""
    for m in _metadata(info, annotation):
        general = _general(m)
        if general is not None:
            if not set(general) <= _GENERAL:
                return False
        elif not isinstance(m, _BOUNDS):
            return False
    return True


def arrow_type(annotation: Any) -> pa.DataType:
    """The Arrow type the JSON reader should produce for a model annotation."""
    base, _ = _unwrap(annotation)
    origin = typing.get_origin(base)
    if isinstance(base, type) and issubclass(base, BaseModel):
        return pa.struct(
            [
                pa.field(f.alias or name, arrow_type(f.annotation))
                for name, f in base.model_fields.items()
            ]
        )
    if origin in (tuple, list):
        return pa.list_(arrow_type(typing.get_args(base)[0]))
    if origin is typing.Literal or base is str:
        return pa.string()
    if base is bool:
        return pa.bool_()
    if base is int:
        return pa.int64()
    if base is float:
        return pa.float64()
    raise TypeError(f"no Arrow type for {annotation}")


def arrow_schema(model: type[BaseModel]) -> pa.Schema:
    """The Arrow schema of a model's JSON form (aliases as column names)."""
    return pa.schema(
        [
            pa.field(f.alias or name, arrow_type(f.annotation))
            for name, f in model.model_fields.items()
        ]
    )


SCHEMA = arrow_schema(RunRecord)
_PARSE = pj.ParseOptions(explicit_schema=SCHEMA, unexpected_field_behavior="error")


# ------------------------------------------------------------------ vectorised checks


def _bad_values(array: pa.Array, info: FieldInfo, annotation: Any) -> np.ndarray:
    """Per element of a flat array: breaks a constraint of the field (nulls excluded)."""
    if pa.types.is_string(array.type) and len(array) > 4096:
        # ids repeat (R01, J01, ... in every run): check each distinct value once
        if isinstance(array, pa.ChunkedArray):
            array = array.combine_chunks()
        encoded = pc.dictionary_encode(array)
        distinct = _bad_values(encoded.dictionary, info, annotation)
        index = np.asarray(pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False))
        spread: np.ndarray = np.append(distinct, False)[index]  # a null (-1): the False
        return spread
    bad = np.zeros(len(array), dtype=bool)
    base, _ = _unwrap(annotation)
    found = _metadata(info, annotation)
    if not implemented(info, annotation):
        return ~_np(pc.is_null(array))  # fail closed: pydantic judges every value
    general = [g for g in (_general(m) for m in found) if g is not None]
    strip = any(g.get("strip_whitespace") for g in general)
    if strip and len(array):
        # Python strips more characters than Arrow: a value with anything but visible ASCII
        # at either end is left to pydantic.
        bad |= _np(pc.match_substring_regex(array, r"^[^!-~]|[^!-~]$"))
    for m in found:
        if isinstance(m, at.Ge):
            bad |= _np(pc.less(array, m.ge))
        elif isinstance(m, at.Le):
            bad |= _np(pc.greater(array, m.le))
        elif isinstance(m, at.Gt):
            bad |= _np(pc.less_equal(array, m.gt))
        elif isinstance(m, at.Lt):
            bad |= _np(pc.greater_equal(array, m.lt))
        elif isinstance(m, at.MaxLen):
            bad |= _np(pc.greater(pc.utf8_length(array), m.max_length))
        elif isinstance(m, at.MinLen):
            bad |= _np(pc.less(pc.utf8_length(array), m.min_length))
    for g in general:
        if g.get("pattern"):
            # the models' patterns are RE2-compatible as written
            bad |= ~_np(pc.match_substring_regex(array, str(g["pattern"])), True)
    if typing.get_origin(base) is typing.Literal:
        allowed = pa.array(typing.get_args(base), pa.string())
        bad |= ~_np(pc.is_in(array, value_set=allowed), True)
    if base is float:
        bad |= ~_np(pc.is_finite(array), True)
    return bad


def _np(array: pa.Array | pa.ChunkedArray, null: bool = False) -> np.ndarray:
    """A boolean Arrow array as numpy, nulls read as ``null``."""
    if array.null_count:
        array = pc.fill_null(array, null)
    return np.asarray(array.to_numpy(zero_copy_only=False), dtype=bool)


def _flag_struct(
    table_col: pa.ChunkedArray, model: type[BaseModel], rows: np.ndarray, bad_rows: np.ndarray
) -> None:
    """Mark rows whose list of ``model`` objects breaks a field constraint or misses one."""
    lists = (
        pa.concat_arrays(table_col.chunks) if table_col.num_chunks else pa.array([], table_col.type)
    )
    flat = pc.list_flatten(lists)
    owner = rows[_np_int(pc.list_parent_indices(lists))] if len(flat) else np.empty(0, np.int64)
    for name, info in model.model_fields.items():
        key = info.alias or name
        values = flat.field(key)
        bad = np.zeros(len(values), dtype=bool)
        if info.is_required():
            bad |= _np(pc.is_null(values))
        base, _ = _unwrap(info.annotation)
        if typing.get_origin(base) in (tuple, list):
            item = typing.get_args(base)[0]
            inner = pc.list_flatten(values)
            if len(inner):
                parents = _np_int(pc.list_parent_indices(values))
                inner_bad = _bad_values(inner, FieldInfo.from_annotation(item), item)
                bad[parents[inner_bad | _np(pc.is_null(inner))]] = True
        else:
            bad |= _bad_values(values, info, info.annotation)
        bad_rows[owner[bad]] = True


def _np_int(array: pa.Array) -> np.ndarray:
    return np.asarray(array.to_numpy(zero_copy_only=False), dtype=np.int64)


# Settings of a model's config that change what it accepts beyond its fields' constraints.
_CONFIG_RULES = (
    "str_strip_whitespace",
    "str_to_lower",
    "str_to_upper",
    "str_min_length",
    "str_max_length",
)


def models_checked_in_bulk(models: Iterable[type[BaseModel]]) -> bool:
    """Whether the bulk checks can judge these models: no validator functions and no config
    setting that changes what they accept (otherwise every row goes to pydantic)."""
    for model in models:
        hooks = model.__pydantic_decorators__
        if hooks.validators or hooks.field_validators or hooks.model_validators:
            return False
        if hooks.root_validators or any(model.model_config.get(k) for k in _CONFIG_RULES):
            return False
    return True


_BULK = models_checked_in_bulk((RunRecord, RuleVerdict, JudgeVerdict))


def _flag_rows(table: pa.Table) -> np.ndarray:
    """Rows (0-based) that break a constraint of :class:`RunRecord` (every row, when the
    models carry rules the bulk checks cannot read: :func:`models_checked_in_bulk`)."""
    n = table.num_rows
    if not _BULK:
        return np.ones(n, dtype=bool)
    bad = np.zeros(n, dtype=bool)
    rows = np.arange(n)
    for name, info in RunRecord.model_fields.items():
        column = table.column(info.alias or name)
        if info.is_required():
            bad |= _np(pc.is_null(column))
        base, _ = _unwrap(info.annotation)
        if typing.get_origin(base) in (tuple, list):
            item = typing.get_args(base)[0]
            item_base, _ = _unwrap(item)
            if isinstance(item_base, type) and issubclass(item_base, BaseModel):
                _flag_struct(column, item_base, rows, bad)
            else:
                lists = pa.concat_arrays(column.chunks) if column.num_chunks else None
                if lists is not None and len(pc.list_flatten(lists)):
                    inner = pc.list_flatten(lists)
                    parents = _np_int(pc.list_parent_indices(lists))
                    inner_bad = _bad_values(inner, FieldInfo.from_annotation(item), item)
                    bad[parents[inner_bad | _np(pc.is_null(inner))]] = True
        else:
            bad |= _bad_values(column, info, info.annotation)
    return bad


# ------------------------------------------------------------------ reading


@dataclass
class FastRead:
    """What the bulk path made of a file: columns, and the lines it could not vouch for."""

    columns: RunColumns
    suspect_lines: list[int] = field(default_factory=list)


def _defaulted(model: type[BaseModel]) -> set[bytes]:
    """JSON names of fields that may be absent but not null, in ``model`` and its items."""
    names: set[bytes] = set()
    for name, info in model.model_fields.items():
        base, nullable = _unwrap(info.annotation)
        if not info.is_required() and not nullable:
            names.add((info.alias or name).encode())
        if typing.get_origin(base) in (tuple, list):
            item, _ = _unwrap(typing.get_args(base)[0])
            if isinstance(item, type) and issubclass(item, BaseModel):
                names |= _defaulted(item)
    return names


_DEFAULTED = sorted(_defaulted(RunRecord))


def _explicit_nulls(raw: bytes, start: int) -> set[int]:
    """Lines where a field that may be absent is written as null: Arrow reads that as
    absent, pydantic refuses it. A few byte searches, and only when the file has a null."""
    lines: set[int] = set()
    if raw.find(b"null", start) == -1:
        return lines
    for key in _DEFAULTED:
        for needle in (b'"' + key + b'":null', b'"' + key + b'": null'):
            at_ = raw.find(needle, start)
            while at_ != -1:
                lines.add(raw.count(b"\n", 0, at_) + 1)
                at_ = raw.find(needle, at_ + 1)
    return lines


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
        table = pj.read_json(pa.BufferReader(pa.py_buffer(body)), parse_options=_PARSE)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if table.num_rows != expected:
        return None
    bad = _flag_rows(table)
    suspects = {first_line + int(i) for i in np.flatnonzero(bad)}
    suspects |= _explicit_nulls(raw, start)
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


def use_system_allocator() -> None:
    """Let Arrow allocate with the C allocator, as numpy does, instead of its own pool.

    Arrow's default pool (mimalloc) keeps hundreds of megabytes it freed while parsing at a
    million runs, even when asked to release them; memory from the C allocator goes back to
    the system with :func:`release_unused_memory`. Reading is as fast either way.
    """
    pa.set_memory_pool(pa.system_memory_pool())
    _one_arena()


#: glibc's ``mallopt`` parameter for the most arenas (malloc.h: M_ARENA_MAX).
_M_ARENA_MAX = -8


def _one_arena() -> None:
    """Let every thread allocate from one glibc arena (unless ``MALLOC_ARENA_MAX`` says
    otherwise). By default each thread that allocates gets an arena of its own (up to 8 per
    core), and memory a thread frees stays in its arena: at 1.4 million runs the bootstrap's
    workers left about 330 MB more at the peak (1,913 MiB against 1,581 MiB with one arena).
    Elsewhere than glibc, nothing changes."""
    if "MALLOC_ARENA_MAX" in os.environ or platform.libc_ver()[0] != "glibc":
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).mallopt(ctypes.c_int(_M_ARENA_MAX), ctypes.c_int(1))


def release_unused_memory() -> None:
    """Return memory freed by a stage to the system, after the stage.

    The C allocator keeps freed blocks below its mmap threshold (which grows to 32 MB) for
    reuse, in the arena of the thread that freed them; another thread, such as a worker of
    the bootstrap, cannot reuse them. At a million runs the temporaries of checking or
    scoring one bundle leave a few hundred megabytes behind. Takes microseconds.
    """
    pa.default_memory_pool().release_unused()
    pa.system_memory_pool().release_unused()  # the C allocator's free memory (malloc_trim)


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


def _typed(
    verdicts: dict[str, Any], evidence: dict[str, Any], modules: dict[str, Any]
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The item tables, from their columns, in compact types: a million runs hold tens of
    millions of verdicts. Rows int32; positions and values in the narrowest type that holds
    them (verdicts' positions and those of the evidence they cite alike: they are joined on
    them); ids as categoricals with sorted categories. Each column is converted once and
    not copied again."""
    high = max(int(verdicts["pos"].max(initial=0)), int(evidence["pos"].max(initial=0)))
    pos = _int_type(high)
    # (a level beyond int32 is clipped: still above every maximum, so still reported)
    value = np.asarray(verdicts["value"])
    if value.dtype.itemsize > 4:  # narrower values (columns read before) cannot exceed it
        value = np.minimum(value, _INT32_MAX)
    tables = (
        {
            "row": verdicts["row"].astype(ROW),
            "kind": verdicts["kind"].astype(np.int8),
            "pos": verdicts["pos"].astype(pos),
            "id": _sorted_category(verdicts["id"]),
            "value": _narrow(value),
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
    )
    v, e, m = (pd.DataFrame(t, copy=False) for t in tables)
    return v, e, m


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
    if lists.null_count and np.diff(offsets)[_np(pc.is_null(lists))].any():
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
            "input_tokens": table.column("input_tokens").to_numpy(),
            "output_tokens": table.column("output_tokens").to_numpy(),
            "duration_s": table.column("duration_s").to_numpy(),
            "turns": table.column("turns").to_numpy(),
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
        values.append(_ints(flat.field("level" if kind == LISTS["judge"] else "pass")))
        if kind == LISTS["judge"]:
            cited, owner, _ = _list_parts(flat.field("evidence"))
            evidence = {"row": row[owner], "pos": pos[owner], "id": cited}
    verdicts = {
        "row": np.concatenate(rows),
        "kind": np.concatenate(kinds),
        "pos": np.concatenate(positions),
        "id": pa.concat_arrays(ids),
        "value": np.concatenate(values),
    }
    names, m_rows, m_pos = _list_parts(_column(table, "modules_failed"))
    return _finish(runs, verdicts, evidence, {"row": m_rows, "pos": m_pos, "module": names})


_EMPTY = np.empty(0, np.int64)


def _finish(
    runs: pd.DataFrame,
    verdicts: dict[str, Any],
    evidence: dict[str, Any],
    modules: dict[str, Any],
) -> RunColumns:
    runs = runs.astype(RUN_COLUMNS)
    return RunColumns(runs.reset_index(drop=True), *_typed(verdicts, evidence, modules))


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
    rows: list[tuple[int, int, int, str, int]] = []
    evidence: list[tuple[int, int, str]] = []
    modules: list[tuple[int, int, str]] = []
    for row, r in enumerate(records):
        for kind, rule_list in ((LISTS["rules"], r.rules), (LISTS["fatal"], r.fatal)):
            rows += [(row, kind, pos, v.id, int(v.passed)) for pos, v in enumerate(rule_list)]
        for pos, j in enumerate(r.judge):
            rows.append((row, LISTS["judge"], pos, j.id, j.level))
            evidence += [(row, pos, e) for e in j.evidence]
        modules += [(row, pos, m) for pos, m in enumerate(r.modules_failed)]
    return _finish(
        runs, _unzip(rows, VERDICTS), _unzip(evidence, EVIDENCE), _unzip(modules, MODULES)
    )


#: Column names of the item tables.
VERDICTS = ("row", "kind", "pos", "id", "value")
EVIDENCE = ("row", "pos", "id")
MODULES = ("row", "pos", "module")


def _unzip(rows: list[tuple[Any, ...]], names: tuple[str, ...]) -> dict[str, Any]:
    """Tuples as columns: integers as int64 arrays, strings as a Series."""
    columns = list(zip(*rows, strict=True)) if rows else [() for _ in names]
    return {
        name: pd.Series(list(values), dtype=object)
        if name in ("id", "module")
        else np.array(values, dtype=np.int64)
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
    runs, verdicts, evidence, modules = [], [], [], []
    for p in parts:
        runs.append(p.runs)
        verdicts.append(p.verdicts.assign(row=p.verdicts["row"].to_numpy(np.int64) + offset))
        evidence.append(p.evidence.assign(row=p.evidence["row"].to_numpy(np.int64) + offset))
        modules.append(p.modules.assign(row=p.modules["row"].to_numpy(np.int64) + offset))
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
    tables = (cat(verdicts, "id"), cat(evidence, "id"), cat(modules, "module"))
    columns = [
        {str(k): v if k in ("id", "module") else v.to_numpy() for k, v in t.items()} for t in tables
    ]
    return RunColumns(runs_out, *_typed(*columns))
