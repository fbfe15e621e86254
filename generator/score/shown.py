"""Which scopes of a domain are offered (§4.2, §4.4, §7.2): each cut of the domain
(:func:`~generator.score.cuts.domain_cuts`) gives a scope per group, a second partition its
public groups only; which of their figures over held-out tasks are published is the privacy
gate's decision (:mod:`generator.score.gating`).
"""

from __future__ import annotations

import numpy as np

from generator.models import Release
from generator.models.release import Domain
from generator.score.cuts import (
    OTHER_PARTITION,
    cut_columns,
    domain_cuts,
    held_out_partition,
    holds,
    is_set,
    partition_name,
)
from generator.score.results import ScopeResult
from generator.score.scope import GROUPS, Scope
from generator.score.table import ScopeView, TaskTable, scope_view

GROUP_TITLES = {"all": "all tasks", "public": "public group", "held-out": "held-out group"}


def scopes_shown(
    table: TaskTable, domain: Domain, release: Release
) -> list[ScopeResult | tuple[ScopeView, str]]:
    """The scopes of the domain in the order shown, each group of each cut
    (:func:`domain_cuts`; §4.2, §4.4): a scope withheld by policy as its result, the others
    as (view, title) to aggregate. A scope without tasks is left out; where all tasks are
    public, its public group is the same as all its tasks and is shown once. Held-out
    figures are offered for the domain and the parts of its one held-out partition (a part
    of another partition shows its public group); whether each is published is the privacy
    gate's decision (:mod:`generator.score.gating`). Where the domain publishes task sets,
    every cut lies within its first set but the other sets' own."""
    version = table.domain.version
    shown: list[ScopeResult | tuple[ScopeView, str]] = []
    cuts = domain_cuts(domain, release)
    tasks = cut_columns(table.tasks, cuts)
    primary = table.primary_set
    inset = np.ones(len(tasks), dtype=bool)
    if primary is not None:
        inset = (tasks[f"set:{primary}"] == primary).to_numpy()
    base = tasks[inset]
    partition = held_out_partition(cuts)
    named = partition_name(domain, release, partition)
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
            if other and group != "public":
                reason = OTHER_PARTITION.format(named)
                shown.append(
                    ScopeResult(scope=scope, title=label, withheld=reason, tasks=len(view.rows))
                )
            else:
                shown.append((view, label))
    return shown
