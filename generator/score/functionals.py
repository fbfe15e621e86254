"""Each published figure as linear functionals of the held-out tasks' own values, for the
privacy gate (:mod:`generator.score.gate`, §4.4, §7.2).

A task's statistics are not independent numbers: per task, over the same valid runs,

* R is the weighted share of its ordinary rule items passed (§4.3(1)), so it is the sum of
  its items' pass shares, and a rule class's pass share the mean of its items' (items of a
  class with one weight as one value, the unclassed items as one);
* J is the weight-weighted sum of its Judge item groups (each (channel, dimension) pair of
  its items is one value), and a channel's or a dimension's score the weighted mean of its
  groups — a run zeroed before judging scores 0 on J and on every group (§4.3(2));
* the Task Score is S = w·R + (1 − w)·J (§4.3(3); w = 1 rule-only, 0 judge-only) less the
  **residue**: what the runs zeroed by the delivery threshold or a fatal item would have
  scored. §4.3 keeps a zeroed run's recorded rule and Judge results ("the two channels ...
  keep their results separately"; "available rule results, Judge results ... are
  retained"), so R and J count them while S counts 0. A measured task's S is a value of its
  own.

These relations are read from the declaration alone (:func:`task_forms`), never from the
numbers: which runs are zeroed, which items passed are held-out data, and a gate whose model
followed them would publish different figures for different held-out results — the pattern
of what is withheld would itself be a figure. So every task that can zero a run has a
residue, and the residue is **attributed to no task** (:func:`task_of`): a combination of
published figures that leaves only residues — e.g. n·S − w·n·R − (1 − w)·n·J, the would-be
scores of the zeroed runs, which are few — counts as supported on no task at all, and is
never published. That decides §4.3's open question for the site: a zeroed run keeps its
verdicts in R and J, and no published figure isolates what it would have scored.

A figure is a weighted sum of one statistic over its tasks
(:class:`~generator.score.intervals.Figure`: ``num / den``), so over the held-out tasks it is
a linear functional of their free values; an interval over resampled tasks also publishes
the figure's second moment, Σ c_t²·(x_t − m)², a linear functional of the products of a
task's free values and of its values (:func:`figure_functionals`). Public tasks' values are
known to every reader and drop out. Whether a run is valid, and whether it records a measure,
is treated as public (it is disclosed as coverage, §4.3(4)).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import cast

import numpy as np
import pandas as pd

from generator.score.frame import KIND_FATAL, KIND_JUDGE, KIND_RULE
from generator.score.gate import Functional
from generator.score.intervals import Figure, skewed
from generator.score.table import TaskTable

#: A statistic as a linear form of its task's free values.
Form = Mapping[str, float]
#: The free value of a task's zeroed runs' would-be scores: attributed to no task.
RESIDUE = "zeroed"


@dataclass(frozen=True)
class Structure:
    """A task's declared make-up: R and each rule class as forms of its items' values,
    and its Judge item groups' weights ((channel, dimension) → weight)."""

    rule: Form = field(default_factory=dict)
    rule_classes: Mapping[str, Form] = field(default_factory=dict)
    judge_weights: Mapping[tuple[str, str], float] = field(default_factory=dict)


def structures(items: pd.DataFrame) -> dict[str, Structure]:
    """Each task's :class:`Structure`, from the frame's items table."""
    rule = items[items["kind"].isin([KIND_RULE, KIND_FATAL])]
    judge = items[(items["kind"] == KIND_JUDGE) & ~items["overall"].astype(bool)]
    judge_weights = judge.groupby(["task", "channel", "dimension"])["weight"].sum()
    weights: dict[str, dict[tuple[str, str], float]] = {}
    for key, w in judge_weights.items():
        task, channel, dimension = (str(x) for x in cast(tuple[str, str, str], key))
        weights.setdefault(task, {})[(channel, dimension)] = float(w)
    out: dict[str, Structure] = {}
    by_task = {str(t): mine for t, mine in rule.groupby("task", sort=False, observed=True)}
    for task in sorted(set(items["task"])):
        mine = by_task.get(task, rule.iloc[:0])
        mass = sum(weights.get(task, {}).values())
        groups = {g: w / mass for g, w in weights.get(task, {}).items()} if mass > 0 else {}
        out[task] = Structure(*_rule_forms(mine), groups)
    return out


