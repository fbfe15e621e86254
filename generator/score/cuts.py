"""The parts of a domain shown as scopes of their own: its sub-divisions, each value of each
facet that cuts it, its cells and the facet values a view names (§4.2).

Every part is a :class:`Cut`: the tasks whose column of the task table holds one value. A
facet pair's column joins the two values (:func:`cut_columns`); which held-out figures a
part publishes is the privacy gate's decision (:mod:`generator.score.gating`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np
import pandas as pd

from generator.models import Release
from generator.models.release import Domain


@dataclass(frozen=True)
class Cut:
    """A part of a domain's tasks shown as scopes of their own: the tasks whose ``column``
    (of the task table, :func:`cut_columns`) holds ``value``; None for the whole domain."""

    column: str | None
    value: str | None
    fields: Mapping[str, object]  # the Scope's fields beyond version, domain and group
    title: str
    multi: bool = False  # a value of a facet whose values overlap (a task holds several)


def domain_cuts(domain: Domain, release: Release) -> list[Cut]:
    """The parts of the domain shown as scopes, in order: the whole domain, its sub-divisions,
    each value of each facet that cuts it, its cells (two facets' value pairs), any other
    facet values a view's rows name (§4.2) — all within its first task set where it publishes
    sets — and then each further task set, whole."""
    title = domain.title
    if domain.task_sets:
        title = f"{domain.title}, {domain.task_sets[0].title} set"
    cuts = [Cut(None, None, {}, title)]
    cuts += [
        Cut("subdivision", s.id, {"subdivision": s.id}, f"{s.title} ({domain.subdivision_label})")
        for s in domain.subdivisions
    ]
    facets = {f.id: f for f in release.profile.facets if f.id in domain.facets}
    wanted: list[tuple[str, ...]] = [(f,) for f in facets]
    if len(domain.aggregate.facets) == 2:
        wanted.append(tuple(domain.aggregate.facets))
    for view in release.profile.views:
        for row in getattr(view, "rows", ()):
            if getattr(row, "domain", None) == domain.id and row.facets:
                wanted.append(tuple(f for f in facets if f in row.facets))
    for names in dict.fromkeys(wanted):  # in order, once each
        values = [[(f, v.id, v.title) for v in facets[f].values] for f in names]
        for combo in product(*values):
            pairs = tuple((f, v) for f, v, _ in combo)
            title = " · ".join(t for *_, t in combo)
            if len(names) == 1:
                title += f" ({facets[names[0]].title.lower()})"
            multi = len(names) == 1 and facets[names[0]].multi
            value = ",".join(v for _, v in pairs)
            cuts.append(Cut(cut_column(names), value, {"facets": pairs}, title, multi))
    cuts += [
        Cut(f"set:{s.id}", s.id, {"task_set": s.id}, f"{domain.title}, {s.title} set", True)
        for s in domain.task_sets[1:]
    ]
    return cuts


def is_set(cut: Cut) -> bool:
    """Whether the cut is a task set after the domain's first (its own tasks, not a part of
    the first set's)."""
    return bool(cut.column and cut.column.startswith("set:"))


def held_out_partition(cuts: Sequence[Cut]) -> str | None:
    """The one partition of a domain whose parts may publish held-out figures: its
    sub-divisions when it has any, else its first facet. This is the policy of what is
    offered (§7.2: aggregate scores only); the privacy gate (:mod:`generator.score.gating`)
    decides what of it is published. A second partition would mostly be refused anyway: the
    held-out mean of a capability less that of one of its
    capability × difficulty cells gives the rest of the capability's held-out tasks, which
    may be a single task. So the parts of every other partition publish public tasks only
    (§4.4, §7.2). A facet whose values overlap is no partition: its values are offered, and
    the gate weighs them against what is published."""
    return next((c.column for c in cuts if c.column is not None and not c.multi), None)


def partition_name(domain: Domain, release: Release, column: str | None) -> str:
    """How the pages name a partition: "category", or a facet's title ("capability")."""
    if column == "subdivision":
        return domain.subdivision_label or "sub-division"
    names = (column or "").removeprefix("facet:").split(",")
    titles = {f.id: f.title.lower() for f in release.profile.facets}
    return " × ".join(titles.get(n, n) for n in names)


#: Why a part of another partition shows no held-out figure (:func:`held_out_partition`).
OTHER_PARTITION = (
    "withheld: held-out results are published for one partition of this domain only ({}); "
    "with a second, a held-out task could be isolated by subtraction (§4.4, §7.2) — its "
    "public group is shown"
)


def holds(column: np.ndarray | pd.Series, value: str) -> np.ndarray:
    """Which tasks hold ``value`` in a column of the task table: the value itself, or among
    the values of a facet that allows several (a tuple)."""
    out: np.ndarray = np.fromiter(
        (x == value or (isinstance(x, tuple) and value in x) for x in column),
        dtype=bool,
        count=len(column),
    )
    return out


def cut_column(facets: Sequence[str]) -> str:
    """The task-table column of a partition by these facets (their values joined by ',')."""
    return "facet:" + ",".join(facets)


def cut_columns(tasks: pd.DataFrame, cuts: Sequence[Cut]) -> pd.DataFrame:
    """The task table with a column for each partition the cuts use that it lacks (a pair of
    facets: their values joined by ',')."""
    extra = {}
    for cut in cuts:
        if cut.column and cut.column not in tasks and cut.column not in extra:
            names = cut.column.removeprefix("facet:").split(",")
            extra[cut.column] = (
                tasks[[f"facet:{f}" for f in names]].astype(str).agg(",".join, axis=1)
            )
    return tasks.assign(**extra) if extra else tasks
