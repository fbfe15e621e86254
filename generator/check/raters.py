"""Rules of a bundle's second raters (another judge, or humans) and their verdicts files.

Each rated line names a run of the bundle, and levels of Judge items of that run's task,
each item once, within 0..G (whole levels unless the release declares continuous ones); a
rater that rates one item of a Judge channel on a run rates all of its items there (a
judged overall apart), so that the channel's score is the rater's own. Rater ids are unique
within a bundle, and one id names the same rater in every bundle of a version.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from generator.check.runs.columns import number
from generator.errors import Problem, did_you_mean
from generator.load import LoadedBundle
from generator.load.raters import LoadedRater
from generator.models import Catalog, Release, Task
from generator.models.runs import RatedRun
from generator.protocol.items import item_channel


def check_raters(release: Release, catalog: Catalog, loaded: LoadedBundle) -> Iterator[Problem]:
    """Every problem of the bundle's raters: ids repeated, then each verdicts file's lines."""
    bundle, src = loaded.bundle.model, loaded.bundle.source
    seen: set[str] = set()
    for i, rater in enumerate(bundle.raters):
        if rater.id in seen:
            yield Problem(
                src.path,
                src.line("raters", i, "id"),
                f"raters[{i}].id",
                f"rater {rater.id!r} is listed twice; each rater of a bundle has its own id",
            )
        seen.add(rater.id)
    tasks = {t.id: t for t in catalog.tasks}
    runs = loaded.runs.runs
    known = set(zip(runs["task"].astype(str), runs["run"].astype(int), strict=True))
    for rated in loaded.raters:
        yield from _check_lines(release, tasks, rated, known if loaded.runs_clean else None)


def _check_lines(
    release: Release,
    tasks: Mapping[str, Task],
    rater: LoadedRater,
    known: set[tuple[str, int]] | None,
) -> Iterator[Problem]:
    """Each rated line against the bundle's runs (``known``; None: the runs file had bad
    lines, so a run missing from it is not reported) and its task's Judge items."""
    first: dict[tuple[str, int], int] = {}
    for run, line in zip(rater.runs, rater.lines, strict=True):
        key = (run.task, run.run)
        if key in first:
            yield Problem(
                rater.path,
                line,
                "run",
                f"run {run.run} of task {run.task} is rated again (first on line "
                f"{first[key]}); each run is rated once",
            )
            continue
        first[key] = line
        task = tasks.get(run.task)
        if task is None:
            yield Problem(
                rater.path,
                line,
                "task",
                f"{run.task!r} is not a task of the catalog" + did_you_mean(run.task, tasks),
            )
            continue
        if known is not None and key not in known:
            yield Problem(
                rater.path,
                line,
                "run",
                f"run {run.run} of task {run.task} is not a run of the bundle: its runs file "
                "has no such record; a rater rates the bundle's own runs",
            )
        for field, message in rated_problems(release, task, run):
            yield Problem(rater.path, line, field, message)


def rated_problems(release: Release, task: Task, run: RatedRun) -> Iterator[tuple[str, str]]:
    """(field, message) of each problem of one rated run's levels against its task."""
    judge = {j.id: j for j in task.scoring.judge_items}
    rules = {r.id for r in task.scoring.rule_items}
    continuous = release.profile.continuous_levels
    rated: set[str] = set()
    for j, verdict in enumerate(run.judge):
        field = f"judge[{j}]"
        item = judge.get(verdict.id)
        if item is None:
            yield f"{field}.id", _not_judge(verdict.id, task, rules, judge)
            continue
        if verdict.id in rated:
            yield f"{field}.id", f"item {verdict.id} is rated twice; each item once"
            continue
        rated.add(verdict.id)
        level, top = verdict.level, item.max_level
        if level > top:
            above = f"{number(level)} is above {verdict.id}'s maximum; expected 0..{top}"
            yield f"{field}.level", above
        elif not continuous and not float(level).is_integer():
            yield (
                f"{field}.level",
                f"{number(level)} is between levels; expected a whole level 0..{top}; this "
                "release does not allow continuous levels",
            )
    yield from _incomplete(task, rated)


def _not_judge(item: str, task: Task, rules: set[str], judge: Iterable[str]) -> str:
    if item in rules:
        return (
            f"{item} is a rule item of task {task.id}; a rater rates Judge items only "
            f"(expected one of {sorted(judge)})"
        )
    return f"{item!r} is not a Judge item of task {task.id}; expected one of {sorted(judge)}" + (
        did_you_mean(item, judge)
    )


def _incomplete(task: Task, rated: set[str]) -> Iterator[tuple[str, str]]:
    """A channel the run's levels touch but do not cover (a judged overall apart)."""
    by_channel: dict[str, list[str]] = {}
    for item in task.scoring.judge_items:
        if not item.overall:
            by_channel.setdefault(item_channel(item), []).append(item.id)
    for channel, items in by_channel.items():
        missing = [i for i in items if i not in rated]
        if missing and len(missing) < len(items):
            yield (
                "judge",
                f"rates some Judge items of channel {channel!r} but not {missing}; a rater "
                "rates every item of a channel it rates on a run, so that the channel's score "
                "is its own",
            )


def check_rater_names(bundles: Iterable[LoadedBundle]) -> Iterator[Problem]:
    """One rater id names one rater (title and kind) in every bundle of the version."""
    first: dict[str, tuple[str, str, str]] = {}
    for loaded in bundles:
        src = loaded.bundle.source
        for i, rater in enumerate(loaded.bundle.model.raters):
            named = (rater.title, rater.kind)
            if rater.id not in first:
                first[rater.id] = (*named, src.path)
                continue
            title, kind, where = first[rater.id]
            if (title, kind) != named:
                yield Problem(
                    src.path,
                    src.line("raters", i, "title"),
                    f"raters[{i}]",
                    f"rater {rater.id!r} is {rater.title!r} ({rater.kind}) here but {title!r} "
                    f"({kind}) in {where}; one id names the same rater in every bundle",
                )
