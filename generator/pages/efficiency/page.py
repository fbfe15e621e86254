"""Efficiency charts per domain (§4.2(2)): score against tokens (with the Pareto frontier of
each tokenizer), against duration and turns, and reliability@k curves — each beside its data."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from operator import attrgetter
from typing import Any

from markupsafe import Markup

from generator.models.base import NOT_RECORDED
from generator.pages.blocks.cells import combo_cell, efficiency_cell
from generator.pages.blocks.charts import labels, style_of
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields, fields, sorted_as
from generator.pages.blocks.downloads import described
from generator.pages.blocks.measures import MEANS
from generator.pages.blocks.outcome import outcome_of
from generator.pages.blocks.render import Page, environment, render, tables_html
from generator.pages.blocks.series import frontier_text
from generator.pages.blocks.tables import Table
from generator.pages.blocks.text import NBSP, kilo, one_decimal, scale_label, score, spelled
from generator.pages.context import VersionContext
from generator.pages.efficiency.charts import METRICS, domain_charts, has, tokens
from generator.protocol.order import First, metric_first
from generator.score.results import (
    CombinationScores,
    Report,
    ScopeResult,
)

#: The counts the page charts: the table beside the charts holds each that some row gives.
CHARTED = frozenset(m[0] for m in METRICS)


def _measure(
    header: str, name: str, text: Callable[[Any], str], first: First | None = None
) -> Column[CombinationScores]:
    return Column(header, lambda c: c, efficiency_cell(name, text), first=first)


def _runs_fields(given: Collection[str]) -> tuple[Field[CombinationScores], ...]:
    """For each count some valid runs leave out, the runs its figure rests on (a field of
    the rows where it does)."""

    def runs(name: str) -> Callable[[CombinationScores], int]:
        return lambda c: c.efficiency.recorded[name] if c.efficiency else 0

    def partial(name: str) -> Callable[[CombinationScores], bool]:
        return lambda c: c.efficiency is not None and name in c.efficiency.recorded

    return tuple(Field(f"{n}_runs", runs(n), "integer", partial(n)) for n in MEANS if n in given)


def _reliability_text(c: CombinationScores) -> str:
    """Each k's reliability@k, or why there is none (a method that carries state)."""
    if not c.reliability:
        return c.reliability_note or "—"
    return ", ".join(f"{r.k}: {score(r.value)}" for r in c.reliability)


def _reliability_fields(ks: list[int]) -> tuple[Field[CombinationScores], ...]:
    def at(k: int) -> Callable[[CombinationScores], Any]:
        return lambda c: next(r.value for r in c.reliability if r.k == k)

    def has(k: int) -> Callable[[CombinationScores], bool]:
        return lambda c: any(r.k == k for r in c.reliability)

    return tuple(Field(f"reliability_at_{k}", at(k), "number", has(k)) for k in ks)


def efficiency_spec(
    ctx: VersionContext,
    tokenizer: dict[str, str],
    domain: str | None = None,
    given: frozenset[str] = frozenset(MEANS),
) -> Spec[CombinationScores]:
    """A row per scored combination: Task Score (the domain's outcome, in its display),
    efficiency, frontier, reliability@k. ``given``: the counts some row has a figure of; a
    count is a column where the release declares it or it is charted (some row gives it),
    the frontier where some row has tokens."""
    combination = attrgetter("combination")
    outcome = outcome_of(ctx, domain or ctx.release.domains[0].id)
    header = outcome.title if outcome.plain else f"{outcome.title} ({outcome.qualifier})"

    def best(metric: str) -> First | None:
        return metric_first(ctx.release, metric)

    def place(c: CombinationScores) -> str:
        return frontier_text(c.pareto, c, "total_tokens", tokenizer[c.combination])

    frontier: tuple[Column[CombinationScores], ...] = (
        (Column("Pareto frontier", place),) if "total_tokens" in given else ()
    )
    return Spec(
        (
            Column("Combination", combination, lambda k: combo_cell(ctx, k, 0)),
            Column("Tokenizer", lambda c: tokenizer[c.combination]),
            Column(
                header,
                lambda c: c.task_score.value,
                sorted_as(score),
                first=best("task_score"),
            )
            if outcome.plain
            else Column(
                header,
                attrgetter("task_score"),
                outcome.cell,
                first=best(outcome.metric.id),
            ),
            *(
                _measure(header, metric, text, best(metric))
                for header, metric, text in (
                    ("Input tokens", "input_tokens", kilo),
                    ("Output tokens", "output_tokens", kilo),
                    ("Total tokens", "total_tokens", kilo),
                    (f"Duration{NBSP}(s)", "duration_s", one_decimal),
                    ("Turns", "turns", one_decimal),
                )
                if ctx.release.metric(metric) is not None or metric in given & CHARTED
            ),
            *frontier,
            Column("reliability@k", _reliability_text),
        ),
        (
            Field("combination", combination),
            Field("tokenizer", lambda c: tokenizer[c.combination]),
            *estimate_fields("task_score", attrgetter("task_score"))[:3],
            *fields(MEANS, attrgetter("efficiency"), "number"),
            *_runs_fields(given),
            Field("pareto", attrgetter("pareto"), "boolean"),
            *_reliability_fields(list(ctx.release.reliability_k)),
        ),
    )


