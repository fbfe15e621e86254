"""The agreement view: how far each second rater (another judge, or humans) agrees with the
bundles' Judge, one table per Judge channel, from the domain's report — computed from the
raters' verdicts files, never typed (EnterpriseClawBench §4.3: text route against visual
route)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.models.views import Agreement
from generator.pages.blocks.columns import Column, Field, Spec, sorted_as, whole
from generator.pages.blocks.render import Page
from generator.pages.blocks.tables import Cell
from generator.pages.blocks.text import count, escape, estimate, spelled
from generator.pages.context import VersionContext
from generator.pages.views.parts import slug, view_page
from generator.score.agreement_results import AgreementFigure, RaterAgreement

#: How a rater's kind reads in its row.
KINDS = {"human": "humans", "judge": "a judge model"}

Get = Callable[[RaterAgreement], AgreementFigure | None]


def _figure(get: Get) -> Callable[[RaterAgreement], Cell]:
    """A figure with its interval; "withheld" or "—" where there is none."""

    def show(a: RaterAgreement) -> Cell:
        if a.withheld:
            return Cell("withheld")
        f = get(a)
        if f is None or f.value is None:
            return Cell("—")
        return Cell(estimate(f.value, f.low, f.high), f.value)

    return show


def _fields(prefix: str, get: Get) -> tuple[Field[RaterAgreement], ...]:
    def part(name: str) -> Callable[[RaterAgreement], Any]:
        return lambda a: None if (f := get(a)) is None else getattr(f, name)

    return (
        Field(prefix, part("value"), "number"),
        Field(f"{prefix}_low", part("low"), "number"),
        Field(f"{prefix}_high", part("high"), "number"),
    )


def agreement_spec() -> Spec[RaterAgreement]:
    """A row per second rater: ρ, MAE and the mean difference with their intervals, and what
    they rest on."""

    def rho(a: RaterAgreement) -> AgreementFigure | None:
        return a.spearman

    def mae(a: RaterAgreement) -> AgreementFigure | None:
        return a.mae

    def difference(a: RaterAgreement) -> AgreementFigure | None:
        return a.difference

    return Spec(
        (
            Column("Rater", lambda a: a.title),
            Column("Kind", lambda a: KINDS[a.kind]),
            Column("Spearman ρ ↑", whole, _figure(rho), first="desc"),
            Column("MAE ↓", whole, _figure(mae), first="asc"),
            Column("Mean difference (rater − Judge)", whole, _figure(difference)),
            Column("Runs rated", lambda a: a.runs, sorted_as(count)),
            Column("Tasks", lambda a: a.tasks, sorted_as(count)),
        ),
        (
            Field("rater", lambda a: a.rater),
            Field("title", lambda a: a.title),
            Field("kind", lambda a: a.kind),
            Field("channel", lambda a: a.channel),
            *_fields("spearman", rho),
            *_fields("mae", mae),
            *_fields("difference", difference),
            Field("runs", lambda a: a.runs, "integer"),
            Field("tasks", lambda a: a.tasks, "integer"),
            Field("held_out_tasks", lambda a: a.held_out_tasks, "integer"),
            Field("interval_note", lambda a: a.interval_note),
            Field("withheld", lambda a: a.withheld),
        ),
    )


def method(ctx: VersionContext) -> str:
    """How the figures are computed, in one paragraph (its numbers from the release)."""
    stats = ctx.release.statistics
    return (
        "For every run that a second rater rated as well as the Judge (each bundle's own "
        "evaluator of the channel), each rater's score "
        "on a channel is the weighted mean of g/G over the task's Judge items on that "
        "channel (a judged overall apart), as the Judge score J is formed; the two scores "
        "are compared run by run over all such runs of the domain. Spearman ρ is the rank "
        "correlation of the two scores, MAE their mean absolute difference and the mean "
        "difference is rater minus Judge (negative: the rater scores lower), both on the "
        "scores' 0–1 scale. Each interval "
        f"is the figure ± Student's t ({stats.confidence:.0%}, rated tasks − 1 degrees of "
        f"freedom) times the spread of {stats.bootstrap_samples:,} seeded bootstrap draws "
        "that resample the rated tasks, since the runs of one task are not independent "
        "(ρ on Fisher's z scale). Only figures pooled over the domain are shown, never one "
        "task's."
    )


def _counted(n: int, noun: str) -> str:
    """A count and its noun as prose writes them: "one channel", "two channels"."""
    return f"{spelled(n)} {noun}{'' if n == 1 else 's'}"


def _note(rows: list[RaterAgreement]) -> str:
    """Why a row has no figure, no interval, or no rank correlation."""
    notes = []
    for a in rows:
        if a.withheld or a.interval_note:
            notes.append(f"{a.title}: {a.withheld or a.interval_note}.")
        elif a.spearman is not None and a.spearman.value is None:
            notes.append(
                f"{a.title}: no rank correlation, since one of the two gives every run the "
                "same score."
            )
    return " ".join(notes)


def agreement_page(ctx: VersionContext, view: Agreement) -> Page:
    """The agreement of each second rater with the Judge, one table per channel."""
    report = ctx.reports.get(view.domain)
    rows = [] if report is None else report.agreement
    title = ctx.release.domain(view.domain).title
    link = f"[{escape(title)}](../{escape(view.domain)}/index.md)"
    channels = list(dict.fromkeys((a.channel, a.channel_title) for a in rows))
    raters = {a.rater for a in rows}
    if not rows:
        lead = f"No published bundle of the {link} domain carries a second rater's verdicts."
    else:
        lead = (
            f"{_counted(len(raters), 'second rater').capitalize()} against the Judge on "
            f"{_counted(len(channels), 'Judge channel')} of the {link} domain. "
            + escape(method(ctx))
        )
    spec = agreement_spec()
    tables, headings = [], []
    for channel, heading in channels:
        mine = [a for a in rows if a.channel == channel]
        caption = f"{view.title} — {heading}" if len(channels) > 1 else view.title
        tables.append(spec.table(f"{view.id}-{slug(channel)}", caption, mine, _note(mine)))
        headings.append(heading)
    return view_page(ctx, view, lead, tables, headings)
