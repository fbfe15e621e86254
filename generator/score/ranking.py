"""What a scope's data can order: paired differences, rank ranges and the Pareto frontier
(§4.2(2), §5.3).

Two combinations are ordered only by their paired difference over the tasks both have,
when its interval excludes 0 and rests on at least ``statistics.min_tasks_to_order`` tasks.
A difference over too few tasks to resample (its interval is run noise only) orders nothing.
A combination's rank is the range of ranks those orderings allow (as LMArena's rank bounds):
best rank = 1 + how many combinations are significantly better, worst rank = the number of
compared combinations − how many are significantly worse. Two combinations whose difference
is not significant get overlapping ranges whenever the significant differences agree with
one order (as they do when every pair rests on the same tasks); combinations measured on
different tasks may be ordered through a third.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations as pairs_of

import numpy as np

from generator.score.intervals import Figure, Interval, difference, figure
from generator.score.results import EFFICIENCY_COUNTS, CombinationScores, Difference
from generator.score.table import ScopeView, TaskTable

# Scores closer than this are equal for the frontier: the same fraction summed in another
# order differs in its last bits (8/9 against 8/9 + 1 ulp), not in what was measured.
SCORE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class PairFigure:
    """The paired difference a − b of Task Scores over the tasks both have."""

    a: int
    b: int
    value: float
    figure: Figure


def pair_figures(
    view: ScopeView,
    table: TaskTable,
    data: Mapping[int, np.ndarray],
    unbounded: bool = False,
) -> list[PairFigure]:
    """Every pair of scored combinations (a < b, ``data``: the tasks each has) with at least
    one common task; ``unbounded``: the scores are a measure not confined to [0, 1]."""
    out = []
    score = table.means["score"][:, view.rows]
    runs = table.counts["score"][:, view.rows]
    spread = table.spread["score"][:, view.rows]
    for a, b in pairs_of(sorted(data), 2):
        shared = data[a] & data[b]
        if not shared.any():
            continue
        # Contiguous arrays, so the sum adds as a lone array would (pandas' mean).
        gaps = np.ascontiguousarray(score[a][shared] - score[b][shared])
        value = float(gaps.sum() / float(shared.sum()))
        side_a = figure(score[a], shared, runs[a], spread=spread[a] if unbounded else None)
        side_b = figure(score[b], shared, runs[b], spread=spread[b] if unbounded else None)
        out.append(PairFigure(a, b, value, difference(side_a, side_b)))
    return out


def differences(
    table: TaskTable,
    pairs: Sequence[PairFigure],
    found: Sequence[Interval],
    minimum: int,
) -> list[Difference]:
    """The pairs with their intervals; judged (and so possibly significant) only over
    ``minimum`` common tasks, their interval over resampled tasks."""
    out = []
    for pair, got in zip(pairs, found, strict=True):
        tasks = pair.figure.tasks
        # Run noise alone (too few tasks to resample) never orders two combinations.
        judged = tasks >= minimum and got.basis == "tasks"
        out.append(
            Difference(
                a=table.combos[pair.a],
                b=table.combos[pair.b],
                value=pair.value,
                low=got.low,
                high=got.high,
                tasks=tasks,
                interval=got.basis,
                significant=bool(judged and (got.low > 0 or got.high < 0)),
                judged=judged,
            )
        )
    return sorted(out, key=lambda d: (d.a, d.b))


def rank_ranges(
    names: Sequence[str], diffs: Sequence[Difference], higher: bool = True
) -> dict[str, tuple[int, int]]:
    """Per combination, (best rank, worst rank) as the significant differences allow; the
    better of two is the higher unless the metric's direction is ``lower``."""
    better = dict.fromkeys(names, 0)  # how many are significantly better
    worse = dict.fromkeys(names, 0)  # how many are significantly worse
    for d in diffs:
        if d.significant and d.a in better and d.b in better:
            winner, loser = (d.a, d.b) if (d.low > 0) == higher else (d.b, d.a)
            better[loser] += 1
            worse[winner] += 1
    return {n: (1 + better[n], len(names) - worse[n]) for n in names}


