"""One domain's runs summarised per (combination, task), and the scopes cut from it (§4.2).

A domain's valid runs are summarised once per (combination, task) in a :class:`TaskTable`
(:func:`task_table` refuses runs that span versions or domains before any number is
formed); a scope is a subset of the domain's tasks (:class:`ScopeView`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from generator.models import Bundle
from generator.score.cuts import holds
from generator.score.results import EFFICIENCY_COUNTS
from generator.score.scope import Scope, guard
from generator.score.stats import seed_for

# Per-task means over valid runs (§4.2); the first three are the scoring channels.
MEANS = (
    "score",
    "rule",
    "judge",
    "input_tokens",
    "output_tokens",
    "total_tokens",
    "duration_s",
    "turns",
)
CHANNELS = MEANS[:3]
# Task attributes the aggregates read, kept as arrays.
COLUMNS = ("domain", "subdivision", "group", "dual", "risk_weight", "chain", "n_fatal", "boundary")
NAN = float("nan")


@dataclass(frozen=True)
class TaskTable:
    """One domain's runs per (combination, task): arrays of shape (combinations, tasks),
    combinations and tasks in id order (§4.2: runs are averaged within a task first).

    ``columns`` holds the tasks' attributes; ``counts[channel]`` how many valid runs of each
    (combination, task) have a value of that channel (or of an ``extra`` run column: the
    judged overall, a judged dimension, a measured resource; or an efficiency count);
    ``spread[column]`` the variance of those values of each (combination, task) (NaN under
    two runs), the run noise of a measure not confined to [0, 1].
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
    counts: Mapping[str, np.ndarray]
    spread: Mapping[str, np.ndarray]
    extra: tuple[str, ...] = ()
    primary_set: str | None = None  # the domain's first task set: its scopes without a set


def task_table(
    tasks: pd.DataFrame,
    runs: pd.DataFrame,
    combos: Sequence[str],
    domain: Scope,
    extra: Sequence[str] = (),
    primary_set: str | None = None,
) -> TaskTable:
    """The table of ``domain`` (a whole-domain scope) from a version's tasks and scored runs;
    ``extra``: further run columns averaged per task like the channels."""
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
    counted = (*CHANNELS, *EFFICIENCY_COUNTS, *extra)
    # A run's total over the runs that record both kinds (NaN without both): a task's mean
    # total is the mean input plus the mean output only where the same runs record each.
    valid = valid.assign(total_tokens=valid["input_tokens"] + valid["output_tokens"])
    per_task = valid.groupby(["c", "t"]).agg(
        **{column: (column, "mean") for column in (*MEANS, *extra)},
        **{f"{column}_runs": (column, "count") for column in counted},
        **{f"{column}_var": (column, "var") for column in ("score", *extra)},
        runs=("score", "size"),
        successes=("success", "sum"),
        fatal_failed=("fatal_failed", "sum"),
    )
    where = (per_task.index.get_level_values(0), per_task.index.get_level_values(1))

    def spread(column: str, fill: float) -> np.ndarray:
        out = np.full(shape, fill)
        out[where] = per_task[column].to_numpy(dtype=float)
        return out

    causes = _tally(invalid, "cause", shape)
    return TaskTable(
        domain=domain,
        tasks=chosen,
        columns={c: chosen[c].to_numpy() for c in (*COLUMNS, *facet_columns(chosen))},
        combos=tuple(combos),
        valid=spread("runs", 0).astype(np.int64),
        successes=spread("successes", 0).astype(np.int64),
        fatal_failed=spread("fatal_failed", 0).astype(np.int64),
        invalid=np.sum([*causes.values(), np.zeros(shape, dtype=np.int64)], axis=0),
        means={column: spread(column, NAN) for column in (*MEANS, *extra)},
        causes=causes,
        failures=_tally(valid, "failure_type", shape),
        counts={c: spread(f"{c}_runs", 0).astype(np.int64) for c in counted},
        spread={c: spread(f"{c}_var", NAN) for c in ("score", *extra)},
        extra=tuple(extra),
        primary_set=primary_set,
    )


def facet_columns(tasks: pd.DataFrame) -> list[str]:
    """The task table's facet columns (``facet:<id>``), one per facet of the release, and
    task-set columns (``set:<id>``: the set's id where the task belongs to it, else ""), the
    Judge channels that judge it (``channels``) and the shares of its judged dimensions and
    rule classes (``struct:<group>``), where the release declares them."""
    return [
        str(c)
        for c in tasks.columns
        if str(c).startswith(("facet:", "set:", "struct:")) or str(c) == "channels"
    ]


def _tally(runs: pd.DataFrame, column: str, shape: tuple[int, int]) -> dict[str, np.ndarray]:
    """Runs per (combination, task) for each value of ``column``."""
    labels, names = pd.factorize(runs[column])
    cells = shape[0] * shape[1]
    flat = (labels * shape[0] + runs["c"].to_numpy()) * shape[1] + runs["t"].to_numpy()
    tally = np.bincount(flat, minlength=len(names) * cells).reshape(len(names), *shape)
    return {str(name): tally[i] for i, name in enumerate(names)}


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
    for facet, value in scope.facets:
        mask &= holds(table.columns[f"facet:{facet}"], value)
    task_set = scope.task_set or table.primary_set
    if task_set is not None:  # one set: no figure pools a domain's task sets
        mask &= table.columns[f"set:{task_set}"] == task_set
    rows = np.flatnonzero(mask)
    columns = {name: column[rows] for name, column in table.columns.items()}
    # Seeded by the task set, not the scope's name: two scopes over the same tasks (a
    # sub-division without held-out tasks, all vs public) get the same intervals.
    return ScopeView(scope, rows, columns, seed_for(scope.version, *table.tasks.index[rows]))


def not_covered(
    bundle: Bundle, scope: Scope, columns: Mapping[str, np.ndarray], task_set: str | None = None
) -> tuple[np.ndarray, list[str]]:
    """Which tasks (their ``domain`` and ``subdivision`` columns) the bundle covers in
    ``scope`` (of the domain's ``task_set``, where it publishes sets), and the declarations
    that remove the others."""
    notes, removed = [], np.zeros(len(columns["domain"]), dtype=bool)
    for nc in bundle.not_covered:
        if nc.domain != scope.domain or nc.task_set not in (None, task_set):
            continue
        if nc.task_set is not None:
            removed |= columns["domain"] == nc.domain
            notes.append(f"{nc.domain} ({nc.task_set} set): {nc.reason}")
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


def covered_tasks(bundle: Bundle, scope: Scope, columns: Mapping[str, np.ndarray]) -> np.ndarray:
    """Which tasks the bundle covers, task by task: those :func:`not_covered` leaves, and,
    where the domain publishes task sets, only those in a set the bundle does not declare
    not covered (a task of a set it left out was not run: not covered, not "no valid runs")."""
    covered = not_covered(bundle, scope, columns)[0]
    sets = {key[4:]: column for key, column in columns.items() if key.startswith("set:")}
    if not sets:
        return covered
    left = {nc.task_set for nc in bundle.not_covered if nc.domain == scope.domain}
    in_any = np.zeros(len(covered), dtype=bool)
    in_kept = np.zeros(len(covered), dtype=bool)
    for name, column in sets.items():
        member = column == name
        in_any |= member
        if name not in left:
            in_kept |= member
    out: np.ndarray = covered & (in_kept | ~in_any)
    return out
