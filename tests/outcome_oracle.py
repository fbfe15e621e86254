"""The oracle of the run outcome: one record at a time, straight from the formulas of §4.2–4.3.

The generator computes the outcome once, on whole columns (:mod:`generator.protocol.outcome`),
for the checks and the scoring engine; this per-record form is what that implementation, the
scores of :func:`generator.score.runs.score_runs` and the checks' per-record reference
(``reference_runs.py``) are tested against.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.models.catalog import Task
from generator.models.runs import RunRecord


@dataclass(frozen=True)
class RunOutcome:
    """R, J (None for rule-only), S, and binary success of one valid run."""

    rule: float
    judge: float | None
    score: float
    success: bool
    fatal_failed: bool


def run_outcome(task: Task, record: RunRecord) -> RunOutcome:
    """Score a valid run (§4.3(1)–(3), success per §4.2(3)).

    R = passed ordinary items / N, items of failed modules scoring 0 and staying in N;
    an all-or-nothing task's R is 1 only if every ordinary item passes. J = mean(g/G); a
    zeroed dual-channel run without a Judge result has J = 0, so both channels aggregate
    over the same valid runs (§4.2, §4.3(2)).
    S = 0 if D fails or any fatal item fails; else R (rule-only) or w·R + (1 − w)·J.
    """
    scoring = task.scoring
    failed_modules = set(record.modules_failed)
    passed = {v.id for v in record.rules if v.passed}
    ordinary = [i for i in scoring.rule_items if not i.fatal]
    hits = [i.id in passed and i.module not in failed_modules for i in ordinary]
    rule = sum(hits) / len(ordinary)
    if scoring.rule_scoring == "all-or-nothing":
        rule = 1.0 if all(hits) else 0.0
    fatal_passed = {v.id for v in record.fatal if v.passed}
    fatal_items = [i for i in scoring.rule_items if i.fatal]
    fatal_failed = any(i.id not in fatal_passed for i in fatal_items)  # fatal items have no module
    judge: float | None = None
    judge_pass = True
    if scoring.mode == "dual-channel" and record.judge_valid is not True:
        judge_pass = False  # only a run zeroed by D or a fatal item may lack its Judge result
        if not record.delivery or fatal_failed:
            judge = 0.0  # no designated evidence: every item at its lowest level (§4.3(2))
    elif scoring.mode == "dual-channel":
        levels = {v.id: v.level for v in record.judge}
        values = []
        for item in scoring.judge_items:
            level = 0 if item.module in failed_modules else levels.get(item.id, 0)
            values.append(level / item.max_level)
            judge_pass = judge_pass and level >= item.passing_level
        judge = sum(values) / len(values)
    if not record.delivery or fatal_failed:
        score = 0.0
    elif judge is None and scoring.mode == "dual-channel":
        raise ValueError("a scored dual-channel run needs a valid Judge result")
    elif judge is None:
        score = rule
    else:
        weight = scoring.rule_weight if scoring.rule_weight is not None else 1.0
        score = weight * rule + (1 - weight) * judge
    success = record.delivery and not fatal_failed and all(hits) and judge_pass
    return RunOutcome(rule, judge, score, success, fatal_failed)
