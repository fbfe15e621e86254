"""The rerun-only standard error of a Task Score (generator.score.rerun): Terminal-Bench's
formula for pass/fail runs, the variance of the runs otherwise, and none where it cannot
be given (a task of one run, a held-out task)."""

from __future__ import annotations

import math

import numpy as np
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score.intervals import figure
from generator.score.rerun import rerun_se

RUNS = st.lists(st.lists(st.integers(0, 1), min_size=2, max_size=6), min_size=1, max_size=12)


def _terminal_bench(trials: list[list[int]]) -> float:
    """The leaderboard's own query: sqrt(Σ p̂(1 − p̂)/(n − 1)) / T over the tasks."""
    parts = [(sum(t) / len(t)) * (1 - sum(t) / len(t)) / (len(t) - 1) for t in trials]
    return math.sqrt(sum(parts)) / len(trials)


def _figure(trials: list[list[float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    means = np.array([np.mean(t) for t in trials])
    runs = np.array([len(t) for t in trials])
    spread = np.array([np.var(t, ddof=1) if len(t) > 1 else np.nan for t in trials])
    return means, runs, spread


@settings(max_examples=examples(60), deadline=None)
@given(RUNS)
def test_pass_fail_runs_give_terminal_bench_s_standard_error(trials: list[list[int]]) -> None:
    means, runs, spread = _figure(trials)  # type: ignore[arg-type]
    fig = figure(means, np.ones(len(trials), dtype=bool), runs)
    se = rerun_se(fig, spread, np.zeros(len(trials), dtype=bool))
    assert se is not None
    assert math.isclose(se, _terminal_bench(trials), rel_tol=1e-12, abs_tol=1e-15)


def test_weighted_tasks_take_their_shares_squared() -> None:
    trials = [[0.2, 0.4], [1.0, 0.0, 0.5]]
    means, runs, spread = _figure(trials)
    weights = np.array([1.0, 3.0])
    fig = figure(means, np.ones(2, dtype=bool), runs, weights)
    se = rerun_se(fig, spread, np.zeros(2, dtype=bool))
    c = weights / weights.sum()
    want = math.sqrt(sum(c[i] ** 2 * np.var(t, ddof=1) / len(t) for i, t in enumerate(trials)))
    assert se is not None
    assert math.isclose(se, want, rel_tol=1e-12)


def test_none_where_nothing_measures_the_noise_or_a_task_is_held_out() -> None:
    means, runs, spread = _figure([[1, 0], [1]])
    fig = figure(means, np.ones(2, dtype=bool), runs)
    assert rerun_se(fig, spread, np.zeros(2, dtype=bool)) is None  # a task of one run
    means, runs, spread = _figure([[1, 0], [1, 1]])
    fig = figure(means, np.ones(2, dtype=bool), runs)
    assert rerun_se(fig, spread, np.array([False, True])) is None  # a held-out task
    assert rerun_se(fig, spread, np.array([False, False])) == 0.25
    outside = figure(means, np.array([True, False]), runs)  # the held-out task not in it
    assert rerun_se(outside, spread, np.array([False, True])) == 0.5
