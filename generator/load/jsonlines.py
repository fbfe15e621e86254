"""Read a runs file (JSON Lines): a header line, then one run record a line."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from generator.errors import Problem, shown
from generator.load.source import Source
from generator.load.validate import check_format_version, problems_from
from generator.models.runs import RunRecord, RunsHeader

MAX_RUNS_BYTES = 4 * 1024 * 1024 * 1024
MAX_LINE_BYTES = 8 * 1024 * 1024
MAX_PROBLEMS_PER_FILE = 200


class _BadJson(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _BadJson(f"duplicate key {key!r}; each field may appear once")
        out[key] = value
    return out


def _no_constants(name: str) -> Any:
    raise _BadJson(f"{name} is not a number; NaN and infinities are not allowed")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadJson(f"{shown(text)} is out of range for a number")
    return value


def parse_json(text: str) -> Any:
    """Strict JSON: no duplicate keys, no NaN, Infinity or numbers that overflow."""
    return json.loads(
        text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants, parse_float=_finite
    )


@dataclass(frozen=True)
class Runs:
    """A runs file's valid records with the line each came from."""

    records: tuple[RunRecord, ...]
    lines: tuple[int, ...]


def read_runs(path: Path, rel: str) -> tuple[Runs, list[Problem]]:
    """Every valid record of ``path`` and a problem for each invalid line."""
    problems: list[Problem] = []
    try:
        size = path.stat().st_size
        if size > MAX_RUNS_BYTES:
            return Runs((), ()), [Problem(rel, None, "", f"file is {size:,} bytes; too large")]
        raw = path.read_bytes()
    except OSError as exc:
        return Runs((), ()), [Problem(rel, None, "", f"cannot be read: {exc.strerror}")]
    records: list[RunRecord] = []
    lines: list[int] = []
    header_seen = False
    dropped = 0
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        if len(problems) >= MAX_PROBLEMS_PER_FILE:
            dropped += 1
            continue
        if len(line) > MAX_LINE_BYTES:
            problems.append(Problem(rel, number, "", f"line longer than {MAX_LINE_BYTES:,} bytes"))
            continue
        try:
            data = parse_json(line.decode("utf-8"))
        except UnicodeDecodeError:
            problems.append(Problem(rel, number, "", "not UTF-8 text"))
            continue
        except (_BadJson, ValueError) as exc:
            problems.append(Problem(rel, number, "", f"invalid JSON: {exc}"))
            continue
        except RecursionError:
            problems.append(Problem(rel, number, "", "invalid JSON: nested too deeply"))
            continue
        source = Source(rel, {(): number})
        if not header_seen:
            header_seen = True
            problem = check_format_version(data, source)
            if problem is not None:
                if isinstance(data, dict) and "task" in data:
                    problem = Problem(
                        rel,
                        number,
                        "",
                        'the first line must be the header {"format_version": 1}; '
                        "found a run record",
                    )
                return Runs((), ()), [problem]
            try:
                RunsHeader.model_validate(data)
            except ValidationError as exc:
                problems.extend(problems_from(exc, data, source))
            continue
        try:
            records.append(RunRecord.model_validate(data))
            lines.append(number)
        except ValidationError as exc:
            problems.extend(problems_from(exc, data, source))
    if not header_seen:
        problems.append(
            Problem(rel, None, "", 'file is empty; expected the header {"format_version": 1}')
        )
    if dropped:
        problems.append(
            Problem(
                rel,
                None,
                "",
                f"{dropped:,} further lines were not checked: "
                f"the limit of {MAX_PROBLEMS_PER_FILE} problems a file was reached",
            )
        )
    return Runs(tuple(records), tuple(lines)), problems
