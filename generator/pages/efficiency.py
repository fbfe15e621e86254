"""Efficiency charts per domain (§4.2(2)): score against tokens (with the Pareto frontier of
each tokenizer), against duration and turns, and reliability@k curves — each beside its data."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from markupsafe import Markup

from generator.pages.cells import combo_cell
from generator.pages.charts import labels, style_of
from generator.pages.columns import (
    Column,
    Field,
    First,
    Spec,
    best_first,
    estimate_fields,
    fields,
    sorted_as,
)
from generator.pages.context import VersionContext
from generator.pages.downloads import described
from generator.pages.effcharts import PARETO, domain_charts, tokens
from generator.pages.outcome import outcome_of
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.tables import Table
from generator.pages.text import NBSP, kilo, one_decimal, scale_label, score, spelled
from generator.score.results import (
    CombinationScores,
    Efficiency,
    Report,
    ScopeResult,
)


def _measure(
    header: str, name: str, text: Callable[[Any], str], first: First | None = None
) -> Column[CombinationScores]:
    return Column(header, lambda c: getattr(c.efficiency, name), sorted_as(text), first=first)


def _reliability_text(c: CombinationScores) -> str:
    return ", ".join(f"{r.k}: {score(r.value)}" for r in c.reliability)


def _reliability_fields(ks: list[int]) -> tuple[Field[CombinationScores], ...]:
    def at(k: int) -> Callable[[CombinationScores], Any]:
        return lambda c: next(r.value for r in c.reliability if r.k == k)

    def has(k: int) -> Callable[[CombinationScores], bool]:
        return lambda c: any(r.k == k for r in c.reliability)

    return tuple(Field(f"reliability_at_{k}", at(k), "number", has(k)) for k in ks)


def efficiency_spec(
    ctx: VersionContext, tokenizer: dict[str, str], domain: str | None = None
) -> Spec[CombinationScores]:
    """A row per scored combination: Task Score (the domain's outcome, in its display),
    efficiency, frontier, reliability@k."""
    combination = attrgetter("combination")
    outcome = outcome_of(ctx, domain or ctx.release.domains[0].id)
    header = "Task Score" if outcome.plain else f"{outcome.title} ({outcome.qualifier})"

    def best(metric: str) -> First | None:
        return best_first(ctx.release, metric)

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
                if ctx.release.metric(metric) is not None  # the metrics the release declares
            ),
            Column("Pareto frontier", lambda c: PARETO[c.pareto]),
            Column("reliability@k", _reliability_text),
        ),
        (
            Field("combination", combination),
            Field("tokenizer", lambda c: tokenizer[c.combination]),
            *estimate_fields("task_score", attrgetter("task_score"))[:3],
            *fields(Efficiency.model_fields, attrgetter("efficiency"), "number"),
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
    table = efficiency_spec(ctx, tokenizer, d).table(
        f"{d}-efficiency",
        f"Efficiency — {report.domain_title} (data of the charts)",
        scored,
        "Per-task means over valid runs. The frontier is drawn within one tokenizer: "
        "tokens are not a common unit across models, so no cross-model ranking.",
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


def frontier_lines(
    scope: ScopeResult, tokenizer: dict[str, str], titles: dict[str, str]
) -> list[str]:
    """A domain's answer in one line per tokenizer: the combinations on its Pareto frontier,
    fewest tokens first, or why it has none (fewer than two compared)."""
    scored = [
        c
        for c in scope.combinations
        if c.status == "scored" and c.task_score and c.efficiency and c.task_score.value is not None
    ]
    lines = []
    for tok in sorted({tokenizer[c.combination] for c in scored}):
        compared = [c for c in scored if tokenizer[c.combination] == tok and c.pareto is not None]
        head = f"Pareto frontier, tokenizer {tok}: "
        if len(compared) < 2:
            lines.append(head + "none (fewer than two combinations measured on the same tasks)")
            continue
        front = sorted((c for c in compared if c.pareto), key=tokens)
        lines.append(head + " · ".join(titles[c.combination] for c in front))
    return lines


def efficiency_page(ctx: VersionContext) -> Page:
    tokenizer = {k: b.combination.model.tokenizer for k, b in ctx.frame.bundles.items()}
    titles = {k: b.combination.title for k, b in ctx.frame.bundles.items()}
    sections, tables = [], []
    for report in ctx.reports.values():
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
    markdown = render(
        environment(),
        "efficiency.md.j2",
        sections=sections,
        tables=tables_html(tables, "efficiency"),
    )
    return Page("efficiency.md", "Efficiency", markdown, tuple(tables), charts=True)
