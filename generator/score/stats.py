"""Uncertainty: Wilson intervals for rates, a seeded bootstrap for macro-averages (§4.2).

The bootstrap resamples tasks with replacement and, inside each drawn task, its valid runs
with replacement (a two-stage cluster bootstrap), so both the choice of tasks and run-to-run
noise widen the interval. Every generator is seeded from the scope and the quantity, so the
same inputs always give the same intervals.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from math import comb, sqrt
from statistics import NormalDist

import numpy as np


def z_value(confidence: float) -> float:
    """Two-sided normal quantile, e.g. 1.95996 for 0.95."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, trials: int, confidence: float) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion; (nan, nan) without trials."""
    if trials == 0:
        return (float("nan"), float("nan"))
    z = z_value(confidence)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At p = 0 (p = 1) the bound is exactly 0 (1); say so instead of a rounding residue.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def seed_for(*parts: object) -> int:
    """A stable 64-bit seed from the parts (not Python's salted ``hash``)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "little")


def reliability_at(successes: np.ndarray, runs: int, k: int) -> np.ndarray:
    """Per task C(c_t, k) / C(n, k); 0 when c_t < k (§4.2(3))."""
    table = np.array([comb(c, k) for c in range(runs + 1)], dtype=float) / comb(runs, k)
    values: np.ndarray = table[successes]
    return values


@dataclass(frozen=True)
class Replicates:
    """Bootstrap replicates of per-task means: ``values[b, j]`` is the mean of the runs drawn
    for the j-th task drawn in replicate b (NaN when that task has no valid run)."""

    values: np.ndarray

    def macro(self) -> np.ndarray:
        """Replicate macro-averages (NaN where a replicate drew no task with data)."""
        present = ~np.isnan(self.values)
        count = present.sum(axis=1)
        total = np.where(present, self.values, 0.0).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(count > 0, total / np.maximum(count, 1), np.nan)

    def weighted(self, weights: np.ndarray) -> np.ndarray:
        w = np.where(np.isnan(self.values), 0.0, weights)
        total = np.where(np.isnan(self.values), 0.0, self.values * w).sum(axis=1)
        mass = w.sum(axis=1)
        return np.where(mass > 0, total / np.where(mass > 0, mass, 1.0), np.nan)


def task_draws(n_tasks: int, samples: int, seed: int) -> np.ndarray:
    """Which tasks each replicate draws, shared by every combination of a scope (pairing)."""
    return np.random.default_rng(seed).integers(0, n_tasks, size=(samples, n_tasks))


def run_matrix(task_index: np.ndarray, values: np.ndarray, n_tasks: int) -> np.ndarray:
    """Tasks × runs matrix of values (NaN padded) from parallel arrays."""
    order = np.argsort(task_index, kind="stable")
    task_index, values = task_index[order], values[order]
    counts = np.bincount(task_index, minlength=n_tasks)
    width = max(int(counts.max(initial=0)), 1)
    matrix = np.full((n_tasks, width), np.nan)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    column = np.arange(len(values)) - starts[task_index]
    matrix[task_index, column] = values
    return matrix


def resample(matrix: np.ndarray, draws: np.ndarray, seed: int) -> Replicates:
    """Per replicate and drawn task, the mean of that task's runs drawn with replacement."""
    counts = (~np.isnan(matrix)).sum(axis=1)
    drawn_counts = counts[draws]
    rng = np.random.default_rng(seed)
    width = matrix.shape[1]
    pick = np.floor(rng.random((*draws.shape, width)) * np.maximum(drawn_counts, 1)[..., None])
    pick = pick.astype(np.int64)
    values = matrix[draws[..., None], pick]
    keep = np.arange(width)[None, None, :] < drawn_counts[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(keep, values, 0.0).sum(axis=2) / drawn_counts
    return Replicates(np.where(drawn_counts > 0, means, np.nan))


def percentile_interval(replicates: np.ndarray, confidence: float) -> tuple[float, float]:
    """Equal-tailed percentile interval of the finite replicates."""
    finite = replicates[np.isfinite(replicates)]
    if finite.size == 0:
        return (float("nan"), float("nan"))
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return (float(low), float(high))
