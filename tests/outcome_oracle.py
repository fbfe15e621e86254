"""The oracle of the run outcome: one record at a time, straight from the formulas of §4.2–4.3.

The generator computes the outcome once, on whole columns (:mod:`generator.protocol.outcome`),
for the checks and the scoring engine; this per-record form is what that implementation, the
scores of :func:`generator.score.runs.score_runs` and the checks' per-record reference
(``reference_runs.py``) are tested against.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from generator.models.catalog import Task
from generator.models.runs import RunRecord

JUDGED = ("dual-channel", "judge-only")


@dataclass(frozen=True)
class RunOutcome:
    """R (NaN without ordinary rule items), J (None when the Judge channel is off), S, binary
    success and whether a fatal item failed, of one valid run; ``overall``: the g/G of its
    judged overall item (None when the task has none, or the run has no valid Judge result
    and is not zeroed, or the item no verdict; 0 in a zeroed run without a Judge result)."""

    rule: float
    judge: float | None
    score: float
    success: bool
    fatal_failed: bool
    overall: float | None = None


def run_outcome(task: Task, record: RunRecord) -> RunOutcome:
    """Score a valid run (§4.3(1)–(3), success per §4.2(3)).

    R = passed ordinary items / N, items of failed modules scoring 0 and staying in N;
    an all-or-nothing task's R is 1 only if every ordinary item passes; NaN without ordinary
    items. J = mean(g/G) over the Judge items but the judged overall one, whose g/G is kept
    apart; a zeroed run of a Judge-enabled task without a Judge result has J = 0, so both
    channels aggregate over the same valid runs (§4.2, §4.3(2)).
    S = 0 if D fails or any fatal item fails; else R (rule-only), w·R + (1 − w)·J
    (dual-channel) or J (judge-only). A measure task's S is the run's measured value, or its
    failure value when the run is zeroed or records none.
    Success: D, every fatal and ordinary rule item and, on a Judge-enabled task, a valid Judge
    result with every Judge item (the overall one too) at its pass level.
    """
    scoring = task.scoring
    failed_modules = set(record.modules_failed)
    passed = {v.id for v in record.rules if v.passed}
    ordinary = [i for i in scoring.rule_items if not i.fatal]
    hits = [i.id in passed and i.module not in failed_modules for i in ordinary]
    weights = [i.weight for i in ordinary]  # R: the weighted share of ordinary items passed
    rule = (
        sum(w * h for w, h in zip(weights, hits, strict=True)) / sum(weights)
        if ordinary
        else math.nan
    )
    if ordinary and scoring.rule_scoring == "all-or-nothing":
        rule = 1.0 if all(hits) else 0.0
    fatal_passed = {v.id for v in record.fatal if v.passed}
    fatal_items = [i for i in scoring.rule_items if i.fatal]
    fatal_failed = any(i.id not in fatal_passed for i in fatal_items)  # fatal items have no module
    zeroed = not record.delivery or fatal_failed
    judge: float | None = None
    overall: float | None = None
    judge_pass = True
    if scoring.mode in JUDGED and record.judge_valid is not True:
        judge_pass = False  # only a run zeroed by D or a fatal item may lack its Judge result
        if zeroed:
            judge = 0.0  # no designated evidence: every item at its lowest level (§4.3(2))
            if any(item.overall for item in scoring.judge_items):
                overall = 0.0  # the judged overall too
    elif scoring.mode in JUDGED:
        levels = {v.id: v.level for v in record.judge}
        values, weights = [], []
        for item in scoring.judge_items:
            failed = item.module in failed_modules
            level = 0.0 if failed else levels.get(item.id, 0.0)
            judge_pass = judge_pass and level >= item.passing_level
            if not item.overall:
                values.append(item.weight * level / item.max_level)
                weights.append(item.weight)
            elif failed or item.id in levels:
                overall = level / item.max_level
        judge = sum(values) / sum(weights)  # J: the weighted mean of g/G
    if scoring.mode == "measure":
        value = {m.id: m.value for m in record.measures}.get(scoring.measure or "")
        failure = scoring.failure_value
        assert failure is not None, "a measure task declares its failure value"
        score = failure if zeroed or value is None else value
    elif zeroed:
        score = 0.0
    elif judge is None and scoring.mode in JUDGED:
        raise ValueError(f"a scored {scoring.mode} run needs a valid Judge result")
    elif judge is None:
        score = rule
    elif scoring.mode == "judge-only":
        score = judge
    else:
        weight = scoring.rule_weight if scoring.rule_weight is not None else 1.0
        score = weight * rule + (1 - weight) * judge
    success = record.delivery and not fatal_failed and all(hits) and judge_pass
    return RunOutcome(rule, judge, score, success, fatal_failed, overall)
