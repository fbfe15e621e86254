"""Scopes: the only unit the engine aggregates over, and the refusals that guard them.

A scope is one version, one domain, optionally one sub-division (category or dimension),
and one task group. Nothing aggregates across versions (§5.3, §7.2) or domains (§4.2, §5.3):
the type cannot say it, and :func:`guard` refuses any runs that would.
"""

from __future__ import annotations

from typing import Literal

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
