"""What a combination shows in a scope before any number is formed: its coverage, and
whether it is scored, withheld (§4.4) or not covered (§5.3)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from generator.models import Bundle, Release
from generator.score.results import CombinationScores, Coverage
from generator.score.scope import Scope
from generator.score.table import ScopeView, TaskTable, not_covered


@dataclass(frozen=True)
class Plan:
    """One combination in one scope before any interval: a final result unless scored,
    and the masks (over the scope's tasks) its intervals need."""

    result: CombinationScores | None
    covered: np.ndarray
    data: np.ndarray
    judged: np.ndarray | None
    full: np.ndarray
    coverage: Coverage | None


def plan_combination(
    view: ScopeView, table: TaskTable, k: int, bundle: Bundle, release: Release
) -> Plan:
    """Coverage and status of combination ``k`` of the table in ``view`` (§4.2, §4.4)."""
    combo, n = table.combos[k], release.runs_per_task
    covered, notes = not_covered(
        bundle, view.scope, view.columns, view.scope.task_set or table.primary_set
    )
    valid = table.valid[k, view.rows]
    data = covered & (valid > 0)
    complete = data & (valid >= n)
    nothing = np.zeros(len(view.rows), dtype=bool)
    if not covered.any():
        note = "; ".join(notes) or None
        result = CombinationScores(combination=combo, status="not-covered", note=note)
        return Plan(result, covered, data, None, nothing, None)
    coverage = _coverage(table, k, view.rows, covered, complete, notes, n)
    if not data.any():
        result = CombinationScores(
            combination=combo,
            status="no-valid-runs",
            note="no valid run in this scope",
            coverage=coverage,
        )
        return Plan(result, covered, data, None, nothing, coverage)
    held = view.columns["group"] == "held-out"
    missing = held & ~complete
    if missing.any():
        result = CombinationScores(
            combination=combo,
            status="withheld",
            note=f"withheld: {int(held.sum() - missing.sum())} of {int(held.sum())} held-out "
            f"tasks have all {n} valid runs; held-out results are shown only over the whole "
            "group, so that no held-out task can be isolated (§4.4)",
            coverage=coverage,
        )
        return Plan(result, covered, data, None, nothing, coverage)
    judged = data & (table.counts["judge"][k, view.rows] > 0)
    return Plan(None, covered, data, judged, data & (valid == n), coverage)


def _coverage(
    table: TaskTable,
    k: int,
    rows: np.ndarray,
    covered: np.ndarray,
    complete: np.ndarray,
    notes: list[str],
    n: int,
) -> Coverage:
    """What the numbers rest on; an incomplete evaluation is flagged, never hidden (§4.2)."""
    causes = {c: int(runs[k, rows][covered].sum()) for c, runs in sorted(table.causes.items())}
    return Coverage(
        scope_tasks=len(rows),
        covered_tasks=int(covered.sum()),
        valid_tasks=int((covered & (table.valid[k, rows] > 0)).sum()),
        complete_tasks=int(complete.sum()),
        valid_runs=int(table.valid[k, rows][covered].sum()),
        expected_runs=int(covered.sum()) * n,
        incomplete_runs=int(table.invalid[k, rows][covered].sum()),
        incomplete_causes={c: v for c, v in causes.items() if v > 0},
        complete=bool(complete.sum() == covered.sum()),
        not_covered=notes,
    )


def has_views(release: Release, scope: Scope) -> bool:
    """Whether the scope's domain reports the business views of §4.2."""
    return any(d.id == scope.domain and d.business_views for d in release.domains)
