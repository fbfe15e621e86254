"""How a domain's outcome reads: the metric its tasks score in, its scale, unit and direction.

Lingee Bench's domains score in the Task Score, in [0, 1], higher is better: shown as it is,
so its pages read as before. A declared metric (a cost in units of 10⁴, lower is better;
earnings in 10⁶, signed) is shown divided by its scale, the header naming the unit and the
scale, and the direction said where lower is better (§4.2: no aggregate over different
measures, so each domain's figures are read in their own metric).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from generator.models.profile import Channel, Metric
from generator.pages.blocks.cells import estimate_cell, interval_mark
from generator.pages.blocks.columns import Column, Field, estimate_fields, only
from generator.pages.blocks.tables import Cell
from generator.pages.blocks.text import NBSP, estimate, scale_label
from generator.pages.context import VersionContext
from generator.protocol.order import metric_first
from generator.score.results import CombinationScores, Estimate, ScopeResult


@dataclass(frozen=True)
class Outcome:
    """A domain's outcome metric as the pages show it."""

    metric: Metric

    @property
    def plain(self) -> bool:
        """Shown as it is (Lingee's Task Score): no unit, no scale, higher is better."""
        m = self.metric
        return m.scale is None and m.unit is None and m.direction == "higher"

    @property
    def title(self) -> str:
        return self.metric.title

    @property
    def qualifier(self) -> str:
        """Unit, scale and (when lower is better) direction: "cost units, ×10⁴, lower is
        better"; empty for a plain metric."""
        m = self.metric
        parts = [m.unit or m.currency or "", scale_label(m.scale, m.bounds.high, m.bounds.low)]
        parts.append("lower is better" if m.direction == "lower" else "")
        return ", ".join(p for p in parts if p)

    def header(self, confidence: float) -> str:
        """A column header: "Task Score [95% CI]", or "Beer Game cost (×10⁴, lower is
        better) [95% CI]"."""
        said = f"{self.title} ({self.qualifier})" if self.qualifier else self.title
        return f"{said} [{confidence:.0%}{NBSP}CI]"

    def scaled(self, e: Estimate) -> Estimate:
        """The estimate in display units (divided by the scale)."""
        scale = self.metric.scale
        if not scale:
            return e

        def div(x: float | None) -> float | None:
            return None if x is None else x / scale

        return e.model_copy(update={"value": div(e.value), "low": div(e.low), "high": div(e.high)})

    def text(self, e: Estimate) -> str:
        """The estimate with its interval in display units, † over run noise only."""
        shown = self.scaled(e)
        return estimate(shown.value, shown.low, shown.high) + interval_mark(e)

    def cell(self, e: Estimate | None) -> Cell:
        """A table cell: the display text, sorted by the value itself."""
        if self.plain or e is None or e.value is None:
            return estimate_cell(e)
        return Cell(self.text(e), e.value)

    def labelled(self, e: Estimate | None) -> Cell:
        """A cell among other domains' (a result card): the text with its metric named
        unless it is the plain Task Score."""
        cell = self.cell(e)
        if self.plain or e is None or e.value is None:
            return cell
        return cell._replace(text=f"{cell.text} {self.title} ({self.qualifier})")


def report_order(
    scope: ScopeResult, combos: Iterable[CombinationScores]
) -> list[CombinationScores]:
    """``combos`` of the scope best first, in the order the report lists them (the scope's
    ``best_first``: by the figure in the outcome's direction, then best rank, then id) — the
    one order of every table and chart of a scope, whatever its comparison groups."""
    place = {n: i for i, n in enumerate(scope.best_first)}
    return sorted(combos, key=lambda c: place.get(c.combination, len(place)))


def cells_column(
    ctx: VersionContext,
    domain: str,
    confidence: float,
    scores: Callable[[Any], CombinationScores] = lambda c: c,
) -> tuple[Column[Any], ...]:
    """The mean over cells, beside the mean over tasks, where the domain declares it (§4.2):
    a column of its own, or none."""
    found = ctx.release.find_domain(domain)
    if found is None or found.aggregate.over != "cells":
        return ()
    outcome = outcome_of(ctx, domain)
    names = [f.title.lower() for f in ctx.release.profile.facets if f.id in found.aggregate.facets]
    header = f"Mean over cells ({' × '.join(names)}) [{confidence:.0%}{NBSP}CI]"

    def show(c: CombinationScores) -> Cell:
        return outcome.cell(c.cell_mean) if c.cell_mean else Cell("—")

    return (Column(header, scores, show, first=metric_first(ctx.release, outcome.metric.id)),)


def domain_channels(ctx: VersionContext, domain: str) -> list[Channel]:
    """The release's Judge channels that judge some task of the domain, in declared order."""
    used = {
        j.channel
        for t in ctx.catalog.tasks
        if t.domain == domain
        for j in t.scoring.judge_items
        if j.channel is not None
    }
    return [c for c in ctx.release.profile.channels if c.id in used]


def channel_columns(
    ctx: VersionContext,
    domain: str,
    confidence: float,
    scores: Callable[[Any], CombinationScores | None] = lambda c: c,
    withheld: Mapping[str, str] | None = None,
) -> tuple[Column[Any], ...]:
    """Each Judge channel that judges some task of the domain, beside the score that combines
    the channels: the channel's score on the outcome's display scale with its interval, and
    the tasks it judged (its coverage) — never the combined score alone, since channels can
    agree with human raters very differently (e.g. text and visual judges). A channel the
    scope withholds (``withheld``: its reason by channel) reads "withheld" in every row."""
    used = domain_channels(ctx, domain)
    if not used:
        return ()
    outcome = outcome_of(ctx, domain)
    first = metric_first(ctx.release, outcome.metric.id)

    def column(channel: str, title: str) -> Column[Any]:
        def show(c: CombinationScores | None) -> Cell:
            if c is None:
                return Cell("—")
            e = c.channels.get(channel)
            if e is None:
                return Cell("withheld (§4.4)" if channel in (withheld or {}) else "—")
            cell = outcome.cell(e)
            return cell._replace(text=f"{cell.text} · {e.tasks}")

        header = f"{title} judge [{confidence:.0%}{NBSP}CI] · tasks"
        return Column(header, scores, show, first=first)

    return tuple(column(c.id, c.title) for c in used)


def channel_fields(
    ctx: VersionContext, scores: Callable[[Any], CombinationScores] = lambda c: c
) -> tuple[Field[Any], ...]:
    """The download fields of each Judge channel of the release: its estimate and the tasks
    it judged, in rows that have it."""

    def get(channel: str) -> Callable[[Any], Estimate | None]:
        return lambda r: scores(r).channels.get(channel)

    def tasks(channel: str) -> Callable[[Any], int | None]:
        return lambda r: None if (e := get(channel)(r)) is None else e.tasks

    return tuple(
        f
        for c in ctx.release.profile.channels
        for f in only(
            lambda r, c=c: get(c.id)(r) is not None,  # type: ignore[misc]
            (
                *estimate_fields(f"channel_{c.id}", get(c.id)),
                Field(f"channel_{c.id}_tasks", tasks(c.id), "integer"),
            ),
        )
    )


def outcome_of(ctx: VersionContext, domain: str) -> Outcome:
    """The outcome the domain's tasks score in (:meth:`generator.models.Release.outcome`)."""
    return Outcome(ctx.release.outcome(domain))
