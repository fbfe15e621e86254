"""What the release's declared views decide of a domain's scopes, made here so that the pages
only lay it out (§4.2, §4.4, §5.3): the scope each view shows of a part of the domain, a
board's rank ranges within each of its tables, a scatter's Pareto frontiers; and, for every
scope, the order its combinations are listed in and whether it has tasks enough to order
them at all (:func:`decided`, run by :func:`generator.score.report.build_report` once the
privacy gate has left its scopes).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from generator.models import Release
from generator.models.profile import Metric
from generator.models.views import Board, Effect, Scatter
from generator.protocol.comparison import tokenizer_key
from generator.score.declared_results import (
    BoardRanks,
    EffectLeaders,
    FrontierPoint,
    RankRange,
    ScatterFrontier,
)
from generator.score.ranking import compared_on_frontier, frontier, rank_ranges
from generator.score.results import (
    EFFICIENCY_COUNTS,
    CombinationInfo,
    CombinationScores,
    Estimate,
    Rate,
    ScopeResult,
)

#: The engine's figures a combination carries under the metric's own id.
ENGINE_FIGURES = ("task_score", "rule_score", "judge_score", "success_rate")


def metric_figure(
    release: Release, domain: str, c: CombinationScores, metric: Metric
) -> Estimate | Rate | None:
    """The combination's figure of the metric in a scope of the domain: the task score when
    it is the domain's outcome (a measured outcome is the task score), else the engine's
    figure of that id, a measured resource's mean, or a token or time mean (no interval)."""
    if metric.id == release.outcome(domain).id:
        return c.task_score
    if metric.id in c.measures:
        return c.measures[metric.id]
    if metric.id in ENGINE_FIGURES:
        found: Estimate | Rate | None = getattr(c, metric.id)
        return found
    if metric.id in EFFICIENCY_COUNTS and c.efficiency is not None:
        mean = getattr(c.efficiency, metric.id)
        tasks = c.coverage.valid_tasks if c.coverage else 0
        return None if mean is None else Estimate(value=mean, low=None, high=None, tasks=tasks)
    return None


def best_first(scope: ScopeResult, higher: bool) -> list[str]:
    """The scope's combinations best first: by the Task Score in the outcome's direction
    (``higher``: higher is better; none last), then by best rank, then by id — the one order
    of every table and chart of a scope, whatever its comparison groups (ranks compare within
    a group only)."""
    sign = 1.0 if higher else -1.0

    def key(c: CombinationScores) -> tuple[float, int, str]:
        e = c.task_score
        value = -sign * e.value if e is not None and e.value is not None else math.inf
        return (value, c.rank or 10**6, c.combination)

    return [c.combination for c in sorted(scope.combinations, key=key)]


#: Why a scope over too few tasks orders nothing (its tasks, then the fewest an order needs).
UNORDERED = "over {} task(s), fewer than the {} an order needs"


def unordered(scope: ScopeResult, minimum: int) -> str | None:
    """Why the scope orders none of its combinations, where it has fewer than ``minimum``
    tasks (``statistics.min_tasks_to_order``): no paired difference over them is significant,
    so its ranks and differences say nothing."""
    return UNORDERED.format(scope.tasks, minimum) if scope.tasks < minimum else None


def _published(scope: ScopeResult) -> int:
    return sum(c.status != "withheld" for c in scope.combinations)


def view_scopes(scopes: Sequence[ScopeResult]) -> set[str]:
    """The keys of the scopes the views show, one per part of the domain (the whole domain,
    or the domain cut to facet values; never a sub-division or a further task set, as views
    never pool sets): all its tasks, unless its public tasks publish more combinations
    (held-out results are withheld where a held-out task could be isolated, §4.4); none for
    a part whose every group is withheld."""
    parts: dict[frozenset[tuple[str, str]], dict[str, ScopeResult]] = {}
    for s in scopes:
        if s.scope.subdivision is None and s.scope.task_set is None:
            parts.setdefault(frozenset(s.scope.facets), {})[s.scope.group] = s
    out = set()
    for found in parts.values():
        shown = [found[g] for g in ("all", "public") if g in found and not found[g].withheld]
        best = max(shown, key=_published, default=None)  # the first of equals: all tasks
        if best is not None:
            out.add(best.scope.key)
    return out


