"""Agreement statistics of two raters' scores of the same runs: Spearman's rank correlation,
the mean absolute error and the mean signed difference, each with a bootstrap interval that
resamples tasks (the runs of one task are not independent: they share the task).

A bootstrap replicate draws the tasks with replacement and takes every run of a drawn task
as often as the task was drawn; its statistics are those of that expanded sample, computed
here from each run's multiplicity (a weight) without expanding it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.score.stats import multiplicities, percentile_interval, task_draws


def weighted_ranks(x: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The average ranks (1-based) of ``x`` in the sample where each value occurs ``weight``
    times: tied values share the mean of the ranks they span. A value of weight 0 gets the
    rank it would have, and counts for nothing."""
    order = np.argsort(x, kind="stable")
    values, weights = x[order], weight[order].astype(np.float64)
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    group = np.cumsum(np.r_[True, values[1:] != values[:-1]]) - 1
    totals = np.add.reduceat(weights, starts) if len(values) else np.empty(0)
    before = np.cumsum(totals) - totals
    ranks = np.empty(len(x))
    ranks[order] = (before + (totals + 1) / 2)[group]
    return ranks


def weighted_pearson(x: np.ndarray, y: np.ndarray, weight: np.ndarray) -> float:
    """Pearson's correlation of the sample where each pair occurs ``weight`` times; NaN
    where either side does not vary."""
    total = float(weight.sum())
    if total <= 0:
        return float("nan")
    dx = x - float(weight @ x) / total
    dy = y - float(weight @ y) / total
    sxx, syy = float(weight @ (dx * dx)), float(weight @ (dy * dy))
    if sxx <= 1e-12 * total or syy <= 1e-12 * total:
        return float("nan")
    return float(weight @ (dx * dy)) / float(np.sqrt(sxx * syy))


def spearman(x: np.ndarray, y: np.ndarray, weight: np.ndarray | None = None) -> float:
    """Spearman's ρ: Pearson's correlation of the average ranks (of the weighted sample)."""
    w = np.ones(len(x)) if weight is None else weight.astype(np.float64)
    return weighted_pearson(weighted_ranks(x, w), weighted_ranks(y, w), w)


@dataclass(frozen=True)
class Compared:
    """Each statistic as (value, low, high); low and high NaN without an interval."""

    spearman: tuple[float, float, float]
    mae: tuple[float, float, float]
    difference: tuple[float, float, float]


def compare(
    first: np.ndarray,
    second: np.ndarray,
    task: np.ndarray,
    samples: int,
    seed: int,
    confidence: float,
    interval: bool = True,
) -> Compared:
    """ρ, the mean |second − first| and the mean second − first over the runs, each with
    the percentile interval of ``samples`` replicates that resample the tasks (``task``:
    each run's task code 0..T−1), seeded; without ``interval``, the values only."""
    error = second - first
    values = (spearman(first, second), float(np.abs(error).mean()), float(error.mean()))
    nan = (float("nan"), float("nan"))
    if not interval:
        return Compared(*((v, *nan) for v in values))
    tasks = int(task.max()) + 1
    drawn = multiplicities(task_draws(tasks, samples, seed), tasks).astype(np.float64)
    weights = drawn[:, task]  # replicates × runs: how often each run is drawn
    count = weights.sum(axis=1)
    mae = weights @ np.abs(error) / count
    mean = weights @ error / count
    rho = np.array([spearman(first, second, w) for w in weights])
    bounds = [percentile_interval(r, confidence) for r in (rho, mae, mean)]
    return Compared(*((v, low, high) for v, (low, high) in zip(values, bounds, strict=True)))
