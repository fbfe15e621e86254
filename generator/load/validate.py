"""Validate parsed data against a model, turning pydantic's errors into located problems."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from generator.errors import Problem, did_you_mean, shown
from generator.load.source import Loc, Source, dotted
from generator.models.base import (
    DATE_WHY,
    FIRST_DATE,
    FORMAT_VERSION,
    LAST_DATE,
    MAX_FLOAT,
    MAX_FLOAT_WHY,
    NOT_RECORDED,
)
from generator.models.template import PLACEHOLDER, TEMPLATED, describe

M = TypeVar("M", bound=BaseModel)

_MISSING = "is required but missing"
_UNKNOWN = "is not a field of this format"
_CARD_HINT = (
    "every HarnessCard field is disclosed ({value: ...}), withheld ({withheld: reason}) "
    f"or {NOT_RECORDED}"
)
#: The alternative every field that may be "not recorded" has, said once after its others.
_OR_NOT_RECORDED = f"or '{NOT_RECORDED}' where the source of the results does not say"


def check_format_version(data: Any, source: Source) -> Problem | None:
    """Refuse files without a readable format version, or written for a newer generator."""
    if not isinstance(data, dict):
        kind = type(data).__name__
        return Problem(
            source.path, source.line(), "", f"expected a mapping of fields, found {kind}"
        )
    if "format_version" not in data:
        return Problem(
            source.path,
            source.line(),
            "format_version",
            f"is missing; expected format_version: {FORMAT_VERSION}",
        )
    version = data["format_version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return Problem(
            source.path,
            source.line("format_version"),
            "format_version",
            f"{version!r} is not a format version; expected {FORMAT_VERSION}",
        )
    if version > FORMAT_VERSION:
        return Problem(  # the line only now: a file read fast has its lines made on demand
            source.path,
            source.line("format_version"),
            "format_version",
            f"{version} is newer than this generator reads ({FORMAT_VERSION}); "
            "upgrade the generator or write the file in format version "
            f"{FORMAT_VERSION}",
        )
    return None


def data_loc(data: Any, loc: tuple[int | str, ...], missing: bool) -> Loc:
    """Keep the parts of pydantic's ``loc`` that index into the data (drop union tags)."""
    out: list[str | int] = []
    cur = data
    for i, part in enumerate(loc):
        in_dict = isinstance(cur, dict) and isinstance(part, str) and part in cur
        in_list = isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur)
        if in_dict or in_list:
            cur = cur[part]
        elif missing and i == len(loc) - 1 and isinstance(part, str):
            pass
        else:
            continue
        out.append(part)
    return tuple(out)


def _message(err: ErrorDetails, loc: Loc) -> str:
    kind = err["type"]
    if kind == "missing":
        hint = f"; {_CARD_HINT}" if loc and loc[0] == "layers" else ""
        return f"{_MISSING}{hint}"
    if kind == "extra_forbidden":
        return f"{_UNKNOWN}; check the spelling (see the schema)"
    msg = str(err["msg"])
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
    if kind in {"value_error", "assertion_error", "card_field"}:
        return msg
    if kind == "literal_error" and (err.get("ctx") or {}).get("expected") == repr(NOT_RECORDED):
        return _OR_NOT_RECORDED
    value = err.get("input")
    if kind == "string_type" and isinstance(value, int | float | dt.date):
        return f"{_as_written(value)} is not allowed: {msg[0].lower()}{msg[1:]}; {_quote(value)}"
    msg += _why(err)
    if isinstance(value, dt.date):
        return f"{_as_written(value)} is not allowed: {msg[0].lower()}{msg[1:]}"
    if isinstance(value, str | int | float | bool) and not isinstance(value, dict):
        return f"{shown(value)} is not allowed: {msg[0].lower()}{msg[1:]}"
    return msg[0].lower() + msg[1:]


#: Why the bounds every number and date of the inputs share are what they are.
_WHY = {
    **dict.fromkeys(map(str, (MAX_FLOAT, -MAX_FLOAT, 1 / MAX_FLOAT)), MAX_FLOAT_WHY),
    **dict.fromkeys(map(str, (FIRST_DATE, LAST_DATE)), DATE_WHY),
}


def _why(err: ErrorDetails) -> str:
    """The reason for a shared bound (numbers, dates) a value breaks, or nothing."""
    if err["type"] not in {"less_than_equal", "greater_than_equal"}:
        return ""
    limit = (err.get("ctx") or {}).get("le", (err.get("ctx") or {}).get("ge"))
    why = _WHY.get(str(limit))
    return f"; {why}" if why else ""


