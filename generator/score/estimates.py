"""The shape every figure of the engine's output takes: a point value with its interval and
what the interval covers (§4.2), and the frozen base of every output model."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

# What an interval covers, said beside every interval.
Basis = Annotated[
    Literal["tasks", "runs"],
    Field(
        description="What the interval covers: 'tasks', the task population (tasks resampled, "
        "each with its own statistic over its valid runs); 'runs', over fewer tasks than "
        "statistics.min_tasks_to_resample, the run-to-run noise of these tasks only."
    ),
]


# A figure and the ends of its interval, as every estimate, rate and reliability@k gives them.
Value = Annotated[
    float | None, Field(description="The point value; null when there is nothing to estimate.")
]
Low = Annotated[
    float | None,
    Field(description="Lower end of its interval at the release's confidence level."),
]
High = Annotated[
    float | None,
    Field(description="Upper end of its interval at the release's confidence level."),
]


def nothing(value: object) -> bool:
    """Whether a field added by a declared profile is empty: left out of the JSON, so that a
    release that declares nothing new reports as before."""
    return value is None or value == {} or value == []


class Result(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Estimate(Result):
    """A point value with its interval; all None when there is nothing to estimate."""

    value: Value
    low: Low
    high: High
    tasks: int = Field(description="Tasks the value averages over.")
    interval: Basis = "tasks"


class Rate(Result):
    """A proportion of runs, its interval over resampled tasks (Wilson's over the pooled runs
    when it rests on too few tasks)."""

    successes: int = Field(description="Runs that succeeded.")
    trials: int = Field(description="Valid runs counted.")
    value: Value
    low: Low
    high: High
    tasks: int = Field(description="Tasks whose runs the rate pools.")
    interval: Basis = "tasks"


class Reliability(Result):
    """reliability@k over the tasks that have the prescribed valid runs (§4.2(3))."""

    k: int = Field(description="k of reliability@k: runs that must all succeed.")
    value: Value
    low: Low
    high: High
    interval: Basis = "tasks"
