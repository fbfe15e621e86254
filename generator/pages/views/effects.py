"""The effect view: each value of one axis (e.g. a model) across the values of another (e.g.
the harnesses), with the domain's outcome, its interval and rank range, and the engine's
paired differences between them (§5.3). A place no combination fills is "not evaluated";
two combinations of different comparison groups (settings varying by design, §4.1) have no
paired difference, and none is made up here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from generator.models.profile import Metric
from generator.models.views import Effect
from generator.pages.blocks.cells import groups_note, rank_note
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields
from generator.pages.blocks.differences import differences_spec
from generator.pages.blocks.measures import Figure, figure, figure_cell, label
from generator.pages.blocks.outcome import channel_columns
from generator.pages.blocks.render import Page
from generator.pages.blocks.tables import Cell, Table
from generator.pages.blocks.text import escape, escape_html, estimate, spelled
from generator.pages.context import VersionContext
from generator.pages.views.parts import (
    NOT_EVALUATED,
    axis_title,
    axis_values,
    carried_note,
    combinations,
    rank_text,
    runs_mark,
    scope_lead,
    shown_scope,
    slug,
    sub_line,
    view_page,
)
from generator.protocol.order import First, best_first
from generator.score.declared import effect_metric as metric_of
from generator.score.results import CombinationScores, Difference, ScopeResult


@dataclass(frozen=True)
class Place:
    """One value of the compared axis under one value of the fixed axis: the combination
    there (None: not evaluated) and its figures in the scope (None: not published)."""

    value: str
    combination: str | None
    scores: CombinationScores | None
    figure: Figure | None


@dataclass(frozen=True)
class Block:
    """One value of the fixed axis: its places, the engine's paired differences among its
    combinations, its best combination as the report names it (the first of its best rank)
    and those of another comparison group than the best's, never paired with it (§4.1)."""

    value: str
    places: tuple[Place, ...]
    pairs: tuple[Difference, ...]
    leader: Place | None
    apart: frozenset[str] = frozenset()  # its combinations of another group than the leader's

    def against(self, place: Place) -> Difference | None:
        """The engine's difference leader − place, read in that order (None: no pair)."""
        if self.leader is None or place.combination is None:
            return None
        ends = {self.leader.combination, place.combination}
        if len(ends) < 2:
            return None
        d = next((d for d in self.pairs if {d.a, d.b} == ends), None)
        return d if d is None or d.a == self.leader.combination else flip(d)

    def largest(self, higher: bool = True) -> Difference | None:
        """Its largest paired difference, read so that it favours its first combination (a
        positive a − b where ``higher`` is better, a negative one where lower is)."""
        if not self.pairs:
            return None
        d = max(self.pairs, key=lambda d: (abs(d.value), d.a, d.b))
        return d if (d.value >= 0) == higher else flip(d)


def flip(d: Difference) -> Difference:
    """The engine's difference a − b read as b − a (its interval mirrored)."""
    return d.model_copy(
        update={"a": d.b, "b": d.a, "value": -d.value, "low": -d.high, "high": -d.low}
    )


def effect_metric(ctx: VersionContext, view: Effect) -> Metric:
    """The metric compared (:func:`generator.score.declared.effect_metric`)."""
    return metric_of(ctx.release, view)


def _leaders(scope: ScopeResult, view: Effect) -> dict[str, str]:
    """The report's best combination under each value of the view's fixed axis."""
    found = next((e for e in scope.effects if e.view == view.id), None)
    assert found is not None, f"the report has no leaders of effect {view.id!r}"
    return found.leaders


def effect_blocks(ctx: VersionContext, view: Effect) -> tuple[ScopeResult | None, list[Block]]:
    """The view's scope and a block per value of the fixed axis, every value of the compared
    axis in each (those no combination fills: not evaluated)."""
    metric = effect_metric(ctx, view)
    infos = [c for c in combinations(ctx).values() if {view.within, view.across} <= set(c.axes)]
    scope = shown_scope(ctx, view.domain, {})
    scores = {} if scope is None else {c.combination: c for c in scope.combinations}
    place = {(c.axes[view.within], c.axes[view.across]): c.id for c in infos}
    leaders = {} if scope is None else _leaders(scope, view)
    groups = [] if scope is None else scope.comparison_groups
    group = {k: i for i, names in enumerate(groups) for k in names}
    blocks = []
    for w in axis_values(infos, view.within):
        places = []
        for a in axis_values(infos, view.across):
            k = place.get((w, a))
            c = scores.get(k or "")
            e = None if c is None else figure(ctx.release, view.domain, c, metric)
            places.append(Place(a, k, c, e))
        mine = {p.combination for p in places if p.combination is not None}
        pairs = (
            ()
            if scope is None
            else tuple(d for d in scope.differences if d.a in mine and d.b in mine)
        )
        best = leaders.get(w)
        leader = next((p for p in places if best and p.combination == best), None)
        lead = group.get(leader.combination or "") if leader is not None else None
        apart = frozenset(k for k in mine if lead is not None and group.get(k, lead) != lead)
        blocks.append(Block(w, tuple(places), pairs, leader, apart))
    return scope, blocks


