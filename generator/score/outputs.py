"""A figure and its interval as the engine's output models: a rate of runs, or an estimate
kept within its metric's declared range."""

from __future__ import annotations

from generator.models.profile import Range
from generator.score.figures import finite_or_none
from generator.score.intervals import Figure, Interval
from generator.score.results import Estimate, Rate


def rate_of(f: Figure, found: Interval) -> Rate | None:
    assert f.pooled is not None
    successes, trials = f.pooled
    if trials == 0:
        return None
    return Rate(
        successes=successes,
        trials=trials,
        value=successes / trials,
        low=finite_or_none(found.low),
        high=finite_or_none(found.high),
        tasks=f.tasks,
        interval=found.basis,
    )


def estimate_of(value: float, tasks: int, found: Interval, bounds: Range | None = None) -> Estimate:
    """An estimate with its interval, the interval kept within the metric's declared range
    (a cost's interval never reaches below 0)."""
    low, high = finite_or_none(found.low), finite_or_none(found.high)
    if bounds is not None:
        if bounds.low is not None:
            low, high = (None if x is None else max(x, bounds.low) for x in (low, high))
        if bounds.high is not None:
            low, high = (None if x is None else min(x, bounds.high) for x in (low, high))
    return Estimate(
        value=finite_or_none(value), low=low, high=high, tasks=tasks, interval=found.basis
    )
