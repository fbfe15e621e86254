"""Each published figure as linear functionals of the held-out tasks' own values, for the
privacy gate (:mod:`generator.score.gate`, §4.4, §7.2).

A task's statistics are not independent numbers: per task, over the same valid runs,

* the Task Score is S = w·R + (1 − w)·J (§4.3(3); w = 1 rule-only, 0 judge-only) less what
  the runs zeroed by the delivery threshold or a fatal item would have scored (``zeroed``):
  §4.3 keeps a zeroed run's recorded rule and Judge results ("the two channels ... keep their
  results separately"; "available rule results, Judge results ... are retained"), so R and J
  count them while S counts 0, and that residue is a value of the task's own;
* R is the share-weighted sum of its rule classes' pass shares (itemized scoring), and J the
  weight-weighted sum of its Judge items' groups: each (channel, dimension) pair of its items
  is one value, and a channel's or a dimension's score is the weighted mean of its pairs.

So each task has a few free values (:func:`task_forms`: the rule classes, the Judge item
groups, the zeroed residue, the success share, reliability@k, each measure …) and every
statistic is a fixed linear form of them; a decomposition is used only where the task's own
numbers satisfy it (else the statistic is a value of its own). A figure is a weighted sum of
one statistic over its tasks (:class:`~generator.score.intervals.Figure`: ``num / den``), so
over the held-out tasks it is a linear functional of their free values; an interval over
resampled tasks also publishes the figure's second moment, Σ c_t²·(x_t − m)², a linear
functional of the products of a task's free values (:func:`figure_functionals`). Public
tasks' values are known to every reader and drop out.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import cast

import numpy as np
import pandas as pd

from generator.score.frame import KIND_JUDGE, KIND_RULE
from generator.score.gate import Functional
from generator.score.intervals import Figure
from generator.score.table import TaskTable

#: A statistic as a linear form of its task's free values.
Form = Mapping[str, float]
#: Statistics equal to the same free value whatever the task (a rate, a measure, a count).
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Structure:
    """A task's declared make-up: its rule classes' shares of R and its Judge item groups'
    weights ((channel, dimension) → weight), where the release declares them."""

    rule_shares: Mapping[str, float]
    judge_weights: Mapping[tuple[str, str], float]


def structures(items: pd.DataFrame) -> dict[str, Structure]:
    """Each task's :class:`Structure`, from the frame's items table."""
    out: dict[str, Structure] = {}
    rule = items[(items["kind"] == KIND_RULE)]
    judge = items[(items["kind"] == KIND_JUDGE) & ~items["overall"].astype(bool)]
    rule_counts = rule.groupby(["task", "rule_class"]).size()
    judge_weights = judge.groupby(["task", "channel", "dimension"])["weight"].sum()
    tasks = sorted(set(items["task"]))
    shares: dict[str, dict[str, float]] = {t: {} for t in tasks}
    for key, n in rule_counts.items():
        task, cls = (str(x) for x in cast(tuple[str, str], key))
        shares[task][cls] = float(n)
    weights: dict[str, dict[tuple[str, str], float]] = {t: {} for t in tasks}
    for key, w in judge_weights.items():
        task, channel, dimension = (str(x) for x in cast(tuple[str, str, str], key))
        weights[task][(channel, dimension)] = float(w)
    for t in tasks:
        total = sum(shares[t].values())
        mass = sum(weights[t].values())
        out[t] = Structure(
            {c: n / total for c, n in shares[t].items()},
            {g: w / mass for g, w in weights[t].items()} if mass > 0 else {},
        )
    return out


def _close(a: float, b: float) -> bool:
    return bool(abs(a - b) <= TOLERANCE * max(1.0, abs(a), abs(b)))


def task_forms(table: TaskTable, k: int, t: int, structure: Structure | None) -> dict[str, Form]:
    """Combination k's statistics of task t (a row of ``table``) as linear forms of the
    task's free values (see the module docstring); a statistic not named here is a free
    value of its own."""
    means = {name: float(values[k, t]) for name, values in table.means.items()}
    forms: dict[str, Form] = {}
    all_or_nothing = bool(table.tasks["all_or_nothing"].iloc[t])
    rule = _rule_form(table, means, structure, forms, all_or_nothing)
    judge = _judge_form(table, k, t, means, structure, forms)
    forms["rule"], forms["judge"] = rule, judge
    dual = bool(table.tasks["dual"].iloc[t])
    w = float(table.tasks["rule_weight"].iloc[t]) if dual else 1.0
    expected = w * _zero(means["rule"]) + (1 - w) * _zero(means["judge"])
    score: dict[str, float] = {}
    for name, c in rule.items():
        score[name] = score.get(name, 0.0) + w * c
    for name, c in judge.items():
        score[name] = score.get(name, 0.0) + (1 - w) * c
    score = {n: c for n, c in score.items() if c != 0}
    if not np.isnan(means["score"]) and not _close(means["score"], expected):
        score["zeroed"] = -1.0  # the residue of zeroed runs (or a measured outcome)
    forms["score"] = score
    return forms


def _zero(x: float) -> float:
    return 0.0 if np.isnan(x) else x


def _rule_form(
    table: TaskTable,
    means: Mapping[str, float],
    structure: Structure | None,
    forms: dict[str, Form],
    all_or_nothing: bool,
) -> Form:
    """R as the share-weighted sum of its rule classes' pass shares (itemized scoring: both
    over the same valid runs), an unclassed part a value of its own; an all-or-nothing
    task's R, and one whose numbers do not agree, is a value of its own."""
    shares = {} if structure is None else dict(structure.rule_shares)
    named = [c for c in shares if c]
    for cls in named:
        forms[f"rule_class:{cls}"] = {f"rule_class:{cls}": 1.0}
    if all_or_nothing or not named:
        return {"rule": 1.0}
    if len(shares) == 1:
        (only,) = named
        if _close(_zero(means.get(f"rule_class:{only}", np.nan)), _zero(means["rule"])):
            forms[f"rule_class:{only}"] = {"rule": 1.0}
        return {"rule": 1.0}
    out = {f"rule_class:{c}": shares[c] for c in named}
    if "" in shares:
        return {**out, "rule_rest": shares[""]}
    total = sum(s * _zero(means.get(f"rule_class:{c}", np.nan)) for c, s in shares.items())
    return out if _close(total, _zero(means["rule"])) else {"rule": 1.0}