def board_ranks(scope: ScopeResult, names: Sequence[str], higher: bool) -> dict[str, RankRange]:
    """The rank ranges the scope's paired differences allow among ``names`` (its scored
    combinations among them), within each comparison group of the scope."""
    scored = {c.combination for c in scope.combinations if c.status == "scored"}
    wanted = [n for n in names if n in scored]
    groups = scope.comparison_groups or [wanted]
    out: dict[str, RankRange] = {}
    for group in groups:
        members = [n for n in wanted if n in group]
        for n, (best, worst) in rank_ranges(members, scope.differences, higher).items():
            out[n] = RankRange(combination=n, rank=best, rank_worst=worst)
    return out


def axis_values(infos: Iterable[CombinationInfo], axis: str) -> list[str]:
    """The values combinations take on the axis, in order (case set aside)."""
    return sorted({c.axes[axis] for c in infos if axis in c.axes}, key=lambda v: (v.lower(), v))


def board_tables(board: Board, infos: Sequence[CombinationInfo]) -> dict[str, list[str]]:
    """The board's tables: per value of its ``per`` axis, the combinations that share it and
    have a place on its column axis, by id."""
    return {
        value: sorted(
            c.id for c in infos if c.axes.get(board.per) == value and board.columns in c.axes
        )
        for value in axis_values(infos, board.per)
    }


def _board_ranks(
    scope: ScopeResult, release: Release, infos: Sequence[CombinationInfo]
) -> list[BoardRanks]:
    """The scope's rank ranges in every table of every board that has it as a row. A row of
    a whole domain that aggregates over cells has none: it shows the mean over cells, and
    paired differences are over tasks."""
    domain = release.domain(scope.scope.domain)
    facets = dict(scope.scope.facets)
    if domain.aggregate.over == "cells" and not facets:
        return []
    higher = release.outcome(domain.id).higher
    out = []
    for view in release.profile.views:
        if not isinstance(view, Board) or not any(
            r.domain == domain.id and dict(r.facets) == facets for r in view.rows
        ):
            continue
        for value, names in board_tables(view, infos).items():
            found = board_ranks(scope, names, higher)
            ranks = [found[n] for n in sorted(found)]
            out.append(BoardRanks(board=view.id, table=value, ranks=ranks))
    return out


def scatter_metrics(release: Release, view: Scatter) -> tuple[Metric, Metric]:
    """The scatter's metrics, across and up: the task score of a domain is its outcome, under
    the outcome's own title and scale."""
    x = release.metric(view.x)
    outcome = release.outcome(view.domain)
    y = outcome if view.y in ("task_score", outcome.id) else release.metric(view.y)
    assert x is not None, f"{view.x!r} is not a metric (the check refuses it)"
    return x, y or outcome


def frontier_names(
    scope: ScopeResult, x: Metric, infos: Mapping[str, CombinationInfo]
) -> dict[str, str]:
    """Each combination's frontier against the resource ``x``: its tokenizer unless the
    resource compares across models, and its comparison group where there are several."""
    index = {n: i for i, names in enumerate(scope.comparison_groups) for n in names}
    several = len(scope.comparison_groups) > 1
    out = {}
    for c in scope.combinations:
        tokenizer = tokenizer_key(c.combination, infos[c.combination].tokenizer)
        parts = [] if x.comparable else [f"tokenizer {tokenizer}"]
        if several:
            parts.append(f"comparison group {index.get(c.combination, 0) + 1}")
        out[c.combination] = ", ".join(parts)
    return out


