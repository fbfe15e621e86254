"""reliability@k of a task (§4.2(3)): the chance that k of its runs drawn without
replacement all succeed.

Where it goes from here: :mod:`generator.score.figures` averages it over a scope's tasks
(a task's value counting like n / k binary trials), and :mod:`generator.score.intervals`
gives that mean its interval — Wilson's at the effective sample size of the task-clustered
variance, or the run-noise interval over too few tasks; the privacy gate
(:mod:`generator.score.gate`) decides whether a held-out one is published."""

from __future__ import annotations

from math import comb

import numpy as np


def reliability_at(successes: np.ndarray, runs: int, k: int) -> np.ndarray:
    """Per task C(c_t, k) / C(n, k); 0 when c_t < k (§4.2(3))."""
    table = np.array([comb(c, k) for c in range(runs + 1)], dtype=float) / comb(runs, k)
    values: np.ndarray = table[successes]
    return values
