"""The data contract's building blocks: frozen strict models, ids and file references."""

from __future__ import annotations

import math

import pytest
from pydantic import BaseModel, ValidationError

from generator.models.base import (
    FORMAT_VERSION,
    MAX_INT,
    Bool,
    Contract,
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
