"""A combination's efficiency in one scope (§4.2(2)): the means of the task means of its
tokens, duration and turns, and, for a count some valid runs leave out, the runs its mean
rests on (a release need not report every count, nor a run every count it reports)."""

from __future__ import annotations

from collections.abc import Collection, Set

import numpy as np

from generator.score.figures import finite_or_none, nanmean
from generator.score.plan import Plan
from generator.score.results import EFFICIENCY_COUNTS, Efficiency
from generator.score.table import ScopeView, TaskTable


def efficiency(
    view: ScopeView,
    table: TaskTable,
    k: int,
    plan: Plan,
    admitted: Set[str] | None = None,
    unrecorded: Collection[str] = (),
) -> Efficiency:
    """Tokens, duration and turns of combination k: means of its task means (§4.2(2)), each
    where the privacy gate admitted it (``admitted``: the names it admitted, as
    ``efficiency:<count>``; None: every one), and the valid runs that record each count some
    of them leave out — or none, for a count its bundle says the source did not record
    (``unrecorded``; total tokens with either kind)."""

    def of(column: str) -> np.ndarray:
        return np.asarray(table.means[column][k, view.rows][plan.data])

    def mean(name: str, values: np.ndarray) -> float | None:
        if admitted is not None and f"efficiency:{name}" not in admitted:
            return None
        return finite_or_none(nanmean(values))

    runs = {c: int(table.counts[c][k, view.rows][plan.data].sum()) for c in EFFICIENCY_COUNTS}
    missing = set(unrecorded)
    if missing & {"input_tokens", "output_tokens"}:
        missing.add("total_tokens")
    valid = int(table.valid[k, view.rows][plan.data].sum())
    return Efficiency(
        input_tokens=mean("input_tokens", of("input_tokens")),
        output_tokens=mean("output_tokens", of("output_tokens")),
        total_tokens=mean("total_tokens", of("total_tokens")),
        duration_s=mean("duration_s", of("duration_s")),
        turns=mean("turns", of("turns")),
        recorded={
            c: n for c, n in runs.items() if 0 < n < valid or (n == 0 < valid and c in missing)
        },
    )
