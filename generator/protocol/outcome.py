"""The outcome of each run from its item verdicts, on whole columns (§4.2, §4.3).

Written once, for the checks (a record's failure type must agree with its success,
:mod:`generator.check.runs`) and for the scoring engine (every run's R, J, S and success,
:mod:`generator.score.runs`). The per-record form of the same formulas lives under
``tests/`` as the oracle this module is tested against.

Verdicts are counted per run and kind with one ``bincount`` over the key ``row * 3 + kind``
(a bin sums its verdicts in their order, so the sums equal those of one count per kind).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from generator.models.catalog import Scoring
from generator.protocol.items import LISTS

RULE, FATAL, JUDGE = LISTS["rules"], LISTS["fatal"], LISTS["judge"]
KINDS = len(LISTS)


@dataclass(frozen=True)
class Items:
    """The declared items, one entry per item key: ``kind`` (:data:`RULE`, :data:`FATAL`,
    :data:`JUDGE`), the Judge levels G (``max_level``) and ``pass_level`` (1 for rule items),
    and ``overall``: a Judge item judged on its own, kept out of J (none when not given)."""

    kind: np.ndarray
    max_level: np.ndarray
    pass_level: np.ndarray
    overall: np.ndarray | None = None
    weight: np.ndarray | None = None  # each item's declared weight in R or J; none: all 1


@dataclass(frozen=True)
class Verdicts:
    """Item verdicts of ``runs`` runs: ``row`` (its run, 0..runs-1), ``item`` (its declared
    item's key in :class:`Items`), ``kind`` (that item's kind), ``value`` (1/0 for a rule item,
    the level g for a Judge item), ``failed`` (its run names the item's module as failed).

    At most one verdict per run and item (the checks see to it); an item without a verdict
    counts as failed, at level 0."""

    runs: int
    row: np.ndarray
    item: np.ndarray
    kind: np.ndarray
    value: np.ndarray
    failed: np.ndarray


@dataclass(frozen=True)
class Declared:
    """Per task, or per run its task's declaration: ``items`` (runs × kinds: how many of each
    kind), ``dual`` (the Judge channel is enabled: dual-channel or judge-only), ``rule_weight``
    (w; 1 for rule-only, 0 for judge-only: S = J), ``all_or_nothing``, ``overall`` (how many
    of its Judge items are a judged overall, out of J's mean), ``measured`` (mode 'measure':
    S is the run's measured value) and ``failure_value`` (what a failed measured run scores).
    """

    items: np.ndarray
    dual: np.ndarray
    rule_weight: np.ndarray
    all_or_nothing: np.ndarray
    overall: np.ndarray
    measured: np.ndarray
    failure_value: np.ndarray
    rule_mass: np.ndarray
    judge_mass: np.ndarray

    def of_runs(self, task: np.ndarray) -> Declared:
        """The declaration of each run, from this one per task and each run's task code."""
        return Declared(
            self.items[task],
            self.dual[task],
            self.rule_weight[task],
            self.all_or_nothing[task],
            self.overall[task],
            self.measured[task],
            self.failure_value[task],
            self.rule_mass[task],
            self.judge_mass[task],
        )


def declare(scorings: Sequence[Scoring], items: np.ndarray) -> Declared:
    """The declaration of each task from its scoring block and its items per kind (§4.3)."""
    modes = [s.mode for s in scorings]
    return Declared(
        items=items,
        dual=np.array([m in ("dual-channel", "judge-only") for m in modes], dtype=bool),
        rule_weight=np.array(
            [
                0.0 if m == "judge-only" else 1.0 if s.rule_weight is None else s.rule_weight
                for m, s in zip(modes, scorings, strict=True)
            ],
            dtype=np.float64,
        ),
        all_or_nothing=np.array([s.rule_scoring == "all-or-nothing" for s in scorings], bool),
        overall=np.array([sum(j.overall for j in s.judge_items) for s in scorings], np.int64),
        measured=np.array([m == "measure" for m in modes], dtype=bool),
        failure_value=np.array(
            [np.nan if s.failure_value is None else s.failure_value for s in scorings],
            dtype=np.float64,
        ),
        rule_mass=np.array(
            [sum(i.weight for i in s.rule_items if not i.fatal) for s in scorings], np.float64
        ),
        judge_mass=np.array(
            [sum(j.weight for j in s.judge_items if not j.overall) for s in scorings], np.float64
        ),
    )


@dataclass(frozen=True)
class Recorded:
    """Per run, what its record says beside the verdicts: ``valid`` (not
    evaluation-incomplete), ``delivery`` (the core delivery threshold D passed), ``judged``
    (a valid Judge result) and ``measure`` (the value of its task's measured metric; NaN when
    not recorded or not a measure task)."""

    valid: np.ndarray
    delivery: np.ndarray
    judged: np.ndarray
    measure: np.ndarray | None = None


@dataclass(frozen=True)
class Outcome:
    """Per run: R (NaN without ordinary rule items), J (NaN when the Judge channel is off),
    S (NaN when not valid), binary success, whether a fatal item failed, and the judged
    overall g/G (NaN when the task has none)."""

    rule: np.ndarray
    judge: np.ndarray
    score: np.ndarray
    success: np.ndarray
    fatal_failed: np.ndarray
    overall: np.ndarray


def _per_run(verdicts: Verdicts, weights: np.ndarray) -> np.ndarray:
    """Sums of ``weights`` per run and kind (runs × kinds)."""
    key = verdicts.row.astype(np.int64) * KINDS + verdicts.kind
    # int64 already, but when no task declares an item (empty object columns): no copy
    sums = np.bincount(
        key.astype(np.int64, copy=False), weights=weights, minlength=verdicts.runs * KINDS
    )
    return sums.reshape(verdicts.runs, KINDS)


def passed_items(items: Items, verdicts: Verdicts) -> np.ndarray:
    """Items passed per run and kind (runs × kinds): a rule item passes, a Judge item reaches
    its pass level; an item of a failed module fails (§4.2(1), §4.2(3))."""
    level = items.pass_level[verdicts.item]
    value = verdicts.value
    ok = ~verdicts.failed & np.where(verdicts.kind == JUDGE, value >= level, value == 1)
    return _per_run(verdicts, ok.astype(np.float64))


def item_credit(items: Items, verdicts: Verdicts) -> np.ndarray:
    """Credit per run and kind (runs × kinds): 1/0 for a rule item, g/G for a Judge item, 0 for
    an item of a failed module, which stays in the denominator (§4.3(1), §4.3(2)). A judged
    overall item earns no credit here: it is a figure of its own (:func:`overall_credit`)."""
    credit = np.where(verdicts.failed, 0.0, _credit(items, verdicts))
    if items.overall is not None:
        credit = np.where(items.overall[verdicts.item], 0.0, credit)
    if items.weight is not None:
        credit = credit * items.weight[verdicts.item]
    return _per_run(verdicts, credit)


def _credit(items: Items, verdicts: Verdicts) -> np.ndarray:
    value = verdicts.value
    judge = verdicts.kind == JUDGE
    out: np.ndarray = np.where(judge, value / items.max_level[verdicts.item], value)
    return out


def group_credit(
    items: Items, verdicts: Verdicts, group: np.ndarray, groups: int, weighted: bool = False
) -> np.ndarray:
    """Credit per run and group of items (runs × groups; ``group``: each item's group code,
    -1 for none): the sum of its items' credit in the run — g/G of a Judge item of a judged
    dimension or channel, 1/0 of a rule item of a rule class — 0 in a failed module; each
    times the item's weight when ``weighted``. Divided by the task's items of the group (their
    weights when weighted), it is the group's score (a dimension's or a channel's, the weighted
    mean like J, §4.3(2)) or pass rate (a rule class's, a share of items). A judged overall
    item belongs to none."""
    code = group[verdicts.item]
    mine = code >= 0
    if items.overall is not None:
        mine &= ~items.overall[verdicts.item]
    credit = np.where(verdicts.failed, 0.0, _credit(items, verdicts))
    if weighted and items.weight is not None:
        credit = credit * items.weight[verdicts.item]
    credit = credit[mine]
    key = verdicts.row[mine].astype(np.int64) * groups + code[mine]
    sums = np.bincount(key, weights=credit, minlength=verdicts.runs * groups)
    return sums.reshape(verdicts.runs, groups)


def overall_credit(
    items: Items, verdicts: Verdicts, failed: tuple[np.ndarray, np.ndarray] | None = None
) -> np.ndarray:
    """Per run, g/G of its judged overall item (0 in a failed module, NaN without a verdict
    otherwise): kept as its own figure and never recomputed from the other items.

    ``failed``: the (run, item key) pairs of every item whose module the run names as failed,
    verdict or not: a run need not record the verdicts of a failed module (§4.2(1))."""
    out = np.full(verdicts.runs, np.nan)
    if items.overall is None:
        return out
    mine = items.overall[verdicts.item]
    credit = np.where(verdicts.failed, 0.0, _credit(items, verdicts))
    out[verdicts.row[mine]] = credit[mine]
    if failed is not None:
        rows, keys = failed
        out[rows[items.overall[keys]]] = 0.0
    return out


def success(passed: np.ndarray, declared: Declared, recorded: Recorded) -> np.ndarray:
    """Binary success of each run (§4.2(3)): valid, D, every fatal and ordinary rule item and,
    on a dual-channel task, a valid Judge result with every Judge item at its pass level."""
    every = passed == declared.items
    judge_pass = ~declared.dual | (recorded.judged & every[:, JUDGE])
    done: np.ndarray = (
        recorded.valid & recorded.delivery & every[:, FATAL] & every[:, RULE] & judge_pass
    )
    return done


def zeroed(delivery: np.ndarray, fatal_failed: np.ndarray) -> np.ndarray:
    """Runs whose score is 0 whatever their items: D failed or a fatal item failed (§4.3(3))."""
    out: np.ndarray = ~delivery | fatal_failed
    return out


def outcome(
    passed: np.ndarray,
    credit: np.ndarray,
    declared: Declared,
    recorded: Recorded,
    overall: np.ndarray | None = None,
) -> Outcome:
    """R, J, S and success of each run (§4.2, §4.3); evaluation-incomplete runs get NaN.

    R = passed ordinary items / N, or 1/0 for an all-or-nothing task (NaN without ordinary
    items). J = mean(g/G) over the Judge items but a judged overall one. S = 0 when zeroed
    (:func:`zeroed`), else R (rule-only), w·R + (1 − w)·J (dual-channel) or J (judge-only,
    w = 0). Both channels aggregate over the same valid runs (§4.2): a zeroed run of a judged
    task without its Judge result has none of the designated evidence, so every item takes
    its lowest level (§4.3(2)): J = 0. A measure task's S is the run's measured value; a run
    that is zeroed, or records none, takes the task's declared failure value.
    """
    n = declared.items
    every = passed == n
    with np.errstate(invalid="ignore", divide="ignore"):
        rule = np.where(
            declared.all_or_nothing,
            every[:, RULE].astype(float),
            credit[:, RULE] / declared.rule_mass,
        )
        rule = np.where(n[:, RULE] > 0, rule, np.nan)
    fatal_failed = passed[:, FATAL] < n[:, FATAL]
    zero = zeroed(recorded.delivery, fatal_failed)
    dual = declared.dual
    judged = dual & recorded.judged
    with np.errstate(invalid="ignore", divide="ignore"):
        judge = np.where(
            judged, credit[:, JUDGE] / declared.judge_mass, np.where(dual & zero, 0.0, np.nan)
        )
    weight = declared.rule_weight
    mixed = weight * np.nan_to_num(rule) + (1 - weight) * np.nan_to_num(judge)
    score = np.where(zero, 0.0, np.where(dual, mixed, rule))
    if declared.measured.any():
        value = recorded.measure if recorded.measure is not None else np.full(len(zero), np.nan)
        failed = zero | np.isnan(value)
        score = np.where(declared.measured, np.where(failed, declared.failure_value, value), score)
    valid = recorded.valid
    if overall is None:
        overall = np.full(len(valid), np.nan)
    return Outcome(
        rule=np.where(valid, rule, np.nan),
        judge=np.where(valid, judge, np.nan),
        score=np.where(valid, score, np.nan),
        success=success(passed, declared, recorded),
        fatal_failed=valid & fatal_failed,
        # a zeroed run without its Judge result: the overall at its lowest level, as J
        overall=np.where(
            valid & judged,
            overall,
            np.where(valid & dual & zero & (declared.overall > 0), 0.0, np.nan),
        ),
    )


def in_failed_module(
    rows: np.ndarray, keys: np.ndarray, failed_rows: np.ndarray, failed_keys: np.ndarray, width: int
) -> np.ndarray:
    """Whether each verdict (its run's ``rows``, its item's ``keys``: the item or its module,
    below ``width``) is of an item whose module its run names as failed: the pairs
    (``failed_rows``, ``failed_keys``). Only the verdicts of runs that name a failed module are
    looked up (a few, as a rule); items of a failed module score 0 (§4.2(1), §4.3(1)–(2))."""
    out = np.zeros(len(rows), dtype=bool)
    if not len(failed_rows) or not len(rows):
        return out
    named = np.zeros(int(max(rows.max(), failed_rows.max())) + 1, dtype=bool)
    named[failed_rows] = True
    candidates = np.flatnonzero(named[rows])
    # (row, key) as one int64: rows < 2**31 and keys < 2**31, so no overflow
    pairs = rows[candidates].astype(np.int64) * width + keys[candidates]
    bad = failed_rows.astype(np.int64) * width + failed_keys.astype(np.int64)
    out[candidates] = np.isin(pairs, bad)
    return out
