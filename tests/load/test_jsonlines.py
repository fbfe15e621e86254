"""Reading runs files: header, one record a line, every bad line located."""

from __future__ import annotations

from pathlib import Path

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.load import rawlines
from generator.load.jsonlines import MAX_PROBLEMS_PER_FILE, parse_json, read_runs
from generator.protocol.items import LISTS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "runs"
HEADER = '{"format_version": 1}\n'
GOOD = (FIXTURES / "valid.jsonl").read_text(encoding="utf-8").splitlines()[1]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "runs.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_file_keeps_each_records_line() -> None:
    runs, problems = read_runs(FIXTURES / "valid.jsonl", "runs.jsonl")
    assert problems == []
    assert list(runs.lines) == [2, 4]  # the blank line 3 is skipped but still counted
    v = runs.verdicts.set_index(["row", "kind", "pos"])["value"]
    assert v[(0, LISTS["rules"], 0)] == 1  # first record, rules[0] passed
    assert v[(0, LISTS["judge"], 0)] == 4  # first record, judge[0] at level 4
    assert list(runs.runs["status"]) == ["valid", "incomplete"]
    assert runs.runs["cause"].iloc[1] == "crash"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("{not json", "runs.jsonl:2: invalid JSON at column 2: Expecting property name"),
        (
            GOOD.replace('"turns":2', '"turns":2,"turns":3'),
            "runs.jsonl:2: invalid JSON: duplicate key 'turns'",
        ),
        (GOOD.replace('"duration_s":1.5', '"duration_s":Infinity'), "Infinity is not a number"),
        (
            GOOD.replace('"status":"valid"', '"status":"ok"'),
            "runs.jsonl:2: status: 'ok' is not allowed: input should be 'valid' or 'incomplete'",
        ),
        (
            GOOD.replace('"run":1', '"run":0'),
            "runs.jsonl:2: run: 0 is not allowed: input should be greater than or equal to 1",
        ),
        (GOOD.replace('"pass":true}]', '"pass":"yes"}]', 1), "runs.jsonl:2: fatal[0].pass:"),
        (GOOD.replace('"status":"valid",', ""), "runs.jsonl:2: status: is required but missing"),
        (GOOD.replace('"seed":1,', '"seed":"none",'), "runs.jsonl:2: seed:"),
        (
            GOOD.replace('"level":4', '"level":-1'),
            "runs.jsonl:2: judge[0].level: -1 is not allowed",
        ),
        ("[1, 2]", "runs.jsonl:2: input should be a valid dictionary"),
        (
            GOOD.replace('"turns":2', '"turns":2,"colour":"red"'),
            "runs.jsonl:2: colour: is not a field of this format",
        ),
        (GOOD.replace('"duration_s":1.5', '"duration_s":NaN'), "NaN is not a number"),
        (GOOD.replace('"turns":2', '"turns":2,"retries":null'), "runs.jsonl:2: retries:"),
        (GOOD.replace('"turns":2', '"turns":2.0'), "runs.jsonl:2: turns:"),
        (
            GOOD + " " + GOOD,
            f"runs.jsonl:2: invalid JSON at column {len(GOOD) + 2}: Extra data",
        ),
        (
            GOOD[:-1] + ",}",
            f"runs.jsonl:2: invalid JSON at column {len(GOOD) + 1}: Expecting property name "
            f"enclosed in double quotes (a trailing comma at column {len(GOOD)}: remove it)",
        ),
        (GOOD.replace('"task":"', '"task":"bad id '), "runs.jsonl:2: task:"),
    ],
)
def test_bad_line_is_reported_with_its_line(tmp_path: Path, line: str, expected: str) -> None:
    runs, problems = read_runs(_write(tmp_path, HEADER + line + "\n" + GOOD + "\n"), "runs.jsonl")
    shown = [str(p) for p in problems]
    assert any(expected in s for s in shown), shown
    assert len(runs) == 1
    assert list(runs.lines) == [3]