def _reading(d: Difference) -> str:
    if not d.judged:
        return "too few common tasks to judge"
    return "significant" if d.significant else "inside the noise"


def difference_text(ctx: VersionContext, metric: Metric, d: Difference) -> str:
    """A difference in the metric's display, its interval and its reading."""
    s = metric.scale or 1.0
    return f"{estimate(d.value / s, d.low / s, d.high / s)}, {_reading(d)}"


def _against_cell(ctx: VersionContext, block: Block, metric: Metric, p: Place) -> Cell:
    if p.combination is None:
        return Cell(NOT_EVALUATED)
    if block.leader is not None and p.combination == block.leader.combination:
        return Cell("(the best)")
    d = block.against(p)
    if d is not None:
        return Cell(difference_text(ctx, metric, d), d.value)
    if p.figure is None:
        return Cell("—")
    if p.combination in block.apart:
        return Cell("not compared: another comparison group")
    return Cell("no paired difference: no common task")


def _name_cell(ctx: VersionContext, p: Place) -> Cell:
    """The value of the compared axis (a name kept whole on a phone), marked if its
    combination carries state across tasks."""
    bundle = ctx.frame.bundles.get(p.combination or "")
    carried = bundle is not None and bundle.carried_state is not None
    return Cell(escape_html(p.value) + sub_line("", carried), p.value, html=True)


def _status(p: Place) -> str:
    """Where no combination sits, "not evaluated"; else its status in the scope."""
    if p.combination is None:
        return NOT_EVALUATED
    return "withheld" if p.scores is None else p.scores.status


def _rank(p: Place) -> Cell:
    c = p.scores
    if c is None or c.rank is None:
        return Cell("" if p.combination else NOT_EVALUATED)
    return Cell(rank_text(c.rank, c.rank_worst or c.rank), c.rank)


def block_spec(
    ctx: VersionContext,
    view: Effect,
    metric: Metric,
    block: Block,
    withheld: Mapping[str, str] | None = None,
) -> Spec[Place]:
    """A row per value of the compared axis: its combination, figure, rank range and its
    paired difference from the block's best; where the figure is the score that combines
    Judge channels, each channel beside it (``withheld``: the channels the scope withholds)."""
    across = axis_title(ctx, view.across)
    lead = block.leader.value if block.leader else ""

    def shown(p: Place) -> Cell:
        if p.combination is None:
            return Cell(NOT_EVALUATED)
        if p.scores is None:
            return Cell("withheld")
        return figure_cell(metric, p.scores, p.figure)

    def against(p: Place) -> Difference | None:
        return block.against(p)

    first: First = best_first(metric.higher)
    return Spec(
        (
            Column(across, lambda p: p, partial(_name_cell, ctx)),
            Column(label(metric), lambda p: p, shown, first=first),
            *(
                channel_columns(
                    ctx,
                    view.domain,
                    ctx.release.statistics.confidence,
                    lambda p: p.scores,
                    withheld,
                )
                if metric.id == ctx.release.outcome(view.domain).id
                else ()
            ),
            Column("Rank", lambda p: p, _rank),
            Column(
                f"{lead} − this",
                lambda p: p,
                partial(_against_cell, ctx, block, metric),
            ),
        ),
        (
            Field(slug(across), lambda p: p.value),
            Field("combination", lambda p: p.combination),
            Field("status", _status),
            *estimate_fields(metric.id, lambda p: p.figure),
            Field("rank", lambda p: p.scores.rank if p.scores else None, "integer"),
            Field("rank_worst", lambda p: p.scores.rank_worst if p.scores else None, "integer"),
            Field("against", lambda _: block.leader.combination if block.leader else None),
            *(
                Field(f"difference{end}", partial(_part, against, name), "number")
                for end, name in (("", "value"), ("_low", "low"), ("_high", "high"))
            ),
            Field("difference_tasks", partial(_part, against, "tasks"), "integer"),
            Field("significant", lambda p: d.significant if (d := against(p)) else None, "boolean"),
        ),
    )


def _part(get: Callable[[Place], Difference | None], name: str, p: Place) -> object:
    d = get(p)
    return None if d is None else getattr(d, name)


