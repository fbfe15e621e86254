"""The rerun-only standard error of a Task Score: the ± many leaderboards show (§4.2).

An interval of this site covers the task population (another draw of tasks of this kind,
:mod:`generator.score.intervals`). Many leaderboards instead show the standard error over
reruns of these very tasks; Terminal-Bench's, for one, is ``sqrt(Σ p̂_t(1 − p̂_t)/(n_t − 1))
/ T`` over its tasks' pass rates p̂_t of n_t trials. That is the case of binary runs of
:func:`rerun_se`, which the result card and the downloads give beside the interval, named as
such, so that a reader can match the figure they know.

It is given only over public tasks: over held-out tasks it would publish their run spread,
which the privacy gate (:mod:`generator.score.gate`) does not model.
"""

from __future__ import annotations

import numpy as np

from generator.score.intervals import Figure


def rerun_se(fig: Figure, spread: np.ndarray, held: np.ndarray) -> float | None:
    """``sqrt(Σ c_t² s_t² / n_t)`` over the figure's tasks: c_t a task's share, s_t² the
    variance (n_t − 1 in the denominator) of its n_t valid runs' values (``spread``, per
    task of the figure's rows); for runs that pass or fail, s_t²/n_t = p̂_t(1 − p̂_t)/(n_t − 1).
    None when a task has fewer than two valid runs (nothing measures its noise: a
    leaderboard's formula has no value either) or is held out (``held``)."""
    keep = fig.den > 0
    if not keep.any() or (held & keep).any():
        return None
    runs = fig.runs[keep].astype(float)
    s2 = np.asarray(spread, dtype=float)[keep]
    if (runs < 2).any() or not np.isfinite(s2).all():
        return None
    share = fig.den[keep] / fig.den[keep].sum()
    return float(np.sqrt(np.sum(share * share * s2 / runs)))
