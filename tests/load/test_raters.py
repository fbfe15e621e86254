"""Reading a second rater's verdicts file (generator/load/raters.py): a header, then one
rated run a line; every bad line reported in one pass with its file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.load.raters import MAX_PROBLEMS_PER_FILE, LoadedRater, read_verdicts
from generator.models.bundle import Rater

HEADER = '{"format_version": 1}\n'
GOOD = '{"task": "t1", "run": 1, "judge": [{"id": "J1", "level": 3}, {"id": "J2", "level": 2}]}'
RATER = Rater.model_validate(
    {"id": "humans", "title": "Human experts", "kind": "human", "verdicts": "humans.jsonl"}
)


def _read(tmp_path: Path, text: str) -> tuple[list[str], LoadedRater]:
    path = tmp_path / "humans.jsonl"
    path.write_text(text, encoding="utf-8")
    loaded, problems = read_verdicts(RATER, path, "b/humans.jsonl")
    return [str(p) for p in problems], loaded


def test_a_valid_file_keeps_each_rated_run_and_its_line(tmp_path: Path) -> None:
    second = GOOD.replace('"run": 1', '"run": 2')
    shown, loaded = _read(tmp_path, HEADER + GOOD + "\n\n" + second + "\n")
    assert shown == []
    assert loaded.lines == (2, 4)
    first, last = loaded.runs
    assert (first.task, first.run, last.run) == ("t1", 1, 2)
    assert [(v.id, v.level) for v in first.judge] == [("J1", 3), ("J2", 2)]
    assert loaded.clean
    assert loaded.rater == RATER


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("{not json", "b/humans.jsonl:2: invalid JSON at column 2"),
        (GOOD.replace('"run": 1', '"run": 0'), "b/humans.jsonl:2: run: 0 is not allowed"),
        (GOOD.replace('"level": 3', '"level": -1'), "b/humans.jsonl:2: judge[0].level:"),
        (GOOD.replace('"level": 3', '"level": "high"'), "b/humans.jsonl:2: judge[0].level:"),
        (GOOD.replace('"task": "t1", ', ""), "b/humans.jsonl:2: task: is required but missing"),
        ('{"task": "t1", "run": 1, "judge": []}', "b/humans.jsonl:2: judge:"),
        (GOOD.replace('"run": 1', '"run": 1, "note": "x"'), "note: is not a field of this"),
        (GOOD.replace('"run": 1', '"run": 1, "run": 2'), "duplicate key 'run'"),
        ("[1, 2]", "b/humans.jsonl:2: input should be a valid dictionary"),
    ],
)
def test_a_bad_line_is_reported_with_its_line_and_field(
    tmp_path: Path, line: str, expected: str
) -> None:
    shown, loaded = _read(tmp_path, HEADER + line + "\n" + GOOD + "\n")
    assert any(expected in s for s in shown), shown
    assert loaded.lines == (3,)  # the good line is kept
    assert not loaded.clean


def test_every_bad_line_in_one_pass(tmp_path: Path) -> None:
    bad = GOOD.replace('"level": 3', '"level": -1')
    shown, _ = _read(tmp_path, HEADER + bad + "\n" + GOOD + "\n" + "{x\n" + bad + "\n")
    assert [s.split(":")[1] for s in shown] == ["2", "4", "5"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 'b/humans.jsonl: file is empty; expected the header {"format_version": 1}'),
        (GOOD + "\n", "b/humans.jsonl:1: the first line must be the header"),
        ('{"format_version": 9}\n', "b/humans.jsonl:1: format_version: 9 is newer"),
        ('{"format_version": 1, "x": 1}\n', "b/humans.jsonl:1: x: is not a field"),
        ("\n\n{bad\n", "b/humans.jsonl:3: invalid JSON"),
    ],
)
def test_a_bad_header_stops_the_file(tmp_path: Path, text: str, expected: str) -> None:
    shown, loaded = _read(tmp_path, text)
    assert len(shown) == 1
    assert shown[0].startswith(expected), shown
    assert loaded.runs == ()


def test_a_missing_file_is_named_with_the_rater(tmp_path: Path) -> None:
    loaded, problems = read_verdicts(RATER, tmp_path / "none.jsonl", "b/none.jsonl")
    (problem,) = problems
    assert str(problem).startswith("b/none.jsonl: verdicts file of rater 'humans' not found")
    assert not loaded.clean


def test_problems_stop_at_the_limit_and_say_how_many_lines_were_left(tmp_path: Path) -> None:
    bad = GOOD.replace('"level": 3', '"level": -1')
    shown, _ = _read(tmp_path, HEADER + (bad + "\n") * (MAX_PROBLEMS_PER_FILE + 7))
    assert len(shown) == MAX_PROBLEMS_PER_FILE + 1
    assert "7 further lines were not checked" in shown[-1]


def test_a_line_that_is_not_utf8_is_refused_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "humans.jsonl"
    bad = GOOD.replace('"t1"', '"t\\u00e9"').encode().replace(b"\\u00e9", b"\xe9")
    path.write_bytes(HEADER.encode() + (GOOD + "\n").encode() + bad + b"\n")
    loaded, problems = read_verdicts(RATER, path, "b/humans.jsonl")
    assert [str(p) for p in problems] == ["b/humans.jsonl:3: not UTF-8 text"]
    assert loaded.lines == (2,)
