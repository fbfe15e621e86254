"""Aggregates of one domain's scopes: task means, then equal-weight macro-averages (§4.2).

A domain's valid runs are summarised once per (combination, task) in a :class:`TaskTable`
(:func:`task_table` refuses runs that span versions or domains before any number is
formed); a scope is a subset of the domain's tasks (:class:`ScopeView`), and each of its
aggregates is a sum over that subset. The bootstrap of every scope of the domain runs in
one pass (:func:`bootstrap`); :func:`aggregate_scope` turns a scope's sums and replicates
into its :class:`ScopeResult`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import combinations as pairs
from typing import TypeVar

import numpy as np
import pandas as pd

from generator.models import Bundle, Release
from generator.score.results import (
    BusinessViews,
    CombinationScores,
    Coverage,
    Difference,
    Efficiency,
    Estimate,
    Rate,
    Reliability,
    ScopeResult,
)
from generator.score.scope import Scope, guard
from generator.score.stats import (
    bank_sums,
    binomial_bank,
    entry_bins,
    multiplicities,
    percentile_intervals,
    reliability_at,
    resampled_means,
    seed_for,
    task_draws,
    wilson,
)

# Per-task means over valid runs (§4.2); the first three are the bootstrapped channels.
MEANS = ("score", "rule", "judge", "input_tokens", "output_tokens", "duration_s", "turns")
CHANNELS = MEANS[:3]
# Task attributes the aggregates read, kept as arrays.
COLUMNS = ("domain", "subdivision", "group", "dual", "risk_weight", "chain", "n_fatal", "boundary")
NAN = float("nan")
Item = TypeVar("Item")
Result = TypeVar("Result")
# Threads for independent per-scope and per-combination work (numpy releases the GIL in
# its heavy loops); results are always gathered in input order, so output is unchanged.
WORKERS = min(4, os.cpu_count() or 1)


def parallel(function: Callable[[Item], Result], items: Sequence[Item]) -> list[Result]:
    """``[function(item) for item in items]``, on :data:`WORKERS` threads."""
    with ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(function, items))


@dataclass(frozen=True)
class TaskTable:
    """One domain's runs per (combination, task): arrays of shape (combinations, tasks),
    combinations and tasks in id order (§4.2: runs are averaged within a task first).

    ``columns`` holds the tasks' attributes; ``values[channel]`` each (combination, task)'s
    non-missing run values of that channel in record order (NaN padded), ``counts[channel]``
    how many there are.
    """

    domain: Scope
    tasks: pd.DataFrame
    columns: Mapping[str, np.ndarray]
    combos: tuple[str, ...]
    valid: np.ndarray
    successes: np.ndarray
    fatal_failed: np.ndarray
    invalid: np.ndarray
    means: Mapping[str, np.ndarray]
    causes: Mapping[str, np.ndarray]
    failures: Mapping[str, np.ndarray]
    values: Mapping[str, np.ndarray]
    counts: Mapping[str, np.ndarray]


def task_table(
    tasks: pd.DataFrame, runs: pd.DataFrame, combos: Sequence[str], domain: Scope
) -> TaskTable:
    """The table of ``domain`` (a whole-domain scope) from a version's tasks and scored runs."""
    chosen = tasks[tasks["domain"] == domain.domain].sort_index()
    mine = runs[runs["task"].isin(chosen.index)]
    guard(mine, domain)
    coded = mine.assign(
        c=pd.Index(combos).get_indexer(pd.Index(mine["combination"])),
        t=chosen.index.get_indexer(pd.Index(mine["task"])),
    )
    coded = coded[coded["c"] >= 0]
    shape = (len(combos), len(chosen))
    ok = coded["valid"].to_numpy(dtype=bool)
    valid, invalid = coded[ok], coded[~ok]
    per_task = valid.groupby(["c", "t"]).agg(
        **{column: (column, "mean") for column in MEANS},
        runs=("score", "size"),
        successes=("success", "sum"),
        fatal_failed=("fatal_failed", "sum"),
    )
    where = (per_task.index.get_level_values(0), per_task.index.get_level_values(1))

    def spread(column: str, fill: float) -> np.ndarray:
        out = np.full(shape, fill)
        out[where] = per_task[column].to_numpy(dtype=float)
        return out

    values, counts = {}, {}
    width = max(int(per_task["runs"].max()) if len(per_task) else 0, 1)
    for channel in CHANNELS:
        values[channel], counts[channel] = _run_values(valid, channel, shape, width)
    causes = _tally(invalid, "cause", shape)
    return TaskTable(
        domain=domain,
        tasks=chosen,
        columns={c: chosen[c].to_numpy() for c in COLUMNS},
        combos=tuple(combos),
        valid=spread("runs", 0).astype(np.int64),
        successes=spread("successes", 0).astype(np.int64),
        fatal_failed=spread("fatal_failed", 0).astype(np.int64),
        invalid=np.sum([*causes.values(), np.zeros(shape, dtype=np.int64)], axis=0),
        means={column: spread(column, NAN) for column in MEANS},
        causes=causes,
        failures=_tally(valid, "failure_type", shape),
        values=values,
        counts=counts,
    )


