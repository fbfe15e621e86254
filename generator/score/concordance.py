"""Agreement statistics of two raters' scores of the same runs: Spearman's rank correlation,
the mean absolute error and the mean signed difference, each with a bootstrap interval that
resamples tasks (the runs of one task are not independent: they share the task).

A bootstrap replicate draws the tasks with replacement and takes every run of a drawn task
as often as the task was drawn; its statistics are those of that expanded sample, computed
here from each run's multiplicity (a weight) without expanding it.

**Two intervals for ρ, each where it is measured to hold.** A rater's ρ is over many runs,
its true value inside (−1, 1): value ± t·se on Fisher's z scale (:func:`compare`; the
percentile interval of the same replicates covered 0.745–0.910 over six rated tasks). The
order of a few combinations on two task sets (:mod:`generator.score.sets`) is a ρ over K
values whose truth is often exactly 1 (the same order): Fisher's z cannot reach 1, and on
simulated releases with eight combinations in one true order it never held the truth
(0 of 200) and was 0.61 wide, against the percentile interval's 0.905–0.943 and 0.18
(``bench/coverage_profiles.py``, bench/README.md). So the sets keep the percentile interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.score.stats import multiplicities, t_value, task_draws

#: Decimals to which values are compared when ranked (float noise below them is no order).
TIE_DECIMALS = 12


def weighted_ranks(x: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The average ranks (1-based) of ``x`` in the sample where each value occurs ``weight``
    times: tied values share the mean of the ranks they span. A value of weight 0 gets the
    rank it would have, and counts for nothing. Values are compared to 12 decimals: scores
    that are equal but summed in another order (0.47 and 0.47000000000000003) tie."""
    x = np.round(x, TIE_DECIMALS)
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


#: Replicates whose ranks are formed at once (a chunk holds a few arrays of this many rows
#: by the runs compared).
CHUNK = 256


def replicate_spearman(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """:func:`spearman` of each row of ``weights`` (replicates × runs) at once: the order of
    each side is sorted once, and each replicate's average ranks are its weights summed
    along it, tie group by tie group."""
    out = np.empty(len(weights))
    sides = [_ties(x), _ties(y)]
    for start in range(0, len(weights), CHUNK):
        w = weights[start : start + CHUNK].astype(np.float64)
        rx, ry = (_chunk_ranks(w, *side) for side in sides)
        total = w.sum(axis=1, keepdims=True)
        dx = rx - (w * rx).sum(axis=1, keepdims=True) / total
        dy = ry - (w * ry).sum(axis=1, keepdims=True) / total
        sxx, syy = (w * dx * dx).sum(axis=1), (w * dy * dy).sum(axis=1)
        flat = (sxx <= 1e-12 * total[:, 0]) | (syy <= 1e-12 * total[:, 0])
        with np.errstate(invalid="ignore", divide="ignore"):
            rho = (w * dx * dy).sum(axis=1) / np.sqrt(sxx * syy)
        out[start : start + CHUNK] = np.where(flat, np.nan, rho)
    return out


def _ties(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorting order of ``x``, where each tie group starts, and each sorted value's
    group."""
    order = np.argsort(x, kind="stable")
    values = x[order]
    new = np.r_[True, values[1:] != values[:-1]]
    return order, np.flatnonzero(new), np.cumsum(new) - 1


def _chunk_ranks(
    w: np.ndarray, order: np.ndarray, starts: np.ndarray, group: np.ndarray
) -> np.ndarray:
    """Average ranks of one side in each row's weighted sample (rows × runs)."""
    totals = np.add.reduceat(w[:, order], starts, axis=1)
    before = np.cumsum(totals, axis=1) - totals
    ranks = np.empty_like(w)
    ranks[:, order] = (before + (totals + 1) / 2)[:, group]
    return ranks


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
    """ρ, the mean |second − first| and the mean second − first over the runs, each with an
    interval from ``samples`` seeded replicates that resample the tasks (``task``: each
    run's task code 0..T−1): value ± t(T − 1)·se, se the replicates' standard deviation times
    √(T/(T − 1)), ρ on Fisher's z scale (the MAE's kept at 0 or above); without
    ``interval``, the values only.

    The percentile interval of the same replicates covered the truth in only 0.745–0.910 of
    simulated releases with six rated tasks; this one in 0.915–0.990 over six to thirty
    (``bench/coverage_profiles.py``, in bench/README.md)."""
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
    rho = replicate_spearman(first, second, weights)
    half = _half(confidence, tasks)
    low_mae, high_mae = _around(values[1], mae, half)
    return Compared(
        (values[0], *fisher_interval(values[0], rho, tasks, confidence)),
        (values[1], max(low_mae, 0.0), high_mae),
        (values[2], *_around(values[2], mean, half)),
    )


def fisher_interval(
    value: float, replicates: np.ndarray, tasks: int, confidence: float
) -> tuple[float, float]:
    """A correlation's interval: value ± t(T − 1)·se on Fisher's z scale, se the standard
    deviation of its task-resampled ``replicates`` times √(T/(T − 1))."""
    z_low, z_high = _around(float(_fisher(value)), _fisher(replicates), _half(confidence, tasks))
    return float(np.tanh(z_low)), float(np.tanh(z_high))


def _half(confidence: float, tasks: int) -> float:
    return float(t_value(confidence, tasks - 1) * np.sqrt(tasks / (tasks - 1)))


def _around(value: float, replicates: np.ndarray, half: float) -> tuple[float, float]:
    """value ± ``half`` times the finite replicates' standard deviation (NaN without two)."""
    finite = replicates[np.isfinite(replicates)]
    if not np.isfinite(value) or len(finite) < 2:
        return float("nan"), float("nan")
    se = float(np.std(finite, ddof=1))
    return value - half * se, value + half * se


def _fisher(rho: np.ndarray | float) -> np.ndarray:
    """Fisher's z of a correlation, kept finite at ±1."""
    out: np.ndarray = np.arctanh(np.clip(rho, -0.9999, 0.9999))
    return out
