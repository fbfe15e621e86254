"""Efficiency charts per domain (§4.2(2)): score against tokens (with the Pareto frontier of
each tokenizer), against duration and turns, and reliability@k curves — each beside its data."""

from __future__ import annotations

from markupsafe import Markup

from generator.pages.cells import combo_cell
from generator.pages.charts import Series, chart, style_of
from generator.pages.context import VersionContext
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.tables import Cell, Row, Table
from generator.pages.text import count, one_decimal, score
from generator.score.results import CombinationScores, Report


def _tokens(c: CombinationScores) -> float:
    return float(c.efficiency.total_tokens or 0) if c.efficiency else 0.0


def _domain_charts(
    ctx: VersionContext,
    report: Report,
    tokenizer: dict[str, str],
    style: dict[str, tuple[str, str]],
) -> tuple[list[Markup], list[Table]]:
    scope = report.scopes[0]  # the domain, all tasks
    scored = [
        c
        for c in scope.combinations
        if c.status == "scored" and c.task_score and c.efficiency and c.task_score.value is not None
    ]
    d = report.domain
    if not scored:
        return [], []
    charts = []
    for metric, label, log in (
        ("total_tokens", "Total tokens per task", True),
        ("duration_s", "Duration per task (s)", False),
        ("turns", "Turns per task", False),
    ):
        series = []
        for c in scored:
            assert c.task_score is not None
            assert c.efficiency is not None
            x = getattr(c.efficiency, metric)
            series.append(
                Series(
                    c.combination,
                    (float(x),),
                    (float(c.task_score.value or 0),),
                    (float(c.task_score.low or 0),),
                    (float(c.task_score.high or 0),),
                    color=style[c.combination][0],
                    symbol=style[c.combination][1],
                )
            )
        if metric == "total_tokens":
            # One frontier per tokenizer and comparison group (settings varying by design).
            group = {n: i for i, names in enumerate(scope.comparison_groups) for n in names}
            lines = sorted(
                {(tokenizer[c.combination], group.get(c.combination, 0)) for c in scored}
            )
            for tok, g in lines:
                front = sorted(
                    (
                        c
                        for c in scored
                        if c.pareto
                        and tokenizer[c.combination] == tok
                        and group.get(c.combination, 0) == g
                    ),
                    key=_tokens,
                )
                if front:
                    name = f"{tok}, group {g + 1}" if len(scope.comparison_groups) > 1 else tok
                    series.append(
                        Series(
                            f"Pareto frontier ({name})",
                            tuple(_tokens(c) for c in front),
                            tuple(
                                float(c.task_score.value or 0)  # type: ignore[union-attr]
                                for c in front
                            ),
                            mode="lines",
                            dash="dot",
                            color="#6b7280",
                        )
                    )
        charts.append(
            chart(
                f"{d}-score-{metric}",
                f"Task Score against {label.lower()}",
                series,
                label,
                "Task Score",
                y_range=(0, 1),
                x_log=log,
                data_table=f"{d}-efficiency",
            )
        )
    rel_series = []
    for c in scored:
        rel = [r for r in c.reliability if r.value is not None]
        if rel:
            rel_series.append(
                Series(
                    c.combination,
                    tuple(float(r.k) for r in rel),
                    tuple(float(r.value or 0) for r in rel),
                    tuple(float(r.low or 0) for r in rel),
                    tuple(float(r.high or 0) for r in rel),
                    mode="lines+markers",
                    color=style[c.combination][0],
                    symbol=style[c.combination][1],
                )
            )
    if rel_series:
        charts.append(
            chart(
                f"{d}-reliability",
                "reliability@k",
                rel_series,
                "k (all k runs succeed)",
                "reliability@k",
                y_range=(0, 1),
                integer_x=True,
                data_table=f"{d}-efficiency",
            )
        )
    rows = []
    for c in scored:
        eff, ts = c.efficiency, c.task_score
        assert eff is not None
        assert ts is not None
        rel_by_k = {r.k: r.value for r in c.reliability}
        rows.append(
            Row(
                (
                    combo_cell(ctx, c.combination, 0),
                    Cell(tokenizer[c.combination]),
                    Cell(score(ts.value), ts.value),
                    Cell(count(eff.input_tokens), eff.input_tokens),
                    Cell(count(eff.output_tokens), eff.output_tokens),
                    Cell(count(eff.total_tokens), eff.total_tokens),
                    Cell(one_decimal(eff.duration_s), eff.duration_s),
                    Cell(one_decimal(eff.turns), eff.turns),
                    Cell(
                        {True: "yes", False: "no", None: "not compared: coverage differs"}[c.pareto]
                    ),
                    Cell(", ".join(f"{k}: {score(v)}" for k, v in rel_by_k.items())),
                ),
                {
                    "combination": c.combination,
                    "tokenizer": tokenizer[c.combination],
                    "task_score": ts.value,
                    "task_score_low": ts.low,
                    "task_score_high": ts.high,
                    **eff.model_dump(),
                    "pareto": c.pareto,
                    **{f"reliability_at_{k}": v for k, v in rel_by_k.items()},
                },
            )
        )
    table = Table(
        f"{d}-efficiency",
        f"Efficiency — {report.domain_title} (data of the charts)",
        (
            "Combination",
            "Tokenizer",
            "Task Score",
            "Input tokens",
            "Output tokens",
            "Total tokens",
            "Duration s",
            "Turns",
            "Pareto frontier",
            "reliability@k",
        ),
        tuple(rows),
        "Per-task means over valid runs. The frontier is drawn within one tokenizer: "
        "tokens are not a common unit across models, so no cross-model ranking.",
    )
    return charts, [table]


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
