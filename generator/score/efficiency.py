"""A combination's efficiency in one scope (§4.2(2)): the means of the task means of its
tokens, duration and turns, and, for a count some valid runs leave out, the runs its mean
rests on (a release need not report every count, nor a run every count it reports)."""

from __future__ import annotations

import numpy as np

from generator.score.figures import finite_or_none, nanmean
from generator.score.plan import Plan
from generator.score.results import EFFICIENCY_COUNTS, Efficiency
from generator.score.table import ScopeView, TaskTable


def efficiency(view: ScopeView, table: TaskTable, k: int, plan: Plan) -> Efficiency:
    """Tokens, duration and turns of combination k: means of its task means (§4.2(2)), and
    the valid runs that record each count some of them leave out."""

    def of(column: str) -> np.ndarray:
        return np.asarray(table.means[column][k, view.rows][plan.data])

    runs = {c: int(table.counts[c][k, view.rows][plan.data].sum()) for c in EFFICIENCY_COUNTS}
    valid = int(table.valid[k, view.rows][plan.data].sum())
    return Efficiency(
        input_tokens=finite_or_none(nanmean(of("input_tokens"))),
        output_tokens=finite_or_none(nanmean(of("output_tokens"))),
        total_tokens=finite_or_none(nanmean(of("input_tokens") + of("output_tokens"))),
        duration_s=finite_or_none(nanmean(of("duration_s"))),
        turns=finite_or_none(nanmean(of("turns"))),
        recorded={c: n for c, n in runs.items() if 0 < n < valid},
    )
