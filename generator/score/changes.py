"""The reported shape of an experiment's results: paired changes, treatment against baseline,
per level and consumer, per level, and per public target task (a :class:`Report`'s
``experiments``; its JSON Schema is exported with the report's), each with which way it goes
where its interval says (:func:`with_verdicts`)."""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

from pydantic import Field

from generator.score.estimates import Result, nothing

#: Which way a change goes, where its interval lies wholly on one side of 0.
Verdict = Annotated[
    Literal["better", "worse"] | None,
    Field(
        exclude_if=nothing,
        description="'better' or 'worse' (in the metric's direction) where the interval lies "
        "wholly on one side of 0; absent where it holds 0, or the change is withheld.",
    ),
]


class Change(Result):
    """A paired change: the mean over target tasks of (treatment − baseline) task means,
    with its interval; withheld (all figures null) where it would isolate held-out tasks."""

    level: str = Field(description="The level (treatment condition), e.g. the skill's creator.")
    consumer: str | None = Field(
        description="The baseline combination the treatment is set against; null: the mean "
        "change of the level over its consumers."
    )
    treatment: str | None = Field(
        description="The treatment combination; null for a level's mean over its consumers."
    )
    value: float | None = Field(description="Mean change over the tasks; null when withheld.")
    low: float | None = Field(description="Lower end of its interval.")
    high: float | None = Field(description="Upper end of its interval.")
    tasks: int = Field(description="Target tasks the change averages over (both sides scored).")
    interval: Literal["tasks", "runs"] = Field(
        description="'tasks': tasks resampled; 'runs': over fewer tasks than "
        "statistics.min_tasks_to_resample, the run-to-run noise of these tasks only."
    )
    held_out: int = Field(description="Held-out tasks among the tasks it averages over.")
    withheld: str | None = Field(default=None, description="Why the change is not shown.")
    verdict: Verdict = None


class TaskChange(Result):
    """The change on one public target task (a held-out task's is never reported, §4.4)."""

    level: str = Field(description="The level.")
    consumer: str = Field(description="The baseline combination.")
    task: str = Field(description="The public target task.")
    title: str = Field(description="The task's title.")
    treatment: float = Field(description="The treatment's task mean over its valid runs.")
    baseline: float = Field(description="The baseline's task mean over its valid runs.")
    value: float = Field(description="Treatment minus baseline.")
    low: float | None = Field(description="Lower end of its run-noise interval.")
    high: float | None = Field(description="Upper end of its run-noise interval.")
    treatment_runs: int = Field(description="The treatment's valid runs of the task.")
    baseline_runs: int = Field(description="The baseline's valid runs of the task.")
    verdict: Verdict = None


#: A change of either kind.
ChangeT = TypeVar("ChangeT", "Change", "TaskChange")


class ExperimentResult(Result):
    """One experiment of the domain: what it compares, and its paired changes."""

    id: str = Field(description="The experiment's id.")
    title: str = Field(description="Its title.")
    factor: str = Field(description="What its conditions vary, e.g. 'Skill creator'.")
    baseline: str = Field(description="The baseline condition, e.g. 'no skill'.")
    metric: str = Field(description="The outcome metric the changes are in.")
    higher: bool = Field(description="Whether a positive change is better.")
    levels: dict[str, str] = Field(description="Level id → title, in declared order.")
    consumers: dict[str, str] = Field(
        description="Baseline combination id → title: those with a treatment, in id order."
    )
    sources: int = Field(description="Source tasks (never measured on).")
    targets: int = Field(description="Target tasks (disjoint from the sources).")
    public_targets: int = Field(description="Public target tasks.")
    held_out_targets: int = Field(description="Held-out target tasks.")
    cells: list[Change] = Field(description="Per level and consumer.")
    level_means: list[Change] = Field(description="Per level, the mean over its consumers.")
    tasks: list[TaskChange] = Field(description="Per public target task, level and consumer.")
    tasks_withheld: str | None = Field(
        default=None, description="Why per-task changes are not (all) shown."
    )


def verdict(
    low: float | None, high: float | None, higher: bool
) -> Literal["better", "worse"] | None:
    """Which way a change goes where its interval lies wholly on one side of 0: 'better'
    where that side is the metric's better one (``higher``: a positive change), else 'worse';
    None where the interval holds 0 or there is none."""
    if low is None or high is None or not (low > 0 or high < 0):
        return None
    return "better" if (low > 0) == higher else "worse"


def with_verdicts(result: ExperimentResult) -> ExperimentResult:
    """The experiment's results with each change's verdict (:func:`verdict`), once the
    privacy gate has left them (a withheld change has no interval, so none)."""

    def judged(changes: list[ChangeT]) -> list[ChangeT]:
        return [
            c.model_copy(update={"verdict": verdict(c.low, c.high, result.higher)}) for c in changes
        ]

    update = {
        "cells": judged(result.cells),
        "level_means": judged(result.level_means),
        "tasks": judged(result.tasks),
    }
    return result.model_copy(update=update)
