"""The figures gated after every figure of the domain's scopes (§4.4, §7.2;
:mod:`generator.score.gating`): an experiment's changes and the raters' agreement.

**Agreement.** A rater's figures on one channel (ρ, mean absolute error, mean difference,
their intervals) rest on its rated tasks; its verdicts are published nowhere else, and
each channel's are values of their own (the channels share no item). So every
combination of published figures that involves one of them keeps the rater's values on
every held-out task it rated, and the gate takes each as a functional of coordinates of
its own there: admitted when the rated held-out tasks number ``minimum`` or more (or
none), refused otherwise. Nothing else publishes a figure over another set of the rater's
tasks, so the nonlinear ρ and error isolate no task by differences either. The mean
absolute error beside the mean difference does give the sum of the errors below zero
(|e| − e = twice the part below zero), but over every task the rater rated: it is one
task's only where the other tasks' errors are all above zero, which nothing published
says (the leak search, reading |e| as linear, named the tasks whose errors its small moves
take below zero; it now leaves the MAE out, ``bench/README.md``).

**Changes.**
A change is the mean over its target tasks of (treatment − baseline) task means of the
Task Score, or a level's mean of such changes over its consumers. Over the held-out
targets it is a linear functional of the baseline's free values (the coordinates its
boards' figures rest on) and of the treatments' Task Scores: a treatment is published on
no board and in no other experiment, so its Task Score on a task is one free value of its
own. The change's interval adds:

* over resampled targets, its second moment: on each held-out target, products of the
  treatment's value with itself and with its baseline's (a level's mean: with the other
  consumers' too). Those products enter no other figure but this experiment's changes of
  the same treatments, so every combination of published figures that involves the second
  moment keeps them on every held-out target of the change: it exposes nothing when the
  change rests on ``minimum`` held-out targets or more (when it rests on fewer, the change
  itself is refused). The gate takes it as a functional of coordinates of its own;
* over fewer targets, the two sides' run-to-run spread (outcomes not confined to [0, 1]):
  Σ c²·spread/runs of each side, on the spread coordinates the boards' run-noise intervals
  use.

A change the gate refuses is published with no value and the gate's reason.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import pandas as pd

from generator.score.agreement import Rated
from generator.score.agreement_results import RaterAgreement
from generator.score.changes import Change, ExperimentResult
from generator.score.experiments import Measured, Support
from generator.score.gate import Functional
from generator.score.gating import Gated
from generator.score.table import TaskTable


def gate_experiments(
    gated: Gated, table: TaskTable, measured: Sequence[Measured], unbounded: bool
) -> list[ExperimentResult]:
    """Each experiment's result with the changes the gate refuses withheld (module
    docstring); ``unbounded``: the outcome is not confined to [0, 1]."""
    out = []
    for found in measured:
        result = found.result

        def one(change: Change, found: Measured = found) -> Change:
            support = found.supports[(change.level, change.consumer)]
            reason = _refusal(gated, table, change, support, unbounded)
            if reason is None:
                return change
            update = {"value": None, "low": None, "high": None, "withheld": reason}
            return change.model_copy(update=update)

        cells = [one(c) for c in result.cells]
        means = [one(c) for c in result.level_means]
        out.append(result.model_copy(update={"cells": cells, "level_means": means}))
    return out


def _refusal(
    gated: Gated, table: TaskTable, change: Change, support: Support, unbounded: bool
) -> str | None:
    """Why the gate refuses the change, or None when it admits it (admitting it)."""
    gate, coords = gated.gate, gated.coords
    held = _held(gated, table, support.tasks)
    if change.value is None or gate is None or coords is None or not held:
        return None
    share, each = 1.0 / len(support.tasks), 1.0 / len(support.pairs)
    first: dict[Hashable, float] = {}
    spread: dict[Hashable, float] = {}
    for treatment, consumer in support.pairs:
        k = gated.combos.index(consumer)
        for i, t in held:
            mine = ("m1", t, ("treatment", treatment), "score")
            first[mine] = first.get(mine, 0.0) + share * each
            for part, a in coords.form(k, t, "score").items():
                own = ("m1", t, k, part)
                first[own] = first.get(own, 0.0) - share * each * a
            sides: tuple[tuple[Hashable, str], ...] = (
                (("treatment", treatment), treatment),
                (k, consumer),
            )
            for side, name in sides:
                noise = ("spread", t, side, "score")
                runs = max(support.runs[name][i], 1)
                spread[noise] = spread.get(noise, 0.0) + (share * each) ** 2 / runs
    functionals: list[Functional] = [first]
    if change.interval == "tasks":  # over resampled targets
        own_products = (change.level, change.consumer, support.pairs)
        functionals.append({("m2", t, own_products): share * share for _, t in held})
    elif unbounded:
        functionals.append(spread)
    return None if gate.admit(functionals) else gated.reason


def gate_agreement(gated: Gated, table: TaskTable, rated: Sequence[Rated]) -> list[RaterAgreement]:
    """Each rater's agreement, withheld whole where the gate refuses it (module docstring)."""
    out = []
    for found in rated:
        result, gate = found.result, gated.gate
        held = [t for _, t in _held(gated, table, found.tasks)]
        own = ("agreement", result.rater, result.channel)
        if held and gate is not None and not gate.admit([{("m1", t, own): 1.0 for t in held}]):
            result = RaterAgreement.model_validate(
                {
                    **result.model_dump(exclude={"spearman", "mae", "difference"}),
                    "interval_note": None,
                    "withheld": gated.reason,
                }
            )
        out.append(result)
    return out


def _held(gated: Gated, table: TaskTable, tasks: Sequence[str]) -> list[tuple[int, int]]:
    """The held-out ones of ``tasks``: (position in ``tasks``, row of the domain's table)."""
    if gated.coords is None:
        return []
    rows = table.tasks.index.get_indexer(pd.Index(tasks))
    return [(i, int(t)) for i, t in enumerate(rows) if t >= 0 and gated.coords.held[t]]
