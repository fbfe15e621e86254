"""The sets view: a domain's task sets compared, never pooled (e.g. Lite against Full): each
combination evaluated on both with its figure and rank on each, and the agreement of the two
orders with its interval, as the domain's report computes them
(:func:`generator.score.sets.compare_sets`)."""

from __future__ import annotations

from operator import attrgetter

from generator.models.views import Sets
from generator.pages.blocks.cells import combo_cell
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields
from generator.pages.blocks.outcome import outcome_of
from generator.pages.blocks.render import Page
from generator.pages.blocks.tables import Cell
from generator.pages.blocks.text import escape, estimate, spelled
from generator.pages.context import VersionContext
from generator.pages.views.parts import view_page
from generator.score.results import SetComparison, SetRank
from generator.score.sets import MIN_COMBINATIONS


def sets_spec(ctx: VersionContext, view: Sets, titles: tuple[str, str]) -> Spec[SetRank]:
    """A row per combination evaluated on both sets: its figure with interval and rank on
    each."""
    outcome = outcome_of(ctx, view.domain)
    confidence = ctx.release.statistics.confidence

    def shown(which: str) -> Column[SetRank]:
        title = titles[0] if which == "first" else titles[1]

        def cell(r: SetRank) -> Cell:
            e = getattr(r, which)
            base = outcome.cell(e)
            return base._replace(text=f"{base.text} · rank {getattr(r, f'{which}_rank')}")

        return Column(f"{title}: {outcome.header(confidence)} · rank", lambda r: r, cell)

    return Spec(
        (
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 1)),
            shown("first"),
            shown("second"),
        ),
        (
            Field("combination", attrgetter("combination")),
            *estimate_fields("first", attrgetter("first")),
            Field("first_rank", attrgetter("first_rank"), "integer"),
            *estimate_fields("second", attrgetter("second")),
            Field("second_rank", attrgetter("second_rank"), "integer"),
        ),
    )


def agreement_text(found: SetComparison, titles: tuple[str, str], confidence: float) -> str:
    """The answer in a sentence: ρ with its interval, or why there is none."""
    if found.withheld:
        return f"Not compared: {found.withheld}."
    n = len(found.rows)
    if found.rho is None:
        return (
            f"{spelled(n).capitalize()} combination{'s' if n != 1 else ''} evaluated on both "
            f"sets: fewer than {spelled(MIN_COMBINATIONS)}, too few for a rank correlation."
        )
    return (
        f"Over the {spelled(n)} combinations evaluated on both sets, the {titles[0]} and "
        f"{titles[1]} orders agree with Spearman's ρ = {estimate(found.rho, found.low, found.high)}"
        f" ({confidence:.0%} interval, the {spelled(found.tasks)} tasks of either set "
        "resampled). With few combinations ρ takes few values, and its interval is wide; "
        "with many in one true order, ρ can only fall short of 1, and the interval misses "
        "that 1 a little more often than it claims (measured: the generator's bench/README.md)."
    )


def sets_page(ctx: VersionContext, view: Sets) -> Page:
    """The first task set against each other: a table and a sentence per other set."""
    report = ctx.reports[view.domain]
    domain = ctx.release.domain(view.domain)
    names = {s.id: s.title for s in domain.task_sets}
    confidence = ctx.release.statistics.confidence
    tables, headings, leads = [], [], []
    for found in report.sets:
        titles = (names[found.first], names[found.second])
        note = (
            "Each figure lies within its own set; no figure pools the sets. Ranks among the "
            "combinations shown."
        )
        caption = f"{titles[0]} against {titles[1]}"
        table = sets_spec(ctx, view, titles).table(
            f"{view.id}-{found.second}", caption, found.rows, note
        )
        tables.append(table)
        headings.append(caption)
        leads.append(agreement_text(found, titles, confidence))
    lead = " ".join(escape(t) for t in leads) or "The domain publishes one task set."
    return view_page(ctx, view, lead, tables, headings)
