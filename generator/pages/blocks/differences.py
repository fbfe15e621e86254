"""The paired differences of a scope's combinations (§4.2): each pair's difference, its
interval and what it says, on the domain pages' detail pages."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from generator.models.profile import Metric
from generator.pages.blocks.cells import RUNS_MARK, runs_note
from generator.pages.blocks.columns import Column, Field, Spec, sorted_as, whole
from generator.pages.blocks.tables import Cell, Table
from generator.pages.blocks.text import NBSP, decimals, scale_label, shown_as
from generator.score.results import Difference, ScopeResult


def _reading(minimum: int, resample: int) -> Callable[[Difference], str]:
    """What a paired difference says, as the report judges it: significant, noise, or too
    few tasks to judge."""

    def read(d: Difference) -> str:
        if not d.judged:
            return f"too few common tasks (< {max(minimum, resample)}) to judge"
        return "significant" if d.significant else "inside the noise: no difference"

    return read


def _difference_interval(scale: float) -> Callable[[Difference], str]:
    """The interval (divided by the metric's display ``scale``) to the precision it supports,
    on one line (as ``estimate`` shows it)."""

    def show(d: Difference) -> str:
        if d.low is None or d.high is None:
            return ""
        low, high = d.low / scale, d.high / scale
        places = decimals(low, high)
        mark = RUNS_MARK if d.interval == "runs" else ""
        return f"[{low:.{places}f},{NBSP}{high:.{places}f}]{mark}"

    return show


def _difference_cell(scale: float) -> Callable[[Difference], Cell]:
    def show(d: Difference) -> Cell:
        if d.value is None:
            return Cell("—", d.value)
        places = decimals(d.low / scale, d.high / scale)
        return Cell(f"{d.value / scale:.{places}f}", d.value)

    return show


def differences_spec(
    minimum: int,
    resample: int,
    confidence: float,
    name: Callable[[str], str] = str,
    scale: float = 1.0,
) -> Spec[Difference]:
    """A row per pair of combinations (each by ``name``): the paired difference (shown
    divided by the metric's display ``scale``), its interval, its reading."""
    return Spec(
        (
            Column("a − b", lambda d: f"{name(d.a)} − {name(d.b)}"),
            Column("Difference", whole, _difference_cell(scale)),
            Column(f"{confidence:.0%} CI", _difference_interval(scale)),
            Column("Common tasks", attrgetter("tasks"), sorted_as(str)),
            Column("Reading", _reading(minimum, resample)),
        ),
        (
            Field("a", attrgetter("a")),
            Field("b", attrgetter("b")),
            Field("difference", attrgetter("value"), "number"),
            Field("low", attrgetter("low"), "number"),
            Field("high", attrgetter("high"), "number"),
            Field("tasks", attrgetter("tasks"), "integer"),
            Field("interval", attrgetter("interval")),
            Field("significant", attrgetter("significant"), "boolean"),
        ),
    )


def differences_table(
    scope: ScopeResult,
    tid: str,
    minimum: int,
    resample: int,
    confidence: float,
    name: Callable[[str], str] = str,
    outcome: Metric | None = None,
) -> Table | None:
    """The scope's paired differences, in the scope's ``outcome`` metric (its display scale;
    where lower is better, a negative difference favours a); none for a scope too small to
    order (the report's ``unordered``)."""
    if not scope.differences or scope.unordered is not None:
        return None
    pairs = scope.differences
    significant = sum(d.significant for d in pairs)
    note = (
        f"{significant} of {len(pairs)} pairs differ significantly (the {confidence:.0%} "
        f"interval of the paired difference excludes 0, over at least {minimum} common tasks)."
    )
    if any(d.interval == "runs" for d in pairs):
        note += f" {runs_note(resample)}"
    scale = 1.0
    if outcome is not None and (outcome.scale or outcome.direction == "lower"):
        scale = outcome.scale or 1.0
        label = scale_label(outcome.scale, outcome.bounds.high, outcome.bounds.low)
        shown = f", {shown_as(label)}" if label else ""
        favours = "a negative" if outcome.direction == "lower" else "a positive"
        note += (
            f" Differences of {outcome.title}{shown}: {outcome.direction} is better, so "
            f"{favours} a − b favours a."
        )
    inline = len(pairs) if len(pairs) <= DIFFERENCES_INLINE else 0
    spec = differences_spec(minimum, resample, confidence, name, scale)
    return spec.table(tid, f"Paired differences — {scope.title}", pairs, note, inline)


#: Pairs a differences table shows in the page; more (over ten combinations) load on demand:
#: 20 combinations make 190 pairs in each of dozens of scopes (page weight at scale).
DIFFERENCES_INLINE = 45
