"""Byte-level checks of a runs file (generator/load/rawlines.py)."""

from __future__ import annotations

from generator.load.rawlines import not_utf8_lines, suspect_nulls


def test_lines_with_bytes_that_are_not_utf8_are_named() -> None:
    raw = b'{"a": "ok"}\n{"a": "\xff"}\n{"a": "\xc3\xa9"}\n{"a": "\xc3"}\n'
    assert not_utf8_lines(raw, 0) == {2, 4}
    assert not_utf8_lines(b'{"a": "plain"}\n', 0) == set()


def test_a_field_that_may_only_be_absent_written_as_null_is_named() -> None:
    raw = b'{"task": "t", "fatal": []}\n{"task": "t", "fatal": null}\n'
    assert suspect_nulls(raw, 0) == {2}
    assert suspect_nulls(b'{"task": "t"}\n', 0) == set()
