"""The usage table of a scope (§4.2(2), §4.2(3)): reliability@k and the cost of a task —
what the scores table leaves to a table of its own, so that the headline stays one screen
wide. A count column appears where the release declares the count or a row has a figure of
it."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from generator.pages.blocks.cells import (
    combo_cell,
    efficiency_cell,
)
from generator.pages.blocks.columns import Column, Field, Show, Spec, estimate_fields, fields, whole
from generator.pages.blocks.outcome import report_order
from generator.pages.blocks.tables import Cell, Table
from generator.pages.blocks.text import (
    NBSP,
    decimals,
    kilo,
    one_decimal,
)
from generator.pages.context import VersionContext
from generator.protocol.order import metric_first
from generator.score.results import (
    EFFICIENCY_COUNTS,
    CombinationScores,
    Reliability,
    ScopeResult,
)


def is_scored(c: CombinationScores) -> bool:
    return c.status == "scored"


def reliability_at(k: int) -> Callable[[CombinationScores], Reliability | None]:
    return lambda c: next((r for r in c.reliability if r.k == k), None)


def _to_interval(r: Reliability) -> str:
    """A figure alone, to the precision its interval supports (the interval is in the
    downloads)."""
    return "—" if r.value is None else f"{r.value:.{decimals(r.low, r.high)}f}"


def _reliability_cell(ks: list[int]) -> Callable[[CombinationScores], Cell]:
    """reliability@k for every k of the release, sorted by the first."""

    def show(c: CombinationScores) -> Cell:
        rel = {r.k: r for r in c.reliability}
        text = " / ".join(_to_interval(rel[k]) if k in rel else "—" for k in ks)
        if c.reliability_note:
            return Cell(c.reliability_note, None)
        if c.reliability_excluded:
            text += f" ({c.reliability_excluded} task(s) excluded)"
        return Cell(text, rel[ks[0]].value if ks and ks[0] in rel else None)

    return show


#: The usage table's count columns: (count, header, how its figure is written).
USAGE_COUNTS: tuple[tuple[str, str, Callable[[float | None], str]], ...] = (
    ("total_tokens", f"Tokens{NBSP}/{NBSP}task", kilo),
    ("duration_s", f"Duration{NBSP}(s)", one_decimal),
    ("turns", "Turns", one_decimal),
)


def _usage_columns(
    ctx: VersionContext, counts: frozenset[str] | None = None
) -> tuple[Column[CombinationScores], ...]:
    """reliability@k and the cost of a task: what the scores table leaves to a table of its
    own, so that the headline stays one screen wide; ``counts``: the counts shown (None:
    every one)."""
    ks = list(ctx.release.reliability_k)
    release = ctx.release

    def scored(
        header: str, value: Callable[[CombinationScores], Any], show: Show, metric: str
    ) -> Column[Any]:
        return Column(header, value, show, is_scored, first=metric_first(release, metric))

    return (
        scored(
            "reliability@" + "/".join(map(str, ks)), whole, _reliability_cell(ks), "reliability"
        ),
        *(
            scored(header, whole, efficiency_cell(name, text), name)
            for name, header, text in USAGE_COUNTS
            if counts is None or name in counts
        ),
    )


def usage_counts(ctx: VersionContext, rows: list[CombinationScores]) -> frozenset[str]:
    """The counts a usage table shows: those the release declares, and those a row has a
    figure of (a count nobody declared nor recorded has no column of dashes)."""
    return frozenset(
        name
        for name, _, _ in USAGE_COUNTS
        if ctx.release.metric(name) is not None
        or any(c.efficiency is not None and getattr(c.efficiency, name) is not None for c in rows)
    )


def usage_spec(
    ctx: VersionContext, counts: frozenset[str] | None = None
) -> Spec[CombinationScores]:
    """A row per scored combination: reliability@k, tokens, duration and turns per task
    (``counts``: the counts shown, None: every one; the downloads keep every one)."""
    ks = ctx.release.reliability_k
    return Spec(
        (
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 1)),
            *_usage_columns(ctx, counts),
        ),
        (
            Field("combination", attrgetter("combination")),
            *(f for k in ks for f in estimate_fields(f"reliability_at_{k}", reliability_at(k))),
            Field("reliability_excluded", attrgetter("reliability_excluded"), "integer"),
            *fields(EFFICIENCY_COUNTS, attrgetter("efficiency"), "number"),
        ),
    )


def usage_table(ctx: VersionContext, scope: ScopeResult, tid: str) -> Table | None:
    """The scope's reliability and cost per task, for its scored combinations."""
    scored = report_order(scope, (c for c in scope.combinations if is_scored(c)))
    if not scored:
        return None
    ks = "/".join(map(str, ctx.release.reliability_k))
    counts = usage_counts(ctx, scored)
    words = [
        w
        for n, w in (("total_tokens", "Tokens"), ("duration_s", "duration"), ("turns", "turns"))
        if n in counts
    ]
    note = (
        f"reliability@{ks}: the chance that k runs of a task all succeed, averaged over the "
        "tasks with the prescribed runs."
    )
    if words:
        listed = ", ".join(words[:-1]) + (" and " if len(words) > 1 else "") + words[-1]
        listed = listed[0].upper() + listed[1:]
        note += f" {listed}: means per task"
        note += (
            "; tokens of different tokenizers are not compared (see Efficiency)."
            if "total_tokens" in counts
            else "."
        )
    caption = f"Reliability and cost — {scope.title}"
    return usage_spec(ctx, counts).table(tid, caption, scored, note)
