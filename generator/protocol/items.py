"""The kinds of a run's item verdicts and the Judge channel of an item (§4.3), for the loader
that stores them, the checks and the scoring engine."""

from __future__ import annotations

from generator.models.catalog import JudgeItem

#: Item lists of a record and the integer kind each is stored under.
LISTS = {"rules": 0, "fatal": 1, "judge": 2}
KIND_NAMES = {v: k for k, v in LISTS.items()}

#: The channel of the Judge items of a release that declares no channels.
JUDGE_CHANNEL = "judge"


def item_channel(item: JudgeItem) -> str:
    """The Judge channel of an item: its declared one, or the one Judge without channels."""
    return item.channel or JUDGE_CHANNEL
