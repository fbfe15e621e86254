"""Vectorised run scores over a whole version (§4.2–4.3); no Python loop per run.

Equal, run by run, to :func:`generator.score.run.run_outcome` (the tests check it).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from generator.score.frame import KIND_FATAL, KIND_JUDGE, KIND_RULE, VersionFrame


def score_runs(frame: VersionFrame) -> pd.DataFrame:
    """The runs table plus ``rule``, ``judge``, ``score``, ``success`` and ``fatal_failed``.

    R = passed ordinary items / N (items of failed modules count 0, N unchanged); an
    all-or-nothing task's R is 1 only when all pass. J = mean(g/G) over the task's Judge
    items. S = 0 when D fails or any fatal item fails, else R (rule-only) or
    w·R + (1 − w)·J (dual-channel). Success needs D, every fatal and ordinary rule item, and
    every Judge item at its pass level. Evaluation-incomplete runs get no score (NaN).
    """
    items = frame.items
    v = frame.verdicts
    kind = items["kind"].to_numpy()[v["item"].to_numpy()]
    max_level = items["max_level"].to_numpy()[v["item"].to_numpy()]
    pass_level = items["pass_level"].to_numpy()[v["item"].to_numpy()]
    value = v["value"].to_numpy()
    failed = is_failed(v, frame.failed, len(items))
    credit = np.where(failed, 0.0, np.where(kind == KIND_JUDGE, value / max_level, value))
    ok = ~failed & np.where(kind == KIND_JUDGE, value >= pass_level, value == 1)
    n_runs = len(frame.runs)

    def per_run(values: np.ndarray, which: int) -> np.ndarray:
        mask = kind == which
        return np.bincount(v["rid"].to_numpy()[mask], weights=values[mask], minlength=n_runs)

    runs = frame.runs.copy()
    tasks = frame.tasks.loc[runs["task"]]
    n_rule = tasks["n_rule"].to_numpy()
    n_fatal = tasks["n_fatal"].to_numpy()
    n_judge = tasks["n_judge"].to_numpy()
    dual = tasks["dual"].to_numpy()
    weight = tasks["rule_weight"].to_numpy()
    rule_ok = per_run(ok.astype(float), KIND_RULE)
    all_rules = rule_ok == n_rule
    rule = np.where(
        tasks["all_or_nothing"].to_numpy(),
        all_rules.astype(float),
        per_run(credit, KIND_RULE) / n_rule,
    )
    judged = dual & runs["judge_valid"].to_numpy(dtype=bool)
    with np.errstate(invalid="ignore", divide="ignore"):
        judge = np.where(judged, per_run(credit, KIND_JUDGE) / n_judge, np.nan)
    fatal_failed = per_run(ok.astype(float), KIND_FATAL) < n_fatal
    judge_pass = ~dual | (judged & (per_run(ok.astype(float), KIND_JUDGE) == n_judge))
    delivery = runs["delivery"].to_numpy(dtype=bool)
    score = np.where(
        ~delivery | fatal_failed,
        0.0,
        np.where(dual, weight * rule + (1 - weight) * np.nan_to_num(judge), rule),
    )
    valid = runs["valid"].to_numpy(dtype=bool)
    runs["rule"] = np.where(valid, rule, np.nan)
    runs["judge"] = np.where(valid, judge, np.nan)
    runs["score"] = np.where(valid, score, np.nan)
    runs["success"] = valid & delivery & ~fatal_failed & all_rules & judge_pass
    runs["fatal_failed"] = valid & fatal_failed
    runs["domain"] = tasks["domain"].to_numpy()
    runs["version"] = frame.version
    return runs


def is_failed(verdicts: pd.DataFrame, failed: pd.DataFrame, width: int) -> np.ndarray:
    """Whether each verdict's item belongs to a module its run names as failed."""
    if failed.empty:
        return np.zeros(len(verdicts), dtype=bool)
    keys = verdicts["rid"].to_numpy() * width + verdicts["item"].to_numpy()
    bad = failed["rid"].to_numpy() * width + failed["item"].to_numpy()
    return np.isin(keys, bad)