def _tally(runs: pd.DataFrame, column: str, shape: tuple[int, int]) -> dict[str, np.ndarray]:
    """Runs per (combination, task) for each value of ``column``."""
    labels, names = pd.factorize(runs[column])
    cells = shape[0] * shape[1]
    flat = (labels * shape[0] + runs["c"].to_numpy()) * shape[1] + runs["t"].to_numpy()
    tally = np.bincount(flat, minlength=len(names) * cells).reshape(len(names), *shape)
    return {str(name): tally[i] for i, name in enumerate(names)}


def _run_values(
    runs: pd.DataFrame, column: str, shape: tuple[int, int], width: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each (combination, task)'s non-NaN values of ``column`` in record order (NaN padded
    to ``width``), and their counts."""
    x = runs[column].to_numpy(dtype=float)
    keep = ~np.isnan(x)
    group = (runs["c"].to_numpy() * shape[1] + runs["t"].to_numpy())[keep]
    order = np.argsort(group, kind="stable")
    group, x = group[order], x[keep][order]
    counts = np.bincount(group, minlength=shape[0] * shape[1])
    position = np.arange(len(x)) - (np.cumsum(counts) - counts)[group]
    out = np.full((shape[0] * shape[1], width), np.nan)
    out[group, position] = x
    return out.reshape(*shape, -1), counts.reshape(shape)


@dataclass(frozen=True)
class ScopeView:
    """A scope's tasks as rows of its domain's :class:`TaskTable` (in id order), with
    their attributes (``columns``)."""

    scope: Scope
    rows: np.ndarray
    columns: Mapping[str, np.ndarray]
    seed_key: int


def scope_view(table: TaskTable, scope: Scope) -> ScopeView:
    """The tasks of ``scope`` (of the table's domain)."""
    mask = np.ones(len(table.tasks), dtype=bool)
    if scope.subdivision is not None:
        mask &= table.columns["subdivision"] == scope.subdivision
    if scope.group != "all":
        mask &= table.columns["group"] == scope.group
    rows = np.flatnonzero(mask)
    columns = {name: column[rows] for name, column in table.columns.items()}
    # Seeded by the task set, not the scope's name: two scopes over the same tasks (a
    # sub-division without held-out tasks, all vs public) get the same intervals.
    return ScopeView(scope, rows, columns, seed_for(scope.version, *table.tasks.index[rows]))


def not_covered(
    bundle: Bundle, scope: Scope, columns: Mapping[str, np.ndarray]
) -> tuple[np.ndarray, list[str]]:
    """Which tasks (their ``domain`` and ``subdivision`` columns) the bundle covers in
    ``scope``, and the declarations that remove the others."""
    notes, removed = [], np.zeros(len(columns["domain"]), dtype=bool)
    for nc in bundle.not_covered:
        if nc.domain != scope.domain:
            continue
        if nc.subdivision is None or scope.subdivision in (None, nc.subdivision):
            hit = columns["domain"] == nc.domain
            if nc.subdivision is not None:
                hit = hit & (columns["subdivision"] == nc.subdivision)
            if hit.any():
                removed |= hit
                where = nc.domain + (f"/{nc.subdivision}" if nc.subdivision else "")
                notes.append(f"{where}: {nc.reason}")
    return ~removed, notes


@dataclass(frozen=True)
class Plan:
    """One combination in one scope before any interval: a final result unless scored,
    and the masks (over the scope's tasks) its bootstrap needs."""

    result: CombinationScores | None
    covered: np.ndarray
    data: np.ndarray
    judged: np.ndarray | None
    full: np.ndarray
    coverage: Coverage | None


def plan_combination(
    view: ScopeView, table: TaskTable, k: int, bundle: Bundle, release: Release
) -> Plan:
    """Coverage and status of combination ``k`` of the table in ``view`` (§4.2, §4.4)."""
    combo, n = table.combos[k], release.runs_per_task
    covered, notes = not_covered(bundle, view.scope, view.columns)
    valid = table.valid[k, view.rows]
    data = covered & (valid > 0)
    complete = data & (valid >= n)
    nothing = np.zeros(len(view.rows), dtype=bool)
    if not covered.any():
        note = "; ".join(notes) or None
        result = CombinationScores(combination=combo, status="not-covered", note=note)
        return Plan(result, covered, data, None, nothing, None)
    coverage = _coverage(table, k, view.rows, covered, complete, notes, n)
    if not data.any():
        result = CombinationScores(
            combination=combo,
            status="no-valid-runs",
            note="no valid run in this scope",
            coverage=coverage,
        )
        return Plan(result, covered, data, None, nothing, coverage)
    held = view.columns["group"] == "held-out"
    missing = held & ~complete
    if missing.any():
        result = CombinationScores(
            combination=combo,
            status="withheld",
            note=f"withheld: {int(held.sum() - missing.sum())} of {int(held.sum())} held-out "
            f"tasks have all {n} valid runs; held-out results are shown only over the whole "
            "group, so that no held-out task can be isolated (§4.4)",
            coverage=coverage,
        )
        return Plan(result, covered, data, None, nothing, coverage)
    judged = None
    if not _small_held_out(view, release)(view.columns["dual"]):
        judged = data & (table.counts["judge"][k, view.rows] > 0)
    return Plan(None, covered, data, judged, data & (valid == n), coverage)


def _coverage(
    table: TaskTable,
    k: int,
    rows: np.ndarray,
    covered: np.ndarray,
    complete: np.ndarray,
    notes: list[str],
    n: int,
) -> Coverage:
    """What the numbers rest on; an incomplete evaluation is flagged, never hidden (§4.2)."""
    causes = {c: int(runs[k, rows][covered].sum()) for c, runs in sorted(table.causes.items())}
    return Coverage(
        scope_tasks=len(rows),
        covered_tasks=int(covered.sum()),
        valid_tasks=int((covered & (table.valid[k, rows] > 0)).sum()),
        complete_tasks=int(complete.sum()),
        valid_runs=int(table.valid[k, rows][covered].sum()),
        expected_runs=int(covered.sum()) * n,
        incomplete_runs=int(table.invalid[k, rows][covered].sum()),
        incomplete_causes={c: v for c, v in causes.items() if v > 0},
        complete=bool(complete.sum() == covered.sum()),
        not_covered=notes,
    )


def _small_held_out(view: ScopeView, release: Release) -> Callable[[np.ndarray], bool]:
    """Whether a subset of the scope's tasks holds 1..min-1 held-out tasks (then withheld)."""
    held = view.columns["group"] == "held-out"
    minimum = release.groups.min_held_out_aggregate

    def small(mask: np.ndarray) -> bool:
        count = int((mask.astype(bool) & held).sum())
        return 0 < count < minimum

    return small


def has_views(release: Release, scope: Scope) -> bool:
    """Whether the scope's domain reports the business views of §4.2."""
    return any(d.id == scope.domain and d.business_views for d in release.domains)


# --- bootstrap (§4.2): see generator.score.stats for the scheme ---------------------------


@dataclass(frozen=True)
class ScopeReplicates:
    """Bootstrap replicates of one scope: ``series`` per (combination index, quantity),
    quantities "score", "rule", "judge", "risk" and "reliability@k"; ``pairs`` the paired
    differences a − b of Task Scores over the tasks both have, per (a, b)."""

    series: dict[tuple[int, str], np.ndarray]
    pairs: dict[tuple[int, int], np.ndarray]


@dataclass(frozen=True)
class _Reader:
    """Reads one scope's sums out of banks whose rows are the domain's tasks in bank order:
    ``bins`` (scope tasks in bank order × entries) and the contiguous ``blocks`` (bank
    start, bank stop, first bins row) they cover."""

    bins: np.ndarray
    blocks: list[tuple[int, int, int]]
    n_bins: int

    def sums(self, bank: np.ndarray) -> np.ndarray:
        """Per bin, the sum of the bank entries that go there."""
        total = np.zeros(self.n_bins, dtype=bank.dtype)
        for start, stop, at in self.blocks:
            total += bank_sums(self.bins[at : at + stop - start], bank[start:stop], self.n_bins)
        return total


@dataclass(frozen=True)
class _Layout:
    """How a scope's draws read the banks: ``counts[b, t]`` draws of task t in replicate b
    (as floats for exact integer products, :func:`_exact_counts`); ``signature`` (cells ×
    combinations) and risk ``weight`` of the cells that group tasks with the same scored
    combinations and risk weight; ``cell_counts`` (cells × B) draws per cell; ``judged``
    (B × combinations) draws of tasks in each combination's Judge estimate; readers for all
    tasks and for the Judge tasks."""

    counts: np.ndarray
    signature: np.ndarray
    weight: np.ndarray
    cell_counts: np.ndarray
    judged: np.ndarray
    every: _Reader
    judge: _Reader


def bootstrap(
    table: TaskTable,
    views: Sequence[ScopeView],
    plans: Sequence[Mapping[int, Plan]],
    bundles: Mapping[str, Bundle],
    release: Release,
) -> list[ScopeReplicates]:
    """Replicates of every scored combination (plan without a final result) of every scope.

    Stage one draws each scope's tasks from the scope's own seed; stage two reads one bank
    of resampled means per (combination, channel, task), seeded by the domain's task set
    and shared by all its scopes.
    """
    stats = release.statistics
    scored = [{k: p for k, p in scope.items() if p.result is None} for scope in plans]
    counts = parallel(
        lambda v: multiplicities(
            task_draws(len(v.rows), stats.bootstrap_samples, seed_for(stats.seed, v.seed_key)),
            len(v.rows),
        ),
        views,
    )
    width = max((int(w.sum(axis=0).max(initial=0)) for w in counts), default=0)
    order = _bank_order(table)
    position = np.argsort(order)
    views_on = has_views(release, table.domain)
    layouts = parallel(
        lambda i: _layout(
            views[i], counts[i], scored[i], position, width, len(table.combos), views_on
        ),
        range(len(views)),
    )
    out = [ScopeReplicates({}, {}) for _ in views]
    cells: list[dict[int, np.ndarray]] = [{} for _ in views]
    domain_key = seed_for(table.domain.version, *table.tasks.index)

    def combination(k: int) -> list[tuple[dict[tuple[int, str], np.ndarray], np.ndarray] | None]:
        # Score and rule banks as the real and imaginary parts of one array: both are read
        # through the same bins, so one pass sums both (see bank_sums).
        scores = np.empty((len(table.tasks), width), dtype=complex)
        judge = np.empty((len(table.tasks), width))
        seed = seed_for(stats.seed, domain_key, table.combos[k])
        _banks(table, k, bundles[table.combos[k]], order, seed, [scores, judge])
        return [
            _read(layout, k, plan[k], scores, judge, views_on) if k in plan else None
            for layout, plan in zip(layouts, scored, strict=True)
        ]

    combos = sorted({k for plan in scored for k in plan})
    for k, found in zip(combos, parallel(combination, combos), strict=True):
        for i, read in enumerate(found):
            if read is not None:
                out[i].series.update(read[0])
                cells[i][k] = read[1]
    _reliability(table, views, layouts, scored, release, domain_key, out)
    scope_pairs = parallel(lambda i: _pairs(layouts[i], cells[i]), range(len(views)))
    for reps, found_pairs in zip(out, scope_pairs, strict=True):
        reps.pairs.update(found_pairs)
    return out


def _bank_order(table: TaskTable) -> np.ndarray:
    """Bank rows: the domain's tasks by group, sub-division and Judge, then id, so that
    every scope is one or two contiguous blocks of rows (its Judge tasks a few more)."""
    columns = table.columns
    keys = [pd.factorize(columns[c], sort=True)[0] for c in ("dual", "subdivision", "group")]
    order: np.ndarray = np.lexsort(keys)
    return order


def _reader(positions: np.ndarray, rows: np.ndarray, bins: np.ndarray, n_bins: int) -> _Reader:
    """A reader of the bank rows ``positions`` (ascending), whose entries go to the rows
    ``rows`` (ascending, consecutive wherever ``positions`` are) of ``bins``."""
    breaks = np.flatnonzero((np.diff(positions) != 1) | (np.diff(rows) != 1)) + 1
    starts = np.concatenate(([0], breaks)).astype(int)
    stops = np.concatenate((breaks, [len(positions)])).astype(int)
    blocks = [
        (int(positions[a]), int(positions[b - 1]) + 1, int(rows[a]))
        for a, b in zip(starts, stops, strict=True)
        if b > a
    ]
    return _Reader(bins, blocks, n_bins)


def _layout(
    view: ScopeView,
    counts: np.ndarray,
    scored: Mapping[int, Plan],
    position: np.ndarray,
    width: int,
    n_combos: int,
    views_on: bool,
) -> _Layout:
    """The layout of one scope from its draws per replicate and task (``counts``), its
    scored plans, and the bank row of each domain task (``position``); cells split by risk
    weight only for a domain with business views."""
    signature = np.zeros((len(view.rows), n_combos), dtype=np.int64)
    judged = np.zeros((len(view.rows), n_combos))
    for k, plan in scored.items():
        signature[:, k] = plan.data
        if plan.judged is not None:
            judged[:, k] = plan.judged
    risk = np.zeros(len(view.rows), dtype=np.int64)
    if views_on:
        risk = pd.factorize(view.columns["risk_weight"], use_na_sentinel=False)[0]
    keys, cells = np.unique(np.column_stack([signature, risk]), axis=0, return_inverse=True)
    cells = cells.ravel()
    onehot = np.zeros((len(view.rows), len(keys)))
    onehot[np.arange(len(view.rows)), cells] = 1.0
    weight = np.zeros(len(keys))
    weight[cells] = view.columns["risk_weight"].astype(float)
    n_bins = len(keys) * len(counts)
    banked = position[view.rows]
    by_bank = np.argsort(banked)
    bins = entry_bins(counts[:, by_bank], cells[by_bank], len(keys), width)
    exact = _exact_counts(counts)
    dual = np.flatnonzero(view.columns["dual"][by_bank].astype(bool))
    return _Layout(
        counts=exact,
        signature=keys[:, :-1].astype(bool),
        weight=weight,
        cell_counts=(exact @ onehot.astype(exact.dtype)).T.astype(float),
        judged=(exact @ judged.astype(exact.dtype)).astype(float),
        every=_reader(banked[by_bank], np.arange(len(by_bank)), bins, n_bins),
        judge=_reader(banked[by_bank][dual], dual, bins, n_bins),
    )


def _exact_counts(counts: np.ndarray) -> np.ndarray:
    """Draw counts as floats whose products with 0/1 matrices are exact integers in any
    summation order: single precision while every such sum (at most the number of tasks)
    stays below 2**24, else double."""
    exact = np.float32 if counts.shape[1] < 1 << 24 else np.float64
    return counts.astype(exact)


def _banks(
    table: TaskTable,
    k: int,
    bundle: Bundle,
    order: np.ndarray,
    seed: int,
    out: Sequence[np.ndarray],
) -> None:
    """Fill ``out`` (score, rule, judge, or score + i·rule and judge; rows in bank order)
    with resampled means of combination k's values per task, over the tasks it covers. A
    task whose every valid run has a Judge result resamples its Judge values with the same
    draws as its scores."""
    covered = not_covered(bundle, table.domain, table.columns)[0][order]
    runs = np.where(covered, table.counts["score"][k][order], 0)
    judged = np.where(covered, table.counts["judge"][k][order], 0)
    values = [table.values[c][k][order] for c in CHANNELS]
    resampled_means(values, runs, seed_for(seed, "runs"), out)
    resampled_means(
        values[2:], np.where(judged == runs, 0, judged), seed_for(seed, "judge"), out[-1:]
    )
    for bank in out[:-1]:
        bank[runs == 0] = 0.0
    out[-1][judged == 0] = 0.0


def _ratio(total: np.ndarray, mass: np.ndarray) -> np.ndarray:
    """Replicate means; NaN where a replicate drew no task with data."""
    out = np.full(np.broadcast_shapes(total.shape, mass.shape), np.nan)
    np.divide(total, mass, out=out, where=mass > 0)
    return out


def _read(
    layout: _Layout, k: int, plan: Plan, scores: np.ndarray, judge: np.ndarray, views_on: bool
) -> tuple[dict[tuple[int, str], np.ndarray], np.ndarray]:
    """Macro-average replicates of combination k in one scope from its banks (``scores``:
    Task Score + i·rule score; ``judge``), and its Task Score sums per cell (cells × B) for
    the paired differences."""
    shape = layout.cell_counts.shape
    mine = layout.signature[:, k]
    both = layout.every.sums(scores)
    cells = np.ascontiguousarray(both.real).reshape(shape)
    mass = layout.cell_counts[mine].sum(axis=0)
    rule_sums = np.ascontiguousarray(both.imag).reshape(shape)
    series = {
        (k, "score"): _ratio(cells[mine].sum(axis=0), mass),
        (k, "rule"): _ratio(rule_sums[mine].sum(axis=0), mass),
    }
    if plan.judged is not None:
        total = layout.judge.sums(judge).reshape(shape).sum(axis=0)
        series[(k, "judge")] = _ratio(total, layout.judged[:, k])
    if views_on:
        weight = layout.weight[mine][:, None]
        series[(k, "risk")] = _ratio(
            (cells[mine] * weight).sum(axis=0), (layout.cell_counts[mine] * weight).sum(axis=0)
        )
    return series, cells


def _pairs(layout: _Layout, cells: Mapping[int, np.ndarray]) -> dict[tuple[int, int], np.ndarray]:
    """Paired-difference replicates over the tasks both combinations have (same draws),
    computed at once for all pairs with the same common tasks."""
    out: dict[tuple[int, int], np.ndarray] = {}
    for shared, members in _by_common(layout.signature, sorted(cells)):
        sums = {k: cells[k][shared].sum(axis=0) for k in {k for pair in members for k in pair}}
        mass = layout.cell_counts[shared].sum(axis=0)
        first, second = (np.stack([sums[k] for k in ks]) for ks in zip(*members, strict=True))
        out.update(zip(members, _ratio(first - second, mass), strict=True))
    return out


def _by_common(
    masks: np.ndarray, scored: list[int]
) -> list[tuple[np.ndarray, list[tuple[int, int]]]]:
    """Pairs of scored combinations (columns of ``masks``) grouped by the rows both have
    (groups in order of their first pair); pairs without a common row are left out."""
    columns = np.ascontiguousarray(masks.T, dtype=bool)
    groups: dict[bytes, tuple[np.ndarray, list[tuple[int, int]]]] = {}
    for a, b in pairs(scored, 2):
        common = columns[a] & columns[b]
        if common.any():
            groups.setdefault(common.tobytes(), (common, []))[1].append((a, b))
    return list(groups.values())


def _reliability(
    table: TaskTable,
    views: Sequence[ScopeView],
    layouts: Sequence[_Layout],
    scored: Sequence[Mapping[int, Plan]],
    release: Release,
    domain_key: int,
    out: list[ScopeReplicates],
) -> None:
    """reliability@k replicates: redraw the tasks with all n valid runs, then each drawn
    task's successes as Binomial(n, c/n), so run-to-run noise counts too (§4.2(3)).

    Only the success counts c of the drawn tasks matter, so stage one is kept as draws per
    count, and stage two reads one bank of Binomial(n, c/n) draws per count c, shared by
    every scope and combination (their intervals are never combined).
    """
    stats, n, ks = release.statistics, release.runs_per_task, release.reliability_k
    # The totals that size the banks come without the per-replicate counts, which are then
    # formed one scope at a time per worker: never every scope's (combinations × (n + 1) ×
    # B) array at once.
    drawn = parallel(lambda i: _successes(table, views[i], scored[i], release), range(len(views)))
    totals = [
        _success_totals(found, layout, n) for found, layout in zip(drawn, layouts, strict=True)
    ]
    totals = [t for t in totals if len(t)]
    if not totals:
        return
    need = np.concatenate(totals).max(axis=0)[1:n]  # no success or all n: the redraw is certain
    seed = seed_for(stats.seed, domain_key, "reliability")
    # Per count 1..n-1 and k: 0, then the prefix sums of reliability_at over its bank.
    base = (np.cumsum(need + 1) - (need + 1)).astype(np.int64)  # one entry per count
    prefix = np.zeros((len(ks), int(need.sum()) + len(need)))
    for c, (start, size) in enumerate(zip(base, need.tolist(), strict=True), 1):
        redrawn = binomial_bank(n, c, size, seed)
        for j, k in enumerate(ks):
            np.cumsum(reliability_at(redrawn, n, k), out=prefix[j, start + 1 : start + 1 + size])
    found = parallel(
        lambda i: _reliability_replicates(
            drawn[i].combos, _success_counts(drawn[i], layouts[i], n), prefix, base, release
        ),
        range(len(views)),
    )
    for reps, series in zip(out, found, strict=True):
        reps.series.update(series)


def _reliability_replicates(
    combos: list[int], per_count: np.ndarray, prefix: np.ndarray, base: np.ndarray, release: Release
) -> dict[tuple[int, str], np.ndarray]:
    """One scope's reliability@k replicates from its draws per success count (combinations
    × (n + 1) × B) and the prefix sums of the banks (see :func:`_reliability`)."""
    n, ks = release.runs_per_task, release.reliability_k
    if not combos:
        return {}
    # Replicate b's draws of count c take entries offset[b] .. offset[b + 1] of its bank.
    offset = np.zeros((*per_count[:, 1:n].shape[:2], per_count.shape[2] + 1), dtype=np.int64)
    np.cumsum(per_count[:, 1:n], axis=2, out=offset[:, :, 1:])
    where = offset + base[None, :, None]
    tasks = per_count[:, :, 0].sum(axis=1)[:, None]
    out = {}
    for j, rk in enumerate(ks):
        total = np.diff(prefix[j].take(where), axis=2).sum(axis=1)
        certain = reliability_at(np.array([0, n]), n, rk)
        total += certain[0] * per_count[:, 0] + certain[1] * per_count[:, n]
        out.update({(k, f"reliability@{rk}"): total[i] / tasks[i] for i, k in enumerate(combos)})
    return out


@dataclass(frozen=True)
class _Successes:
    """How one scope draws tasks with all n valid runs by success count 0..n. The first
    ``tallied`` of ``combos`` (every scope task has all n runs) are read off the scope's own
    draws through ``onehot`` (tasks × (tallied × (n + 1))); the rest are ``redrawn`` as
    multinomial draws of their tasks' counts ((n + 1) × B each)."""

    combos: list[int]
    tallied: int
    onehot: np.ndarray
    redrawn: list[np.ndarray]


def _successes(
    table: TaskTable, view: ScopeView, scored: Mapping[int, Plan], release: Release
) -> _Successes:
    """The reliability draws of one scope's scored combinations (see :class:`_Successes`)."""
    stats, n = release.statistics, release.runs_per_task
    every = [k for k, p in scored.items() if p.full.all()]
    onehot = np.zeros((len(view.rows), len(every) * (n + 1)), dtype=np.float32)
    for j, k in enumerate(every):
        onehot[np.arange(len(view.rows)), j * (n + 1) + table.successes[k, view.rows]] = 1.0
    combos, redrawn = list(every), []
    for k, plan in scored.items():
        if k in combos or not plan.full.any():
            continue
        full = int(plan.full.sum())
        share = np.bincount(table.successes[k, view.rows][plan.full], minlength=n + 1) / full
        rng = np.random.default_rng(
            seed_for(stats.seed, view.seed_key, table.combos[k], "reliability")
        )
        combos.append(k)
        redrawn.append(rng.multinomial(full, share, size=stats.bootstrap_samples).T)
    return _Successes(combos, len(every), onehot, redrawn)


def _success_counts(found: _Successes, layout: _Layout, n: int) -> np.ndarray:
    """Per combination, how many drawn tasks with all n valid runs have each success count
    0..n, per replicate (combinations × (n + 1) × B)."""
    samples = layout.counts.shape[0]
    # Every task has all n runs: the scope's own draws are such a draw (integer-valued).
    tallies = (layout.counts @ found.onehot.astype(layout.counts.dtype)).astype(np.int64)
    tallied = tallies.reshape(samples, found.tallied, n + 1).transpose(1, 2, 0)
    return np.concatenate([tallied, *(r[None] for r in found.redrawn)])


def _success_totals(found: _Successes, layout: _Layout, n: int) -> np.ndarray:
    """:func:`_success_counts` summed over the replicates (combinations × (n + 1)), without
    forming it: each task's draws over all replicates, through the same one-hot columns."""
    drawn = np.rint(layout.counts.sum(axis=0, dtype=np.float64)).astype(np.int64)
    tallied = (drawn @ found.onehot.astype(np.int64)).reshape(found.tallied, n + 1)
    return np.concatenate([tallied, *(r.sum(axis=1)[None] for r in found.redrawn)])


# --- results -------------------------------------------------------------------------------


def _none(x: float) -> float | None:
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


def _rate(successes: int, trials: int, confidence: float) -> Rate | None:
    if trials == 0:
        return None
    low, high = wilson(successes, trials, confidence)
    return Rate(successes=successes, trials=trials, value=successes / trials, low=low, high=high)


Interval = Callable[[tuple[int, str]], tuple[float, float]]


def _intervals(reps: ScopeReplicates, confidence: float) -> dict[object, tuple[float, float]]:
    """Percentile interval of every replicate series and pair of a scope."""
    keys: list[object] = [*reps.series, *reps.pairs]
    if not keys:
        return {}
    rows = np.vstack([*reps.series.values(), *reps.pairs.values()])
    found = percentile_intervals(rows, confidence)
    return {key: (float(low), float(high)) for key, (low, high) in zip(keys, found, strict=True)}


def score_combination(
    view: ScopeView,
    table: TaskTable,
    k: int,
    plan: Plan,
    interval: Interval,
    release: Release,
) -> CombinationScores:
    """Every aggregate of scored combination k in one scope (§4.2)."""
    conf = release.statistics.confidence
    data = plan.data

    def of(column: str) -> np.ndarray:
        values: np.ndarray = table.means[column][k, view.rows][data]
        return values

    def estimate(column: str) -> Estimate:
        means = of(column)
        means = means[~np.isnan(means)]
        low, high = interval((k, column))
        value = nanmean(means)
        return Estimate(value=_none(value), low=_none(low), high=_none(high), tasks=len(means))

    judge_coverage = f"{int(view.columns['dual'][data].sum())} of {int(data.sum())} tasks"
    if plan.judged is None:
        judge_coverage = "withheld: too few held-out tasks with the Judge enabled (§4.4)"
    valid = np.where(plan.covered, table.valid[k, view.rows], 0)
    successes = np.where(plan.covered, table.successes[k, view.rows], 0)
    failures = {
        f.id: int(table.failures[f.id][k, view.rows][plan.covered].sum())
        for f in release.enumerations.failure_types
        if f.id in table.failures
    }
    return CombinationScores(
        combination=table.combos[k],
        status="scored",
        task_score=estimate("score"),
        rule_score=estimate("rule"),
        judge_score=None if plan.judged is None else estimate("judge"),
        judge_coverage=judge_coverage,
        success_rate=_rate(int(successes.sum()), int(valid.sum()), conf),
        reliability=_reliability_values(table, view, k, plan, interval, release),
        reliability_tasks=int(plan.full.sum()),
        reliability_excluded=int(plan.covered.sum() - plan.full.sum()),
        efficiency=Efficiency(
            input_tokens=_none(nanmean(of("input_tokens"))),
            output_tokens=_none(nanmean(of("output_tokens"))),
            total_tokens=_none(nanmean(of("input_tokens") + of("output_tokens"))),
            duration_s=_none(nanmean(of("duration_s"))),
            turns=_none(nanmean(of("turns"))),
        ),
        failure_types={f: c for f, c in failures.items() if c > 0},
        business=_business(view, table, k, plan, interval, release)
        if has_views(release, view.scope)
        else None,
        coverage=plan.coverage,
    )


def _reliability_values(
    table: TaskTable, view: ScopeView, k: int, plan: Plan, interval: Interval, release: Release
) -> list[Reliability]:
    """reliability@k over the tasks with all n valid runs (§4.2(3)), with its interval."""
    if not plan.full.any():
        return []
    successes = table.successes[k, view.rows][plan.full]
    out = []
    for rk in release.reliability_k:
        low, high = interval((k, f"reliability@{rk}"))
        value = float(reliability_at(successes, release.runs_per_task, rk).mean())
        out.append(Reliability(k=rk, value=value, low=low, high=high))
    return out


def _business(
    view: ScopeView, table: TaskTable, k: int, plan: Plan, interval: Interval, release: Release
) -> BusinessViews:
    """Risk-weighted score, key-process success, fatal-error rate, boundary correctness.

    A view over a subset of tasks is withheld (None) when that subset holds 1..min-1
    held-out tasks; the risk-weighted score also when any risk class does (with the Task
    Score it would reveal that class's mean).
    """
    conf = release.statistics.confidence
    columns = view.columns
    small = _small_held_out(view, release)
    data, covered = plan.data, plan.covered
    risk = None
    weights = columns["risk_weight"].astype(float)
    classes = [weights == w for w in sorted(set(weights.tolist()))]
    if data.any() and not any(small(c) for c in classes):
        scores = table.means["score"][k, view.rows][data]
        value = _nansum(scores * weights[data]) / _nansum(weights[data])
        low, high = interval((k, "risk"))
        risk = Estimate(value=_none(value), low=_none(low), high=_none(high), tasks=int(data.sum()))
    valid = np.where(covered, table.valid[k, view.rows], 0)
    success = np.where(covered, table.successes[k, view.rows], 0)
    chain = columns["chain"]
    on_chain = chain != ""
    chains = {}
    for cid in sorted(set(chain[on_chain & (valid > 0)].tolist())):
        if small(chain == cid):
            continue
        rate = _rate(int(success[chain == cid].sum()), int(valid[chain == cid].sum()), conf)
        if rate is not None:
            chains[str(cid)] = rate
    has_fatal = columns["n_fatal"] > 0
    fatal = None
    if has_fatal.any() and not small(has_fatal):
        failed = int(np.where(covered, table.fatal_failed[k, view.rows], 0).sum())
        fatal = _rate(failed, int(valid[has_fatal].sum()), conf)
    boundary = columns["boundary"].astype(bool)
    withheld = [
        name
        for name, hidden in (
            ("risk_weighted_score", any(small(c) for c in classes)),
            ("key_process_success", small(on_chain)),
            ("fatal_error_rate", small(has_fatal)),
            ("boundary_correctness", small(boundary)),
        )
        if hidden
    ]
    return BusinessViews(
        risk_weighted_score=risk,
        key_process_success=None
        if "key_process_success" in withheld
        else _rate(int(success[on_chain].sum()), int(valid[on_chain].sum()), conf),
        key_process_chains=chains,
        fatal_error_rate=fatal,
        boundary_correctness=None
        if "boundary_correctness" in withheld
        else _rate(int(success[boundary].sum()), int(valid[boundary].sum()), conf),
        withheld=withheld,
    )


def _differences(
    view: ScopeView,
    table: TaskTable,
    plans: Mapping[int, Plan],
    intervals: Mapping[object, tuple[float, float]],
    minimum: int,
) -> list[Difference]:
    """Paired differences over the tasks both combinations have, with their intervals."""
    data = np.zeros((len(view.rows), len(table.combos)), dtype=bool)
    for k, plan in plans.items():
        data[:, k] = plan.data
    found = {}
    for shared, members in _by_common(data, sorted(plans)):
        # Contiguous rows, so each row sums as a lone array would (pandas' mean).
        score = np.ascontiguousarray(table.means["score"][:, view.rows][:, shared])
        a, b = np.array(members).T
        values = (score[a] - score[b]).sum(axis=1) / float(shared.sum())
        found.update(
            {pair: (float(v), int(shared.sum())) for pair, v in zip(members, values, strict=True)}
        )
    out = []
    for (a, b), (value, tasks) in sorted(found.items()):
        low, high = intervals[(a, b)]
        out.append(
            Difference(
                a=table.combos[a],
                b=table.combos[b],
                value=value,
                low=low,
                high=high,
                tasks=tasks,
                significant=bool(tasks >= minimum and (low > 0 or high < 0)),
            )
        )
    return out


def _ranks(names: list[str], diffs: list[Difference]) -> dict[str, int]:
    """1 + how many combinations are significantly better (LMArena's rank upper bound)."""
    beaten_by = dict.fromkeys(names, 0)
    for d in diffs:
        if d.significant:
            beaten_by[d.b if d.low > 0 else d.a] += 1  # low > 0: a better; high < 0: b better
    return {n: 1 + beaten_by[n] for n in names}


def _pareto(results: dict[str, CombinationScores], tokenizers: dict[str, str]) -> set[str]:
    """Combinations no other of the same tokenizer beats on both score and total tokens."""
    front = set()
    for name, r in results.items():
        if r.task_score is None or r.efficiency is None:
            continue
        s, t = r.task_score.value, r.efficiency.total_tokens
        if s is None or t is None:
            continue
        dominated = False
        for other, o in results.items():
            if other == name or tokenizers[other] != tokenizers[name]:
                continue
            if o.task_score is None or o.efficiency is None:
                continue
            os, ot = o.task_score.value, o.efficiency.total_tokens
            if os is None or ot is None:
                continue
            if os >= s and ot <= t and (os > s or ot < t):
                dominated = True
                break
        if not dominated:
            front.add(name)
    return front


def aggregate_scope(
    view: ScopeView,
    table: TaskTable,
    plans: Mapping[int, Plan],
    reps: ScopeReplicates,
    bundles: Mapping[str, Bundle],
    release: Release,
    title: str,
) -> ScopeResult:
    """All combinations' aggregates in one scope, their paired differences and tie groups."""
    stats = release.statistics
    intervals = _intervals(reps, stats.confidence)

    def interval(key: tuple[int, str]) -> tuple[float, float]:
        return intervals.get(key, (NAN, NAN))

    every = {
        table.combos[k]: plan.result
        if plan.result is not None
        else score_combination(view, table, k, plan, interval, release)
        for k, plan in plans.items()
    }
    scored_plans = {k: p for k, p in plans.items() if p.result is None}
    scored = {n: r for n, r in every.items() if r.status == "scored"}
    diffs = _differences(view, table, scored_plans, intervals, stats.min_tasks_to_order)
    ranks = _ranks(sorted(scored), diffs)
    tokenizers = {n: b.combination.model.tokenizer for n, b in bundles.items()}
    # Only combinations measured on the very same tasks are compared for the frontier.
    comparable = {
        n: r
        for n, r in scored.items()
        if r.coverage is not None and r.coverage.complete and not r.coverage.not_covered
    }
    front = _pareto(comparable, tokenizers)
    combos = []
    for name in sorted(every):
        r = every[name]
        if name in scored:
            pareto = (name in front) if name in comparable else None
            combos.append(r.model_copy(update={"rank": ranks[name], "pareto": pareto}))
        else:
            combos.append(r)
    groups: dict[int, list[str]] = {}
    for name, rank in ranks.items():
        groups.setdefault(rank, []).append(name)
    return ScopeResult(
        scope=view.scope,
        title=title,
        tasks=len(view.rows),
        combinations=combos,
        differences=diffs,
        tie_groups=[sorted(groups[r]) for r in sorted(groups)],
    )
