"""Shared building blocks of the data contract: the frozen base model and common types."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints

#: The newest format version of every input file that this generator understands.
FORMAT_VERSION = 1

Id = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$", max_length=128),
    Field(
        description="Identifier: letters, digits, '.', '_' and '-'; starts with a letter or digit."
    ),
]
Text = Annotated[str, StringConstraints(min_length=1, max_length=20_000, strip_whitespace=True)]
Markdown = Annotated[
    str,
    StringConstraints(min_length=1, max_length=200_000),
    Field(description="Markdown text (rendered with raw HTML disabled)."),
]
VersionString = Annotated[
    str,
    StringConstraints(pattern=r"^[0-9A-Za-z][0-9A-Za-z.+_-]*$", max_length=64),
    Field(description="A version label such as '1.0.2'; quote it in YAML so it stays text."),
]
#: Integers above 2**53 lose precision in JSON readers; no input needs them.
MAX_INT = 2**53
# Strict scalars: "yes" is not a boolean, "3" is not a number, 3.0 is not an integer.
Bool = Annotated[bool, Field(strict=True)]
Int = Annotated[int, Field(strict=True, ge=-MAX_INT, le=MAX_INT)]
Float = Annotated[float, Field(strict=True)]
Fraction = Annotated[float, Field(strict=True, ge=0.0, le=1.0)]
NonNegInt = Annotated[int, Field(strict=True, ge=0, le=MAX_INT)]
PosInt = Annotated[int, Field(strict=True, ge=1, le=MAX_INT)]
NonNegFloat = Annotated[float, Field(strict=True, ge=0.0)]


class Contract(BaseModel):
    """Base of every input model: frozen, no unknown fields, no NaN or infinities."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        allow_inf_nan=False,
        populate_by_name=True,
        str_strip_whitespace=False,
    )


class Versioned(Contract):
    """An input file: it states the format version it was written for."""

    format_version: StrictInt = Field(
        description=f"Format version of this file; this generator reads version {FORMAT_VERSION}.",
        ge=1,
        le=FORMAT_VERSION,
    )
