"""Shared building blocks of the data contract: the frozen base model and common types."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StringConstraints

from generator.models.freetext import markdown_text, plain_text

#: The newest format version of every input file that this generator understands.
FORMAT_VERSION = 1

#: What an id may be (a task, a combination, a version folder): as :data:`Id` checks it.
ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}"

Id = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$", max_length=128),
    Field(
        description="Identifier: letters, digits, '.', '_' and '-'; starts with a letter or digit."
    ),
]
Text = Annotated[
    str,
    StringConstraints(min_length=1, max_length=20_000, strip_whitespace=True),
    AfterValidator(plain_text),
]
Markdown = Annotated[
    str,
    StringConstraints(min_length=1, max_length=200_000),
    AfterValidator(markdown_text),
    Field(
        description="Markdown text, rendered with raw HTML shown as text; links and images "
        "only to pages and files of the site (no scheme, no host)."
    ),
]
VersionString = Annotated[
    str,
    StringConstraints(pattern=r"^[0-9A-Za-z][0-9A-Za-z.+_-]*$", max_length=64),
    Field(description="A version label such as '1.0.2'; quote it in YAML so it stays text."),
]
#: A setting the source of the results does not say. Not the same as withheld, which says
#: that the vendor knows and declines to tell: nobody recorded this one. It is shown as
#: "not recorded", fingerprinted as such, and never compared as equal to another.
NOT_RECORDED = "not recorded"
NotRecorded = Literal["not recorded"]
#: Said of every field that may be :data:`NOT_RECORDED`, at the end of its description.
OR_NOT_RECORDED = " Or 'not recorded' where the source of the results does not say."


def named_version(name: str, version: str) -> str:
    """ "name version", or "name (version not recorded)"."""
    return f"{name} (version not recorded)" if version == NOT_RECORDED else f"{name} {version}"


def is_recorded(value: Any) -> bool:
    """Whether ``value`` is a recorded setting (not :data:`NOT_RECORDED`)."""
    return not (isinstance(value, str) and value == NOT_RECORDED)


_SEGMENT = r"[A-Za-z0-9][A-Za-z0-9._-]*"


def _inside_folder(value: str) -> str:
    """A file reference must stay inside its folder: relative, no '..', plain names."""
    if value.startswith(("/", "~")) or re.match(r"^[A-Za-z]:", value):
        raise ValueError(
            f"{value!r} is absolute; name the file relative to the folder of this file"
        )
    if "\\" in value:
        raise ValueError(f"{value!r} uses '\\'; separate folders with '/'")
    parts = value.split("/")
    if ".." in parts:
        raise ValueError(f"{value!r} climbs out with '..'; files must lie inside this folder")
    for part in parts:
        if not re.fullmatch(_SEGMENT, part):
            raise ValueError(
                f"{value!r}: {part!r} is not a plain file or folder name "
                "(letters, digits, '.', '_' and '-'; no leading '.')"
            )
    return value


RelativeFile = Annotated[
    str,
    StringConstraints(max_length=512),
    AfterValidator(_inside_folder),
    Field(
        description="A file inside the folder of this file: a relative path with '/' between "
        "plain names; absolute paths, '..' and hidden names are refused.",
        json_schema_extra={"pattern": f"^{_SEGMENT}(/{_SEGMENT})*$"},
    ),
]
#: Integers above 2**53 lose precision in JSON readers; no input needs them.
MAX_INT = 2**53
#: The largest magnitude of a number with a fraction (a cost, a duration, a bound): the sums,
#: means, variances and bootstrap replicates the engine forms from up to a billion such
#: values stay finite (squares up to 10^30), so no figure overflows to infinity.
MAX_FLOAT = 1e15
#: Why a number is bounded, said with the bound in a message.
MAX_FLOAT_WHY = (
    "numbers lie within ±10^15 (a scale or a weight at least 10^-15), so that the sums, "
    "means, variances and ratios formed from them stay finite"
)
# Strict scalars: "yes" is not a boolean, "3" is not a number, 3.0 is not an integer.
Bool = Annotated[bool, Field(strict=True)]
Int = Annotated[int, Field(strict=True, ge=-MAX_INT, le=MAX_INT)]
Float = Annotated[float, Field(strict=True, ge=-MAX_FLOAT, le=MAX_FLOAT)]
Fraction = Annotated[float, Field(strict=True, ge=0.0, le=1.0)]
NonNegInt = Annotated[int, Field(strict=True, ge=0, le=MAX_INT)]
PosInt = Annotated[int, Field(strict=True, ge=1, le=MAX_INT)]
NonNegFloat = Annotated[float, Field(strict=True, ge=0.0, le=MAX_FLOAT)]

#: The dates an input may give. A build stamps a version's pages with its freeze date
#: (SOURCE_DATE_EPOCH), which mkdocs writes into the gzip header of sitemap.xml.gz as seconds
#: since 1970 in 32 bits (so up to 2106-02-07); every date of the inputs shares one range.
FIRST_DATE = dt.date(1970, 1, 1)
LAST_DATE = dt.date(2099, 12, 31)
DATE_WHY = (
    f"dates run from {FIRST_DATE} to {LAST_DATE}, the range the site's build timestamps can hold"
)
Date = Annotated[
    dt.date,
    Field(
        ge=FIRST_DATE,
        le=LAST_DATE,
        json_schema_extra={"formatMinimum": str(FIRST_DATE), "formatMaximum": str(LAST_DATE)},
    ),
]


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
