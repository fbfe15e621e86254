"""The engine's output: frozen models of every aggregate the site shows for one scope.

These models are also the documented shape of ``report --format json``; their JSON Schema
is exported with the input schemas.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from generator.score.agreement_results import RaterAgreement
from generator.score.changes import ExperimentResult
from generator.score.declared_results import BoardRanks, EffectLeaders, ScatterFrontier
from generator.score.estimates import Estimate, Rate, Reliability, Result, nothing
from generator.score.scope import Scope
from generator.score.set_results import SetComparison, SetRank

__all__ = ["Estimate", "Rate", "Reliability", "Result", "SetComparison", "SetRank"]
_nothing = nothing


class Efficiency(Result):
    """Per-task means over valid runs, averaged over tasks (§4.2(2))."""

    input_tokens: float | None = Field(
        description="Mean input tokens per run (cache reads included)."
    )
    output_tokens: float | None = Field(description="Mean output tokens per run.")
    total_tokens: float | None = Field(description="Mean input plus output tokens per run.")
    duration_s: float | None = Field(description="Mean wall-clock duration per run, in seconds.")
    turns: float | None = Field(description="Mean model turns per run.")
    recorded: dict[str, int] = Field(
        default_factory=dict,
        exclude_if=_nothing,
        description="For a figure whose count some valid runs of the scope leave out: the "
        "valid runs that record it (its mean is over theirs). Absent when every valid run "
        "records every figure given.",
    )


#: The counts of :class:`Efficiency` (a run may leave each out where the release does not
#: report it; total tokens: a run records it when it records both kinds of tokens).
EFFICIENCY_COUNTS: tuple[str, ...] = tuple(n for n in Efficiency.model_fields if n != "recorded")


class Coverage(Result):
    """What the numbers rest on; an incomplete evaluation is flagged, never hidden (§4.2)."""

    scope_tasks: int = Field(description="Tasks in the scope.")
    covered_tasks: int = Field(description="Tasks not declared 'not covered'.")
    valid_tasks: int = Field(description="Covered tasks with at least one valid run.")
    complete_tasks: int = Field(description="Covered tasks with the prescribed valid runs.")
    valid_runs: int = Field(description="Valid runs of the covered tasks.")
    expected_runs: int = Field(description="Covered tasks × prescribed runs per task.")
    incomplete_runs: int = Field(description="Evaluation-incomplete runs, excluded.")
    incomplete_causes: dict[str, int] = Field(description="Evaluation-incomplete runs by cause.")
    complete: bool = Field(description="Every covered task has the prescribed valid runs.")
    not_covered: list[str] = Field(description="Declared 'not covered' scopes with reasons.")


class BusinessViews(Result):
    """The four business views of §4.2; None where the scope has no such task."""

    risk_weighted_score: Estimate | None = Field(
        description="Task Score weighted by each task's risk level."
    )
    key_process_success: Rate | None = Field(description="Success rate over the key-process tasks.")
    key_process_chains: dict[str, Rate] = Field(description="Success rate per key process chain.")
    fatal_error_rate: Rate | None = Field(description="Share of runs that failed a fatal item.")
    boundary_correctness: Rate | None = Field(
        description="Success rate over the functional-boundary tasks."
    )
    withheld: list[str] = Field(
        default_factory=list,
        description="Views the privacy gate withheld: with the figures published, each would let a "
        "figure over too few held-out tasks be derived (§4.4, §7.2).",
    )


class CombinationScores(Result):
    combination: str = Field(description="Combination id.")
    status: Literal["scored", "not-covered", "no-valid-runs", "withheld"] = Field(
        description="Whether the combination has scores in this scope, and if not why."
    )
    note: str | None = Field(default=None, description="Why there are no scores.")
    task_score: Estimate | None = Field(default=None, description="Task Score (§4.3).")
    rerun_se: float | None = Field(
        default=None,
        exclude_if=_nothing,
        description="The Task Score's standard error over reruns of these very tasks (the ± "
        "many leaderboards show), not over another draw of tasks; over public tasks with two "
        "valid runs or more each only (generator.score.rerun).",
    )
    rule_score: Estimate | None = Field(default=None, description="Rule score R.")
    judge_score: Estimate | None = Field(
        default=None, description="Judge score J, over the tasks that enable the Judge."
    )
    judge_coverage: str | None = Field(
        default=None, description="Tasks with the Judge enabled, of tasks with valid runs."
    )
    success_rate: Rate | None = Field(default=None, description="Share of runs that succeed.")
    reliability: list[Reliability] = Field(
        default_factory=list, description="reliability@k for each of the release's k."
    )
    reliability_tasks: int = Field(
        default=0, description="Tasks with the prescribed valid runs, which reliability@k covers."
    )
    reliability_excluded: int = Field(
        default=0, description="Tasks left out of reliability@k for lacking valid runs."
    )
    efficiency: Efficiency | None = Field(default=None, description="Token and time means.")
    failure_types: dict[str, int] = Field(
        default_factory=dict, description="Runs that did not succeed, by failure type."
    )
    business: BusinessViews | None = Field(
        default=None, description="The business views, where the domain reports them."
    )
    coverage: Coverage | None = Field(default=None, description="What the numbers rest on.")
    withheld: list[str] = Field(
        default_factory=list,
        description="The figures of this combination in this scope that the privacy gate "
        "withheld (§4.4, §7.2), by the name of their field: rule_score, judge_score, "
        "success_rate, reliability@K, cell_mean, overall, channels.ID, dimensions.ID, "
        "rule_classes.ID, measures.ID, efficiency.ID, failure_types.ID, business.VIEW.",
    )
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
    letters: str | None = Field(
        default=None,
        description="Compact letter display within its comparison group: two scored "
        "combinations share a letter exactly when their paired difference is not "
        "significant; the best combination's letters include 'a'.",
    )
    pareto: bool | None = Field(
        default=None,
        description="On the score-against-total-tokens frontier of its tokenizer; null when "
        "not compared (its coverage of the scope is incomplete).",
    )
    reliability_note: str | None = Field(
        default=None,
        exclude_if=_nothing,
        description="Why reliability@k is withheld, where it is for the combination itself.",
    )
    cell_mean: Estimate | None = Field(
        default=None,
        exclude_if=_nothing,
        description="Where the domain declares aggregation over cells: the equal-weight mean "
        "over its cells of each cell's mean over tasks, shown beside the Task Score (the mean "
        "over tasks).",
    )
    overall: Estimate | None = Field(
        default=None,
        exclude_if=_nothing,
        description="The judged overall (g/G of the tasks' overall Judge item), a figure of "
        "its own: never recomputed from the dimensions.",
    )
    dimensions: dict[str, Estimate] = Field(
        default_factory=dict,
        exclude_if=_nothing,
        description="Per judged dimension of the release, the mean over tasks of its items' g/G.",
    )
    channels: dict[str, Estimate] = Field(
        default_factory=dict,
        exclude_if=_nothing,
        description="Per Judge channel of the release (e.g. text, visual), the mean over the "
        "tasks it judges of their items' weighted g/G on it: shown beside the Task Score that "
        "combines the channels, its tasks the channel's coverage.",
    )
    rule_classes: dict[str, Estimate] = Field(
        default_factory=dict,
        exclude_if=_nothing,
        description="Per rule class of the release, the share of its rule items passed: the "
        "mean over tasks of each task's share over its valid runs.",
    )
    measures: dict[str, Estimate] = Field(
        default_factory=dict,
        exclude_if=_nothing,
        description="Per measured resource metric, the mean over tasks of its per-run values.",
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

    a: str = Field(description="First combination id.")
    b: str = Field(description="Second combination id.")
    value: float = Field(description="Mean paired difference a − b of Task Scores.")
    low: float = Field(description="Lower end of its interval.")
    high: float = Field(description="Upper end of its interval.")
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
    judged: bool = Field(
        description="It rests on enough to say either way: at least "
        "statistics.min_tasks_to_order common tasks, its interval over them (interval "
        "'tasks'). False: too few common tasks to judge, and never significant."
    )


class ScopeResult(Result):
    scope: Scope = Field(description="Version, domain, sub-division and group.")
    title: str = Field(description="Title of the scope as the pages show it.")
    withheld: str | None = Field(default=None, description="Why this scope shows no numbers.")
    tasks: int = Field(description="Tasks in the scope.")
    combinations: list[CombinationScores] = Field(
        default_factory=list, description="Each combination's figures in the scope."
    )
    differences: list[Difference] = Field(
        default_factory=list, description="Paired differences of the combinations compared."
    )
    comparison_groups: list[list[str]] = Field(
        default_factory=list,
        description="When the release declares a setting variable by design (§4.1): the groups "
        "of combinations that share it. Differences, ranks and the frontier compare "
        "combinations of one group only. Empty when every setting is controlled.",
    )
    channels_withheld: dict[str, str] = Field(
        default_factory=dict,
        exclude_if=_nothing,
        description="Judge channels whose figures this scope withholds, each with why: over "
        "its held-out tasks one would let a small held-out group be derived (§4.4).",
    )
    unordered: str | None = Field(
        default=None,
        exclude_if=_nothing,
        description="Why the scope orders none of its combinations, where it has fewer tasks "
        "than statistics.min_tasks_to_order: its ranks and paired differences say nothing.",
    )
    best_first: list[str] = Field(
        default_factory=list,
        exclude_if=_nothing,
        description="Every combination of the scope, best first: by its Task Score in the "
        "direction of the domain's outcome (none last), then best rank, then id.",
    )
    views: bool | None = Field(
        default=None,
        exclude_if=_nothing,
        description="True on the scope the declared views show of its part of the domain (the "
        "whole domain, or the domain cut to facet values): all its tasks, unless its public "
        "group publishes more combinations (held-out results are withheld where a held-out "
        "task could be isolated, §4.4). Absent on every other scope.",
    )
    boards: list[BoardRanks] = Field(
        default_factory=list,
        exclude_if=_nothing,
        description="Where the scope is a row of declared boards: its rank ranges in each of "
        "their tables.",
    )
    scatters: list[ScatterFrontier] = Field(
        default_factory=list,
        exclude_if=_nothing,
        description="Where the scope is the one of declared scatter views: their frontiers.",
    )
    effects: list[EffectLeaders] = Field(
        default_factory=list,
        exclude_if=_nothing,
        description="Where the scope is the one of declared effect views: their leaders.",
    )


class TaskRow(Result):
    """A public task's means for one combination. Held-out tasks never get a row (§4.4)."""

    task: str = Field(description="Task id (public tasks only).")
    title: str = Field(description="Task title.")
    subdivision: str = Field(description="The task's sub-division.")
    combination: str = Field(description="Combination id.")
    status: Literal["scored", "not-covered", "no-valid-runs"] = Field(
        description="Whether the combination has a score on the task, and if not why."
    )
    score: float | None = Field(description="Mean Task Score over the valid runs.")
    rule: float | None = Field(description="Mean rule score R.")
    judge: float | None = Field(description="Mean Judge score J; null for rule-only tasks.")
    valid_runs: int = Field(description="Valid runs of the task.")
    successes: int = Field(description="Runs that succeeded.")