def test_header_is_required(tmp_path: Path) -> None:
    _, problems = read_runs(_write(tmp_path, GOOD + "\n"), "runs.jsonl")
    assert [str(p) for p in problems] == [
        'runs.jsonl:1: the first line must be the header {"format_version": 1}; found a run record'
    ]


def test_future_header_is_refused(tmp_path: Path) -> None:
    _, problems = read_runs(_write(tmp_path, '{"format_version": 2}\n' + GOOD), "runs.jsonl")
    assert "format_version: 2 is newer than this generator reads (1)" in str(problems[0])


def test_problem_count_is_capped_and_says_so(tmp_path: Path) -> None:
    lines = ["{bad"] * (MAX_PROBLEMS_PER_FILE + 25)
    _, problems = read_runs(_write(tmp_path, HEADER + "\n".join(lines)), "runs.jsonl")
    assert len(problems) == MAX_PROBLEMS_PER_FILE + 1
    assert "25 further lines were not checked" in str(problems[-1])


def test_missing_file_is_a_problem(tmp_path: Path) -> None:
    _, problems = read_runs(tmp_path / "absent.jsonl", "absent.jsonl")
    assert str(problems[0]).startswith("absent.jsonl: cannot be read")


def test_parse_json_refuses_nan() -> None:
    with pytest.raises(ValueError, match="NaN is not a number"):
        parse_json('{"a": NaN}')


def test_an_oversized_runs_file_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import generator.load.jsonlines as jsonlines

    monkeypatch.setattr(jsonlines, "MAX_RUNS_BYTES", 100)
    runs, problems = read_runs(_write(tmp_path, HEADER + GOOD + "\n"), "runs.jsonl")
    assert len(runs) == 0
    assert [str(p) for p in problems] == [
        f"runs.jsonl: file is {len(HEADER + GOOD) + 1:,} bytes; the limit is 100"
    ]


@pytest.mark.parametrize("bad", [b"caf\xe9", b"\xff\xfe", b"cut \xe2\x82"])
def test_a_string_that_is_not_utf8_is_refused_at_its_line(tmp_path: Path, bad: bytes) -> None:
    """Arrow's reader takes any bytes inside a string: the text is checked before it."""
    broken = GOOD.encode().replace(b'"rationale":"ok"', b'"rationale":"' + bad + b'"')
    path = tmp_path / "runs.jsonl"
    path.write_bytes(HEADER.encode() + (GOOD + "\n").encode() * 3 + broken + b"\n")
    runs, problems = read_runs(path, "runs.jsonl")
    assert [str(p) for p in problems] == ["runs.jsonl:5: not UTF-8 text"]
    assert list(runs.lines) == [2, 3, 4]


PIECES = ["a", "é", "€", "😀", b"\xff", b"\xe2\x82", b"\xc3"]


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(st.lists(st.sampled_from(PIECES), max_size=6), min_size=1, max_size=8),
    st.integers(min_value=1, max_value=40),
)
def test_utf8_is_checked_across_chunk_boundaries(
    tmp_path_factory: pytest.TempPathFactory, texts: list[list[str | bytes]], chunk: int
) -> None:
    """Each line whose bytes do not decode is refused at its line, wherever the file is cut
    into chunks for decoding, and only such lines."""
    lines = [b"".join(p if isinstance(p, bytes) else p.encode() for p in t) for t in texts]
    body = [GOOD.encode().replace(b'"rationale":"ok"', b'"rationale":"' + t + b'"') for t in lines]
    path = tmp_path_factory.mktemp("utf8") / "runs.jsonl"
    path.write_bytes(HEADER.encode() + b"\n".join(body) + b"\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rawlines, "UTF8_CHUNK", chunk)
        _, problems = read_runs(path, "runs.jsonl")
    bad = []
    for number, line in enumerate(lines, 2):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            bad.append(f"runs.jsonl:{number}: not UTF-8 text")
    assert [str(p) for p in problems if "UTF-8" in str(p)] == bad
