"""A figure and its interval as output models (generator/score/outputs.py)."""

from __future__ import annotations

import numpy as np

from generator.models.profile import Range
from generator.score.intervals import Interval, rate
from generator.score.outputs import estimate_of, rate_of


def test_a_rate_keeps_its_runs_and_has_none_without_trials() -> None:
    f = rate(np.array([1, 2]), np.array([2, 2]), np.array([True, True]))
    got = rate_of(f, Interval(0.2, 0.9, "tasks"))
    assert got is not None
    assert (got.successes, got.trials, got.value, got.tasks) == (3, 4, 0.75, 2)
    empty = rate(np.array([0]), np.array([0]), np.array([True]))
    assert rate_of(empty, Interval(0.0, 1.0, "runs")) is None


def test_an_estimate_stays_within_its_declared_range_and_drops_non_finite_ends() -> None:
    got = estimate_of(0.1, 5, Interval(-0.3, 0.4, "tasks"), Range(low=0.0, high=None))
    assert (got.low, got.high) == (0.0, 0.4)
    assert estimate_of(0.5, 5, Interval(float("nan"), 0.7, "runs")).low is None
