"""How a declared metric shows in a view: its label (title, direction, unit, display scale)
and its figures divided by the scale, each with its interval, to the precision the interval
supports.

Only the display is scaled: every download keeps the value itself (the release's
``Metric.scale``). A figure with its interval shows as every table shows it, divided by
the scale (:func:`generator.pages.blocks.text.estimate`, as the domain pages show a domain's
outcome), so one figure reads alike on every page; a token count in thousands; a mean the
report gives without an interval to three significant digits.
"""

from __future__ import annotations

import math

from generator.models import Release
from generator.models.profile import TOKEN_METRICS, Metric
from generator.pages.blocks.cells import STATUS_TEXT, interval_mark
from generator.pages.blocks.tables import Cell
from generator.pages.blocks.text import NBSP, estimate, kilo, scale_label
from generator.score.declared import metric_figure
from generator.score.results import EFFICIENCY_COUNTS, CombinationScores, Estimate, Rate

#: Resource metrics the report gives as a mean without an interval (its ``efficiency``).
MEANS = EFFICIENCY_COUNTS
#: Said in a cell of a view whose figure is missing, by the combination's status.
MISSING = {**STATUS_TEXT, "scored": "—"}


def arrow(metric: Metric) -> str:
    """↑ when higher is better, ↓ when lower is."""
    return "↑" if metric.higher else "↓"


def unit_text(metric: Metric) -> str:
    """The unit a shown figure is in: ``×10⁴ cost units``, ``tokens``, or empty."""
    shown = scale_label(metric.scale, metric.bounds.high, metric.bounds.low)
    parts = [shown] if shown else []
    if metric.unit or metric.currency:
        parts.append(metric.unit or metric.currency or "")
    return " ".join(parts)


def label(metric: Metric, per: str = "") -> str:
    """The metric's title (and ``per``, e.g. "per run") with its direction and, where it has
    them, its unit and scale: ``Beer Game cost ↓ (×10⁴ cost units)``."""
    unit = unit_text(metric)
    title = f"{metric.title} {per}" if per else metric.title
    return f"{title} {arrow(metric)}" + (f" ({unit})" if unit else "")


def _significant(value: float) -> int:
    """Decimals that show three significant digits of a value without an interval."""
    if value == 0 or not math.isfinite(value):
        return 0
    return max(0, min(3, 2 - math.floor(math.log10(abs(value)))))


def scaled(metric: Metric, value: float | None, low: float | None, high: float | None) -> str:
    """A figure of the metric and its interval divided by its display scale, on one line."""
    if value is None:
        return "—"
    if metric.id in TOKEN_METRICS and metric.scale is None:
        if low is None or high is None:
            return kilo(value)  # as every page shows tokens
        return f"{kilo(value)}{NBSP}[{kilo(low)},{NBSP}{kilo(high)}]"
    s = metric.scale or 1.0
    v = value / s
    if low is None or high is None:
        return f"{v:,.{_significant(v)}f}"
    return estimate(v, low / s, high / s)


Figure = Estimate | Rate


def figure(release: Release, domain: str, c: CombinationScores, metric: Metric) -> Figure | None:
    """The combination's figure of the metric in a scope of the domain, as the report holds
    it (:func:`generator.score.declared.metric_figure`)."""
    return metric_figure(release, domain, c, metric)


def figure_text(metric: Metric, e: Figure) -> str:
    """A figure as a view shows it: scaled, with its interval and † after run noise; a
    figure that should have an interval and has none says why (a token or time mean has
    none by design)."""
    mark = "" if metric.id in MEANS else interval_mark(e)
    return scaled(metric, e.value, e.low, e.high) + mark


def figure_cell(metric: Metric, c: CombinationScores, e: Figure | None) -> Cell:
    """A figure's cell, sorted by its value; without one, why (not covered, withheld...)."""
    if e is None or e.value is None:
        return Cell(MISSING[c.status])
    return Cell(figure_text(metric, e), e.value)
