"""A domain's task sets compared, never pooled (e.g. a human-audited Lite set against a Full
set): each set's figures stay in its own scopes, and the combinations evaluated on both are
set side by side with the agreement of their two orders.

The agreement is Spearman's rank correlation of the combinations' figures on the two sets,
with a percentile interval over tasks resampled (one draw over the tasks of either set, each
set's figures then taken over the drawn tasks it holds), seeded like every interval (§4.2):
not the raters' Fisher-z interval, which cannot reach ρ = 1 (measured in
:mod:`generator.score.concordance`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from generator.models import Release
from generator.models.release import Domain
from generator.score.concordance import spearman
from generator.score.results import Estimate, ScopeResult, SetComparison, SetRank
from generator.score.stats import multiplicities, percentile_interval, seed_for, task_draws
from generator.score.table import TaskTable

#: Fewest combinations on both sets for a rank correlation.
MIN_COMBINATIONS = 3


def _ranks(values: np.ndarray, higher: bool) -> np.ndarray:
    """Ranks along the last axis, 1 the best (ties, improbable in means, broken by order)."""
    order = np.argsort(-values if higher else values, axis=-1, kind="stable")
    out: np.ndarray = np.argsort(order, axis=-1, kind="stable") + 1
    return out


def _scored(scope: ScopeResult) -> dict[str, Estimate]:
    return {
        c.combination: c.task_score
        for c in scope.combinations
        if c.status == "scored" and c.task_score is not None and c.task_score.value is not None
    }


def compare_sets(
    table: TaskTable, scopes: Sequence[ScopeResult], domain: Domain, release: Release
) -> list[SetComparison]:
    """The domain's first task set against each other set: the combinations scored on both
    (figures and ranks from the scopes shown), Spearman's ρ of the two orders and its
    interval; withheld where either set's figures are."""
    if len(domain.task_sets) < 2:
        return []
    first = domain.task_sets[0].id
    head = next(s for s in scopes if s.scope.whole and s.scope.group == "all")
    out = []
    for other in domain.task_sets[1:]:
        scope = next(
            (s for s in scopes if s.scope.task_set == other.id and s.scope.group == "all"), None
        )
        if scope is None:
            continue
        if head.withheld or scope.withheld:
            reason = head.withheld or scope.withheld
            out.append(
                SetComparison(first=first, second=other.id, rows=[], tasks=0, withheld=reason)
            )
            continue
        out.append(_compare(table, head, scope, first, other.id, release))
    return out


def _compare(
    table: TaskTable,
    head: ScopeResult,
    scope: ScopeResult,
    first: str,
    second: str,
    release: Release,
) -> SetComparison:
    a, b = _scored(head), _scored(scope)
    common = sorted(set(a) & set(b))
    higher = release.outcome(table.domain.domain).higher
    va = np.array([a[c].value for c in common], dtype=float)
    vb = np.array([b[c].value for c in common], dtype=float)
    ra, rb = _ranks(va, higher), _ranks(vb, higher)
    rows = sorted(
        (
            SetRank(
                combination=c,
                first=a[c],
                second=b[c],
                first_rank=int(ra[i]),
                second_rank=int(rb[i]),
            )
            for i, c in enumerate(common)
        ),
        key=lambda r: (r.first_rank, r.combination),
    )
    in_a = table.columns[f"set:{first}"] == first
    in_b = table.columns[f"set:{second}"] == second
    tasks = np.flatnonzero(in_a | in_b)
    found = SetComparison(first=first, second=second, rows=rows, tasks=len(tasks))
    if len(common) < MIN_COMBINATIONS:
        return found
    stats = release.statistics
    seed = seed_for(table.domain.version, table.domain.domain, "sets", first, second, stats.seed)
    weights = multiplicities(task_draws(len(tasks), stats.bootstrap_samples, seed), len(tasks))
    at = np.array([table.combos.index(c) for c in common], dtype=np.int64)
    x = table.means["score"][np.ix_(at, tasks)]  # combinations × tasks
    have = np.isfinite(x)

    def means(member: np.ndarray) -> np.ndarray:
        """Replicates × combinations: each combination's mean over the drawn tasks of a set."""
        w = weights * member[tasks]  # replicates × tasks
        with np.errstate(invalid="ignore", divide="ignore"):
            out: np.ndarray = (w @ np.where(have, x, 0.0).T) / (w @ have.T)
        return out

    rep_a, rep_b = means(in_a), means(in_b)
    rho = np.array([_rho(p, q) for p, q in zip(rep_a, rep_b, strict=True)])
    value = spearman(va, vb)
    low, high = order_interval(value, rho, len(tasks), stats.confidence)
    return found.model_copy(
        update={"rho": _finite(value), "low": _finite(low), "high": _finite(high)}
    )


def order_interval(
    value: float, replicates: np.ndarray, tasks: int, confidence: float
) -> tuple[float, float]:
    """The interval of the two orders' ρ: the percentile interval of its replicates (the
    module docstring; ``bench/coverage_profiles.py --rho fisher`` measures the other)."""
    return percentile_interval(replicates, confidence)


def _rho(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's ρ of a replicate; NaN where a combination has no drawn task of a set."""
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        return float("nan")
    return spearman(a, b)


def _finite(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None
