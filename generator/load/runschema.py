"""The Arrow schema of a runs file and the vectorised checks of its records, derived from
:class:`generator.models.runs.RunRecord` (the single source of truth for the format).

- :data:`SCHEMA`: field types and nested lists of verdicts, enforced by Arrow's JSON reader
  while parsing (unknown fields, wrong types, duplicate keys and malformed JSON fail it);
- :func:`flag_rows`: what the schema cannot express — required fields, ranges, lengths,
  patterns, literals and finite numbers, read off the fields' constraints. The checks fail
  closed: a constraint they do not implement sends every value of its field to pydantic
  (:func:`implemented`), and so does a model with validator functions or config rules
  (:func:`models_checked_in_bulk`); :func:`bad_values` is that check for one field's
  values.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable
from typing import Any

import annotated_types as at
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pj
from pydantic import AfterValidator, BaseModel, Strict
from pydantic.fields import FieldInfo

from generator.models.freetext import REFUSED_CHARACTERS, plain_text
from generator.models.runs import JudgeVerdict, RuleVerdict, RunRecord

# ------------------------------------------------------------------ schema from the model


def unwrap(annotation: Any) -> tuple[Any, bool]:
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


def field_constraints(info: FieldInfo, annotation: Any) -> list[Any]:
    """Every constraint a field declares, flattened: its own metadata, that of its
    annotation (through Annotated and Optional) and grouped constraints expanded."""
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
            out += field_constraints(m, m.annotation) if m.metadata else []
        elif isinstance(m, at.GroupedMetadata):  # StringConstraints, Interval, ...
            out += list(m)
        else:
            out.append(m)
    return out


# Constraints the vectorised checks implement. Anything else a model declares sends every
# value of its field to pydantic (:func:`bad_values` fails closed), so the bulk path can
# never accept what the per-line path refuses.
_BOUNDS = (at.Ge, at.Le, at.Gt, at.Lt, at.MinLen, at.MaxLen, Strict)
# Keys of pydantic's general metadata the checks implement: a pattern, whitespace stripping
# before the length checks, and strictness (the Arrow schema already fixes each type).
_GENERAL = frozenset({"pattern", "strip_whitespace", "strict"})
# The one validator function they implement: free text's refused characters, as RE2 reads
# a class of them.
_REFUSED = "[" + "".join(f"\\x{{{ord(c):X}}}" for c in REFUSED_CHARACTERS) + "]"


def _free_text_rule(m: Any) -> bool:
    return isinstance(m, AfterValidator) and m.func is plain_text


def _general(m: Any) -> dict[str, Any] | None:
    """The settings of pydantic's general metadata (``_PydanticGeneralMetadata``), or None
    for any other object."""
    if type(m).__name__ != "_PydanticGeneralMetadata":
        return None
    return {key: value for key, value in vars(m).items() if value is not None}


def implemented(info: FieldInfo, annotation: Any) -> bool:
    """Whether the vectorised checks implement every constraint the field declares
    (``Strict``: the Arrow schema refuses a value of another JSON type)."""
    for m in field_constraints(info, annotation):
        general = _general(m)
        if general is not None:
            if not set(general) <= _GENERAL:
                return False
        elif not isinstance(m, _BOUNDS) and not _free_text_rule(m):
            return False
    return True


def arrow_type(annotation: Any) -> pa.DataType:
    """The Arrow type the JSON reader should produce for a model annotation."""
    base, _ = unwrap(annotation)
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
PARSE = pj.ParseOptions(explicit_schema=SCHEMA, unexpected_field_behavior="error")


# ------------------------------------------------------------------ vectorised checks


def bad_values(array: pa.Array, info: FieldInfo, annotation: Any) -> np.ndarray:
    """Per element of a flat array: breaks a constraint of the field (nulls excluded)."""
    if pa.types.is_string(array.type) and len(array) > 4096:
        # ids repeat (R01, J01, ... in every run): check each distinct value once
        if isinstance(array, pa.ChunkedArray):
            array = array.combine_chunks()
        encoded = pc.dictionary_encode(array)
        # the dictionary is checked as it is: it may hold every value (free-text rationales)
        distinct = _bad_each(encoded.dictionary, info, annotation)
        index = np.asarray(pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False))
        spread: np.ndarray = np.append(distinct, False)[index]  # a null (-1): the False
        return spread
    return _bad_each(array, info, annotation)


def _bad_each(array: pa.Array, info: FieldInfo, annotation: Any) -> np.ndarray:
    """:func:`bad_values`, value by value."""
    bad = np.zeros(len(array), dtype=bool)
    base, _ = unwrap(annotation)
    found = field_constraints(info, annotation)
    if not implemented(info, annotation):
        return ~to_bools(pc.is_null(array))  # fail closed: pydantic judges every value
    general = [g for g in (_general(m) for m in found) if g is not None]
    strip = any(g.get("strip_whitespace") for g in general)
    if strip and len(array):
        # Python strips more characters than Arrow: a value with anything but visible ASCII
        # at either end is left to pydantic.
        bad |= to_bools(pc.match_substring_regex(array, r"^[^!-~]|[^!-~]$"))
    for m in found:
        if isinstance(m, at.Ge):
            bad |= to_bools(pc.less(array, m.ge))
        elif isinstance(m, at.Le):
            bad |= to_bools(pc.greater(array, m.le))
        elif isinstance(m, at.Gt):
            bad |= to_bools(pc.less_equal(array, m.gt))
        elif isinstance(m, at.Lt):
            bad |= to_bools(pc.greater_equal(array, m.lt))
        elif isinstance(m, at.MaxLen):
            bad |= to_bools(pc.greater(pc.utf8_length(array), m.max_length))
        elif isinstance(m, at.MinLen):
            bad |= to_bools(pc.less(pc.utf8_length(array), m.min_length))
    if any(_free_text_rule(m) for m in found):
        bad |= to_bools(pc.match_substring_regex(array, _REFUSED))
    for g in general:
        if g.get("pattern"):
            # the models' patterns are RE2-compatible as written
            bad |= ~to_bools(pc.match_substring_regex(array, str(g["pattern"])), True)
    if typing.get_origin(base) is typing.Literal:
        allowed = pa.array(typing.get_args(base), pa.string())
        bad |= ~to_bools(pc.is_in(array, value_set=allowed), True)
    if base is float:
        bad |= ~to_bools(pc.is_finite(array), True)
    return bad


def to_bools(array: pa.Array | pa.ChunkedArray, null: bool = False) -> np.ndarray:
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
            bad |= to_bools(pc.is_null(values))
        base, _ = unwrap(info.annotation)
        if typing.get_origin(base) in (tuple, list):
            item = typing.get_args(base)[0]
            inner = pc.list_flatten(values)
            if len(inner):
                parents = _np_int(pc.list_parent_indices(values))
                inner_bad = bad_values(inner, FieldInfo.from_annotation(item), item)
                bad[parents[inner_bad | to_bools(pc.is_null(inner))]] = True
        else:
            bad |= bad_values(values, info, info.annotation)
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


def flag_rows(table: pa.Table) -> np.ndarray:
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
            bad |= to_bools(pc.is_null(column))
        base, _ = unwrap(info.annotation)
        if typing.get_origin(base) in (tuple, list):
            item = typing.get_args(base)[0]
            item_base, _ = unwrap(item)
            if isinstance(item_base, type) and issubclass(item_base, BaseModel):
                _flag_struct(column, item_base, rows, bad)
            else:
                lists = pa.concat_arrays(column.chunks) if column.num_chunks else None
                if lists is not None and len(pc.list_flatten(lists)):
                    inner = pc.list_flatten(lists)
                    parents = _np_int(pc.list_parent_indices(lists))
                    inner_bad = bad_values(inner, FieldInfo.from_annotation(item), item)
                    bad[parents[inner_bad | to_bools(pc.is_null(inner))]] = True
        else:
            bad |= bad_values(column, info, info.annotation)
    return bad
