"""Vectorised run scores over a whole version (§4.2–4.3); no Python loop per run.

Equal, run by run, to :func:`generator.score.run.run_outcome` (the tests check it). The
verdicts are taken bundle by bundle (:attr:`VersionFrame.parts`), so the temporary arrays are
those of one bundle, not of the whole version.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from generator.memory import release_unused_memory
from generator.score.frame import KIND_FATAL, KIND_JUDGE, KIND_RULE, BundleVerdicts, VersionFrame


def score_runs(frame: VersionFrame) -> pd.DataFrame:
    """The runs table plus ``rule``, ``judge``, ``score``, ``success`` and ``fatal_failed``
    (:func:`_score_runs`), the memory of its temporaries given back to the system: the
    bootstrap's threads, which come next, could not reuse it."""
    scored = _score_runs(frame)
    release_unused_memory()
    return scored


def _score_runs(frame: VersionFrame) -> pd.DataFrame:
    """The runs table plus ``rule``, ``judge``, ``score``, ``success`` and ``fatal_failed``.

    R = passed ordinary items / N (items of failed modules count 0, N unchanged); an
    all-or-nothing task's R is 1 only when all pass. J = mean(g/G) over the task's Judge
    items. S = 0 when D fails or any fatal item fails, else R (rule-only) or
    w·R + (1 − w)·J (dual-channel); a zeroed dual-channel run without a Judge result
    has J = 0 (§4.2, §4.3(2)). Success needs D, every fatal and ordinary rule item, and
    every Judge item at its pass level. Evaluation-incomplete runs get no score (NaN).
    """
    items = frame.items
    item_kind = items["kind"].to_numpy()
    item_max = items["max_level"].to_numpy()
    item_pass = items["pass_level"].to_numpy()
    n_runs = len(frame.runs)
    # per run: credit of ordinary items, passed ordinary / fatal / Judge items, Judge credit
    rule_credit, judge_credit = np.zeros(n_runs), np.zeros(n_runs)
    rule_ok, fatal_ok, judge_ok = np.zeros(n_runs), np.zeros(n_runs), np.zeros(n_runs)
    for part in frame.parts:
        item = part.item
        kind = item_kind[item]
        value = part.value
        failed = failed_verdicts(part, frame.failed, len(items), item)
        judge_item = kind == KIND_JUDGE
        credit = np.where(failed, 0.0, np.where(judge_item, value / item_max[item], value))
        ok = (~failed & np.where(judge_item, value >= item_pass[item], value == 1)).astype(float)
        span = slice(part.start, part.start + part.runs)

        def per_run(
            values: np.ndarray, mask: np.ndarray, part: BundleVerdicts = part
        ) -> np.ndarray:
            return np.bincount(part.row[mask], weights=values[mask], minlength=part.runs)

        rule_item = kind == KIND_RULE
        fatal_item = kind == KIND_FATAL
        rule_credit[span] = per_run(credit, rule_item)
        judge_credit[span] = per_run(credit, judge_item)
        rule_ok[span] = per_run(ok, rule_item)
        fatal_ok[span] = per_run(ok, fatal_item)
        judge_ok[span] = per_run(ok, judge_item)

    runs = frame.runs.copy(deep=False)  # copy on write: the new columns stay in this copy
    at = frame.tasks.index.get_indexer(pd.Index(runs["task"]))
    assert (at >= 0).all(), "score_runs needs checked runs"

    def task_column(name: str) -> np.ndarray:
        column: np.ndarray = frame.tasks[name].to_numpy()[at]
        return column

    n_rule = task_column("n_rule")
    n_fatal = task_column("n_fatal")
    n_judge = task_column("n_judge")
    dual = task_column("dual")
    weight = task_column("rule_weight")
    all_rules = rule_ok == n_rule
    rule = np.where(task_column("all_or_nothing"), all_rules.astype(float), rule_credit / n_rule)
    judged = dual & runs["judge_valid"].to_numpy(dtype=bool)
    fatal_failed = fatal_ok < n_fatal
    delivery = runs["delivery"].to_numpy(dtype=bool)
    zeroed = ~delivery | fatal_failed
    # Both channels aggregate over the same valid runs (§4.2); a zeroed run without its
    # Judge result has none of the designated evidence, so each item takes its lowest level
    # (§4.3(2)): J = 0.
    with np.errstate(invalid="ignore", divide="ignore"):
        judge = np.where(judged, judge_credit / n_judge, np.where(dual & zeroed, 0.0, np.nan))
    judge_pass = ~dual | (judged & (judge_ok == n_judge))
    score = np.where(
        zeroed,
        0.0,
        np.where(dual, weight * rule + (1 - weight) * np.nan_to_num(judge), rule),
    )
    valid = runs["valid"].to_numpy(dtype=bool)
    runs["rule"] = np.where(valid, rule, np.nan)
    runs["judge"] = np.where(valid, judge, np.nan)
    runs["score"] = np.where(valid, score, np.nan)
    runs["success"] = valid & delivery & ~fatal_failed & all_rules & judge_pass
    runs["fatal_failed"] = valid & fatal_failed
    runs["domain"] = task_column("domain")
    runs["version"] = frame.version
    return runs


def failed_verdicts(
    part: BundleVerdicts, failed: pd.DataFrame, width: int, item: np.ndarray | None = None
) -> np.ndarray:
    """Whether each verdict of ``part`` is of an item whose module its run names as failed.

    ``failed`` holds (``rid``, ``item``) pairs; ``width`` exceeds every item key; ``item``:
    the part's items when already at hand. Only the verdicts of runs that name a failed
    module are looked up (a few, as a rule).
    """
    out = np.zeros(len(part.row), dtype=bool)
    if failed.empty or not len(part.row):
        return out
    rid = failed["rid"].to_numpy()
    mine = (rid >= part.start) & (rid < part.start + part.runs)
    if not mine.any():
        return out
    rows = rid[mine].astype(np.int64) - part.start
    named = np.zeros(part.runs, dtype=bool)
    named[rows] = True
    candidates = np.flatnonzero(named[part.row])
    # (row, item) as one int64: rows < 2**31 and items < 2**31, so no overflow
    items = part.item if item is None else item
    keys = part.row[candidates].astype(np.int64) * width + items[candidates]
    bad = rows * width + failed["item"].to_numpy()[mine].astype(np.int64)
    out[candidates] = np.isin(keys, bad)
    return out
