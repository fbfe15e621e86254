"""Scopes: the only unit the engine aggregates over, and the refusals that guard them.

A scope is one version, one domain, optionally one sub-division (category or dimension),
and one task group. Nothing aggregates across versions (§5.3, §7.2) or domains (§4.2, §5.3):
the type cannot say it, and :func:`guard` refuses any runs that would.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Literal

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from generator.errors import Refused

ScopeGroup = Literal["all", "public", "held-out"]
GROUPS: tuple[ScopeGroup, ...] = ("all", "public", "held-out")

CROSS_VERSION_RULE = (
    "scores are bound to one version's evaluation assets and are not compared or combined "
    "across versions (§5.3, §7.2)"
)
CROSS_DOMAIN_RULE = (
    "the domains' scorers differ, so no number combines domains and there is no overall "
    "cross-domain score (§4.2, §5.3)"
)


class CrossVersionError(Refused):
    """Runs of two versions reached one aggregate."""


class CrossDomainError(Refused):
    """Runs of two domains reached one aggregate."""


class Scope(BaseModel):
    """One version × one domain × optional sub-division or facet values × one group."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str = Field(description="The release version.")
    domain: str = Field(description="The domain.")
    subdivision: str | None = Field(default=None, description="The sub-division; null: all.")
    group: ScopeGroup = Field(default="all", description="'all', 'public' or 'held-out' tasks.")
    facets: tuple[tuple[str, str], ...] = Field(
        default=(),
        exclude_if=lambda v: not v,
        description="(facet, value) pairs the scope keeps, in the release's facet order; "
        "absent: every value.",
    )
    task_set: str | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="Where the domain publishes task sets: a set other than its first, whose "
        "tasks the scope keeps; absent: the first set (or, without sets, every task).",
    )

    @property
    def key(self) -> str:
        """Stable text key, e.g. ``v1.0/enterprise/finance/public``, or
        ``v1.0/qa/*/all/capability=ie,difficulty=easy`` for a scope cut by facets."""
        parts = [self.version, self.domain, self.subdivision or "*", self.group]
        if self.facets:
            parts.append(",".join(f"{f}={v}" for f, v in self.facets))
        if self.task_set:
            parts.append(f"set={self.task_set}")
        return "/".join(parts)

    @property
    def whole(self) -> bool:
        """Whether the scope is its whole domain (or one group of it): no sub-division, no
        facet value."""
        return self.subdivision is None and not self.facets and self.task_set is None

    @property
    def slug(self) -> str | None:
        """:attr:`cut` as a page or file name part (its sub-division id as it is;
        ``capability-ie.difficulty-easy`` for facet values); None for the whole domain."""
        if self.facets:
            return ".".join(f"{f}-{v}" for f, v in self.facets)
        if self.task_set:
            return f"set-{self.task_set}"
        return self.subdivision

    @property
    def cut(self) -> str | None:
        """What the scope's tasks share beyond the domain, as one partition value: its
        sub-division or its facet values; None for the whole domain."""
        if self.facets:
            return ",".join(f"{f}={v}" for f, v in self.facets)
        if self.task_set:
            return f"set={self.task_set}"
        return self.subdivision


def guard(runs: pd.DataFrame, scope: Scope) -> None:
    """Refuse runs that span versions or domains, or lie outside the scope, whatever the data."""
    versions = sorted(str(v) for v in pd.unique(runs["version"]))
    if len(versions) > 1 or (versions and versions[0] != scope.version):
        raise CrossVersionError(
            f"refused: cannot aggregate runs of versions {', '.join(versions)} in the scope of "
            f"{scope.version}: {CROSS_VERSION_RULE}"
        )
    domains = sorted(str(d) for d in pd.unique(runs["domain"]))
    if len(domains) > 1 or (domains and domains[0] != scope.domain):
        raise CrossDomainError(
            f"refused: cannot aggregate runs of domains {', '.join(domains)} in the scope of "
            f"{scope.domain}: {CROSS_DOMAIN_RULE}"
        )


def withheld_scopes(
    tasks: pd.DataFrame, minimum: int, column: str = "subdivision"
) -> dict[tuple[str | None, str], str]:
    """Scopes of one domain whose aggregates would expose a small held-out group, for one
    partition of its tasks (``column``: the sub-division, or a facet's values).

    Keys are (partition value or None, group). A held-out group of 1..minimum-1 tasks is
    withheld, and so is its 'all' group (all minus public would reveal it). Sub-divisions
    are then withheld together until the withheld held-out tasks number 0 or at least
    ``minimum``, so the domain's held-out aggregate cannot be reduced to a small group by
    subtraction (§4.4, §7.2).
    """
    held = tasks[tasks["group"] == "held-out"]
    out: dict[tuple[str | None, str], str] = {}

    def small(count: int) -> str:
        return (
            f"withheld: {count} held-out task(s), fewer than the {minimum} a held-out "
            "aggregate needs (§4.4, §7.2)"
        )

    total = len(held)
    if 0 < total < minimum:
        out[(None, "held-out")] = out[(None, "all")] = small(total)
    counts = {str(k): int(v) for k, v in held.groupby(column).size().items()}
    suppressed = {s for s, n in counts.items() if n < minimum}
    while 0 < sum(counts[s] for s in suppressed) < minimum:
        rest = sorted((n, str(s)) for s, n in counts.items() if s not in suppressed)
        if not rest:
            break
        suppressed.add(rest[0][1])
    for sub in sorted(suppressed):
        reason = (
            small(counts[sub])
            if counts[sub] < minimum
            else "withheld with smaller held-out groups of this domain, so that none can be "
            "derived by subtraction (§4.4, §7.2)"
        )
        out[(sub, "held-out")] = out[(sub, "all")] = reason
    return out