class Contamination(Result):
    """Public minus held-out Task Score of one combination in one domain (§4.4)."""

    combination: str = Field(description="Combination id.")
    public: Estimate = Field(description="Task Score over the public tasks.")
    held_out: Estimate = Field(description="Task Score over the held-out tasks.")
    gap: Estimate = Field(description="Public minus held-out Task Score.")
    note: str | None = Field(
        default=None, description="Why the gap may compare different task sets."
    )


class CombinationInfo(Result):
    id: str = Field(description="Combination id.")
    title: str = Field(description="Display name: harness × model.")
    harnesscard: str = Field(description="Id of its HarnessCard.")
    harness_mode: str | None = Field(description="The harness mode, if the card declares modes.")
    model: str = Field(description="Model name and version.")
    tokenizer: str = Field(description="Tokenizer family; tokens compare only within one.")
    evaluation: Literal["complete", "incomplete"] = Field(description="As the bundle declares it.")
    axes: dict[str, str] = Field(
        default_factory=dict,
        exclude_if=_nothing,
        description="Its place on the release's axes, e.g. method and backbone.",
    )
    tags: list[str] = Field(
        default_factory=list, exclude_if=_nothing, description="Its tags, e.g. a method family."
    )
    carried_state: str | None = Field(
        default=None,
        exclude_if=_nothing,
        description="How its method carries state across tasks; its reliability@k is withheld.",
    )


