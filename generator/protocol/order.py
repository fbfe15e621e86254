"""Which end of a metric is best (§4.2): descending when higher is better, ascending when
lower is (cost, duration, tokens) — the one rule behind every best-first order.

How a lower-is-better metric reaches the site: the report orders each scope and view best
first by this rule and says so (``ScopeResult.best_first``, :mod:`generator.score.declared`);
every table sorts and every leaderboard lists in the report's order; the leaderboard chart
puts best at the right whichever the direction (its axis reversed where lower is better,
:mod:`generator.pages.home.leaderboard`), and a scatter's axis of such a metric ends in ↓
(:mod:`generator.pages.views.scatter_points`)."""

from __future__ import annotations

from typing import Literal

from generator.models import Release

#: A sort order.
First = Literal["asc", "desc"]


def best_first(higher: bool) -> First:
    """The order that puts the best first."""
    return "desc" if higher else "asc"


def metric_first(release: Release, metric: str) -> First | None:
    """The best-first order of one of the release's metrics; None if the release declares no
    direction for it."""
    direction = next((m.direction for m in release.metrics if m.id == metric), None)
    return None if direction is None else best_first(direction == "higher")