def _judge_form(
    table: TaskTable,
    k: int,
    t: int,
    means: Mapping[str, float],
    structure: Structure | None,
    forms: dict[str, Form],
) -> Form:
    """J as the weighted sum of its item groups ((channel, dimension) pairs), and each
    channel's and dimension's score as the weighted mean of its groups, where the groups are
    scored over the same runs as J; else J is a value of its own."""
    groups = {} if structure is None else dict(structure.judge_weights)
    channels = {c for c, _ in groups if c}
    dimensions = {d for _, d in groups if d}
    for by, names in ((0, channels), (1, dimensions)):
        column = "channel" if by == 0 else "dimension"
        for name in names:
            mine = {g: w for g, w in groups.items() if g[by] == name}
            mass = sum(mine.values())
            forms[f"{column}:{name}"] = {_group(g): w / mass for g, w in mine.items()}
    # A valid run without a Judge result (zeroed before judging) has J = 0 and no group
    # score: J is then the judged runs' share times the groups' weighted sum.
    judged = {
        int(table.counts[f"{column}:{name}"][k, t])
        for column, names in (("channel", channels), ("dimension", dimensions))
        for name in names
        if f"{column}:{name}" in table.counts
    }
    runs = int(table.counts["judge"][k, t])
    if len(judged) != 1 or not runs or not min(judged) or not groups:
        return {"judge": 1.0}
    factor = min(judged) / runs
    out = {_group(g): factor * w for g, w in groups.items()}
    if not _agrees(means, groups, out, channels, dimensions):
        return {"judge": 1.0}
    if len(groups) == 1:
        for name in (f"channel:{next(iter(groups))[0]}", f"dimension:{next(iter(groups))[1]}"):
            if name in forms:
                forms[name] = {"judge": 1.0 / factor}
        return {"judge": 1.0}
    return out