def scatter_frontier(
    scope: ScopeResult, view: Scatter, release: Release, infos: Mapping[str, CombinationInfo]
) -> ScatterFrontier:
    """The scatter's frontiers in the scope it shows. Only combinations measured on every
    task of the scope are compared (as the frontier of tokens,
    :func:`~generator.score.ranking.compared_on_frontier`); a frontier needs two of them."""
    x, y = scatter_metrics(release, view)
    groups = frontier_names(scope, x, infos)
    compared = {}
    for c in scope.combinations:
        fx = metric_figure(release, view.domain, c, x)
        fy = metric_figure(release, view.domain, c, y)
        if fx is None or fy is None or fx.value is None or fy.value is None:
            continue
        if compared_on_frontier(c, x.id):
            compared[c.combination] = (float(fy.value), float(fx.value))
    front = frontier(compared, groups, y.higher, x.higher)
    peers = {g: sum(groups[n] == g for n in compared) for g in set(groups.values())}
    points = [
        FrontierPoint(
            combination=n,
            frontier=groups[n],
            pareto=(n in front) if n in compared and peers[groups[n]] > 1 else None,
        )
        for n in (c.combination for c in scope.combinations)
    ]
    return ScatterFrontier(view=view.id, x=x.id, y=y.id, points=points)


def effect_metric(release: Release, view: Effect) -> Metric:
    """The metric an effect compares: the domain's outcome (its paired differences are the
    engine's), under the domain's own title and scale when the view names the task score."""
    outcome = release.outcome(view.domain)
    if view.metric in ("task_score", outcome.id):
        return outcome
    declared = release.metric(view.metric)
    return declared if declared is not None else outcome


def effect_leaders(
    scope: ScopeResult, view: Effect, release: Release, infos: Sequence[CombinationInfo]
) -> EffectLeaders:
    """Under each value of the effect's fixed axis, the combination every other is set
    against: of those at a place on both axes with a figure of the view's metric, the first
    by best rank, then by the figure in the metric's direction, then by the value of the
    compared axis."""
    metric = effect_metric(release, view)
    placed = [c for c in infos if {view.within, view.across} <= set(c.axes)]
    place = {(c.axes[view.within], c.axes[view.across]): c.id for c in placed}
    scores = {c.combination: c for c in scope.combinations}
    sign = 1.0 if metric.higher else -1.0
    leaders = {}
    for w in axis_values(placed, view.within):
        ranked = []
        for a in axis_values(placed, view.across):
            c = scores.get(place.get((w, a), ""))
            e = None if c is None else metric_figure(release, view.domain, c, metric)
            if c is not None and e is not None and e.value is not None:
                ranked.append((c.rank or 10**6, -sign * float(e.value), a, c.combination))
        if ranked:
            leaders[w] = min(ranked)[3]
    return EffectLeaders(view=view.id, leaders=leaders)


def decided(
    scopes: Sequence[ScopeResult], release: Release, infos: Sequence[CombinationInfo]
) -> list[ScopeResult]:
    """The domain's scopes with what is decided of them beside their figures: each its order
    best first and whether it is too small to order; the scopes the declared views show
    marked, each with its boards' rank ranges, its scatters' frontiers and its effects'
    leaders."""
    shown = view_scopes(scopes)
    by_id = {c.id: c for c in infos}
    minimum = release.statistics.min_tasks_to_order
    out = []
    for s in scopes:
        domain = s.scope.domain
        higher = release.outcome(domain).higher
        update: dict[str, object] = {
            "best_first": best_first(s, higher),
            "unordered": None if s.withheld else unordered(s, minimum),
        }
        if s.scope.key in shown:
            update["views"] = True
            update["boards"] = _board_ranks(s, release, infos)
            if not s.scope.facets:
                mine = [v for v in release.profile.views if getattr(v, "domain", "") == domain]
                update["scatters"] = [
                    scatter_frontier(s, v, release, by_id) for v in mine if isinstance(v, Scatter)
                ]
                update["effects"] = [
                    effect_leaders(s, v, release, infos) for v in mine if isinstance(v, Effect)
                ]
        out.append(s.model_copy(update=update))
    return out
