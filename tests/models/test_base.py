"""The data contract's building blocks: frozen strict models, ids and file references."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from generator.models import INPUT_MODELS
from generator.models.base import (
    FIRST_DATE,
    FORMAT_VERSION,
    LAST_DATE,
    MAX_FLOAT,
    MAX_INT,
    Bool,
    Contract,
    Date,
    Float,
    Fraction,
    Id,
    Int,
    RelativeFile,
    Text,
    Versioned,
)


class Sample(Contract):
    id: Id = "a"
    flag: Bool = True
    count: Int = 0
    share: Fraction = 0.5
    text: Text = "t"
    file: RelativeFile = "runs.jsonl"
    number: float = 1.0
    amount: Float = 0.0
    day: Date = dt.date(2026, 1, 1)


def _refused(**data: object) -> bool:
    try:
        Sample.model_validate(data)
    except ValidationError:
        return True
    return False


def test_defaults_are_valid() -> None:
    assert isinstance(Sample(), BaseModel)


@pytest.mark.parametrize("value", ["a", "A1", "v1.0", "x_y-z", "9", "a" * 128])
def test_ids_accepted(value: str) -> None:
    assert not _refused(id=value)


@pytest.mark.parametrize("value", ["", "-a", ".a", "a b", "a/b", "é", "a" * 129])
def test_ids_refused(value: str) -> None:
    assert _refused(id=value)


def test_scalars_are_strict() -> None:
    assert _refused(flag="yes")
    assert _refused(flag=1)
    assert _refused(count="3")
    assert _refused(count=3.0)
    assert _refused(count=MAX_INT + 1)
    assert not _refused(count=MAX_INT)
    assert not _refused(count=-MAX_INT)
    assert _refused(share=1.01)
    assert _refused(share=-0.01)
    assert not _refused(share=1.0)


def test_text_is_stripped_and_not_blank() -> None:
    assert _refused(text="   ")
    assert Sample(text="  padded ").text == "padded"


@pytest.mark.parametrize("value", ["runs.jsonl", "a/b/c.jsonl", "x_1.y-z"])
def test_relative_files_inside_the_folder(value: str) -> None:
    assert not _refused(file=value)


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("/etc/passwd", "is absolute"),
        ("~/x", "is absolute"),
        ("C:/x", "is absolute"),
        ("a\\b", "uses '\\'"),
        ("../x", "climbs out with '..'"),
        ("a/../../x", "climbs out with '..'"),
        (".hidden", "is not a plain file or folder name"),
        ("a//b", "is not a plain file or folder name"),
    ],
)
def test_relative_files_that_leave_the_folder_are_refused(value: str, says: str) -> None:
    with pytest.raises(ValidationError, match=says.replace("\\", "\\\\").replace(".", r"\.")):
        Sample(file=value)


def test_contract_is_frozen_forbids_unknown_fields_and_non_finite_numbers() -> None:
    sample = Sample()
    with pytest.raises(ValidationError, match="frozen"):
        sample.id = "b"  # type: ignore[misc]
    assert _refused(unknown=1)
    assert _refused(number=math.nan)
    assert _refused(number=math.inf)


def test_versioned_reads_only_known_format_versions() -> None:
    assert Versioned(format_version=FORMAT_VERSION).format_version == FORMAT_VERSION
    for bad in (0, FORMAT_VERSION + 1, True, "1"):
        with pytest.raises(ValidationError):
            Versioned.model_validate({"format_version": bad})


def test_numbers_and_dates_share_one_range() -> None:
    """Every aggregate of numbers within ±MAX_FLOAT stays finite; every date fits the build's
    timestamps (sitemap.xml.gz holds seconds since 1970 in 32 bits)."""
    for ok in (MAX_FLOAT, -MAX_FLOAT, 5e-324, 0.0):
        assert not _refused(amount=ok)
    for bad in (1.7e308, -1.7e308, MAX_FLOAT * 1.0000001):
        assert _refused(amount=bad)
    assert not _refused(day=FIRST_DATE)
    assert not _refused(day=LAST_DATE)
    for bad in (
        dt.date(1, 1, 1),
        dt.date(1969, 12, 31),
        dt.date(2100, 1, 1),
        dt.date(9999, 12, 31),
    ):
        assert _refused(day=bad)
    seconds = dt.datetime.combine(LAST_DATE, dt.time(), dt.UTC).timestamp()
    assert 0 <= seconds < 2**32


def _numbers(schema: Any, defs: dict[str, Any], where: str = "") -> list[tuple[str, Any]]:
    """Every number and date of a JSON Schema, with its path."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            name = schema["$ref"].split("/")[-1]
            return _numbers(defs[name], {**defs, name: {}}, where)  # each definition once
        found: list[tuple[str, Any]] = []
        if schema.get("type") == "number" or schema.get("format") == "date":
            found.append((where, schema))
        for key, value in schema.items():
            if key != "$defs":
                found += _numbers(value, defs, f"{where}/{key}")
        return found
    if isinstance(schema, list):
        return [n for i, v in enumerate(schema) for n in _numbers(v, defs, f"{where}/{i}")]
    return []


@pytest.mark.parametrize("kind", sorted(INPUT_MODELS))
def test_every_number_and_date_of_the_inputs_is_bounded(kind: str) -> None:
    """Each input model's numbers lie within ±MAX_FLOAT and its dates within the shared
    range, as the schema it validates with says (a field's own bounds replace the type's)."""
    schema = INPUT_MODELS[kind].model_json_schema(by_alias=True)
    loose = []
    for where, number in _numbers(schema, schema.get("$defs", {})):
        if number.get("format") == "date":
            bounds = (number.get("formatMinimum"), number.get("formatMaximum"))
            if bounds != (str(FIRST_DATE), str(LAST_DATE)):
                loose.append(where)
            continue
        low = max(number.get("minimum", -math.inf), number.get("exclusiveMinimum", -math.inf))
        high = min(number.get("maximum", math.inf), number.get("exclusiveMaximum", math.inf))
        if not -MAX_FLOAT <= low <= high <= MAX_FLOAT:
            loose.append(where)
    assert loose == []