def _rule_forms(items: pd.DataFrame) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """R and each rule class as forms of the items' pass shares. R weighs the ordinary items
    (§4.3(1)); a class's pass share is the mean over every item of the class, fatal ones
    included (as the engine scores it). The ordinary items of a class that share one weight
    are one value (their pass share), other classed ordinary items and every classed fatal
    item one value each, the unclassed ordinary items one value (their weighted share)."""
    ordinary = items[items["kind"] == KIND_RULE]
    total = float(ordinary["weight"].sum())
    rule: dict[str, float] = {}
    classes: dict[str, dict[str, float]] = {}
    for cls, mine in items.groupby("rule_class", sort=True):
        cls = str(cls)
        plain = mine[mine["kind"] == KIND_RULE]
        weights = plain["weight"].to_numpy(dtype=float)
        if not cls:
            if len(plain) and total > 0:
                rule["rule_rest"] = float(weights.sum()) / total
            continue
        uniform = bool(len(weights)) and bool(np.all(weights == weights[0]))
        out = classes.setdefault(f"rule_class:{cls}", {})
        for item, w in zip(plain["item_id"], weights, strict=True):
            name = f"rule_class:{cls}" if uniform else f"rule_item:{item}"
            if total > 0:
                rule[name] = rule.get(name, 0.0) + w / total
            out[name] = out.get(name, 0.0) + 1.0 / len(mine)
        for item in mine.loc[mine["kind"] == KIND_FATAL, "item_id"]:
            out[f"fatal_item:{item}"] = 1.0 / len(mine)
    return rule, classes


def task_forms(declared: pd.Series, structure: Structure | None) -> dict[str, Form]:
    """A task's statistics as linear forms of its free values (see the module docstring),
    from its declaration (a row of the task table) alone; a statistic not named here is a
    free value of its own."""
    structure = structure or Structure()
    forms: dict[str, Form] = dict(structure.rule_classes)
    if bool(declared["all_or_nothing"]) or not structure.rule_classes:
        rule: Form = {"rule": 1.0}
    else:
        rule = structure.rule
    judge = _judge_forms(structure, forms)
    forms["rule"], forms["judge"] = rule, judge
    if bool(declared["measured"]):
        forms["score"] = {"score": 1.0}
        return forms
    dual = bool(declared["dual"])
    w = float(declared["rule_weight"]) if dual else 1.0
    score: dict[str, float] = {RESIDUE: -1.0}
    if int(declared["n_rule"]) > 0:  # else R is not a number and S has no rule part
        for name, c in rule.items():
            score[name] = score.get(name, 0.0) + w * c
    if dual:
        for name, c in judge.items():
            score[name] = score.get(name, 0.0) + (1 - w) * c
    forms["score"] = {n: c for n, c in score.items() if c != 0}
    if bool(declared["all_or_nothing"]) and not dual and int(declared["n_rule"]) > 0:
        # rule-only, all or nothing: a run's S is 1 exactly when it succeeds (§4.2(3))
        forms["success"] = forms["score"]
    return forms


def _judge_forms(structure: Structure, forms: dict[str, Form]) -> Form:
    """J as the weighted sum of its item groups ((channel, dimension) pairs), and each
    channel's and dimension's score as the weighted mean of its groups (into ``forms``)."""
    groups = dict(structure.judge_weights)
    for by, column in ((0, "channel"), (1, "dimension")):
        for name in sorted({g[by] for g in groups if g[by]}):
            mine = {g: w for g, w in groups.items() if g[by] == name}
            mass = sum(mine.values())
            forms[f"{column}:{name}"] = {_group(g): w / mass for g, w in mine.items()}
    if not groups:
        return {"judge": 1.0}
    return {_group(g): w for g, w in groups.items()}


