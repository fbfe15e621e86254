"""Rules of a release's declared views: each refers to what the release declares.

A board's rows are domains (and facet values) of the release and its split and columns two of
its axes; a grid's rows and columns two axes; a resources view lists resource metrics; a
scatter sets a resource metric against an outcome the domain reports; an effect compares one
axis within another in the domain's outcome, whose paired differences the engine computes
(§4.2, §5.3). A transfer view names an experiment, checked with the experiments.
"""

from __future__ import annotations

from collections.abc import Iterator

from generator.models import Release
from generator.models.profile import Board, Grid, Resources
from generator.models.views import Effect, Scatter, Transfer

#: The engine's figures every domain reports beside its outcome (a scatter's vertical axis).
ENGINE_OUTCOMES = ("task_score", "rule_score", "judge_score", "success_rate")


def check_view(release: Release, view: object) -> Iterator[tuple[str, str]]:
    """(field, message) for each reference of a view to something not declared."""
    axes = {a.id for a in release.profile.axes} or {"harness", "model"}
    domains = {d.id: d for d in release.domains}
    metrics = {m.id: m for m in release.metrics}
    if isinstance(view, Board):
        yield from _board(release, view, axes)
        return
    if isinstance(view, Transfer):
        return  # its experiment is checked with the experiments (check/experiments.py)
    domain_id = getattr(view, "domain", None)
    if domain_id not in domains:
        yield "domain", f"{domain_id!r} is not a domain; expected one of {sorted(domains)}"
    if isinstance(view, Grid):
        yield from _axes_named(view, ("rows", "columns"), axes)
        if view.rows == view.columns:
            yield "columns", "a grid's rows and columns are two different axes"
        if view.metric not in metrics:
            yield "metric", f"{view.metric!r} is not a metric of the release"
    if isinstance(view, Resources):
        for metric in view.metrics:
            if metric not in metrics or metrics[metric].kind != "resource":
                yield "metrics", f"{metric!r} is not a resource metric of the release"
    if isinstance(view, Scatter):
        yield from _scatter(release, view)
    if isinstance(view, Effect):
        yield from _axes_named(view, ("within", "across"), axes)
        if view.within == view.across:
            yield "across", "an effect compares one axis within another: two different axes"
        if view.domain in domains:
            outcome = release.outcome(view.domain).id
            if view.metric not in ("task_score", outcome):
                yield (
                    "metric",
                    f"{view.metric!r} is not {view.domain}'s outcome {outcome!r}: the paired "
                    "differences an effect shows are the engine's, of the domain's outcome",
                )


def _board(release: Release, view: Board, axes: set[str]) -> Iterator[tuple[str, str]]:
    """A board's split and columns are two axes; its rows, domains cut to their facets."""
    domains = {d.id: d for d in release.domains}
    yield from _axes_named(view, ("per", "columns"), axes)
    if view.per == view.columns:
        yield "columns", "a board's columns are another axis than the one it is split by"
    for j, row in enumerate(view.rows):
        domain = domains.get(row.domain)
        if domain is None:
            yield f"rows[{j}].domain", f"{row.domain!r} is not a domain of the release"
            continue
        facets = {f.id: f for f in release.profile.facets if f.id in domain.facets}
        for facet, value in row.facets.items():
            if facet not in facets:
                yield f"rows[{j}].facets", f"{facet!r} does not cut {domain.id}"
            elif value not in {v.id for v in facets[facet].values}:
                yield f"rows[{j}].facets", f"{value!r} is not a value of {facet!r}"


def _scatter(release: Release, view: Scatter) -> Iterator[tuple[str, str]]:
    """A scatter's x is a resource metric; its y an outcome the domain reports: its own
    outcome or one of the engine's scores."""
    metrics = {m.id: m for m in release.metrics}
    x = metrics.get(view.x)
    if x is None or x.kind != "resource":
        resources = sorted(m.id for m in release.metrics if m.kind == "resource")
        yield (
            "x",
            f"{view.x!r} is not a resource metric of the release; expected one of {resources}",
        )
    if view.domain not in {d.id for d in release.domains}:
        return
    outcome = release.outcome(view.domain).id
    reported = [m for m in (outcome, *ENGINE_OUTCOMES) if m in metrics or m == outcome]
    y = metrics.get(view.y)
    if view.y not in reported or (y is not None and y.kind != "outcome"):
        yield (
            "y",
            f"{view.y!r} is not an outcome {view.domain} reports; expected one of "
            f"{sorted(set(reported))}",
        )


def _axes_named(
    view: Board | Grid | Effect, fields: tuple[str, str], axes: set[str]
) -> Iterator[tuple[str, str]]:
    """A view's fields that should name axes of the release and do not."""
    for field in fields:
        named = getattr(view, field)
        if named not in axes:
            yield field, f"{named!r} is not an axis; expected one of {sorted(axes)}"
