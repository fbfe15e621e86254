"""The kinds of item verdicts and the Judge channel of an item (§4.3)."""

from __future__ import annotations

from generator.models.catalog import JudgeItem
from generator.protocol.items import JUDGE_CHANNEL, KIND_NAMES, LISTS, item_channel


def test_each_list_has_its_own_kind() -> None:
    assert set(LISTS) == {"rules", "fatal", "judge"}
    assert len(set(LISTS.values())) == len(LISTS)
    assert {KIND_NAMES[v] for v in LISTS.values()} == set(LISTS)


def test_an_item_without_a_channel_is_the_one_judge_s() -> None:
    plain = JudgeItem.model_validate({"id": "j1", "title": "d", "max_level": 4})
    assert item_channel(plain) == JUDGE_CHANNEL
    named = plain.model_copy(update={"channel": "visual"})
    assert item_channel(named) == "visual"
