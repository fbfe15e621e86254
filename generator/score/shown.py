"""Which scopes of a domain are shown, and which are withheld so that no held-out task's
figure can be read or derived (§4.2, §4.4, §7.2).

Each cut of the domain (:func:`~generator.score.cuts.domain_cuts`) gives a scope per group;
held-out groups are withheld partition by partition
(:func:`~generator.score.scope.withheld_scopes`), a second partition shows public groups only,
and the values of a facet whose values overlap, like the task sets after a domain's first, are
checked against the held-out sets already shown
(:func:`~generator.score.scope.overlap_withheld`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from generator.models import Release
from generator.models.release import Domain
from generator.score.cuts import (
    OTHER_PARTITION,
    Cut,
    cut_columns,
    domain_cuts,
    held_out_partition,
    holds,
    is_set,
    partition_name,
)
from generator.score.results import ScopeResult
from generator.score.scope import GROUPS, Scope, overlap_withheld, withheld_scopes
from generator.score.table import ScopeView, TaskTable, scope_view

GROUP_TITLES = {"all": "all tasks", "public": "public group", "held-out": "held-out group"}


def scopes_shown(
    table: TaskTable, domain: Domain, release: Release
) -> list[ScopeResult | tuple[ScopeView, str]]:
    """The scopes of the domain in the order shown, each group of each cut
    (:func:`domain_cuts`; §4.2, §4.4): a withheld scope as its result, the others as (view,
    title) to aggregate. A scope without tasks is left out; where all tasks are public, its
    public group is the same as all its tasks and is shown once. Held-out groups too small
    to show are withheld partition by partition (:func:`withheld_scopes`). Where the domain
    publishes task sets, every cut lies within its first set but the other sets' own."""
    version, shown = table.domain.version, []
    cuts = domain_cuts(domain, release)
    tasks = cut_columns(table.tasks, cuts)
    primary = table.primary_set
    inset = np.ones(len(tasks), dtype=bool)
    if primary is not None:
        inset = (tasks[f"set:{primary}"] == primary).to_numpy()
    base = tasks[inset]
    minimum = release.groups.min_held_out_aggregate
    withheld = {
        column: withheld_scopes(base, minimum, column or "subdivision")
        for column in dict.fromkeys(c.column for c in cuts if not c.multi)
    }
    partition = held_out_partition(cuts)
    named = partition_name(domain, release, partition)
    withheld.update(overlapping(tasks, cuts, withheld, partition, minimum, inset))
    for cut in cuts:
        within = tasks if is_set(cut) else base
        part = within if cut.column is None else within[holds(within[cut.column], str(cut.value))]
        all_public = not (part["group"] == "held-out").any()
        other = cut.column not in (None, partition) and not all_public and not cut.multi
        for group in GROUPS:
            if all_public and group == "public":
                continue  # the same tasks as "all tasks": shown once
            scope = Scope(version=version, domain=domain.id, group=group, **cut.fields)
            label = f"{cut.title} — {GROUP_TITLES[group]}"
            if all_public and group == "all":
                label += " (all public)"
            view = scope_view(table, scope)
            if not len(view.rows):
                continue
            reason = withheld[cut.column].get((cut.value, group))
            if other and group != "public":
                reason = OTHER_PARTITION.format(named)
            entry = (
                (view, label)
                if reason is None
                else ScopeResult(scope=scope, title=label, withheld=reason, tasks=len(view.rows))
            )
            shown.append(entry)
    return shown


def overlapping(
    tasks: pd.DataFrame,
    cuts: list[Cut],
    withheld: Mapping[str | None, Mapping[tuple[str | None, str], str]],
    partition: str | None,
    minimum: int,
    inset: np.ndarray,
) -> dict[str | None, dict[tuple[str | None, str], str]]:
    """What the values of facets whose values overlap, and the task sets after the first,
    withhold, per column: each is checked against the held-out sets already shown — the
    domain's (its first set's) and its partition's parts, ``inset`` the first set's tasks
    (:func:`~generator.score.scope.overlap_withheld`)."""
    multi = [c for c in cuts if c.multi and c.column is not None]
    if not multi:
        return {}
    shown = [inset] if (None, "held-out") not in withheld[None] else []
    if partition is not None and shown:
        shown += [
            holds(tasks[partition], str(c.value)) & inset
            for c in cuts
            if c.column == partition and (c.value, "held-out") not in withheld[partition]
        ]
    candidates = {
        f"{c.column}={c.value}": holds(tasks[str(c.column)], str(c.value))
        & (np.ones(len(tasks), dtype=bool) if is_set(c) else inset)
        for c in multi
    }
    found = overlap_withheld((tasks["group"] == "held-out").to_numpy(), shown, candidates, minimum)
    out: dict[str | None, dict[tuple[str | None, str], str]] = {c.column: {} for c in multi}
    for c in multi:
        for group in ("held-out", "all"):
            reason = found.get((f"{c.column}={c.value}", group))
            if reason is not None:
                out[c.column][(c.value, group)] = reason
    return out
