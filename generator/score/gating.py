"""Every figure of one domain through the privacy gate, in the order the site shows them
(§4.4, §7.2): the one place that decides which figures over held-out tasks are published.

Per combination, one :class:`~generator.score.gate.Gate` takes the figures of every scope:
first each scope's outcome (the Task Score with its interval), scope by scope in the order
shown, then every other figure of each scope (success, reliability@k, the channels, the
business views, the measures, the efficiency means, the failure types), then the paired
differences of each pair of combinations, against what both have admitted. A figure the gate
refuses is not published (:class:`Gated` says which and why); pages only display what it
admitted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from generator.models import Release
from generator.score.functionals import (
    Coordinates,
    combination_of,
    coordinates,
    figure_functionals,
    moved,
    task_of,
)
from generator.score.gate import Functional, Gate
from generator.score.intervals import Figure, figure, skewed
from generator.score.memory import Memory
from generator.score.plan import Plan
from generator.score.ranking import PairFigure
from generator.score.table import ScopeView, TaskTable

#: Why a figure over held-out tasks is not published.
GATED = (
    "withheld: with the figures already published, this one would let a figure over fewer "
    "than {} held-out tasks be derived (§4.4, §7.2)"
)

#: The efficiency means, each a figure for the gate only (they carry no interval).
EFFICIENCY = ("input_tokens", "output_tokens", "total_tokens", "duration_s", "turns")


def statistic(name: str) -> str:
    """The per-task statistic a figure (by its name in :func:`figures`) is a mean of."""
    if name in ("score", "risk", "cells"):
        return "score"
    if name in ("success", "key_process", "boundary") or name.startswith("chain:"):
        return "success"
    if name == "fatal":
        return "fatal_failed"
    if name == "reliability@1":  # c/n of a task with all n runs valid: its success share
        return "success"
    return name.split(":", 1)[1] if name.startswith(("extra:", "efficiency:")) else name


#: Figures' names as the report's fields name them (prefixes, then whole names).
FIELDS = {
    "score": "task_score",
    "rule": "rule_score",
    "judge": "judge_score",
    "success": "success_rate",
    "cells": "cell_mean",
    "extra:overall": "overall",
    "risk": "business.risk_weighted_score",
    "key_process": "business.key_process_success",
    "fatal": "business.fatal_error_rate",
    "boundary": "business.boundary_correctness",
}
PREFIXES = {
    "extra:channel:": "channels.",
    "extra:dimension:": "dimensions.",
    "extra:rule_class:": "rule_classes.",
    "chain:": "business.key_process_chains.",
    "efficiency:": "efficiency.",
    "failure:": "failure_types.",
    "extra:": "measures.",
}


def field_name(name: str) -> str:
    """A figure's name (as :func:`statistic` takes it) as the report's field names it."""
    if name in FIELDS:
        return FIELDS[name]
    prefix = next((p for p in PREFIXES if name.startswith(p)), None)
    return name if prefix is None else PREFIXES[prefix] + name.removeprefix(prefix)


def gate_figures(
    view: ScopeView, table: TaskTable, k: int, plan: Plan, failure_types: Sequence[str]
) -> dict[str, Figure]:
    """The figures a scored combination publishes beside those with intervals: its
    efficiency means and its runs per declared failure type (sums over tasks; offered for
    every declared type, whether or not it occurs: what the gate is offered must not rest
    on held-out results)."""
    rows, out = view.rows, {}
    ones = np.ones(len(rows))
    for name in EFFICIENCY:
        values = table.means[name][k, rows]
        mask = plan.data & ~np.isnan(values)
        if mask.any():
            out[f"efficiency:{name}"] = figure(values, mask, ones)
    if plan.covered.any():
        for failure in failure_types:
            counts = table.failures.get(failure)
            runs = np.zeros(len(rows)) if counts is None else counts[k, rows].astype(float)
            out[f"failure:{failure}"] = figure(runs, plan.covered, ones)
    return out


@dataclass
class Gated:
    """What the gate admitted in one domain: per (scope key, combination) the names of its
    figures, per scope key the pairs (a, b) whose differences are published."""

    figures: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    refused: dict[tuple[str, int], set[str]] = field(default_factory=dict)
    pairs: dict[str, set[tuple[int, int]]] = field(default_factory=dict)
    reason: str = ""
    combos: tuple[str, ...] = ()
    minimum: int = 0
    #: the gate itself, for figures gated after the scopes' (experiments, agreement):
    #: every combination's functionals (its coordinates name it, so combinations stay in
    #: parts of their own until a figure joins them), and the coordinates
    gate: Gate | None = field(default=None, repr=False, compare=False)
    coords: Coordinates | None = field(default=None, repr=False, compare=False)

    def admitted(self, key: str, k: int, name: str) -> bool:
        return name in self.figures.get((key, k), set())

    def withheld(self, key: str, k: int, name: str) -> bool:
        """Whether the gate refused the figure (it was offered, and is not published)."""
        return name in self.refused.get((key, k), set())


#: The order of a scope's figures after its outcome: what a reader looks for first.
ORDER = (
    "success",
    "reliability@",
    "rule",
    "judge",
    "extra:channel:",
    "extra:dimension:",
    "extra:overall",
    "extra:rule_class:",
    "cells",
    "risk",
    "key_process",
    "chain:",
    "fatal",
    "boundary",
    "extra:",
    "efficiency:",
    "failure:",
)


def _rank(name: str) -> tuple[int, str]:
    return next((i for i, p in enumerate(ORDER) if name.startswith(p)), len(ORDER)), name


Scoped = tuple[ScopeView, Mapping[int, Mapping[str, Figure]], Mapping[int, Mapping[str, float]]]


def gate_domain(
    table: TaskTable,
    items: pd.DataFrame,
    scoped: Sequence[Scoped],
    pairs: Mapping[str, Sequence[PairFigure]],
    release: Release,
) -> Gated:
    """Pass every figure of the domain's scopes (``scoped``: each view with its figures and
    values per scored combination, in the order shown) and every pair's difference through
    the gate, in the order of the module's docstring.

    A combination offered the same figures in the same shape as one before it
    (:func:`shapes`) is not searched again: its functionals are the earlier one's over its
    own coordinates, which no figure of the scopes shares with another combination, so the
    gate decides them alike and keeps the same parts, renamed and numbered after the others
    (:meth:`Gate.copy`; on bench's reference release the two domains' 20 combinations come
    in 11 shapes each)."""
    minimum = release.groups.min_held_out_aggregate
    resample = release.statistics.min_tasks_to_resample
    coords = coordinates(table, items, tuple(f.id for f in release.enumerations.failure_types))
    memory = Memory()  # the same questions come again (score/memory.py)
    gate = Gate(minimum, task_of, memory)
    out = Gated(
        reason=GATED.format(minimum),
        combos=tuple(table.combos),
        minimum=minimum,
        gate=gate,
        coords=coords,
    )
    offers = [
        (view, k, "score", figs[k]["score"])
        for view, figs, _ in scoped
        for k in sorted(figs)
        if "score" in figs[k]
    ]
    offers += [
        (view, k, name, figs[k][name])
        for view, figs, _ in scoped
        for k in sorted(figs)
        for name in sorted(figs[k], key=_rank)
        if name != "score"
    ]
    first = shapes(coords, offers, resample)
    for view, k, name, fig in offers:
        if first[k] == k:
            second = _second(name, fig, resample)
            found = figure_functionals(coords, k, statistic(name), fig, view.rows, second)
            taken = out.figures if gate.admit(found) else out.refused
            taken.setdefault((view.scope.key, k), set()).add(name)
    for k in sorted(k for k, k0 in first.items() if k != k0):
        k0 = first[k]
        for view, k1, name, _ in offers:
            if k1 == k:
                taken = out.figures if out.admitted(view.scope.key, k0, name) else out.refused
                taken.setdefault((view.scope.key, k), set()).add(name)
        own = [i for i, part in gate.parts.items() if combination_of(next(iter(part.index))) == k0]
        gate.copy(own, partial(moved, k=k))
    _gate_pairs(coords, scoped, pairs, out, minimum, resample, memory)
    return out


def _second(name: str, fig: Figure, resample: int) -> bool:
    """Whether the figure publishes an interval over resampled tasks (its second moment)."""
    return fig.tasks >= resample and not name.startswith(("efficiency:", "failure:"))


def shapes(
    coords: Coordinates, offers: Sequence[tuple[ScopeView, int, str, Figure]], resample: int
) -> dict[int, int]:
    """For each combination, the first combination offered figures of the same shape: a
    digest of everything :func:`figure_functionals` reads of its figures, in order — the
    scope's rows, each figure's name, weights and flags (its runs where its run noise
    counts) — and of its own declaration-dependent forms (where its token totals are sums,
    its valid runs)."""
    digests: dict[int, Any] = {}
    for view, k, name, fig in offers:
        if k not in digests:
            digests[k] = hashlib.blake2b(digest_size=20)
            for own in (coords.summed, coords.valid):
                mine = b"-" if own is None or k >= len(own) else own[k].tobytes()
                digests[k].update(mine)
        noise = fig.unbounded and fig.spread is not None
        second = _second(name, fig, resample)
        flags = (view.scope.key, name, second, skewed(fig), noise, len(view.rows), len(fig.den))
        digests[k].update(repr(flags).encode())
        for values in (view.rows, fig.den, *((fig.runs,) if noise else ())):
            digests[k].update(np.ascontiguousarray(values, dtype=np.float64).tobytes())
    first: dict[bytes, int] = {}
    return {k: first.setdefault(d.digest(), k) for k, d in sorted(digests.items())}


def _gate_pairs(
    coords: Coordinates,
    scoped: Sequence[Scoped],
    pairs: Mapping[str, Sequence[PairFigure]],
    out: Gated,
    minimum: int,
    resample: int,
    memory: Memory,
) -> None:
    """Each pair's differences over held-out tasks, where both sides' Task Scores are
    admitted. Its mean is then their difference when it rests on the same held-out tasks as
    both (else it is withheld). Its interval adds Σ c²·(S_a − S_b − d)² over the common
    tasks: with equal shares its part on the products of one task's values is c² times a
    pattern fixed per task, and it alone holds the products of a's and b's values, so a
    combination of pair intervals that is zero on those is zero altogether. Hence the pair's
    intervals, with everything admitted, expose a group exactly when their c² over the
    common held-out tasks do: one coordinate per task (("pair", task)) in the pair's own
    gate."""
    # A pair's gate is a function of the patterns offered to it so far: pairs offered the
    # same ones share it (by a digest of that sequence) and each step is decided once.
    gates: dict[bytes, Gate] = {b"": Gate(minimum, task_of, memory)}
    decided: dict[bytes, bool] = {}
    offered: dict[tuple[int, int], bytes] = {}
    for view, figs, _ in scoped:
        key = view.scope.key
        held = coords.held[view.rows]
        mine = out.pairs.setdefault(key, set())
        for pair in pairs.get(key, ()):
            a, b = pair.a, pair.b
            if not held.any():
                mine.add((a, b))
                continue
            if not (out.admitted(key, a, "score") and out.admitted(key, b, "score")):
                continue
            common = (pair.figure.den > 0) & held
            if any(not np.array_equal((figs[k]["score"].den > 0) & held, common) for k in (a, b)):
                continue  # the mean would rest on other held-out tasks than the sides'
            if pair.figure.tasks < resample:
                mine.add((a, b))  # its interval is the sides' run noise: nothing new
                continue
            share = 1.0 / float((pair.figure.den > 0).sum())
            before = offered.get((a, b), b"")
            step = hashlib.blake2b(before, digest_size=20)
            step.update(np.float64(share).tobytes())
            step.update(view.rows[common].astype(np.int64).tobytes())
            after = offered[(a, b)] = step.digest()
            if after not in decided:
                gate = gates[before].clone()
                pattern: Functional = {("pair", int(t)): share * share for t in view.rows[common]}
                decided[after] = gate.admit([pattern])
                gates[after] = gate
            if decided[after]:
                mine.add((a, b))
