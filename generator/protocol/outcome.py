"""The outcome of each run from its item verdicts, on whole columns (§4.2, §4.3).

Written once, for the checks (a record's failure type must agree with its success,
:mod:`generator.check.runs`) and for the scoring engine (every run's R, J, S and success,
:mod:`generator.score.runs`). The per-record form of the same formulas lives under
``tests/`` as the oracle this module is tested against.

Verdicts are counted per run and kind with one ``bincount`` over the key ``row * 3 + kind``
(a bin sums its verdicts in their order, so the sums equal those of one count per kind).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.load.runcolumns import LISTS

RULE, FATAL, JUDGE = LISTS["rules"], LISTS["fatal"], LISTS["judge"]
KINDS = len(LISTS)


@dataclass(frozen=True)
class Items:
    """The declared items, one entry per item key: ``kind`` (:data:`RULE`, :data:`FATAL`,
    :data:`JUDGE`), the Judge levels G (``max_level``) and ``pass_level`` (1 for rule items)."""

    kind: np.ndarray
    max_level: np.ndarray
    pass_level: np.ndarray


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
    """Per task, or per run its task's declaration: ``items`` (runs × kinds: how many of each kind),
    ``dual`` (dual-channel), ``rule_weight`` (w; 1 for rule-only), ``all_or_nothing``."""

    items: np.ndarray
    dual: np.ndarray
    rule_weight: np.ndarray
    all_or_nothing: np.ndarray

    def of_runs(self, task: np.ndarray) -> Declared:
        """The declaration of each run, from this one per task and each run's task code."""
        return Declared(
            self.items[task], self.dual[task], self.rule_weight[task], self.all_or_nothing[task]
        )


@dataclass(frozen=True)
class Recorded:
    """Per run, what its record says beside the verdicts: ``valid`` (not
    evaluation-incomplete), ``delivery`` (the core delivery threshold D passed) and
    ``judged`` (a valid Judge result)."""

    valid: np.ndarray
    delivery: np.ndarray
    judged: np.ndarray


@dataclass(frozen=True)
class Outcome:
    """Per run: R, J (NaN when rule-only or not valid), S (NaN when not valid), binary
    success, and whether a fatal item failed."""

    rule: np.ndarray
    judge: np.ndarray
    score: np.ndarray
    success: np.ndarray
    fatal_failed: np.ndarray


def _per_run(verdicts: Verdicts, weights: np.ndarray) -> np.ndarray:
    """Sums of ``weights`` per run and kind (runs × kinds)."""
    key = verdicts.row.astype(np.int64) * KINDS + verdicts.kind
    sums = np.bincount(key, weights=weights, minlength=verdicts.runs * KINDS)
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
    an item of a failed module, which stays in the denominator (§4.3(1), §4.3(2))."""
    value = verdicts.value
    judge = verdicts.kind == JUDGE
    credit = np.where(judge, value / items.max_level[verdicts.item], value)
    return _per_run(verdicts, np.where(verdicts.failed, 0.0, credit))


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
    passed: np.ndarray, credit: np.ndarray, declared: Declared, recorded: Recorded
) -> Outcome:
    """R, J, S and success of each run (§4.2, §4.3); evaluation-incomplete runs get NaN.

    R = passed ordinary items / N, or 1/0 for an all-or-nothing task. J = mean(g/G) over the
    Judge items. S = 0 when zeroed (:func:`zeroed`), else R (rule-only) or w·R + (1 − w)·J
    (dual-channel). Both channels aggregate over the same valid runs (§4.2): a zeroed
    dual-channel run without its Judge result has none of the designated evidence, so every
    item takes its lowest level (§4.3(2)): J = 0.
    """
    n = declared.items
    every = passed == n
    rule = np.where(
        declared.all_or_nothing, every[:, RULE].astype(float), credit[:, RULE] / n[:, RULE]
    )
    fatal_failed = passed[:, FATAL] < n[:, FATAL]
    zero = zeroed(recorded.delivery, fatal_failed)
    dual = declared.dual
    judged = dual & recorded.judged
    with np.errstate(invalid="ignore", divide="ignore"):
        judge = np.where(judged, credit[:, JUDGE] / n[:, JUDGE], np.where(dual & zero, 0.0, np.nan))
    weight = declared.rule_weight
    score = np.where(
        zero, 0.0, np.where(dual, weight * rule + (1 - weight) * np.nan_to_num(judge), rule)
    )
    valid = recorded.valid
    return Outcome(
        rule=np.where(valid, rule, np.nan),
        judge=np.where(valid, judge, np.nan),
        score=np.where(valid, score, np.nan),
        success=success(passed, declared, recorded),
        fatal_failed=valid & fatal_failed,
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
