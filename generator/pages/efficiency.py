"""Efficiency charts per domain (§4.2(2)): score against tokens (with the Pareto frontier of
each tokenizer), against duration and turns, and reliability@k curves — each beside its data."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from markupsafe import Markup

from generator.pages.cells import combo_cell
from generator.pages.charts import Series, chart, style_of
from generator.pages.columns import Column, Field, Spec, estimate_fields, fields, sorted_as
from generator.pages.context import VersionContext
from generator.pages.downloads import described
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.tables import Table
from generator.pages.text import count, one_decimal, score
from generator.score.results import CombinationScores, Efficiency, Report, ScopeResult


def _tokens(c: CombinationScores) -> float:
    return float(c.efficiency.total_tokens or 0) if c.efficiency else 0.0


def _value(c: CombinationScores) -> float:
    return float(c.task_score.value or 0) if c.task_score else 0.0


def _point(c: CombinationScores, metric: str, style: tuple[str, str]) -> Series:
    """The combination's Task Score, with its interval, against one efficiency metric."""
    assert c.task_score is not None
    x = getattr(c.efficiency, metric)
    return Series(
        c.combination,
        (float(x),),
        (_value(c),),
        (float(c.task_score.low or 0),),
        (float(c.task_score.high or 0),),
        color=style[0],
        symbol=style[1],
    )


def _frontiers(
    scope: ScopeResult, scored: list[CombinationScores], tokenizer: dict[str, str]
) -> list[Series]:
    """One Pareto frontier per tokenizer and comparison group (settings varying by design):
    tokens are no common unit across models (§4.2(2))."""
    group = {n: i for i, names in enumerate(scope.comparison_groups) for n in names}

    def line(c: CombinationScores) -> tuple[str, int]:
        return tokenizer[c.combination], group.get(c.combination, 0)

    out = []
    for tok, g in sorted({line(c) for c in scored}):
        front = sorted((c for c in scored if c.pareto and line(c) == (tok, g)), key=_tokens)
        if front:
            name = f"{tok}, group {g + 1}" if len(scope.comparison_groups) > 1 else tok
            xs, ys = tuple(map(_tokens, front)), tuple(map(_value, front))
            out.append(
                Series(f"Pareto frontier ({name})", xs, ys, mode="lines", dash="dot", color=GREY)
            )
    return out


GREY = "#6b7280"
#: The charts of Task Score against efficiency: (metric, axis label, logarithmic axis).
METRICS = (
    ("total_tokens", "Total tokens per task", True),
    ("duration_s", "Duration per task (s)", False),
    ("turns", "Turns per task", False),
)


def _curve(c: CombinationScores, style: tuple[str, str]) -> Series | None:
    """The combination's reliability@k curve, if it has any value."""
    rel = [r for r in c.reliability if r.value is not None]
    if not rel:
        return None
    return Series(
        c.combination,
        tuple(float(r.k) for r in rel),
        tuple(float(r.value or 0) for r in rel),
        tuple(float(r.low or 0) for r in rel),
        tuple(float(r.high or 0) for r in rel),
        mode="lines+markers",
        color=style[0],
        symbol=style[1],
    )


def _charts(
    d: str,
    scope: ScopeResult,
    scored: list[CombinationScores],
    tokenizer: dict[str, str],
    style: dict[str, tuple[str, str]],
) -> list[Markup]:
    """Task Score against each efficiency metric, then reliability@k, all beside one table."""
    charts = []
    for metric, label, log in METRICS:
        series = [_point(c, metric, style[c.combination]) for c in scored]
        if metric == "total_tokens":
            series += _frontiers(scope, scored, tokenizer)
        title = f"Task Score against {label.lower()}"
        charts.append(
            chart(
                f"{d}-score-{metric}",
                title,
                series,
                label,
                "Task Score",
                y_range=(0, 1),
                x_log=log,
                data_table=f"{d}-efficiency",
            )
        )
    reliability = _reliability_chart(d, scored, style)
    return charts + ([reliability] if reliability is not None else [])


def _reliability_chart(
    d: str, scored: list[CombinationScores], style: dict[str, tuple[str, str]]
) -> Markup | None:
    """reliability@k curves of the combinations that have any value."""
    curves = [s for c in scored if (s := _curve(c, style[c.combination])) is not None]
    if not curves:
        return None
    return chart(
        f"{d}-reliability",
        "reliability@k",
        curves,
        "k (all k runs succeed)",
        "reliability@k",
        y_range=(0, 1),
        integer_x=True,
        data_table=f"{d}-efficiency",
    )


PARETO = {True: "yes", False: "no", None: "not compared: coverage differs"}


def _measure(header: str, name: str, text: Callable[[Any], str]) -> Column[CombinationScores]:
    return Column(header, lambda c: getattr(c.efficiency, name), sorted_as(text))


def _reliability_text(c: CombinationScores) -> str:
    return ", ".join(f"{r.k}: {score(r.value)}" for r in c.reliability)


def _reliability_fields(ks: list[int]) -> tuple[Field[CombinationScores], ...]:
    def at(k: int) -> Callable[[CombinationScores], Any]:
        return lambda c: next(r.value for r in c.reliability if r.k == k)

    def has(k: int) -> Callable[[CombinationScores], bool]:
        return lambda c: any(r.k == k for r in c.reliability)

    return tuple(Field(f"reliability_at_{k}", at(k), "number", has(k)) for k in ks)


def efficiency_spec(ctx: VersionContext, tokenizer: dict[str, str]) -> Spec[CombinationScores]:
    """A row per scored combination: Task Score, efficiency, frontier, reliability@k."""
    combination = attrgetter("combination")
    return Spec(
        (
            Column("Combination", combination, lambda k: combo_cell(ctx, k, 0)),
            Column("Tokenizer", lambda c: tokenizer[c.combination]),
            Column("Task Score", lambda c: c.task_score.value, sorted_as(score)),
            _measure("Input tokens", "input_tokens", count),
            _measure("Output tokens", "output_tokens", count),
            _measure("Total tokens", "total_tokens", count),
            _measure("Duration s", "duration_s", one_decimal),
            _measure("Turns", "turns", one_decimal),
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
    table = efficiency_spec(ctx, tokenizer).table(
        f"{d}-efficiency",
        f"Efficiency — {report.domain_title} (data of the charts)",
        scored,
        "Per-task means over valid runs. The frontier is drawn within one tokenizer: "
        "tokens are not a common unit across models, so no cross-model ranking.",
    )
    return _charts(d, scope, scored, tokenizer, style), described(
        ctx, [table], about=(("domain", d),)
    )


def efficiency_page(ctx: VersionContext) -> Page:
    tokenizer = {k: b.combination.model.tokenizer for k, b in ctx.frame.bundles.items()}
    sections, tables = [], []
    for report in ctx.reports.values():
        charts, t = _domain_charts(ctx, report, tokenizer, style_of(list(ctx.frame.bundles)))
        tables += t
        sections.append(
            {"title": report.domain_title, "charts": charts, "table": t[0].id if t else None}
        )
    markdown = render(
        environment(),
        "efficiency.md.j2",
        sections=sections,
        tables=tables_html(tables, "efficiency"),
    )
    return Page("efficiency.md", "Efficiency", markdown, tuple(tables), charts=True)