def _as_written(value: int | float | dt.date) -> str:
    """A value as the file wrote it, near enough: true/false, a date as its ISO text."""
    if isinstance(value, bool):
        return str(value).lower()
    return value.isoformat() if isinstance(value, dt.date) else shown(value)


def _quote(value: int | float | dt.date) -> str:
    """The hint for text that YAML (or JSON) read as another type: quote it."""
    if isinstance(value, bool):
        kind = "true/false"
    elif isinstance(value, dt.date):
        kind = "a date"
    else:
        kind = "a number"
    return f'the unquoted value was read as {kind}: put it in quotes, e.g. "{_as_written(value)}"'


def problems_from(exc: ValidationError, data: Any, source: Source, base: Loc = ()) -> list[Problem]:
    """One problem per data path; a union's alternatives are merged into one message."""
    grouped: dict[Loc, list[str]] = defaultdict(list)
    for err in exc.errors(include_url=False):
        loc = data_loc(data, err["loc"], err["type"] == "missing")
        msg = _message(err, loc)
        if msg not in grouped[loc]:
            grouped[loc].append(msg)
    _suggest_spelling(grouped)
    problems = []
    for loc, messages in grouped.items():
        full = (*base, *loc)
        if _OR_NOT_RECORDED in messages and len(messages) > 1:
            others = [m for m in messages if m != _OR_NOT_RECORDED]
            text = "; or ".join(others) + f"; {_OR_NOT_RECORDED}"
        elif len(messages) > 1:
            text = "does not match any allowed form: " + "; or ".join(messages)
        else:
            text = messages[0]
        problems.append(Problem(source.path, source.line(*full), dotted(full), text))
    return problems


def _suggest_spelling(grouped: dict[Loc, list[str]]) -> None:
    """Point an unknown field at a missing sibling with a similar name."""
    missing: dict[Loc, list[str]] = defaultdict(list)
    for loc, messages in grouped.items():
        if loc and isinstance(loc[-1], str) and any(m.startswith(_MISSING) for m in messages):
            missing[loc[:-1]].append(loc[-1])
    for loc, messages in grouped.items():
        if not loc or not isinstance(loc[-1], str):
            continue
        for i, message in enumerate(messages):
            if message.startswith(_UNKNOWN):
                hint = did_you_mean(loc[-1], missing.get(loc[:-1], []))
                if hint:
                    messages[i] = f"{_UNKNOWN}{hint}"


def validate_as(model: type[M], data: Any, source: Source) -> M | list[Problem]:
    """The model instance, or the problems that prevent it."""
    version_problem = check_format_version(data, source)
    if version_problem is not None:
        return [version_problem]
    # a walk over every value: only for the kinds a template is written of; a placeholder
    # as a key and as its value ("<fill in>": "<fill in>") is one field left
    holes = list(dict.fromkeys(placeholders(data))) if model in TEMPLATED else []
    try:
        valid = model.model_validate(data)
    except ValidationError as exc:
        found = problems_from(exc, data, source)
        return _unfilled(model, holes, source) + [
            p for p in found if not any(_under(p.field, dotted(h)) for h in holes)
        ]
    return _unfilled(model, holes, source) if holes else valid


def placeholders(data: Any, loc: Loc = ()) -> list[Loc]:
    """Where the bundle template's placeholder is still in ``data`` (as a value or a key)."""
    if isinstance(data, dict):
        out = [(*loc, k) for k in data if k == PLACEHOLDER]
        for key, value in data.items():
            out += placeholders(value, (*loc, key))
        return out
    if isinstance(data, list):
        return [h for i, value in enumerate(data) for h in placeholders(value, (*loc, i))]
    return [loc] if data == PLACEHOLDER else []


def _under(field: str, hole: str) -> bool:
    return field == hole or field.startswith((f"{hole}.", f"{hole}["))


def _unfilled(model: type[BaseModel], holes: list[Loc], source: Source) -> list[Problem]:
    """One problem per placeholder left: the field, and what it wants."""
    problems = []
    for hole in holes:
        wanted = describe(model, hole)
        expected = f"; expected: {wanted}" if wanted else ""
        problems.append(
            Problem(source.path, source.line(*hole), dotted(hole), f"not filled in yet{expected}")
        )
    return problems
