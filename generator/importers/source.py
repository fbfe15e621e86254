"""What an importer reads from another tool's result files: the facts its source records.

An importer (:mod:`generator.importers.registry`) turns its tool's files into an
:class:`Imported`; :mod:`generator.importers.files` turns that into the bundle files. A value
the source does not record stays ``None`` here (a setting) or absent (a per-run count), and
is written "not recorded": nothing is invented on the way.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from generator.models.base import ID_PATTERN

#: Settings of a bundle's configuration record, budgets and model an importer may know,
#: by the field of :class:`generator.models.Bundle` they fill; the rest is "not recorded".
CONFIGURATION = (
    "temperature",
    "top_p",
    "max_output_tokens",
    "context_window",
    "compression_threshold",
    "reasoning_mode",
)
BUDGETS = ("timeout_s", "max_steps", "max_tokens", "max_retries", "retry_policy")


class SourceError(Exception):
    """The source files cannot be imported: ``where`` (a file, and a line or field when
    known) and what was expected there."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where, self.message = where, message


@dataclass(frozen=True)
class Outcome:
    """How the source scores a run, declared once for every task of the import.

    ``pass-fail``: a run passes or fails one check (its rule item ``passed``); ``measure``:
    a run records a number, the measured metric ``metric`` (higher is better)."""

    kind: Literal["pass-fail", "measure"]
    metric: str
    title: str
    check: str
    low: float | None = 0.0
    high: float | None = None


@dataclass(frozen=True)
class ImportedTask:
    id: str
    title: str
    domain: str
    source: str | None = None


@dataclass(frozen=True)
class ImportedRun:
    """One run: a valid one with its outcome (``passed`` or ``value``), or an
    evaluation-incomplete one with its ``cause``; counts left ``None`` are not recorded."""

    task: str
    run: int
    status: Literal["valid", "incomplete"]
    cause: str | None = None
    passed: bool | None = None
    value: float | None = None
    failure_type: str | None = None
    retries: int = 0
    seed: int | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    duration_s: float | None = None
    turns: int | None = None
    note: str | None = None
    #: Where the source records the run (its file and the trial or sample): a value the
    #: bundle format refuses is reported there, not in the runs file about to be written.
    source: str | None = None


@dataclass(frozen=True)
class ImportedBundle:
    """One evaluated combination: what the source says of it, and its runs. A setting
    absent from ``configuration``, ``budgets`` or ``card`` is not recorded."""

    combination: str
    title: str
    harness: str
    harness_version: str | None
    model: str
    model_provider: str | None
    runs_per_task: int
    first_day: dt.date
    last_day: dt.date
    runs: tuple[ImportedRun, ...]
    model_version: str | None = None
    agent_version: str | None = None
    configuration: dict[str, Any] = field(default_factory=dict)
    budgets: dict[str, Any] = field(default_factory=dict)
    card: dict[str, Any] = field(default_factory=dict)  # "layer.field" -> disclosed value
    notes: str | None = None


@dataclass(frozen=True)
class Imported:
    """Everything one import read: the tasks, the outcome, the causes and failure types its
    runs name (id -> title), the component versions the source records, and the bundles."""

    benchmark: str
    tool: str
    outcome: Outcome
    domains: dict[str, str]
    tasks: tuple[ImportedTask, ...]
    bundles: tuple[ImportedBundle, ...]
    causes: dict[str, str]
    failures: dict[str, str]
    components: dict[str, str | None]
    scorer: dict[str, str | None]


def as_id(text: str, what: str, where: str) -> str:
    """``text`` as an id (letters, digits, '.', '_' and '-'; other characters become '-');
    a :class:`SourceError` when nothing of it is left."""
    out = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-._")[:128]
    if not re.fullmatch(ID_PATTERN, out):
        raise SourceError(where, f"{what} {text!r} has no letter or digit to make an id of")
    return out


def distinct_ids(names: Iterable[str], what: str, where: str) -> None:
    """A :class:`SourceError` when two of the names make the same id (``a/b`` and ``a-b``):
    their runs would be taken for one task's."""
    made: dict[str, str] = {}
    for name in sorted(set(names)):
        ident = as_id(name, what, where)
        first = made.setdefault(ident, name)
        if first != name:
            raise SourceError(
                where,
                f"{what} {first!r} and {name!r} both make the id {ident!r}; expected "
                "names that differ in their letters, digits, '.', '_' or '-'",
            )


def moment(stamp: Any, where: str) -> dt.datetime | None:
    """An ISO 8601 time stamp as a time, ``None`` when there is none; a
    :class:`SourceError` at ``where`` when it is no time stamp."""
    if stamp is None or stamp == "":
        return None
    if isinstance(stamp, str):
        try:
            return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
        except ValueError:
            pass
    raise SourceError(where, f"{stamp!r} is not an ISO 8601 time stamp")


def day_of(stamp: Any, where: str = "time stamp") -> dt.date | None:
    """The UTC day of an ISO 8601 time stamp, or ``None`` when there is none."""
    found = moment(stamp, where)
    if found is None:
        return None
    if found.tzinfo is not None:
        found = found.astimezone(dt.UTC)
    return found.date()


def seconds_between(start: Any, end: Any, where: str = "time stamps") -> float | None:
    """Seconds from one ISO 8601 time stamp to another (to the millisecond), or ``None``."""
    begin, finish = moment(start, where), moment(end, where)
    if begin is None or finish is None:
        return None
    if (begin.tzinfo is None) != (finish.tzinfo is None):
        raise SourceError(
            where,
            f"{start!r} and {end!r}: one has a time zone and one not; expected both or neither",
        )
    seconds = (finish - begin).total_seconds()
    return round(seconds, 3) if seconds >= 0 else None


def read_json(path: Path) -> Any:
    """A JSON file's data; a :class:`SourceError` naming its line when it is not JSON."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise SourceError(f"{path}:{exc.lineno}", f"not JSON: {exc.msg}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SourceError(str(path), f"cannot be read: {exc}") from None
    except (RecursionError, ValueError) as exc:  # nested too deep; a number too long
        raise SourceError(str(path), f"not JSON this import can read: {exc}") from None