def _group(group: tuple[str, str]) -> str:
    return f"judged:{group[0]}|{group[1]}"


@dataclass(frozen=True)
class Coordinates:
    """The held-out tasks of one domain's table and their forms; the valid runs per
    (combination, task) and the declared failure types, for the one relation that rests on
    them: a valid run has a failure type exactly when it did not succeed (the run checks),
    so the last type's count is n·(1 − success) less the others'. ``summed``: where the
    same runs record input and output tokens, so a task's mean total is their sum (whether
    a run records a measure is public: coverage, §4.3(4)); elsewhere the total is a value of
    its own."""

    held: np.ndarray
    forms: Mapping[int, Mapping[str, Form]]
    valid: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    failures: tuple[str, ...] = ()
    summed: np.ndarray | None = None

    def form(self, k: int, t: int, statistic: str) -> Form:
        """Combination k's ``statistic`` on task t (every combination shares a task's
        declaration, so its forms)."""
        if statistic == "total_tokens":
            if self.summed is None or self.summed[k, t]:
                return {"input_tokens": 1.0, "output_tokens": 1.0}
            return {"total_tokens": 1.0}
        if self.failures and statistic == f"failure:{self.failures[-1]}":
            others = {f"failure:{f}": -1.0 for f in self.failures[:-1]}
            return {"success": -float(self.valid[k, t]), **others}
        return self.forms[t].get(statistic) or {statistic: 1.0}


def coordinates(
    table: TaskTable, items: pd.DataFrame, failure_types: tuple[str, ...] = ()
) -> Coordinates:
    """The forms of the statistics of every held-out task of ``table``."""
    held = np.asarray(table.columns["group"] == "held-out", dtype=bool)
    found = structures(items[items["task"].isin(table.tasks.index[held])])
    forms = {
        int(t): task_forms(table.tasks.iloc[int(t)], found.get(str(table.tasks.index[int(t)])))
        for t in np.flatnonzero(held)
    }
    total, counts = table.counts["total_tokens"], table.counts
    summed = (total == counts["input_tokens"]) & (total == counts["output_tokens"])
    return Coordinates(held, forms, np.asarray(table.valid), tuple(failure_types), summed)


def task_of(coordinate: Hashable) -> str | None:
    """The task a coordinate belongs to (its second part), or None for a residue or a
    product with one (attributed to no task: see the module docstring)."""
    assert isinstance(coordinate, tuple)
    kind = coordinate[0]
    if kind == "m1" and coordinate[-1] == RESIDUE:
        return None
    if kind in ("m2", "m3") and any(
        isinstance(p, tuple) and p and p[-1] == RESIDUE for p in coordinate[2:]
    ):
        return None
    return str(coordinate[1])


def combination_of(coordinate: Hashable) -> Hashable:
    """The combination a coordinate of :func:`figure_functionals` belongs to (see
    :func:`moved`)."""
    assert isinstance(coordinate, tuple)
    own = coordinate[2] if coordinate[0] in ("m1", "spread") else coordinate[2][0]
    return cast(Hashable, own)


def moved(coordinate: Hashable, k: int) -> Hashable:
    """A coordinate of :func:`figure_functionals` as the same coordinate of combination k:
    ("m1", t, k, part) and ("spread", t, k, statistic) name it third, a product
    ("m2"/"m3", t, (k, part), ...) in each factor."""
    assert isinstance(coordinate, tuple)
    kind, t = coordinate[0], coordinate[1]
    if kind in ("m1", "spread"):
        return (kind, t, k, *coordinate[3:])
    assert kind in ("m2", "m3"), coordinate
    return (kind, t, *((k, *p[1:]) for p in coordinate[2:]))


