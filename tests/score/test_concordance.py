"""Agreement statistics (generator/score/concordance.py) against independent computations:
Spearman's ρ as pandas ranks and numpy's correlation, the weighted forms against the
expanded sample, and each bootstrap interval against replicates expanded run by run."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from generator.score.concordance import (
    CHUNK,
    compare,
    replicate_spearman,
    spearman,
    weighted_pearson,
    weighted_ranks,
)
from generator.score.stats import multiplicities, t_value, task_draws


def _rho(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's ρ as the textbook defines it: Pearson's r of the average ranks."""
    rx, ry = pd.Series(x).rank(method="average"), pd.Series(y).rank(method="average")
    return float(np.corrcoef(rx, ry)[0, 1])


@pytest.mark.parametrize("seed", range(5))
def test_spearman_is_pearson_of_average_ranks(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 5, 30).astype(float)  # many ties
    y = x + rng.normal(0, 1.5, 30)
    assert math.isclose(spearman(x, y), _rho(x, y), abs_tol=1e-12)


def test_spearman_of_a_monotone_and_a_reversed_order() -> None:
    x = np.array([0.1, 0.4, 0.2, 0.9])
    assert math.isclose(spearman(x, x**2), 1.0)
    assert math.isclose(spearman(x, -x), -1.0)


def test_spearman_is_undefined_where_one_side_does_not_vary() -> None:
    x = np.array([0.1, 0.4, 0.2, 0.9])
    assert math.isnan(spearman(x, np.full(4, 0.5)))
    assert math.isnan(weighted_pearson(x, x, np.zeros(4)))


@pytest.mark.parametrize("seed", range(5))
def test_weighted_forms_equal_the_expanded_sample(seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 4, 12).astype(float)
    y = rng.integers(0, 4, 12).astype(float)
    w = rng.integers(0, 4, 12)
    ex, ey = np.repeat(x, w), np.repeat(y, w)
    ranks = weighted_ranks(x, w)
    expanded = pd.Series(ex).rank(method="average").to_numpy()
    assert np.allclose(np.repeat(ranks, w), expanded)
    assert math.isclose(spearman(x, y, w.astype(float)), _rho(ex, ey), abs_tol=1e-12)


def test_compare_against_replicates_expanded_run_by_run() -> None:
    rng = np.random.default_rng(11)
    task = np.repeat(np.arange(8), 3)
    first = rng.uniform(0, 1, len(task))
    second = np.clip(first - 0.1 + rng.normal(0, 0.15, len(task)), 0, 1)
    samples, seed, confidence = 300, 42, 0.9
    found = compare(first, second, task, samples, seed, confidence)
    error = second - first
    assert math.isclose(found.spearman[0], _rho(first, second), abs_tol=1e-12)
    assert math.isclose(found.mae[0], float(np.abs(error).mean()))
    assert math.isclose(found.difference[0], float(error.mean()))
    draws = task_draws(8, samples, seed)
    assert (multiplicities(draws, 8).sum(axis=1) == 8).all()
    rho, mae, mean = [], [], []
    for drawn in draws:
        runs = np.concatenate([np.flatnonzero(task == t) for t in drawn])
        rho.append(_rho(first[runs], second[runs]))
        mae.append(float(np.abs(error[runs]).mean()))
        mean.append(float(error[runs].mean()))
    # value ± t(T − 1)·√(T/(T − 1))·sd of the replicates; ρ on Fisher's z, the MAE ≥ 0
    half = t_value(confidence, 7) * math.sqrt(8 / 7)

    def z(r: Any) -> Any:
        return np.arctanh(np.clip(r, -0.9999, 0.9999))

    spread = float(np.nanstd(z(np.array(rho)), ddof=1)) * half
    expected = {
        "spearman": (
            np.tanh(z(found.spearman[0]) - spread),
            np.tanh(z(found.spearman[0]) + spread),
        ),
        "mae": (
            max(0.0, found.mae[0] - half * float(np.std(mae, ddof=1))),
            found.mae[0] + half * float(np.std(mae, ddof=1)),
        ),
        "difference": (
            found.difference[0] - half * float(np.std(mean, ddof=1)),
            found.difference[0] + half * float(np.std(mean, ddof=1)),
        ),
    }
    for name, got in (
        ("spearman", found.spearman),
        ("mae", found.mae),
        ("difference", found.difference),
    ):
        assert math.isclose(got[1], expected[name][0], abs_tol=1e-9), name
        assert math.isclose(got[2], expected[name][1], abs_tol=1e-9), name
        assert got[1] <= got[0] <= got[2]


def test_compare_is_seeded_and_without_interval_gives_values_only() -> None:
    task = np.repeat(np.arange(5), 2)
    first = np.linspace(0, 1, 10)
    second = first[::-1].copy()
    one = compare(first, second, task, 200, 5, 0.95)
    assert one == compare(first, second, task, 200, 5, 0.95)
    assert one != compare(first, second, task, 200, 6, 0.95)
    bare = compare(first, second, task, 200, 5, 0.95, interval=False)
    assert bare.spearman[0] == one.spearman[0]
    assert all(math.isnan(v) for f in (bare.spearman, bare.mae, bare.difference) for v in f[1:])


def test_replicates_at_once_equal_one_at_a_time() -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(0, 5, 40).astype(float)
    y = rng.integers(0, 5, 40).astype(float)
    weights = rng.integers(0, 3, (CHUNK + 17, 40))
    weights[0] = 0
    weights[0, :2] = 1  # a replicate of two runs
    weights[1] = 0
    weights[1, np.flatnonzero(x == x[0])] = 1  # a replicate where x does not vary
    found = replicate_spearman(x, y, weights)
    expected = np.array([spearman(x, y, w.astype(float)) for w in weights])
    assert np.isnan(found[1])
    assert np.allclose(found, expected, equal_nan=True)


def _ranks(x: list[float]) -> list[float]:
    """Average ranks, 1 the smallest, computed by counting."""
    return [sum(y < v for y in x) + (sum(y == v for y in x) + 1) / 2 for v in x]


def test_spearman_is_the_correlation_of_ranks() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        a, b = rng.normal(size=6).round(1), rng.normal(size=6).round(1)
        ra, rb = np.array(_ranks(list(a))), np.array(_ranks(list(b)))
        if ra.std() == 0 or rb.std() == 0:
            continue
        expected = float(((ra - ra.mean()) * (rb - rb.mean())).sum()) / float(
            np.sqrt(((ra - ra.mean()) ** 2).sum() * ((rb - rb.mean()) ** 2).sum())
        )
        assert spearman(a, b) == pytest.approx(expected)
    assert np.isnan(spearman(np.ones(3), np.arange(3.0)))


def test_scores_equal_but_summed_otherwise_tie() -> None:
    """0.47 reached by two sums is one value: the two runs share their rank."""
    a = np.array([0.47, 0.2 + 0.27, 0.9])
    assert a[0] != a[1]
    ranks = weighted_ranks(a, np.ones(3))
    assert ranks[0] == ranks[1] == 1.5
