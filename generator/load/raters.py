"""Read a second rater's verdicts file (JSON Lines): a header line ``{"format_version": 1}``,
then one rated run a line, ``{"task", "run", "judge": [{"id", "level"}]}``.

Each line is validated on its own; every problem names the file, its line and the field.
The rules between the lines, the runs file and the catalog live in
:mod:`generator.check.raters`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from generator.errors import Problem
from generator.load.jsonlines import (
    MAX_PROBLEMS_PER_FILE,
    header_problems,
    json_error,
    limit_reached,
    parse_json,
)
from generator.load.source import Source
from generator.load.validate import problems_from
from generator.models.bundle import Rater
from generator.models.runs import RatedRun

#: A verdicts file rates some runs of one bundle: far smaller than its runs file.
MAX_VERDICTS_BYTES = 256 * 1024 * 1024

HEADER = '{"format_version": 1}'


@dataclass(frozen=True)
class LoadedRater:
    """A bundle's second rater, its verdicts file (``path``, relative to the root) and the
    rated runs read from it, each with its line; ``clean``: no line was rejected."""

    rater: Rater
    path: str
    runs: tuple[RatedRun, ...] = ()
    lines: tuple[int, ...] = ()
    clean: bool = True


def read_verdicts(rater: Rater, path: Path, rel: str) -> tuple[LoadedRater, list[Problem]]:
    """The rater's valid lines, and a problem for each invalid one (none read when the file
    is missing, unreadable or its header is not the expected one)."""
    if not path.is_file():
        missing = f"verdicts file of rater {rater.id!r} not found (named by bundle.yaml: raters)"
        return LoadedRater(rater, rel, clean=False), [Problem(rel, None, "", missing)]
    try:
        size = path.stat().st_size
        if size > MAX_VERDICTS_BYTES:
            too_large = f"file is {size:,} bytes; the limit is {MAX_VERDICTS_BYTES:,}"
            return LoadedRater(rater, rel, clean=False), [Problem(rel, None, "", too_large)]
        raw = path.read_bytes()
    except OSError as exc:
        unreadable = f"cannot be read: {exc.strerror}"
        return LoadedRater(rater, rel, clean=False), [Problem(rel, None, "", unreadable)]
    lines = [(n, line) for n, line in enumerate(raw.split(b"\n"), start=1) if line.strip()]
    if not lines:
        empty = f"file is empty; expected the header {HEADER}"
        return LoadedRater(rater, rel, clean=False), [Problem(rel, None, "", empty)]
    header = header_problems(lines[0][1], rel, lines[0][0], "a rated run")
    if header:
        return LoadedRater(rater, rel, clean=False), header
    runs, numbers, problems = _rated_lines(lines[1:], rel)
    return LoadedRater(rater, rel, tuple(runs), tuple(numbers), not problems), problems


def _parsed(line: bytes, rel: str, number: int) -> object | Problem:
    """The line's JSON value, or the problem that stops it being read."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return Problem(rel, number, "", "not UTF-8 text")
    try:
        data: object = parse_json(text)
    except RecursionError:
        return Problem(rel, number, "", "invalid JSON: nested too deeply")
    except ValueError as exc:
        return Problem(rel, number, "", json_error(exc, text))
    return data


def _rated_lines(
    lines: list[tuple[int, bytes]], rel: str
) -> tuple[list[RatedRun], list[int], list[Problem]]:
    """Each line validated on its own: the rated runs, their lines, and every problem."""
    runs: list[RatedRun] = []
    numbers: list[int] = []
    problems: list[Problem] = []
    dropped = 0
    for number, line in lines:
        if len(problems) >= MAX_PROBLEMS_PER_FILE:
            dropped += 1
            continue
        data = _parsed(line, rel, number)
        if isinstance(data, Problem):
            problems.append(data)
            continue
        try:
            runs.append(RatedRun.model_validate(data))
            numbers.append(number)
        except ValidationError as exc:
            problems.extend(problems_from(exc, data, Source(rel, {(): number})))
    problems += limit_reached(rel, dropped)
    return runs, numbers, problems
