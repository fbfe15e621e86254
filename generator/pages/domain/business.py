"""The business views and failure types of a scope (§4.2), as the domain pages show them."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from generator.pages.blocks.cells import VIEWS, combo_cell, estimate_cell, runs_note, view_cell
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields, sorted_as, whole
from generator.pages.blocks.tables import Cell, Table
from generator.pages.context import VersionContext
from generator.protocol.order import metric_first
from generator.score.results import BusinessViews, CombinationScores, ScopeResult


def _view(name: str, elsewhere: str) -> Callable[[BusinessViews], Cell]:
    return lambda b: view_cell(getattr(b, name), name, b.withheld, elsewhere)


def _views_of(name: str) -> Callable[[CombinationScores], Any]:
    return lambda c: getattr(c.business, name)


def business_spec(ctx: VersionContext, elsewhere: str = "") -> Spec[CombinationScores]:
    """A row per combination: the business views (§4.2), each with its interval (a
    withheld one links ``elsewhere``, where it can be read, if given)."""
    titles = (
        "Risk-weighted score",
        "Key-process end-to-end success",
        "Fatal-error rate",
        "Functional-boundary correctness",
    )
    business = attrgetter("business")
    return Spec(
        (
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 1)),
            *(
                Column(t, business, _view(n, elsewhere), first=metric_first(ctx.release, n))
                for t, n in zip(titles, VIEWS, strict=True)
            ),
        ),
        (
            Field("combination", attrgetter("combination")),
            Field("withheld", lambda c: c.business.withheld, "array"),
            *(f for n in VIEWS for f in estimate_fields(n, _views_of(n))),
        ),
    )


def _runs_shown(b: BusinessViews) -> bool:
    """Whether a view the page shows has an interval of run noise only."""
    shown = [getattr(b, n) for n in VIEWS if n not in b.withheld]
    return any(e is not None and e.interval == "runs" for e in shown)


def business_table(
    ctx: VersionContext, scope: ScopeResult, tid: str, elsewhere: str = ""
) -> Table | None:
    views = [c for c in scope.combinations if c.business is not None]
    if not views:
        return None
    note = (
        "Rates are shares of valid runs; their intervals resample tasks (a task's runs are "
        "not independent draws). The risk-weighted score uses the release's frozen risk "
        "weights."
    )
    if any(_runs_shown(c.business) for c in views if c.business is not None):
        note += f" {runs_note(ctx.release.statistics.min_tasks_to_resample)}"
    spec = business_spec(ctx, elsewhere)
    return spec.table(tid, f"Business views — {scope.title}", views, note)


def _failures(kind: str) -> Callable[[CombinationScores], int]:
    return lambda c: c.failure_types.get(kind, 0)


def _valid_runs(c: CombinationScores) -> int:
    return c.coverage.valid_runs if c.coverage else 0


def _failed_cell(c: CombinationScores) -> Cell:
    total = sum(c.failure_types.values())
    return Cell(f"{total} of {_valid_runs(c)}", total)


def failure_spec(ctx: VersionContext) -> Spec[CombinationScores]:
    """A row per combination: its failed valid runs by failure type (§4.2)."""
    types = ctx.release.enumerations.failure_types
    return Spec(
        (
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 1)),
            *(Column(f.title, _failures(f.id), sorted_as(str)) for f in types),
            Column("Failed runs", whole, _failed_cell),
        ),
        (
            Field("combination", attrgetter("combination")),
            Field("valid_runs", _valid_runs, "integer"),
            *(Field(f.id, _failures(f.id), "integer") for f in types),
        ),
    )


def failure_table(ctx: VersionContext, scope: ScopeResult, tid: str) -> Table | None:
    scored = [c for c in scope.combinations if c.status == "scored"]
    if not scored:
        return None
    note = "Counts of valid runs that did not succeed, by failure type (§4.2)."
    return failure_spec(ctx).table(tid, f"Failure types — {scope.title}", scored, note)


def _class_of(name: str) -> Callable[[CombinationScores], Any]:
    return lambda c: c.rule_classes.get(name)


def rule_class_spec(ctx: VersionContext, classes: list[str]) -> Spec[CombinationScores]:
    """A row per combination: the pass rate of each rule class, with its interval."""
    titles = {c.id: c.title for c in ctx.release.profile.rule_classes}
    return Spec(
        (
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 1)),
            *(Column(f"{titles.get(n, n)} passed", _class_of(n), estimate_cell) for n in classes),
        ),
        (
            Field("combination", attrgetter("combination")),
            *(f for n in classes for f in estimate_fields(f"rule_class_{n}", _class_of(n))),
        ),
    )


def rule_class_table(ctx: VersionContext, scope: ScopeResult, tid: str) -> Table | None:
    """The scope's pass rates per rule class (none where the release declares no classes)."""
    scored = [c for c in scope.combinations if c.rule_classes]
    if not scored:
        return None
    order = [c.id for c in ctx.release.profile.rule_classes]
    classes = [n for n in order if any(n in c.rule_classes for c in scored)]
    note = (
        "The share of each class's rule items passed: per task over its valid runs, then the "
        "equal-weight mean over tasks, with an interval that resamples tasks."
    )
    if any(e.interval == "runs" for c in scored for e in c.rule_classes.values()):
        note += f" {runs_note(ctx.release.statistics.min_tasks_to_resample)}"
    spec = rule_class_spec(ctx, classes)
    return spec.table(tid, f"Rule classes — {scope.title}", scored, note)
