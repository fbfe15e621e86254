"""The engine's output: frozen models of every aggregate the site shows for one scope.

These models are also the documented shape of ``report --format json``; their JSON Schema
is exported with the input schemas.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from generator.score.scope import Scope

# What an interval covers, said beside every interval.
Basis = Annotated[
    Literal["tasks", "runs"],
    Field(
        description="What the interval covers: 'tasks', the task population (tasks resampled, "
        "each with its own statistic over its valid runs); 'runs', over fewer tasks than "
        "statistics.min_tasks_to_resample, the run-to-run noise of these tasks only."
    ),
]


class Result(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Estimate(Result):
    """A point value with its interval; all None when there is nothing to estimate."""

    value: float | None
    low: float | None
    high: float | None
    tasks: int = Field(description="Tasks the value averages over.")
    interval: Basis = "tasks"


class Rate(Result):
    """A proportion of runs, its interval over resampled tasks (Wilson's over the pooled runs
    when it rests on too few tasks)."""

    successes: int
    trials: int
    value: float | None
    low: float | None
    high: float | None
    tasks: int = Field(description="Tasks whose runs the rate pools.")
    interval: Basis = "tasks"


class Reliability(Result):
    """reliability@k over the tasks that have the prescribed valid runs (§4.2(3))."""

    k: int
    value: float | None
    low: float | None
    high: float | None
    interval: Basis = "tasks"


class Efficiency(Result):
    """Per-task means over valid runs, averaged over tasks (§4.2(2))."""

    input_tokens: float | None
    output_tokens: float | None
    total_tokens: float | None
    duration_s: float | None
    turns: float | None


class Coverage(Result):
    """What the numbers rest on; an incomplete evaluation is flagged, never hidden (§4.2)."""

    scope_tasks: int = Field(description="Tasks in the scope.")
    covered_tasks: int = Field(description="Tasks not declared 'not covered'.")
    valid_tasks: int = Field(description="Covered tasks with at least one valid run.")
    complete_tasks: int = Field(description="Covered tasks with the prescribed valid runs.")
    valid_runs: int
    expected_runs: int = Field(description="Covered tasks × prescribed runs per task.")
    incomplete_runs: int = Field(description="Evaluation-incomplete runs, excluded.")
    incomplete_causes: dict[str, int]
    complete: bool = Field(description="Every covered task has the prescribed valid runs.")
    not_covered: list[str] = Field(description="Declared 'not covered' scopes with reasons.")


class BusinessViews(Result):
    """The four business views of §4.2; None where the scope has no such task."""

    risk_weighted_score: Estimate | None
    key_process_success: Rate | None
    key_process_chains: dict[str, Rate]
    fatal_error_rate: Rate | None
    boundary_correctness: Rate | None
    withheld: list[str] = Field(
        default_factory=list,
        description="Views withheld because too few held-out tasks underlie them (§4.4).",
    )


class CombinationScores(Result):
    combination: str
    status: Literal["scored", "not-covered", "no-valid-runs", "withheld"]
    note: str | None = Field(default=None, description="Why there are no scores.")
    task_score: Estimate | None = None
    rule_score: Estimate | None = None
    judge_score: Estimate | None = None
    judge_coverage: str | None = Field(
        default=None, description="Tasks with the Judge enabled, of tasks with valid runs."
    )
    success_rate: Rate | None = None
    reliability: list[Reliability] = Field(default_factory=list)
    reliability_tasks: int = 0
    reliability_excluded: int = Field(
        default=0, description="Tasks left out of reliability@k for lacking valid runs."
    )
    efficiency: Efficiency | None = None
    failure_types: dict[str, int] = Field(default_factory=dict)
    business: BusinessViews | None = None
    coverage: Coverage | None = None
    rank: int | None = Field(
        default=None,
        description="Best rank the data allows: 1 + the number of combinations significantly "
        "better in this scope.",
    )
    rank_worst: int | None = Field(
        default=None,
        description="Worst rank the data allows: the combinations it is compared with (the "
        "scope's scored combinations, or its comparison group's) minus the number "
        "significantly worse.",
    )
    pareto: bool | None = Field(
        default=None,
        description="On the score-against-total-tokens frontier of its tokenizer; null when "
        "not compared (its coverage of the scope is incomplete).",
    )

    @property
    def rank_text(self) -> str | None:
        """The rank range as read: "2" when the data fixes it, "1–3" when it allows several."""
        if self.rank is None:
            return None
        if self.rank_worst is None or self.rank_worst == self.rank:
            return str(self.rank)
        return f"{self.rank}–{self.rank_worst}"


class Difference(Result):
    """Paired difference a − b of Task Scores over the tasks both have (§5.3)."""

    a: str
    b: str
    value: float
    low: float
    high: float
    tasks: int = Field(description="Common tasks the difference averages over.")
    interval: Literal["tasks", "runs"] = Field(
        default="tasks",
        description="'tasks': common tasks resampled; 'runs': over fewer tasks than "
        "statistics.min_tasks_to_resample, Newcombe's interval from the run noise of each side.",
    )
    significant: bool = Field(
        description="The interval excludes 0, covers the task population (interval 'tasks') "
        "and rests on at least statistics.min_tasks_to_order common tasks: only then does the "
        "difference order the two combinations."
    )


class ScopeResult(Result):
    scope: Scope
    title: str
    withheld: str | None = Field(default=None, description="Why this scope shows no numbers.")
    tasks: int
    combinations: list[CombinationScores] = Field(default_factory=list)
    differences: list[Difference] = Field(default_factory=list)
    comparison_groups: list[list[str]] = Field(
        default_factory=list,
        description="When the release declares a setting variable by design (§4.1): the groups "
        "of combinations that share it. Differences, ranks and the frontier compare "
        "combinations of one group only. Empty when every setting is controlled.",
    )


class TaskRow(Result):
    """A public task's means for one combination. Held-out tasks never get a row (§4.4)."""

    task: str
    title: str
    subdivision: str
    combination: str
    status: Literal["scored", "not-covered", "no-valid-runs"]
    score: float | None
    rule: float | None
    judge: float | None
    valid_runs: int
    successes: int


class Contamination(Result):
    """Public minus held-out Task Score of one combination in one domain (§4.4)."""

    combination: str
    public: Estimate
    held_out: Estimate
    gap: Estimate
    note: str | None = Field(
        default=None, description="Why the gap may compare different task sets."
    )


class CombinationInfo(Result):
    id: str
    title: str
    harnesscard: str
    harness_mode: str | None
    model: str
    tokenizer: str
    evaluation: Literal["complete", "incomplete"]


class Settings(Result):
    confidence: float
    bootstrap_samples: int
    seed: int
    runs_per_task: int
    reliability_k: list[int]
    min_held_out_aggregate: int
    min_tasks_to_resample: int
    min_tasks_to_order: int


class Report(Result):
    """Every aggregate of one (version, domain): the content of ``report``."""

    format: Literal["lg-bench.report/1"] = "lg-bench.report/1"
    version: str
    domain: str
    domain_title: str
    illustrative: bool
    notice: str | None
    settings: Settings
    combinations: list[CombinationInfo]
    scopes: list[ScopeResult]
    tasks: list[TaskRow]
    contamination: list[Contamination]
    contamination_note: str | None = None