def _agrees(
    means: Mapping[str, float],
    groups: Mapping[tuple[str, str], float],
    form: Form,
    channels: set[str],
    dimensions: set[str],
) -> bool:
    """Whether J equals its form where a grouping covers all its items and its scores are
    at hand (channels, else dimensions); True where none does."""
    for by, names, column in ((0, channels, "channel"), (1, dimensions, "dimension")):
        if not names or any(not g[by] for g in groups):
            continue
        if any(np.isnan(means.get(f"{column}:{n}", np.nan)) for n in names):
            continue
        mass = {n: sum(w for g, w in groups.items() if g[by] == n) for n in names}
        factor = sum(form.values()) / sum(groups.values())
        total = sum(factor * mass[n] * means[f"{column}:{n}"] for n in names)
        return _close(total, _zero(means["judge"]))
    return True


def _group(group: tuple[str, str]) -> str:
    return f"judged:{group[0]}|{group[1]}"


@dataclass(frozen=True)
class Coordinates:
    """The held-out tasks of one domain's table and their forms, per combination."""

    held: np.ndarray
    forms: Mapping[tuple[int, int], Mapping[str, Form]]

    def form(self, k: int, t: int, statistic: str) -> Form:
        return self.forms[(k, t)].get(statistic) or {statistic: 1.0}


def coordinates(table: TaskTable, items: pd.DataFrame) -> Coordinates:
    """The forms of every combination's statistics on every held-out task of ``table``."""
    held = np.asarray(table.columns["group"] == "held-out", dtype=bool)
    found = structures(items[items["task"].isin(table.tasks.index[held])])
    forms = {
        (k, int(t)): task_forms(table, k, int(t), found.get(str(table.tasks.index[int(t)])))
        for k in range(len(table.combos))
        for t in np.flatnonzero(held)
    }
    return Coordinates(held, forms)


def task_of(coordinate: Hashable) -> str:
    """The task a coordinate belongs to (its second part)."""
    assert isinstance(coordinate, tuple)
    return str(coordinate[1])


def figure_functionals(
    coords: Coordinates,
    k: int,
    statistic: str,
    fig: Figure,
    rows: np.ndarray,
    value: float,
    second: bool,
    other: tuple[int, str] | None = None,
) -> list[Functional]:
    """The figure (of combination k's ``statistic``, over the scope's ``rows``) as functionals
    of the held-out tasks' free values: its sum Σ c_t·x_t and, with ``second`` (an interval
    over resampled tasks), its second moment Σ c_t²·(x_t − m)². ``other``: the figure is a
    paired difference, x_t = k's statistic less ``other``'s."""
    den = np.asarray(fig.den, dtype=float)
    total = float(den.sum())
    first: dict[Hashable, float] = {}
    moment: dict[Hashable, float] = {}
    for i in np.flatnonzero((den > 0) & coords.held[rows]):
        t = int(rows[i])
        c = den[i] / total if total > 0 else 0.0
        form = {("m1", t, k, p): a for p, a in coords.form(k, t, statistic).items()}
        if other is not None:
            ko, so = other
            for p, a in coords.form(ko, t, so).items():
                form[("m1", t, ko, p)] = form.get(("m1", t, ko, p), 0.0) - a
        for key, a in form.items():
            first[key] = first.get(key, 0.0) + c * a
            if second:
                moment[key] = moment.get(key, 0.0) - 2 * value * c * c * a
        if second:
            terms = sorted(form.items(), key=repr)
            for i1, (p1, a1) in enumerate(terms):
                for p2, a2 in terms[i1:]:
                    key2 = ("m2", t, p1[2:], p2[2:])
                    both = a1 * a2 * (1.0 if p1 == p2 else 2.0)
                    moment[key2] = moment.get(key2, 0.0) + c * c * both
        if fig.unbounded and fig.spread is not None and not second:
            runs = max(float(fig.runs[i]), 1.0)
            key3 = ("spread", t, k, statistic)
            moment[key3] = moment.get(key3, 0.0) + c * c / runs
    shares = den[(den > 0) & coords.held[rows]] / total if total > 0 else den[:0]
    if second and len(shares) and np.allclose(shares, shares[0], rtol=1e-12, atol=0.0):
        # Equal shares c: the second moment's part on the values themselves, −2m·c²·a, is
        # −2m·c times the sum's own row; without it, the second moment lies on the products
        # alone, apart from every sum (a part of its own for the gate, same row space).
        moment = {key: v for key, v in moment.items() if cast(tuple[str], key)[0] != "m1"}
    return [first, moment] if moment else [first]
