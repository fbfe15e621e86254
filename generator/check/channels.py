"""Rules of a release's Judge channels (e.g. text and visual routes): every Judge item names a
declared channel, and every bundle names the evaluator of each channel.

A release that declares no channel has one Judge, the bundle's ``evaluator``, and its Judge
items name none.
"""

from __future__ import annotations

from collections.abc import Iterator

from generator.errors import Problem, did_you_mean
from generator.load import LoadedBundle
from generator.load.source import Source
from generator.models import Release, Task


def check_task_channels(release: Release, task: Task, src: Source, index: int) -> Iterator[Problem]:
    """Each Judge item of the task names one of the release's channels, where it declares any,
    and none otherwise."""
    known = [c.id for c in release.profile.channels]
    for j, item in enumerate(task.scoring.judge_items):
        where = ("tasks", index, "scoring", "judge_items", j, "channel")
        field = f"tasks[{index}].scoring.judge_items[{j}].channel"
        if known and item.channel is None:
            yield Problem(
                src.path,
                src.line(*where[:-1]),
                field,
                f"judge item {item.id} names no channel; the release judges on the channels "
                f"{known}, so each Judge item names one",
            )
        elif item.channel is not None and item.channel not in known:
            expected = f"one of {known}" if known else "none: the release declares no channels"
            yield Problem(
                src.path,
                src.line(*where),
                field,
                f"{item.channel!r} is not a channel of the release; expected {expected}"
                + did_you_mean(item.channel, known),
            )


def check_bundle_channels(release: Release, loaded: LoadedBundle) -> Iterator[Problem]:
    """The bundle names the evaluator of each channel of the release, and of no other."""
    bundle, src = loaded.bundle.model, loaded.bundle.source
    known = [c.id for c in release.profile.channels]
    missing = [c for c in known if c not in bundle.channels]
    extra = sorted(set(bundle.channels) - set(known))
    if missing:
        yield Problem(
            src.path,
            src.line("channels"),
            "channels",
            f"no evaluator for the channels {missing}; each Judge channel of the release has "
            "its own evaluator in every bundle (judge_model, judge_model_version, "
            "prompt_version, voting)",
        )
    if extra:
        expected = known or "none: the release declares no channels"
        yield Problem(
            src.path,
            src.line("channels", extra[0]),
            "channels",
            f"{extra} are not channels of the release; expected {expected}",
        )