def figure_functionals(
    coords: Coordinates,
    k: int,
    statistic: str,
    fig: Figure,
    rows: np.ndarray,
    second: bool,
    other: tuple[int, str] | None = None,
) -> list[Functional]:
    """The figure (of combination k's ``statistic``, over the scope's ``rows``) as functionals
    of the held-out tasks' free values: its sum Σ c_t·x_t and, with ``second`` (an interval
    over resampled tasks), its second moment Σ c_t²·(x_t − m)² = Σ c_t²·x_t² − 2m·Σ c_t²·x_t
    + m²·Σ c_t², as its products' part and its values' part (two functionals: the split does
    not rest on the value m). A measure's mean (:func:`~generator.score.intervals.skewed`)
    publishes its third moment too, Σ c_t³·(x_t − m)³, as its cubes' part Σ c_t³·x_t³, and
    Σ c_t³·x_t², Σ c_t³·x_t (dropped for equal shares, where they are multiples of the
    others). A measure's mean with its run spread also publishes, where its interval is the
    run noise (over few tasks, or many that do not vary: the data decide, so it is offered
    always), Σ c_t²·spread_t/runs_t on the task's spread coordinates. ``other``: the figure
    is a paired difference, x_t = k's statistic less ``other``'s."""
    den = np.asarray(fig.den, dtype=float)
    total = float(den.sum())
    third = second and skewed(fig)
    first: dict[Hashable, float] = {}
    linear: dict[Hashable, float] = {}
    moment: dict[Hashable, float] = {}
    cubic: dict[Hashable, float] = {}
    linear3: dict[Hashable, float] = {}
    moment3: dict[Hashable, float] = {}
    noise: dict[Hashable, float] = {}
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
                linear[key] = linear.get(key, 0.0) + c * c * a
        if second:
            terms = sorted(form.items(), key=repr)
            for i1, (p1, a1) in enumerate(terms):
                for p2, a2 in terms[i1:]:
                    key2 = ("m2", t, p1[2:], p2[2:])
                    both = a1 * a2 * (1.0 if p1 == p2 else 2.0)
                    moment[key2] = moment.get(key2, 0.0) + c * c * both
                    if third:
                        moment3[key2] = moment3.get(key2, 0.0) + c**3 * both
            if third:
                for key, a in form.items():
                    linear3[key] = linear3.get(key, 0.0) + c**3 * a
                _add_cubes(cubic, t, terms, c**3)
        # run noise: over few tasks, or over many whose values do not vary (a fallback the
        # data decide, so offered whenever it can happen)
        if fig.unbounded and fig.spread is not None:
            runs = max(float(fig.runs[i]), 1.0)
            key3 = ("spread", t, k, statistic)
            noise[key3] = noise.get(key3, 0.0) + c * c / runs
    shares = den[(den > 0) & coords.held[rows]] / total if total > 0 else den[:0]
    if len(shares) and np.allclose(shares, shares[0], rtol=1e-12, atol=0.0):
        linear = {}  # equal shares c: the values' part is c times the sum itself
        linear3, moment3 = {}, {}  # and the third moment's parts c times the second's
    return [f for f in (first, linear, moment, cubic, moment3, linear3, noise) if f]


def _add_cubes(
    cubic: dict[Hashable, float],
    t: int,
    terms: Sequence[tuple[tuple[str, int, int, str], float]],
    weight: float,
) -> None:
    """``weight`` · x_t³ over the task's products of three of its form's terms
    (``terms``: sorted (coordinate, coefficient) pairs), one coordinate per product."""
    for (p1, a1), (p2, a2), (p3, a3) in combinations_with_replacement(terms, 3):
        key = ("m3", t, p1[2:], p2[2:], p3[2:])
        same = len({p1, p2, p3})
        orders = 1.0 if same == 1 else 3.0 if same == 2 else 6.0
        cubic[key] = cubic.get(key, 0.0) + weight * orders * a1 * a2 * a3