#: Why a value of a facet whose values overlap shows no held-out figure.
OVERLAP = (
    "withheld: this value's held-out tasks overlap those of the figures already shown, and "
    "with them a group of fewer than {} held-out tasks could be isolated by subtraction "
    "(§4.4, §7.2) — its public group is shown"
)


#: Why a scope shows no Judge channel's figure over its held-out tasks.
SPLITS = (
    "withheld: over this scope's held-out tasks a Judge channel judges so few that, with the "
    "figures shown, a group of fewer than {} held-out tasks could be derived (§4.4, §7.2)"
)


def overlap_withheld(
    held: np.ndarray,
    published: Sequence[np.ndarray],
    candidates: Mapping[str, np.ndarray],
    minimum: int,
    splits: Mapping[str, np.ndarray] | None = None,
) -> dict[tuple[str, str], str]:
    """The values of facets whose values overlap (a task holds several) whose held-out
    figures would expose a small group, against the held-out sets already published.

    ``held``: each task of the domain is held-out; ``published``: the task sets whose held-out
    figures are shown (the domain, the parts of its one held-out partition); ``candidates``:
    each value's tasks, in the order shown; ``splits``: task sets every shown set is also
    shown cut to (a Judge channel's tasks: its figure beside each scope's), checked first.
    A set is added only when no group of 1..``minimum`` − 1 held-out tasks can then be
    derived from what is shown (:func:`derivable`), else its held-out and all-tasks groups
    are withheld (§4.4, §7.2); where only its splits would let one be, it is shown without
    them (key (value, "splits")). Keys are (value, group) as in :func:`withheld_scopes`.
    """
    held_mask = np.asarray(held, dtype=bool)
    family = [np.asarray(s, dtype=bool)[held_mask] for s in published]
    cuts: list[np.ndarray] = []
    out: dict[tuple[str, str], str] = {}

    def safe(sets: list[np.ndarray]) -> bool:
        return not derivable(sets, minimum)

    def withhold(key: str) -> None:
        out[(key, "held-out")] = out[(key, "all")] = OVERLAP.format(minimum)

    for key, tasks in (splits or {}).items():
        split = np.asarray(tasks, dtype=bool)[held_mask]
        new = [s & split for s in family]
        if family and safe([*family, *new]):
            family += new
            cuts.append(split)
        elif split.any():
            withhold(key)
    for value, tasks in candidates.items():
        mine = np.asarray(tasks, dtype=bool)[held_mask]
        if not mine.any():
            continue
        new = [mine, *(mine & split for split in cuts)]
        if family and safe([*family, *new]):
            family += new
        elif family and cuts and safe([*family, mine]):  # shown, its splits withheld
            family.append(mine)
            out[(value, "splits")] = SPLITS.format(minimum)
        else:
            withhold(value)
    return out


#: Most unions of small atoms :func:`derivable` tries one by one; beyond, it answers as if
#: one were derivable whenever an atom is small (sufficient, not necessary).
MOST_UNIONS = 50_000


def derivable(sets: Sequence[np.ndarray], minimum: int) -> bool:
    """Whether the sums over ``sets`` (each a mask over the same held-out tasks) let the sum
    over some group of 1..``minimum`` − 1 of the tasks be derived: its indicator a linear
    combination of theirs (§4.4, §7.2).

    Every such combination is constant on the atoms of the sets (the tasks that lie in exactly
    the same sets), so a derivable group is a union of atoms smaller than ``minimum``; each
    union of the small atoms is tested for lying in the span of the sets, written over atoms.
    """
    if not sets:
        return False
    atoms, counts = np.unique(np.column_stack(sets), axis=0, return_counts=True)
    small = [int(a) for a in np.flatnonzero(counts < minimum)]
    if not small:
        return False
    unions = (
        [
            combo
            for size in range(1, minimum)
            for combo in combinations(small, size)
            if counts[list(combo)].sum() < minimum
        ]
        if math.comb(len(small), min(len(small), minimum - 1)) <= MOST_UNIONS
        else None
    )
    if unions is None:
        return True
    span = atoms.T.astype(float)  # sets × atoms
    rank = np.linalg.matrix_rank(span)
    for combo in unions:
        v = np.zeros(len(atoms))
        v[list(combo)] = 1.0
        if np.linalg.matrix_rank(np.vstack([span, v])) == rank:
            return True
    return False