def _domain_charts(
    ctx: VersionContext,
    report: Report,
    tokenizer: dict[str, str],
    style: dict[str, tuple[str, str]],
) -> tuple[list[Markup], list[Table]]:
    """A domain's charts and the table of their data, over its scored combinations."""
    scope = report.scopes[0]  # the domain, all tasks
    scored = [
        c
        for c in scope.combinations
        if c.status == "scored" and c.task_score and c.efficiency and c.task_score.value is not None
    ]
    if not scored:
        return [], []
    d = report.domain
    outcome = outcome_of(ctx, d)
    given = given_counts(scored)
    partial = any(c.efficiency and c.efficiency.recorded for c in scored)
    table = efficiency_spec(ctx, tokenizer, d, given).table(
        f"{d}-efficiency",
        f"Efficiency — {report.domain_title} (data of the charts)",
        scored,
        "Per-task means over valid runs"
        + (", over those that record the count where some leave it out" if partial else "")
        + "."
        + (
            " The frontier is drawn within one tokenizer: tokens are not a common unit "
            "across models, so no cross-model ranking."
            if "total_tokens" in given
            else ""
        ),
    )
    names = labels({k: b.combination.title for k, b in ctx.frame.bundles.items()})
    # the charts in the outcome's display: its scale, its title, [0, 1] only for a score
    shown = [
        c.model_copy(update={"task_score": outcome.scaled(c.task_score) if c.task_score else None})
        for c in scored
    ]
    # an axis title short enough for a phone: the metric and its display scale (or unit);
    # its direction is said by the table beside the charts and the frontier it draws
    m = outcome.metric
    display = scale_label(m.scale, m.bounds.high, m.bounds.low) or m.unit or m.currency
    label = f"{m.title} ({display})" if display and not outcome.plain else m.title
    axis = (label, (0, 1) if outcome.metric.unit_interval else None)
    return domain_charts(d, scope, shown, tokenizer, style, names, axis), described(
        ctx, [table], about=(("domain", d),)
    )


def given_counts(scored: Iterable[CombinationScores]) -> frozenset[str]:
    """The efficiency counts some of the combinations has a figure of."""
    return frozenset(m for c in scored for m in MEANS if has(c, m))


def frontier_lines(
    scope: ScopeResult, tokenizer: dict[str, str], titles: dict[str, str]
) -> list[str]:
    """A domain's answer in one line per tokenizer: the combinations on its Pareto frontier,
    fewest tokens first, or why it has none (fewer than two compared); none without tokens."""
    scored = [
        c
        for c in scope.combinations
        if c.status == "scored"
        and c.task_score
        and c.task_score.value is not None
        and has(c, "total_tokens")
    ]
    lines = []
    unknown = [titles[c.combination] for c in scored if tokenizer[c.combination] == NOT_RECORDED]
    if unknown:
        lines.append(
            f"Tokenizer not recorded: {' · '.join(unknown)}; their tokens are compared with no "
            "other combination's"
        )
    for tok in sorted({tokenizer[c.combination] for c in scored} - {NOT_RECORDED}):
        compared = [c for c in scored if tokenizer[c.combination] == tok and c.pareto is not None]
        head = f"Pareto frontier, tokenizer {tok}: "
        if len(compared) < 2:
            lines.append(head + "none (fewer than two combinations measured on the same tasks)")
            continue
        front = sorted((c for c in compared if c.pareto), key=tokens)
        lines.append(head + " · ".join(titles[c.combination] for c in front))
    return lines


#: How the page's opening names each count it reports.
READ_AS = {"total_tokens": "token consumption", "duration_s": "duration", "turns": "turns"}


def efficiency_page(ctx: VersionContext) -> Page:
    tokenizer = {k: b.combination.model.tokenizer for k, b in ctx.frame.bundles.items()}
    titles = {k: b.combination.title for k, b in ctx.frame.bundles.items()}
    sections, tables, partial = [], [], False
    given: set[str] = set()
    for report in ctx.reports.values():
        scored = [c for c in report.scopes[0].combinations if c.status == "scored"]
        given |= given_counts(scored)
        partial = partial or any(c.efficiency and c.efficiency.recorded for c in scored)
        charts, t = _domain_charts(ctx, report, tokenizer, style_of(list(ctx.frame.bundles)))
        tables += t
        sections.append(
            {
                "title": report.domain_title,
                "domain": report.domain,
                "count": f"{spelled(len(charts))} chart{'s' if len(charts) != 1 else ''}",
                "frontiers": frontier_lines(report.scopes[0], tokenizer, titles),
                "charts": charts,
                "table": t[0].id if t else None,
            }
        )
    counts = [w for m, w in READ_AS.items() if m in given]
    reported = ", ".join(counts[:-1]) + (" and " if len(counts) > 1 else "") + "".join(counts[-1:])
    markdown = render(
        environment(),
        "efficiency.md.j2",
        reported=(
            f"{reported[0].upper()}{reported[1:]} {'are' if len(counts) > 1 else 'is'} reported"
            if counts
            else "No run records tokens, duration or turns: reliability@k is reported"
        ),
        tokens="total_tokens" in given,
        partial=partial,
        sections=sections,
        tables=tables_html(tables, "efficiency"),
    )
    return Page("efficiency.md", "Efficiency", markdown, tuple(tables), charts=True)
