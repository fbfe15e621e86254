"""The one interval method for every figure aggregated over tasks (§4.2, §4.4, §5.3).

Tasks are the sampling unit: a release's tasks are drawn from a population of tasks, and the
runs of one task are not independent draws (they share the task's difficulty). So every
figure aggregated over tasks gets a one-stage, task-clustered interval: its variance is that
of the figure over the scope's tasks drawn with replacement, each task carrying its own
statistic computed from its valid runs, so run-to-run noise enters through the spread of
those statistics and is not added a second time (a second stage that resampled runs inside
drawn tasks made the Task Score interval too wide and halved the power of paired
differences; see ``bench/coverage.py``).

Every figure is a ratio of two sums over tasks (:class:`Figure`): a macro-average is
``sum(mean_t) / sum(1)`` over its tasks, a rate ``sum(successes_t) / sum(trials_t)``, the
risk-weighted score ``sum(w_t · mean_t) / sum(w_t)``, reliability@k the mean of each task's
unbiased ``C(c_t, k) / C(n, k)``, a paired difference the mean of ``a_t − b_t`` over common
tasks. Its variance over resampled tasks is written in closed form
(:func:`task_variances`): ``T / (T − 1) · Σ_t c_t² · (x_t − m)²`` with ``c_t`` the task's
share and ``x_t`` its statistic — what the bootstrap's replicates' variance tends to as they
grow (the delta method for a ratio of sums, exact for a mean with equal shares), without
their Monte Carlo noise, and a figure any reader can recompute from the per-task downloads.
It is also exactly what the privacy gate takes an interval to publish, the tasks' second
moment (:mod:`generator.score.functionals`): a seeded bootstrap would publish a quadratic
form of its own draws besides.

From that variance (:func:`clustered_intervals`), with ``T − 1`` degrees of freedom: a
paired difference is ``value ± t · se``; the mean of a measure not confined to [0, 1] (a cost,
earnings) is that corrected for the skew of its task values (:func:`skew_corrected`, from
their third moment, which the gate models as well); every other figure lies in [0, 1] and
takes Wilson's
score interval at the effective sample size of the task-clustered variance (Korn and
Graubard 1998, for proportions from clustered samples). Near 0 and 1 — reliability@3 of a
release where few tasks pass three times in three — equal-tailed percentiles of a skewed
mean of 20 tasks covered the truth in 57% of simulated releases; this interval in 95%
(``bench/coverage.py``, whose results bench/README.md and the methodology page show).

A figure over fewer tasks than the release's ``statistics.min_tasks_to_resample`` cannot
estimate the spread of a task population. Its interval (:func:`run_noise_interval`)
describes the run-to-run noise of those very tasks only, and says so (``interval: "runs"``):
a Wilson score interval with the figure's effective number of runs. Run values lie in
[0, 1], so a task's run variance is at most ``p(1 − p)`` (the Bernoulli bound), and the
interval is never a point: three runs that happen to agree are not a certainty.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import floor, sqrt
from typing import Literal

import numpy as np

from generator.score.stats import (
    t_value,
    wilson,
    z_value,
)

Basis = Literal["tasks", "runs"]


@dataclass(frozen=True)
class Figure:
    """A figure as ``sum(num) / sum(den)`` over the scope's tasks (0 where a task is not
    part of it); ``runs`` per task: the independent runs behind its statistic (for the
    run-noise interval); ``pooled``: (successes, trials) when the figure is a rate of runs;
    ``sides``: the two figures a difference subtracts; ``binary``: built from binary run
    outcomes (a rate, reliability@k), so its variance is at least its runs' binomial
    variance and its effective size at most :func:`effective_runs`; ``unbounded``: a mean of
    values not confined to [0, 1] (a measured cost or earnings), whose interval is
    :func:`skew_corrected` and whose run noise comes from ``spread``, each task's variance of its
    run values."""

    num: np.ndarray
    den: np.ndarray
    runs: np.ndarray
    pooled: tuple[int, int] | None = None
    sides: tuple[Figure, Figure] | None = None
    binary: bool = False
    unbounded: bool = False
    spread: np.ndarray | None = None

    @cached_property
    def tasks(self) -> int:
        """How many tasks the figure rests on."""
        return int((self.den > 0).sum())

    @property
    def value(self) -> float:
        """The figure itself (NaN without tasks)."""
        den = float(self.den.sum())
        return float(self.num.sum()) / den if den > 0 else float("nan")


def figure(
    values: np.ndarray,
    mask: np.ndarray,
    runs: np.ndarray,
    weights: np.ndarray | None = None,
    spread: np.ndarray | None = None,
) -> Figure:
    """The (weighted) mean of ``values`` over the tasks in ``mask``; with ``spread`` (each
    task's variance of its run values), a mean of values not confined to [0, 1]."""
    mask = mask.astype(bool)
    den = np.where(mask, 1.0 if weights is None else weights, 0.0)
    num = np.where(mask & ~np.isnan(values), values * den, 0.0)
    if spread is None:
        return Figure(num, den, np.where(mask, runs, 0))
    own = np.where(mask, spread, np.nan)
    return Figure(num, den, np.where(mask, runs, 0), unbounded=True, spread=own)


def difference(a: Figure, b: Figure) -> Figure:
    """The mean of a − b over the tasks both figures rest on (the same tasks)."""
    if not np.array_equal(a.den, b.den):
        raise ValueError("a difference needs both sides over the same tasks")
    runs = np.minimum(a.runs, b.runs)
    return Figure(a.num - b.num, a.den, runs, sides=(a, b), unbounded=a.unbounded)


def rate(successes: np.ndarray, trials: np.ndarray, mask: np.ndarray) -> Figure:
    """Successes over trials, pooled over the tasks in ``mask`` (a ratio over tasks)."""
    mask = mask.astype(bool) & (trials > 0)
    num = np.where(mask, successes, 0).astype(float)
    den = np.where(mask, trials, 0).astype(float)
    pooled = (int(num.sum()), int(den.sum()))
    return Figure(num, den, np.where(mask, trials, 0), pooled, binary=True)


def effective_runs(f: Figure) -> float:
    """The runs an unweighted mean would need for the figure's run-noise variance bound:
    ``1 / sum(a_t² / n_t)`` with ``a_t`` the task's share of the figure."""
    keep = f.den > 0
    share = f.den[keep] / f.den[keep].sum()
    return float(1.0 / np.sum(share**2 / f.runs[keep]))


def run_noise_interval(f: Figure, value: float, confidence: float) -> tuple[float, float]:
    """The run-to-run noise of the figure's own tasks: Wilson's interval at ``value`` with the
    figure's effective runs (for a rate, Wilson's interval of its pooled runs; for a
    difference, Newcombe's interval from those of its two sides)."""
    if f.pooled is not None:
        return wilson(*f.pooled, confidence)
    if f.sides is not None:
        a, b = f.sides
        return newcombe(
            a.value,
            run_noise_interval(a, a.value, confidence),
            b.value,
            run_noise_interval(b, b.value, confidence),
        )
    if not f.tasks or not np.isfinite(value):
        return (float("nan"), float("nan"))
    if f.unbounded:
        return unbounded_run_noise(f, value, confidence)
    return bounded_wilson(min(max(value, 0.0), 1.0), effective_runs(f), confidence)


def unbounded_run_noise(f: Figure, value: float, confidence: float) -> tuple[float, float]:
    """The run noise of a mean of unbounded run values: ``value ± t · se`` with
    ``se² = sum(c_t s_t²)``, ``c_t = a_t² / n_t`` (``a_t`` the task's share, ``s_t²`` the
    variance of its ``n_t`` runs), and Welch–Satterthwaite's degrees of freedom
    ``se⁴ / sum((c_t s_t²)² / (n_t − 1))``: the tasks' run variances differ (a costly task's
    runs spread more), so their pooled ``sum(n_t − 1)`` overstates what they tell (two tasks
    of three runs covered 0.93 of the truth with it, 0.955 with this;
    ``bench/coverage_measure.py``). A task of one run takes the pooled variance of the
    others. No interval (NaN) when no task has two runs: nothing then measures the noise.
    It claims the noise of the runs delivered: a failure the few runs did not show is not
    in it (see the measured coverage in bench/README.md)."""
    keep = f.den > 0
    spread = f.spread[keep] if f.spread is not None else np.full(int(keep.sum()), np.nan)
    runs = f.runs[keep].astype(float)
    known = np.isfinite(spread) & (runs > 1)
    pooled_df = int((runs[known] - 1).sum())
    if pooled_df < 1:
        return (float("nan"), float("nan"))
    share = f.den[keep] / f.den[keep].sum()
    pooled = float(np.sum((runs[known] - 1) * spread[known]) / pooled_df)
    parts = share**2 * np.where(known, spread, pooled) / runs
    se2 = float(parts.sum())
    if se2 <= 0:
        return (value, value)
    denominator = float(np.sum(parts[known] ** 2 / (runs[known] - 1)))
    df = se2 * se2 / denominator if denominator > 0 else float(pooled_df)
    # below three, t_value's closed forms are of whole degrees: round down (wider, not narrower)
    half = t_value(confidence, df if df >= 3 else max(1, floor(df))) * sqrt(se2)
    return (value - half, value + half)


def skew_moments(f: Figure, value: float) -> tuple[float, float, int]:
    """The figure's variance ``v = T / (T − 1) · Σ c_t² (x_t − m)²`` and third cumulant
    ``κ₃ = T² / ((T − 1)(T − 2)) · Σ c_t³ (x_t − m)³`` over resampled tasks, with ``T``:
    the moments the skew-corrected interval rests on, and all it publishes of the tasks."""
    keep = f.den > 0
    tasks = int(keep.sum())
    total = float(f.den[keep].sum())
    if tasks < 2 or total <= 0:
        return 0.0, 0.0, tasks
    c = f.den[keep] / total
    d = f.num[keep] / f.den[keep] - value  # about the value shown (task_variances: f's own)
    v = float(np.sum(c * c * d * d)) * tasks / (tasks - 1)
    k3 = 0.0
    if tasks > 2:
        k3 = float(np.sum(c**3 * d**3)) * tasks * tasks / ((tasks - 1) * (tasks - 2))
    return v, k3, tasks


def skew_corrected(f: Figure, value: float, confidence: float) -> tuple[float, float]:
    """The interval of a mean of unbounded task values (a cost, earnings) over resampled
    tasks, corrected for their skew by Hall's (1992) transformation of the t statistic:
    ``g(t) = t + a·t² + a²·t³/3 + a/2`` with ``a = λ/3``, ``λ = κ₃ / v^{3/2}`` the skewness
    of the mean (:func:`skew_moments`); the interval is ``m − g⁻¹(±q)·se``, ``q`` Student's
    quantile at ``T − 1`` degrees of freedom, and ``g⁻¹(y) = ((1 + 3a(y − a/2))^{1/3} − 1)/a``
    (``g`` is monotone for every ``a``). Where the tasks do not vary (:func:`varying`), the
    run noise of :func:`clustered_intervals` stands. Over eight log-normal tasks (log-sd 1)
    ``value ± t · se`` covered the truth in 0.82 of samples, this interval in 0.90, the
    studentized bootstrap it replaces in 0.89 (``bench/skew_interval.py``). Unlike the
    bootstrap's quantiles, it rests on three moments of the task values only, which the
    privacy gate models exactly (:mod:`generator.score.functionals`);
    ``bench/coverage_measure.py`` measures it."""
    v, k3, tasks = skew_moments(f, value)
    if v <= 0:
        return (float("nan"), float("nan"))
    se = sqrt(v)
    q = _t(confidence, tasks - 1)
    a = k3 / (v * se) / 3.0

    def inverse(y: float) -> float:
        # (u − 1)/a with u³ = 1 + 3a·z, written without the cancellation of small a
        z = y - a / 2
        u = float(np.cbrt(1.0 + 3.0 * a * z))
        return 3.0 * z / (u * u + u + 1.0)

    return (value - inverse(q) * se, value - inverse(-q) * se)


def bounded_wilson(p: float, runs: float, confidence: float) -> tuple[float, float]:
    """Wilson's score interval for a mean ``p`` of ``runs`` values in [0, 1] (their variance is
    at most p(1 − p), so the Bernoulli interval bounds it); never a point."""
    low, high = bounded_wilsons(np.array([p]), np.array([runs]), confidence)
    return (float(low[0]), float(high[0]))


def bounded_wilsons(
    p: np.ndarray, runs: np.ndarray, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`bounded_wilson` of each (p, runs) pair."""
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        denom = 1 + z * z / runs
        centre = (p + z * z / (2 * runs)) / denom
        half = z * np.sqrt(p * (1 - p) / runs + z * z / (4 * runs * runs)) / denom
    return (np.maximum(0.0, centre - half), np.minimum(1.0, centre + half))


def newcombe(
    a: float, a_interval: tuple[float, float], b: float, b_interval: tuple[float, float]
) -> tuple[float, float]:
    """Newcombe's hybrid score interval of a − b from the two intervals (Newcombe 1998)."""
    (la, ua), (lb, ub) = a_interval, b_interval
    d = a - b
    return (d - sqrt((a - la) ** 2 + (ub - b) ** 2), d + sqrt((ua - a) ** 2 + (b - lb) ** 2))


def task_variances(figures: Sequence[Figure]) -> np.ndarray:
    """Each figure's variance over resampled tasks (see the module's docstring):
    ``T / (T − 1) · Σ_t (num_t − m · den_t)² / (Σ_t den_t)²`` over its ``T`` tasks, the
    linearised variance of a ratio of sums under task resampling with the small-sample factor
    ``T / (T − 1)`` (``bench/coverage.py`` measures the intervals it gives); 0 under two tasks."""
    out = np.zeros(len(figures))
    for i, f in enumerate(figures):
        keep = f.den > 0
        tasks = int(keep.sum())
        total = float(f.den[keep].sum())
        if tasks < 2 or total <= 0:
            continue
        m = float(f.num[keep].sum()) / total
        residual = f.num[keep] - m * f.den[keep]
        out[i] = float(np.sum(residual * residual)) / (total * total) * tasks / (tasks - 1)
    return out


def clustered_intervals(
    figures: Sequence[Figure],
    values: np.ndarray,
    confidence: float,
    var: np.ndarray | None = None,
) -> np.ndarray:
    """The intervals of figures over resampled tasks (see the module's docstring), with
    ``T − 1`` degrees of freedom for a figure's ``T`` tasks (figures × 2).

    A difference: ``value ± t · se``, ``se²`` the task variance (:func:`task_variances`).
    Any other figure (a proportion or a mean of values in [0, 1]): Wilson's score interval
    at the effective sample size ``p(1 − p) / se²`` times ``(z / t)²``, as Korn and Graubard
    (1998) do for proportions from clustered samples. When the tasks do not vary at all, the
    effective size is the figure's independent runs, and a difference every task shows alike
    takes the run noise of its sides (Newcombe), so no interval shrinks to a point. A figure
    of binary run outcomes never takes an effective size above its runs' count
    (:func:`effective_runs`): a task's share of successes in n runs varies at least as a
    binomial does, so a smaller task variance is an underestimate (reliability@3 of 5 runs
    covered 90% of simulated truths without this bound, 97% with it; ``bench/coverage.py``).
    """
    tasks = np.array([f.tasks for f in figures], dtype=float)
    var = varying(figures, values) if var is None else var  # given: :func:`varying`'s
    p = np.clip(values, 0.0, 1.0)
    t = np.array([_t(confidence, int(n) - 1) for n in tasks])
    z = z_value(confidence)
    out = np.empty((len(figures), 2))
    diff = np.array([f.sides is not None or f.unbounded for f in figures], dtype=bool)
    half = t * np.sqrt(var)
    out[diff, 0] = values[diff] - half[diff]
    out[diff, 1] = values[diff] + half[diff]
    # A gap every task shows, or a measure all tasks share: its run noise.
    for i in np.flatnonzero(diff & (var <= 0)):
        out[i] = run_noise_interval(figures[int(i)], float(values[i]), confidence)
    binary = np.array([f.binary for f in figures], dtype=bool)
    needed = (binary | (var <= 0)) & ~diff  # where the runs' count bounds or replaces it
    runs = np.zeros(len(figures))
    for i in np.flatnonzero(needed):
        runs[i] = effective_runs(figures[int(i)])
    with np.errstate(invalid="ignore", divide="ignore"):
        size = np.where(var > 0, p * (1 - p) / var * (z / t) ** 2, runs)
    size = np.where(binary, np.minimum(size, runs), size)
    low, high = bounded_wilsons(p, size, confidence)
    out[~diff, 0] = low[~diff]
    out[~diff, 1] = high[~diff]
    return out


# A task variance at or below this share of p(1 − p) is no variation at all.
FLAT = 1e-12


def varying(figures: Sequence[Figure], values: np.ndarray) -> np.ndarray:
    """Each figure's task variance (:func:`task_variances`), 0 where the tasks do not vary:
    equal values leave a variance of rounding residue (1e-33 for five tasks at 2/3), which
    would make a point of the interval."""
    var = task_variances(figures)
    p = np.clip(values, 0.0, 1.0)
    unbounded = np.array([f.unbounded for f in figures], dtype=bool)
    scale = np.where(unbounded, np.maximum(values * values, FLAT), np.maximum(p * (1 - p), FLAT))
    out: np.ndarray = np.where(var <= FLAT * scale, 0.0, var)
    return out


@lru_cache(maxsize=1024)
def _t(confidence: float, df: int) -> float:
    return t_value(confidence, df)


def skewed(f: Figure) -> bool:
    """Whether the figure's interval over resampled tasks is :func:`skew_corrected`: the
    mean of a measure (not a difference)."""
    return f.unbounded and f.sides is None


@dataclass(frozen=True)
class Interval:
    low: float
    high: float
    basis: Basis


def intervals(
    figures: Sequence[Figure],
    values: Sequence[float],
    confidence: float,
    minimum: int,
) -> list[Interval]:
    """Each figure's interval: over resampled tasks when it rests on at least ``minimum``
    tasks, else the run noise of its tasks at its ``value``."""
    resampled = [i for i, f in enumerate(figures) if f.tasks >= minimum]
    chosen = [figures[i] for i in resampled]
    chosen_values = np.array([values[i] for i in resampled])
    var = varying(chosen, chosen_values)
    found = clustered_intervals(chosen, chosen_values, confidence, var)
    varies = var > 0  # else the run noise (clustered_intervals)
    out: list[Interval | None] = [None] * len(figures)
    for (low, high), i, vary in zip(found.tolist(), resampled, varies, strict=True):
        f = figures[i]
        if skewed(f) and vary:
            low, high = skew_corrected(f, values[i], confidence)
        elif f.sides is not None and not f.unbounded:
            # a difference of two figures in [0, 1] lies in [−1, 1]: an interval cut to the
            # values it can take holds the truth as often (value ± t·se reached 1.214)
            low, high = max(low, -1.0), min(high, 1.0)
        out[i] = Interval(low, high, "tasks")
    for i, f in enumerate(figures):
        if out[i] is None:
            low, high = run_noise_interval(f, values[i], confidence)
            out[i] = Interval(low, high, "runs")
    return [i for i in out if i is not None]
