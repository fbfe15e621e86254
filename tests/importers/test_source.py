"""The importers' shared vocabulary: ids made from other tools' names, days and durations
from their time stamps, JSON read with its line named."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from generator.importers.source import SourceError, as_id, day_of, read_json, seconds_between


def test_an_id_keeps_letters_digits_and_separators() -> None:
    assert as_id("mockllm/gpt 4o", "model", "x") == "mockllm-gpt-4o"
    assert as_id("q1", "sample id", "x") == "q1"
    with pytest.raises(SourceError, match="no letter or digit"):
        as_id("///", "sample id", "log.eval")


def test_days_and_durations_are_read_in_utc() -> None:
    assert day_of("2026-11-20T23:30:00-02:00") == dt.date(2026, 11, 21)
    assert day_of("2026-11-20T10:00:00Z") == dt.date(2026, 11, 20)
    assert day_of(None) is None
    assert seconds_between("2026-11-20T10:00:00Z", "2026-11-20T10:01:30.250Z") == 90.25
    assert seconds_between("2026-11-20T10:01:00Z", "2026-11-20T10:00:00Z") is None
    assert seconds_between(None, "2026-11-20T10:00:00Z") is None


def test_bad_json_is_named_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text('{\n  "results": [\n    {"task_id": "a",}\n  ]\n}\n', encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        read_json(path)
    assert caught.value.where == f"{path}:3"
    assert "not JSON" in caught.value.message


def test_hostile_json_and_time_stamps_are_named(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(SourceError, match="not JSON this import can read") as caught:
        read_json(deep)
    assert caught.value.where == str(deep)
    for stamp in ("yesterday", 12345, ["2026-01-01"]):
        with pytest.raises(SourceError, match="is not an ISO 8601 time stamp") as caught:
            day_of(stamp, "results.json: results[0].trial_started_at")
        assert caught.value.where == "results.json: results[0].trial_started_at"
    with pytest.raises(SourceError, match="one has a time zone and one not"):
        seconds_between("2026-01-01T00:00:00", "2026-01-01T00:00:05+00:00", "results.json")
    assert seconds_between("2026-01-01T00:00:00Z", "2026-01-01T00:00:05+00:00") == 5.0
