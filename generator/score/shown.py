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

#: The task table's column of the Judge channels that judge each task (a tuple).
CHANNELS = "channels"

GROUP_TITLES = {"all": "all tasks", "public": "public group", "held-out": "held-out group"}


def scopes_shown(
    table: TaskTable, domain: Domain, release: Release
) -> tuple[list[ScopeResult | tuple[ScopeView, str]], dict[tuple[str | None, str], str]]:
    """The scopes of the domain in the order shown, each group of each cut
    (:func:`domain_cuts`; §4.2, §4.4): a withheld scope as its result, the others as (view,
    title) to aggregate. A scope without tasks is left out; where all tasks are public, its
    public group is the same as all its tasks and is shown once. Held-out groups too small
    to show are withheld partition by partition (:func:`withheld_scopes`). Where the domain
    publishes task sets, every cut lies within its first set but the other sets' own.

    Also where Judge channels' figures over held-out tasks are withheld, with why: keyed
    (None, channel) for a channel withheld from the whole domain, (column, value) for a cut
    shown without its channels' figures (:func:`overlapping`)."""
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
    bare: dict[tuple[str | None, str], str] = {
        (None, str(c)): r for (c, _), r in withheld.get(CHANNELS, {}).items()
    }
    bare |= {
        (column, str(value)): reason
        for column, found in withheld.items()
        if column != CHANNELS
        for (value, key), reason in found.items()
        if key == "splits"
    }
    return shown, bare


def overlapping(
    tasks: pd.DataFrame,
    cuts: list[Cut],
    withheld: Mapping[str | None, Mapping[tuple[str | None, str], str]],
    partition: str | None,
    minimum: int,
    inset: np.ndarray,
) -> dict[str | None, dict[tuple[str | None, str], str]]:
    """What the task sets after the first, the values of facets whose values overlap and (with
    Judge channels) the partition's parts withhold, per column, each checked against the
    held-out sets already shown, in that order (:func:`~generator.score.scope.overlap_withheld`):
    the domain's (its first set's, ``inset``) and, without channels, its partition's parts.

    A Judge channel's figure over a scope rests on the scope's tasks it judges, so with
    channels every shown set is shown cut to each channel's tasks too: the channels are
    checked first, since the score combining them is never shown without them, and a scope
    whose cut alone would expose a group is shown without its channels' figures (key
    (value, "splits") of its column; (channel, "held-out") under :data:`CHANNELS` where a
    channel is withheld from the whole domain)."""
    multi = [c for c in cuts if c.multi and c.column is not None]
    channels = sorted({c for cs in tasks.get(CHANNELS, ()) for c in cs})
    if not multi and not channels:
        return {}
    shown = [inset] if (None, "held-out") not in withheld[None] else []
    parts = [
        c
        for c in cuts
        if partition is not None
        and c.column == partition
        and (c.value, "held-out") not in withheld[partition]
    ]
    if not channels:  # the partition's own rule holds (withheld_scopes): its parts are shown
        shown += [holds(tasks[str(c.column)], str(c.value)) & inset for c in parts]
        parts = []
    checked = [
        *(c for c in multi if is_set(c)),
        *parts,
        *(c for c in multi if not is_set(c)),
    ]
    candidates = {
        f"{c.column}={c.value}": holds(tasks[str(c.column)], str(c.value))
        & (np.ones(len(tasks), dtype=bool) if is_set(c) else inset)
        for c in checked
    }
    splits = {f"{CHANNELS}={c}": holds(tasks[CHANNELS], c) for c in channels}
    held = (tasks["group"] == "held-out").to_numpy()
    found = overlap_withheld(held, shown, candidates, minimum, splits)
    out: dict[str | None, dict[tuple[str | None, str], str]] = {c.column: {} for c in checked}
    if partition is not None and parts:
        out[partition] = dict(withheld[partition])
    for c in checked:
        for key in ("held-out", "all", "splits"):
            reason = found.get((f"{c.column}={c.value}", key))
            if reason is not None:
                out[c.column][(c.value, key)] = reason
    out[CHANNELS] = {
        (c, "held-out"): reason
        for c in channels
        if (reason := found.get((f"{CHANNELS}={c}", "held-out"))) is not None
    }
    return out