class Settings(Result):
    confidence: float = Field(description="Confidence level of intervals.")
    bootstrap_samples: int = Field(description="Bootstrap replicates per interval.")
    seed: int = Field(description="Seed of the bootstrap's random draws.")
    runs_per_task: int = Field(description="Prescribed valid runs per task.")
    reliability_k: list[int] = Field(description="The k values of reliability@k.")
    min_held_out_aggregate: int = Field(description="Fewest held-out tasks an aggregate may cover.")
    min_tasks_to_resample: int = Field(
        description="Fewest tasks for an interval over the task population."
    )
    min_tasks_to_order: int = Field(
        description="Fewest common tasks for a difference to order two."
    )


class Report(Result):
    """Every aggregate of one (version, domain): the content of ``report``."""

    format: Literal["lg-bench.report/1"] = Field(
        default="lg-bench.report/1", description="Name and version of this format."
    )
    version: str = Field(description="The one version reported.")
    domain: str = Field(description="The one domain reported.")
    domain_title: str = Field(description="Display name of the domain.")
    illustrative: bool = Field(description="True when the release's data is illustrative.")
    notice: str | None = Field(description="The release's notice, if any.")
    settings: Settings = Field(description="The statistics settings used.")
    combinations: list[CombinationInfo] = Field(description="The combinations reported.")
    scopes: list[ScopeResult] = Field(
        description="Each scope: the domain, its sub-divisions, each by group."
    )
    tasks: list[TaskRow] = Field(description="Per public task and combination.")
    contamination: list[Contamination] = Field(
        description="Public minus held-out gap per combination (§4.4)."
    )
    contamination_note: str | None = Field(
        default=None, description="Why the gaps are not shown, if they are not."
    )
    sets: list[SetComparison] = Field(
        default_factory=list,
        exclude_if=_nothing,
        description="Where the domain publishes task sets: its first set compared with each "
        "other, never pooled.",
    )
    experiments: list[ExperimentResult] = Field(
        default_factory=list,
        exclude_if=_nothing,
        description="The domain's experiments: treatment against baseline, paired changes.",
    )
    agreement: list[RaterAgreement] = Field(
        default_factory=list,
        exclude_if=_nothing,
        description="Each second rater against the Judge, per Judge channel, over the runs "
        "both rated.",
    )


#: The outputs whose format is documented as a JSON Schema, by file stem.
OUTPUT_MODELS: dict[str, type[BaseModel]] = {"report": Report}
