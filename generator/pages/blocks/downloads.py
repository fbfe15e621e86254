"""Downloads that say what they are: file names and leading fields naming the version, the
domain and the scope of a table's rows.

Two files saved side by side from different versions or domains must not read as one table
(the site never mixes them): every download's name starts with the benchmark's code and the
version (``lg-bench-v1.1-enterprise-all-scores.csv``), and each of its records starts with
the version and, where the table is of one, the domain, sub-division and group.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pandas as pd

from generator.models import Task
from generator.pages.blocks.columns import Field
from generator.pages.blocks.tables import Table
from generator.pages.context import VersionContext
from generator.score.results import CombinationScores, ScopeResult

About = tuple[tuple[str, Any], ...]


def download_name(ctx: VersionContext, *parts: str) -> str:
    """``<benchmark code>-<version>-<parts...>``, the empty parts left out."""
    return "-".join([ctx.release.benchmark.code, ctx.version, *(p for p in parts if p)])


def described(
    ctx: VersionContext, tables: Iterable[Table], parts: Iterable[str] = (), about: About = ()
) -> list[Table]:
    """Each table named ``<benchmark>-<version>-<parts>-<table id>``, its records starting
    with the version and ``about``."""
    head = list(parts)
    return [
        replace(t, name=download_name(ctx, *head, t.id), about=(("version", ctx.version), *about))
        for t in tables
    ]


def scope_about(scope: ScopeResult) -> About:
    """What a scope's rows are of: domain, sub-division (none: the whole domain), group."""
    s = scope.scope
    about: About = (("domain", s.domain), ("subdivision", s.subdivision), ("group", s.group))
    return about + tuple((f"facet_{f}", v) for f, v in s.facets)


def scope_described(
    ctx: VersionContext, scope: ScopeResult, tables: Iterable[Table]
) -> list[Table]:
    """A scope's tables, named ``<benchmark>-<version>-<domain>[-<sub-division>]-<group>-
    <kind>`` (kind: what follows the scope in the table's id, e.g. ``scores``)."""
    s = scope.scope
    prefix = f"{s.slug or 'domain'}-{s.group}-"
    parts = (s.domain, s.slug or "", s.group)
    return [
        replace(t, name=download_name(ctx, *parts, t.id.removeprefix(prefix)))
        for t in described(ctx, tables, about=scope_about(scope))
    ]


#: What a task page's rows are of, after the version.
TASK_FIELDS = ("domain", "subdivision", "group", "task")


def task_about(task: Task) -> About:
    """What a task page's rows are of: its domain, sub-division, group and the task."""
    values = (task.domain, task.subdivision, task.group, task.id)
    return tuple(zip(TASK_FIELDS, values, strict=True))


def task_described(
    ctx: VersionContext, task: Task, deep: bool, tables: Iterable[Table]
) -> list[Table]:
    """A task page's (or deep dive's) tables, named ``<benchmark>-<version>-<domain>-task
    (or deep-dive)-<task>-<table id>``."""
    page = "deep-dive" if deep else "task"
    return described(ctx, tables, (task.domain, page, task.id), task_about(task))


def tasks_about(ctx: VersionContext, tasks: pd.Series) -> pd.DataFrame:
    """Per row of a version-wide frame, the about fields of the row's task (version first,
    as :func:`task_described` gives them), as columns: made once per task, taken per row."""
    codes, found = pd.factorize(tasks.astype(str))
    names = ["version", *TASK_FIELDS]
    rows = [[ctx.version, *(v for _, v in task_about(ctx.tasks[t]))] for t in found]
    table = pd.DataFrame(rows, columns=names, dtype=object)
    return table.take(codes).reset_index(drop=True)


def _judge_tasks(c: CombinationScores) -> int | None:
    return c.judge_score.tasks if c.judge_score is not None else None


def _judge_note(c: CombinationScores) -> str | None:
    coverage = c.judge_coverage or ""
    return coverage if coverage.startswith("withheld") else None


def judge_fields() -> tuple[Field[CombinationScores], ...]:
    """The Judge score's coverage as downloaded: the tasks it rests on (a number: those that
    enable the Judge, §4.2(1)) and, in a column of its own, why it is withheld."""
    return (Field("judge_tasks", _judge_tasks, "integer"), Field("judge_note", _judge_note))
