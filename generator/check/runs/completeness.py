"""The bundle's completeness against its declaration: ``evaluation: complete`` needs the
prescribed valid runs of every covered task (§4.2: coverage is otherwise disclosed)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from generator.check.runs.columns import RunChecks
from generator.errors import Problem

_SHOWN = 10


def check_completeness(runs: RunChecks) -> Iterator[Problem]:
    """The evaluation a bundle declares against its valid runs (of known tasks only)."""
    short, covered = _short_tasks(runs)
    prescribed = runs.release.runs_per_task
    source = runs.loaded.bundle.source
    evaluation = runs.loaded.bundle.model.evaluation
    if evaluation == "complete" and short:
        shown = ", ".join(f"{tid} ({k} valid)" for tid, k in short[:_SHOWN])
        more = f" and {len(short) - _SHOWN} more" if len(short) > _SHOWN else ""
        yield Problem(
            source.path,
            source.line("evaluation"),
            "evaluation",
            f"marked complete, but {len(short)} of {covered} covered tasks lack "
            f"the prescribed {prescribed} valid runs: {shown}{more}; "
            "expected evaluation: incomplete (coverage is then disclosed, §4.2)",
        )
    if evaluation == "incomplete" and not short and covered:
        yield Problem(
            source.path,
            source.line("evaluation"),
            "evaluation",
            f"marked incomplete, but every covered task has {prescribed} valid runs",
            "warning",
        )


def _short_tasks(runs: RunChecks) -> tuple[list[tuple[str, int]], int]:
    """The covered tasks with fewer valid runs than prescribed (id, valid runs), in catalog
    order, and how many tasks are covered."""
    records, tasks = runs.records, runs.catalog.index.tasks
    known = records.code >= 0
    per_task = np.bincount(records.code[records.valid & known], minlength=len(tasks))
    covered = np.flatnonzero(~runs.uncovered)
    prescribed = runs.release.runs_per_task
    short = [(tasks[k], int(per_task[k])) for k in covered.tolist() if per_task[k] < prescribed]
    return short, len(covered)