def answer(ctx: VersionContext, view: Effect, metric: Metric, blocks: list[Block]) -> str:
    """The largest effect of the compared axis under each value of the fixed one, with its
    interval and reading, in one sentence computed from the engine's differences."""
    across, within = axis_title(ctx, view.across), axis_title(ctx, view.within)
    name = {p.combination: p.value for b in blocks for p in b.places if p.combination}
    said = []
    for b in blocks:
        d = b.largest(metric.higher)
        if d is None:
            scored = sum(p.figure is not None for p in b.places)
            why = (
                f"{spelled(scored)} {across.lower()} value{'s' if scored != 1 else ''} "
                "scored, no paired difference"
            )
            said.append(f"{b.value}: {why}")
            continue
        said.append(
            f"{b.value}: {name[d.a]} − {name[d.b]} {difference_text(ctx, metric, d)} "
            f"(over {spelled(d.tasks)} common tasks)"
        )
    head = (
        f"The largest {across.lower()} effect under each {within.lower()}: its largest paired "
        "difference, read in favour of the better, with its interval:"
    )
    return escape(head) + "\n\n" + "\n".join(f"- {escape(s)}" for s in said)


def _differences(ctx: VersionContext, view: Effect, metric: Metric, block: Block) -> Table:
    stats = ctx.release.statistics
    names = {p.combination: p.value for p in block.places if p.combination}
    name: Callable[[str], str] = lambda k: names.get(k, k)  # noqa: E731
    spec = differences_spec(
        stats.min_tasks_to_order,
        stats.min_tasks_to_resample,
        stats.confidence,
        name,
        metric.scale or 1.0,
    )
    note = (
        f"The engine's paired differences of {metric.title} over the tasks both have, a − b; "
        f"{'higher' if metric.higher else 'lower'} is better."
    )
    tid = f"{view.id}-{slug(block.value)}-pairs"
    return spec.table(tid, f"Paired differences — {block.value}", list(block.pairs), note)


def _note(ctx: VersionContext, blocks: list[Block], block: Block) -> str:
    """A block's note: what its last column is, and the marks its cells carry."""
    stats = ctx.release.statistics
    lead = block.leader.value if block.leader else "the best"
    note = (
        f"Last column: {lead} minus the row, the paired difference over the tasks both have "
        f"with its {stats.confidence:.0%} interval; rank: among the scope's combinations (see "
        "above)."
    )
    if any(p.combination is None for p in block.places):
        note += f" “{NOT_EVALUATED}”: no combination at this place, nothing filled in."
    bundles = ctx.frame.bundles
    if any(
        p.combination in bundles and bundles[p.combination].carried_state is not None
        for p in block.places
        if p.combination is not None
    ):
        note += " " + carried_note()
    return note + runs_mark(ctx, [p.figure for b in blocks for p in b.places])


def about(ctx: VersionContext, scope: ScopeResult | None) -> str:
    """What the page's ranks and differences compare, said once above its tables."""
    stats = ctx.release.statistics
    groups = [] if scope is None else scope.comparison_groups
    said = rank_note(stats.min_tasks_to_order, stats.confidence) + (
        " Ranks and differences compare the scope's combinations"
        + (" of one comparison group only." if len(groups) > 1 else ".")
    )
    if len(groups) > 1:
        said += " " + groups_note(ctx, groups)
    return said


def effect_page(ctx: VersionContext, view: Effect) -> Page:
    """The effect's page: the answer in a sentence, then per value of the fixed axis its
    table and, folded below it, its paired differences."""
    metric = effect_metric(ctx, view)
    scope, blocks = effect_blocks(ctx, view)
    lead = scope_lead(ctx, view.domain, scope)
    if scope is not None and blocks:
        lead += "\n\n" + answer(ctx, view, metric, blocks)
        lead += "\n\n" + escape(about(ctx, scope))
    within = axis_title(ctx, view.within)
    if not blocks:
        lead += "\n\n" + escape(
            f"No combination has a place on both {within} and {axis_title(ctx, view.across)} "
            "(the bundles' combination.axes): nothing to compare."
        )
    tables: list[Table] = []
    headings: list[str] = []
    folded: list[str] = []
    for b in blocks:
        spec = block_spec(ctx, view, metric, b, scope.channels_withheld if scope else None)
        title = f"{within}: {b.value}"
        rows = list(b.places)
        tables.append(spec.table(f"{view.id}-{slug(b.value)}", title, rows, _note(ctx, blocks, b)))
        headings.append(title)
        folded.append("")
        if b.pairs:
            tables.append(_differences(ctx, view, metric, b))
            headings.append("")
            n = len(b.pairs)
            folded.append(
                f"Every paired difference — {b.value} ({spelled(n)} pair{'s' if n != 1 else ''})"
            )
    return view_page(ctx, view, lead, tables, headings, folded=folded)
