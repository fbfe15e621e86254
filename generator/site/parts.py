"""The split of one version's pages between processes: the task pages cut into parts, each
part rendered by a process of its own (:mod:`generator.site.forked`), the first part with
every other page and the navigation (:func:`generator.pages.version_pages`)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from generator.models import Task
from generator.pages import Page, VersionContext, version_pages

#: The share of the task pages that go with every other page, in the first part. Measured
#: at reference scale (bench/run.py's release, one version, CPU seconds of ``version_pages``
#: per part, 2026-12-01): a task page costs about 7.5 ms (1,120 public tasks: 8.2 s), every
#: other page together about 0.3 s once the templates are compiled, which each part pays
#: (the worker forks before the parent renders). So an even cut balances two parts: 0.5
#: gave parts of 4.4 s and 4.3 s, 0.3 left the second at 5.7 s against 3.8 s; the 0.4 this
#: replaced (tuned when every other page cost a fifth of the task pages) leaves the second
#: part about 0.6 s longer.
FIRST_PART_TASKS = 0.5


def task_parts(tasks: Sequence[Task], parts: int) -> list[list[Task]]:
    """``tasks`` cut into ``parts`` consecutive runs: the first part (which also has every
    other page) gets :data:`FIRST_PART_TASKS` of them, the others equal shares."""
    if parts == 1:
        return [list(tasks)]
    first = round(len(tasks) * FIRST_PART_TASKS)
    rest = len(tasks) - first
    cuts = [0, first, *(first + rest * i // (parts - 1) for i in range(1, parts))]
    return [list(tasks[a:b]) for a, b in itertools.pairwise(cuts)]


def part_pages(
    ctx: VersionContext, part: int, parts: int
) -> tuple[list[Page], list[dict[str, object]]]:
    """Part ``part`` of ``parts`` of the version's pages: part 0 has every page but the task
    pages of the other parts, and the navigation; the others have their task pages only."""
    if parts == 1:
        return version_pages(ctx)
    share = task_parts(ctx.public_tasks(), parts)[part]
    return version_pages(ctx, share, rest=part == 0)