def letters(order: Sequence[str], diffs: Sequence[Difference]) -> dict[str, str]:
    """A compact letter display of one comparison group (Piepho 2004, insert and absorb):
    per combination of ``order`` (best first) its letters, such that two combinations share
    a letter exactly when their difference is not significant — the standard reading of
    many pairwise comparisons, true for any pattern of significance (unlike groups cut along
    the order, which chain: a ~ b and b ~ c put a and c together even when a > c).

    Start with one letter for all; for each significant pair, split every letter holding
    both into one without each; drop a letter whose members another letter holds too
    (absorb), then one whose every member and pair another letter covers (sweep). Letters
    are named in order of their best member, so the best combination has ``a``."""
    index = {n: i for i, n in enumerate(order)}
    split = sorted(
        tuple(sorted((index[d.a], index[d.b])))
        for d in diffs
        if d.significant and d.a in index and d.b in index
    )
    columns: list[frozenset[int]] = [frozenset(range(len(order)))] if order else []
    for i, j in split:
        grown: list[frozenset[int]] = []
        for col in columns:
            grown.extend([col - {i}, col - {j}] if i in col and j in col else [col])
        columns = _absorbed(grown)
    columns = _swept(sorted(columns, key=lambda c: sorted(c)))
    found: dict[str, list[str]] = {n: [] for n in order}
    for number, col in enumerate(columns):
        for i in sorted(col):
            found[order[i]].append(_letter(number))
    # up to 52 letters, one character each; past them, names of several: spaced
    joint = "" if len(columns) <= len(_ALPHABET) else " "
    return {n: joint.join(names) for n, names in found.items()}


def _absorbed(columns: list[frozenset[int]]) -> list[frozenset[int]]:
    """The columns without repeats and without any inside another."""
    unique = sorted(set(columns), key=lambda c: (-len(c), sorted(c)))
    kept: list[frozenset[int]] = []
    for col in unique:
        if col and not any(col <= other for other in kept):
            kept.append(col)
    return kept


def _swept(columns: list[frozenset[int]]) -> list[frozenset[int]]:
    """The columns without those whose every member and pair the others hold too."""
    kept = list(columns)
    for col in list(kept):
        others = [c for c in kept if c is not col]
        singles = all(any(i in c for c in others) for i in col)
        together = all(any(i in c and j in c for c in others) for i, j in pairs_of(col, 2))
        if singles and together:
            kept = others
    return kept


_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _letter(number: int) -> str:
    """a … z, A … Z, then a2 … Z2, a3 …: a letter's name."""
    cycle, at = divmod(number, len(_ALPHABET))
    return _ALPHABET[at] + (str(cycle + 1) if cycle else "")


def compared_on_frontier(r: CombinationScores, resource: str) -> bool:
    """Whether a scored combination takes part in a Pareto frontier of ``resource``: measured
    on the very tasks of the scope (its coverage complete, no part declared not covered)
    and, for an efficiency count (tokens, duration, turns), recorded on every valid run."""
    cov = r.coverage
    if cov is None or not cov.complete or cov.not_covered:
        return False
    if resource not in EFFICIENCY_COUNTS:
        return True
    eff = r.efficiency
    return eff is not None and getattr(eff, resource) is not None and resource not in eff.recorded


def pareto(
    results: Mapping[str, CombinationScores], tokenizers: Mapping[str, str], higher: bool = True
) -> set[str]:
    """Combinations no other of the same tokenizer beats on score and total tokens: at least
    as good on both and better on one (scores within :data:`SCORE_TOLERANCE` are equal; a
    score where lower is better counts negated)."""
    points = {}
    for name, r in results.items():
        if r.task_score is None or r.efficiency is None:
            continue
        s, t = r.task_score.value, r.efficiency.total_tokens
        if s is not None and t is not None:
            points[name] = (s, t)
    return frontier(points, tokenizers, higher)


def frontier(
    points: Mapping[str, tuple[float, float]],
    groups: Mapping[str, str],
    higher: bool = True,
    higher_cost: bool = False,
) -> set[str]:
    """The names whose (score, cost) point no other of the same group beats: at least as good
    on both and better on one. Scores within :data:`SCORE_TOLERANCE` are equal; a score is
    better higher unless ``higher`` is false, a cost (tokens, money) lower unless
    ``higher_cost``."""
    sign, cost_sign = (1.0 if higher else -1.0), (-1.0 if higher_cost else 1.0)
    signed = {n: (sign * s, cost_sign * t) for n, (s, t) in points.items()}

    def dominates(other: tuple[float, float], this: tuple[float, float]) -> bool:
        (os, ot), (s, t) = other, this
        no_worse = os >= s - SCORE_TOLERANCE and ot <= t
        return no_worse and (os > s + SCORE_TOLERANCE or ot < t)

    return {
        name
        for name, point in signed.items()
        if not any(
            dominates(o, point)
            for other, o in signed.items()
            if other != name and groups[other] == groups[name]
        )
    }
