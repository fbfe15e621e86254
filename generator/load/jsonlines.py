"""Read a runs file (JSON Lines): a header line, then one run record a line."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from generator.errors import Problem, shown
from generator.load.records import columns_from_records, concat_columns
from generator.load.runcolumns import RunColumns, empty_columns, read_fast
from generator.load.source import Source
from generator.load.validate import check_format_version, problems_from
from generator.models.runs import RunRecord, RunsHeader

MAX_RUNS_BYTES = 1024 * 1024 * 1024  # a bundle of 1,400 tasks × 50 runs is ~70 MB
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


def json_error(exc: ValueError, text: str) -> str:
    """A JSON error of one line, located by its column in that line (the file's line is the
    problem's), with the text around it and the likely cause of the commonest mistakes."""
    if not isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON: {exc}"
    before = text[: exc.pos].rstrip()
    cause = ""
    if before.endswith(",") and text[exc.pos : exc.pos + 1] in "}]":
        cause = f" (a trailing comma at column {len(before)}: remove it)"
    near = text[max(exc.pos - 20, 0) : exc.pos + 20]
    return f"invalid JSON at column {exc.colno}: {exc.msg}{cause}, near {shown(near)}"


def parse_json(text: str) -> Any:
    """Strict JSON: no duplicate keys, no NaN, Infinity or numbers that overflow."""
    return json.loads(
        text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants, parse_float=_finite
    )


Runs = RunColumns


def read_runs(path: Path, rel: str) -> tuple[Runs, list[Problem]]:
    """Every valid record of ``path`` as columns, and a problem for each invalid line.

    The records are parsed in bulk (:func:`generator.load.runcolumns.read_fast`); lines the
    bulk path cannot vouch for, or the whole file when it cannot parse it, are read here line
    by line, so that every problem names its line and field.
    """
    try:
        size = path.stat().st_size
        if size > MAX_RUNS_BYTES:
            too_large = f"file is {size:,} bytes; the limit is {MAX_RUNS_BYTES:,}"
            return empty_columns(), [Problem(rel, None, "", too_large)]
        raw = path.read_bytes()
    except OSError as exc:
        return empty_columns(), [Problem(rel, None, "", f"cannot be read: {exc.strerror}")]
    start = 0
    while start < len(raw) and raw[start : raw.find(b"\n", start) + 1 or len(raw)].strip() == b"":
        start = raw.find(b"\n", start) + 1 if raw.find(b"\n", start) != -1 else len(raw)
    if start >= len(raw):
        return empty_columns(), [
            Problem(rel, None, "", 'file is empty; expected the header {"format_version": 1}')
        ]
    end = raw.find(b"\n", start)
    header_end = len(raw) if end == -1 else end + 1
    header_line = raw.count(b"\n", 0, start) + 1
    problem = header_problems(raw[start:header_end], rel, header_line)
    if problem:
        return empty_columns(), problem
    fast = read_fast(raw, header_end, header_line + 1)
    if fast is not None and not fast.suspect_lines:
        return fast.columns, []
    wanted = None if fast is None else set(fast.suspect_lines)
    records, lines, problems = _line_by_line(raw, header_end, header_line + 1, rel, wanted)
    slow = columns_from_records(records, lines)
    if fast is None:
        return slow, problems
    return concat_columns([fast.columns, slow]), problems


def limit_reached(rel: str, dropped: int) -> list[Problem]:
    """The problem saying how many lines of a file went unchecked once it reached
    :data:`MAX_PROBLEMS_PER_FILE` problems; none when every line was checked."""
    if not dropped:
        return []
    return [
        Problem(
            rel,
            None,
            "",
            f"{dropped:,} further lines were not checked: "
            f"the limit of {MAX_PROBLEMS_PER_FILE} problems a file was reached",
        )
    ]


def header_problems(
    line: bytes, rel: str, number: int, found: str = "a run record"
) -> list[Problem]:
    """What is wrong with the header line of a JSON Lines file (runs, rated runs): JSON,
    ``{"format_version": 1}`` and nothing else; ``found``: what a record line is called, for
    a file that starts with one."""
    try:
        data = parse_json(line.decode("utf-8"))
    except UnicodeDecodeError:
        return [Problem(rel, number, "", "not UTF-8 text")]
    except (_BadJson, ValueError) as exc:
        return [Problem(rel, number, "", json_error(exc, line.decode("utf-8")))]
    except RecursionError:
        return [Problem(rel, number, "", "invalid JSON: nested too deeply")]
    source = Source(rel, {(): number})
    problem = check_format_version(data, source)
    if problem is not None:
        if isinstance(data, dict) and "task" in data:
            problem = Problem(
                rel,
                number,
                "",
                f'the first line must be the header {{"format_version": 1}}; found {found}',
            )
        return [problem]
    try:
        RunsHeader.model_validate(data)
    except ValidationError as exc:
        return problems_from(exc, data, source)
    return []


def _line_by_line(
    raw: bytes, start: int, first: int, rel: str, wanted: set[int] | None
) -> tuple[list[RunRecord], list[int], list[Problem]]:
    """Validate lines with pydantic: all of them, or only the ``wanted`` ones."""
    problems: list[Problem] = []
    records: list[RunRecord] = []
    lines: list[int] = []
    dropped = 0
    for number, line in enumerate(raw[start:].split(b"\n"), start=first):
        if wanted is not None and number not in wanted:
            continue
        if not line.strip():
            continue
        if len(problems) >= MAX_PROBLEMS_PER_FILE:
            dropped += 1
            continue
        if len(line) > MAX_LINE_BYTES:
            problems.append(Problem(rel, number, "", f"line longer than {MAX_LINE_BYTES:,} bytes"))
            continue
        try:
            text = line.decode("utf-8")
            data = parse_json(text)
        except UnicodeDecodeError:
            problems.append(Problem(rel, number, "", "not UTF-8 text"))
            continue
        except (_BadJson, ValueError) as exc:
            problems.append(Problem(rel, number, "", json_error(exc, text)))
            continue
        except RecursionError:
            problems.append(Problem(rel, number, "", "invalid JSON: nested too deeply"))
            continue
        source = Source(rel, {(): number})
        try:
            records.append(RunRecord.model_validate(data))
            lines.append(number)
        except ValidationError as exc:
            problems.extend(problems_from(exc, data, source))
    problems += limit_reached(rel, dropped)
    return records, lines, problems
