"""Rules of Judge channels (generator/check/channels.py): Judge items name declared channels,
bundles name each channel's evaluator; a release without channels passes as before."""

from __future__ import annotations

from typing import Any

from builders import bundle, profiled, task

from generator.check.channels import check_bundle_channels, check_task_channels
from generator.load import Loaded, LoadedBundle
from generator.load.records import columns_from_records
from generator.load.source import Source
from generator.models import Bundle, Release, Task

CHANNELS = [{"id": "text", "title": "Text"}, {"id": "visual", "title": "Visual"}]
EVALUATOR = {
    "judge_model": "J",
    "judge_model_version": "1",
    "prompt_version": "1",
    "voting": "single judge",
}


def _judged(*channels: str | None) -> Task:
    data: dict[str, Any] = task("t1")
    data["scoring"] = {
        "mode": "judge-only",
        "core_delivery": "d",
        "judge_items": [
            {"id": f"J{i}", "title": "j", "max_level": 4}
            | ({} if channel is None else {"channel": channel})
            for i, channel in enumerate(channels)
        ],
    }
    return Task.model_validate(data)


def _task_messages(model: Release, one: Task) -> list[str]:
    return [f"{p.field}: {p.message}" for p in check_task_channels(model, one, Source("t"), 0)]


def test_judge_items_name_a_declared_channel() -> None:
    model = profiled(channels=CHANNELS)
    assert _task_messages(model, _judged("text", "visual")) == []
    none, typo = _task_messages(model, _judged(None, "visul"))
    assert none.startswith("tasks[0].scoring.judge_items[0].channel: judge item J0 names no")
    assert "['text', 'visual']" in none
    assert typo.startswith("tasks[0].scoring.judge_items[1].channel: 'visul' is not a channel")
    assert "did you mean 'visual'" in typo


def test_a_release_without_channels_keeps_its_items_unrouted() -> None:
    assert _task_messages(profiled(), _judged(None, None)) == []
    (message,) = _task_messages(profiled(), _judged("text"))
    assert "the release declares no channels" in message


def _bundle_messages(model: Release, channels: dict[str, Any]) -> list[str]:
    data = bundle("a").model_dump(mode="json", by_alias=True, exclude_none=True)
    data["channels"] = channels
    loaded = LoadedBundle(
        "a",
        Loaded(Bundle.model_validate(data), Source("b.yaml")),
        columns_from_records([], []),
        "runs.jsonl",
    )
    return [f"{p.field}: {p.message}" for p in check_bundle_channels(model, loaded)]


def test_a_bundle_names_each_channel_s_evaluator() -> None:
    model = profiled(channels=CHANNELS)
    assert _bundle_messages(model, {"text": EVALUATOR, "visual": EVALUATOR}) == []
    (missing,) = _bundle_messages(model, {"text": EVALUATOR})
    assert missing.startswith("channels: no evaluator for the channels ['visual']")
    (extra,) = _bundle_messages(profiled(), {"text": EVALUATOR})
    assert "['text'] are not channels of the release" in extra
    assert _bundle_messages(profiled(), {}) == []
