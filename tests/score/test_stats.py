"""Interval arithmetic checked against hand computation and textbook values."""

from __future__ import annotations

import os
import subprocess
import sys
from math import sqrt
from pathlib import Path

import numpy as np
import pytest

import generator
from generator.score.stats import (
    multiplicities,
    percentile_interval,
    percentile_intervals,
    seed_for,
    t_value,
    task_draws,
    wilson,
    z_value,
)

REPO = Path(generator.__file__).resolve().parent.parent


def test_wilson_matches_the_formula() -> None:
    z = 1.959963984540054
    p, n = 0.8, 10
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = wilson(8, 10, 0.95)
    assert low == pytest.approx(centre - half)
    assert high == pytest.approx(centre + half)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)  # published table value


def test_wilson_edges() -> None:
    low, high = wilson(0, 20, 0.95)
    assert low == 0.0
    assert high == pytest.approx(0.1611, abs=1e-4)
    low, high = wilson(20, 20, 0.95)
    assert high == 1.0
    assert low == pytest.approx(0.8389, abs=1e-4)
    low, high = wilson(0, 0, 0.95)
    assert np.isnan(low)
    assert np.isnan(high)


def test_z_value() -> None:
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_value(0.90) == pytest.approx(1.644854, abs=1e-6)


def test_percentile_interval_ignores_missing_replicates() -> None:
    reps = np.array([np.nan, *np.arange(101.0)])
    assert percentile_interval(reps, 0.9) == pytest.approx((5.0, 95.0))
    low, high = percentile_interval(np.array([np.nan]), 0.95)
    assert np.isnan(low)
    assert np.isnan(high)


_SEED_AND_HASH = (
    "from generator.score.stats import seed_for; "
    "print(seed_for(0, 'v1.0/general/*/all', 'lingee'), hash('v1.0/general/*/all'))"
)


def _seed_and_hash_in_a_process(hash_seed: str) -> tuple[int, int]:
    """seed_for and Python's hash() of one key, computed in a fresh interpreter."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-c", _SEED_AND_HASH],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=REPO,
    ).stdout.split()
    seed, salted = (int(v) for v in out)
    return seed, salted


def test_seed_for_is_stable_across_processes() -> None:
    one = _seed_and_hash_in_a_process("1")
    two = _seed_and_hash_in_a_process("2")
    assert one[1] != two[1]  # the two processes salt hash() differently ...
    assert one[0] == two[0] == seed_for(0, "v1.0/general/*/all", "lingee")  # ... seed_for not
    assert seed_for(0, "a") != seed_for(1, "a")
    # sha256-based, so the value is fixed forever (Python's hash() is salted per process)
    assert seed_for("x") == int.from_bytes(
        bytes.fromhex("2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881")[:8],
        "little",
    )


def test_percentile_intervals_equal_the_interval_of_each_row() -> None:
    rng = np.random.default_rng(3)
    rows = rng.random((40, 2000)) * rng.random((40, 1))
    rows[5, 7] = np.nan
    rows[9] = np.nan
    rows[11, :1990] = np.inf
    got = percentile_intervals(rows, 0.95)
    assert len(got) == len(rows) == 40
    for row, (low, high) in zip(rows, got, strict=True):
        want = percentile_interval(row, 0.95)
        assert np.array_equal([low, high], want, equal_nan=True)  # bit for bit


def test_multiplicities_count_the_draws() -> None:
    draws = task_draws(7, 50, seed=4)
    counts = multiplicities(draws, 7)
    for b in range(50):
        assert counts[b].tolist() == np.bincount(draws[b], minlength=7).tolist()


@pytest.mark.parametrize(
    ("confidence", "df", "table"),
    [
        (0.95, 1, 12.7062),
        (0.95, 2, 4.3027),
        (0.95, 3, 3.1824),
        (0.95, 4, 2.7764),
        (0.95, 9, 2.2622),
        (0.95, 19, 2.0930),
        (0.95, 99, 1.9842),
        (0.99, 4, 4.6041),
        (0.99, 19, 2.8609),
        (0.90, 5, 2.0150),
        (0.99, 3, 5.8409),
        (0.999, 3, 12.9240),
        (0.999, 10, 4.5869),
        (0.95, 120, 1.9799),
    ],
)
def test_t_value_matches_the_tables(confidence: float, df: int, table: float) -> None:
    assert t_value(confidence, df) == pytest.approx(table, abs=5e-4)
