"""Every aggregate of one combination in one scope as a ratio of sums over the scope's tasks
(§4.2, §4.3), and the value each publishes.

:func:`figures` writes each aggregate as a :class:`~generator.score.intervals.Figure` (its
tasks' numerators and denominators, which the task-clustered bootstrap resamples);
:func:`point_values` gives each figure's published value, summed as pandas sums it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from generator.models import Release
from generator.protocol.reliability import reliability_at
from generator.score.intervals import Figure, figure, rate
from generator.score.plan import Plan, has_views
from generator.score.table import NAN, ScopeView, TaskTable


def figures(
    view: ScopeView, table: TaskTable, k: int, plan: Plan, release: Release
) -> dict[str, Figure]:
    """Combination k's aggregates in one scope as :class:`Figure` (§4.2, §4.3): the channels,
    the success rate, reliability@k and, where the scope reports them, the business views."""
    rows, n = view.rows, release.runs_per_task
    data, covered = plan.data, plan.covered
    valid = np.where(covered, table.valid[k, rows], 0)
    successes = np.where(covered, table.successes[k, rows], 0)
    # A measured outcome (a cost, earnings) is not confined to [0, 1]: its runs' own spread.
    unit = release.outcome(view.scope.domain).unit_interval
    spread = None if unit else table.spread["score"][k, rows]
    out = {
        "score": figure(
            table.means["score"][k, rows], data, table.counts["score"][k, rows], spread=spread
        ),
        "success": rate(successes, valid, covered),
    }
    # The rule channel over the tasks that have ordinary rule items (all of Lingee's).
    ruled = data & (table.counts["rule"][k, rows] > 0)
    out["rule"] = figure(table.means["rule"][k, rows], ruled, table.counts["rule"][k, rows])
    if plan.judged is not None:
        judge_runs = table.counts["judge"][k, rows]
        out["judge"] = figure(table.means["judge"][k, rows], plan.judged, judge_runs)
    for rk in release.reliability_k:
        per_task = reliability_at(table.successes[k, rows], n, rk)
        # A task's C(c, k) / C(n, k) counts like n / k binary trials: exactly so for k = 1 (a
        # rate of n runs) and k = n (one all-k-pass trial); in between, interpolated.
        found = figure(per_task, plan.full, np.full(len(rows), n / rk))
        out[f"reliability@{rk}"] = dataclasses.replace(found, binary=True)
    if has_views(release, view.scope):
        out |= _business_figures(view, table, k, plan, valid, successes)
    return out | _declared_figures(view, table, k, plan, release, spread)


def _declared_figures(
    view: ScopeView,
    table: TaskTable,
    k: int,
    plan: Plan,
    release: Release,
    spread: np.ndarray | None,
) -> dict[str, Figure]:
    """What a declared profile adds: the mean over cells (``cells``) where the domain
    averages over them, and the means of the table's extra columns (``extra:<column>``: the
    judged overall, each judged dimension, each measured resource)."""
    rows, out = view.rows, {}
    for column in table.extra:
        values = table.means[column][k, rows]
        mask = plan.data & ~np.isnan(values)
        if not mask.any():
            continue
        metric = release.metric(column)
        own = None if metric is None or metric.unit_interval else table.spread[column][k, rows]
        out[f"extra:{column}"] = figure(values, mask, table.counts[column][k, rows], spread=own)
    cells = cell_of(view, release)
    if cells is not None:
        weights = cell_weights(cells, plan.data)
        score = table.means["score"][k, rows]
        runs = table.counts["score"][k, rows]
        out["cells"] = figure(score, plan.data, runs, weights, spread)
    return out


def cell_of(view: ScopeView, release: Release) -> np.ndarray | None:
    """Each task's cell (its values of the facets the domain averages over, joined by ',')
    where the scope is a whole domain (or one group of it) that averages over cells."""
    domain = release.domain(view.scope.domain)
    scope = view.scope
    if domain.aggregate.over != "cells" or scope.subdivision is not None or scope.facets:
        return None
    parts = [view.columns[f"facet:{f}"].astype(str) for f in domain.aggregate.facets]
    return np.array([",".join(values) for values in zip(*parts, strict=True)], dtype=object)


def cell_weights(cells: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Weights that make a weighted mean over the tasks in ``mask`` the equal-weight mean over
    their cells of each cell's mean: 1 / (cells × the cell's tasks). Fixed at the scope's own
    tasks, so each bootstrap replicate reweights the same cells."""
    out = np.zeros(len(cells))
    kept = cells[mask.astype(bool)]
    names, counts = np.unique(kept, return_counts=True)
    size = dict(zip(names.tolist(), counts.tolist(), strict=True))
    for i in np.flatnonzero(mask):
        out[i] = 1.0 / (len(names) * size[cells[i]])
    return out


def _business_figures(
    view: ScopeView,
    table: TaskTable,
    k: int,
    plan: Plan,
    valid: np.ndarray,
    successes: np.ndarray,
) -> dict[str, Figure]:
    """The four business views of §4.2 as figures: the risk-weighted score, key-process
    success (overall and per chain), the fatal-error rate and boundary correctness."""
    rows, columns = view.rows, view.columns
    weights = columns["risk_weight"].astype(float)
    out = {"risk": figure(table.means["score"][k, rows], plan.data, valid, weights)}
    chain = columns["chain"]
    out["key_process"] = rate(successes, valid, chain != "")
    for cid in sorted(set(chain[(chain != "") & (valid > 0)].tolist())):
        out[f"chain:{cid}"] = rate(successes, valid, chain == cid)
    fatal_failed = np.where(plan.covered, table.fatal_failed[k, rows], 0)
    out["fatal"] = rate(fatal_failed, valid, columns["n_fatal"] > 0)
    out["boundary"] = rate(successes, valid, columns["boundary"].astype(bool))
    return out


def finite_or_none(x: float | None) -> float | None:
    """A published value: None for nothing, or for a value that is not finite."""
    return None if x is None or not np.isfinite(x) else float(x)


def nanmean(values: np.ndarray) -> float:
    """Mean of the non-NaN values, summed as pandas' ``Series.mean`` sums (NaN if none)."""
    missing = np.isnan(values)
    count = len(values) - int(missing.sum())
    total = (np.where(missing, 0.0, values) if missing.any() else values).sum()
    return float(total / float(count)) if count > 0 else NAN


def _nansum(values: np.ndarray) -> float:
    missing = np.isnan(values)
    return float((np.where(missing, 0.0, values) if missing.any() else values).sum())


def point_values(
    view: ScopeView, table: TaskTable, k: int, plan: Plan, figs: Mapping[str, Figure]
) -> dict[str, float]:
    """Each figure's published value: macro-averages summed as pandas sums them."""
    out = {name: f.value for name, f in figs.items()}
    for column in ("score", "rule", "judge"):
        if column in figs:
            mask = plan.data if column != "judge" else plan.judged
            means = table.means[column][k, view.rows][mask]
            out[column] = nanmean(means[~np.isnan(means)])
    if "risk" in figs:
        scores = table.means["score"][k, view.rows][plan.data]
        weights = view.columns["risk_weight"].astype(float)[plan.data]
        out["risk"] = _nansum(scores * weights) / _nansum(weights)
    return out
