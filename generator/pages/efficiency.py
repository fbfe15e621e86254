"""Efficiency charts per domain (§4.2(2)): score against tokens (with the Pareto frontier of
each tokenizer), against duration and turns, and reliability@k curves — each beside its data."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

from markupsafe import Markup

from generator.pages.cells import combo_cell
from generator.pages.charts import GREY, Series, chart, labels, style_of
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
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.tables import Table
from generator.pages.text import NBSP, estimate, kilo, one_decimal, score, spelled
from generator.score.results import (
    CombinationScores,
    Efficiency,
    Estimate,
    Reliability,
    Report,
    ScopeResult,
)


def _tokens(c: CombinationScores) -> float:
    return float(c.efficiency.total_tokens or 0) if c.efficiency else 0.0


def _value(c: CombinationScores) -> float:
    return float(c.task_score.value or 0) if c.task_score else 0.0


#: The charts of Task Score against efficiency: (metric, axis label, logarithmic axis, how a
#: value reads in a hover box).
METRICS: tuple[tuple[str, str, bool, Callable[[float | None], str]], ...] = (
    ("total_tokens", "Total tokens per task", True, lambda v: f"{kilo(v)} tokens"),
    ("duration_s", "Duration per task (s)", False, lambda v: f"{one_decimal(v)} s"),
    ("turns", "Turns per task", False, lambda v: f"{one_decimal(v)} turns"),
)
#: Dash of each comparison group's frontier, so two groups' lines are told apart.
DASHES = ("dot", "dash", "dashdot", "longdash", "longdashdot")


def _estimate(label: str, e: Estimate | Reliability) -> tuple[str, ...]:
    """An estimate's hover lines, in the tables' format; a note when its interval is over too
    few tasks to resample."""
    line = f"{label} {estimate(e.value, e.low, e.high)}"
    return (line, RUNS_NOTE) if e.interval == "runs" else (line,)


RUNS_NOTE = "interval: run-to-run noise only (too few tasks)"


def _point(
    c: CombinationScores, metric: str, style: tuple[str, str], name: str, extra: tuple[str, ...]
) -> Series:
    """The combination's Task Score, with its interval, against one efficiency metric."""
    assert c.task_score is not None
    x = getattr(c.efficiency, metric)
    label, reads = next((m[1], m[3]) for m in METRICS if m[0] == metric)
    return Series(
        name,
        (float(x),),
        (_value(c),),
        (float(c.task_score.low or 0),),
        (float(c.task_score.high or 0),),
        color=style[0],
        symbol=style[1],
        hover=((name, *_estimate("Task Score", c.task_score), f"{label}: {reads(x)}", *extra),),
    )


def _frontiers(scope: ScopeResult, scored: list[CombinationScores]) -> list[Series]:
    """The Pareto frontiers among combinations of one tokenizer: one per comparison group
    (settings varying by design) that has two compared points or more — a single point is
    no frontier. Tokens are no common unit across models (§4.2(2))."""
    group = {n: i for i, names in enumerate(scope.comparison_groups) for n in names}
    compared = [c for c in scored if c.pareto is not None]
    out = []
    for g in sorted({group.get(c.combination, 0) for c in compared}):
        members = [c for c in compared if group.get(c.combination, 0) == g]
        if len(members) < 2:
            continue
        front = sorted((c for c in members if c.pareto), key=_tokens)
        name = f"Pareto frontier, group {g + 1}" if len(scope.comparison_groups) > 1 else ""
        out.append(
            Series(
                name or "Pareto frontier",
                tuple(map(_tokens, front)),
                tuple(map(_value, front)),
                mode="lines+markers",
                dash=DASHES[g % len(DASHES)],
                color=GREY,
                symbol="circle-open",
                size=18,
            )
        )
    return out


def _token_charts(
    d: str,
    scope: ScopeResult,
    scored: list[CombinationScores],
    tokenizer: dict[str, str],
    style: dict[str, tuple[str, str]],
    names: dict[str, str],
) -> list[Markup]:
    """Task Score against total tokens: a chart per tokenizer, each with its own frontiers."""
    charts = []
    for tok in sorted({tokenizer[c.combination] for c in scored}):
        mine = [c for c in scored if tokenizer[c.combination] == tok]
        points = [
            _point(
                c,
                "total_tokens",
                style[c.combination],
                names[c.combination],
                (f"tokenizer {tok}", f"Pareto frontier: {PARETO[c.pareto]}"),
            )
            for c in mine
        ]
        charts.append(
            chart(
                token_chart_id(d, tok),
                f"Task Score against total tokens per task — tokenizer {tok}",
                points + _frontiers(scope, mine),
                f"Total tokens per task ({tok})",
                "Task Score",
                y_range=(0, 1),
                x_log=True,
                data_table=f"{d}-efficiency",
            )
        )
    return charts


def token_chart_id(domain: str, tokenizer: str) -> str:
    """The id of a domain's chart of score against tokens for one tokenizer."""
    return f"{domain}-score-total_tokens-{tokenizer}"


def _curve(c: CombinationScores, style: tuple[str, str], name: str) -> Series | None:
    """The combination's reliability@k curve, if it has any value."""
    rel = [r for r in c.reliability if r.value is not None]
    if not rel:
        return None
    return reliability_series(name, rel, style)


def _all_succeed(k: int) -> str:
    return "k = 1: a task's run succeeds" if k == 1 else f"k = {k}: all {k} runs of a task succeed"


def reliability_series(name: str, rel: list[Reliability], style: tuple[str, str]) -> Series:
    """A reliability@k curve with its intervals and hover lines written in the tables' format."""
    return Series(
        name,
        tuple(float(r.k) for r in rel),
        tuple(float(r.value or 0) for r in rel),
        tuple(float(r.low or 0) for r in rel),
        tuple(float(r.high or 0) for r in rel),
        mode="lines+markers",
        color=style[0],
        symbol=style[1],
        hover=tuple((name, *_estimate(f"reliability@{r.k}", r), _all_succeed(r.k)) for r in rel),
    )


def _charts(
    d: str,
    scope: ScopeResult,
    scored: list[CombinationScores],
    tokenizer: dict[str, str],
    style: dict[str, tuple[str, str]],
    names: dict[str, str],
) -> list[Markup]:
    """Task Score against each efficiency metric, then reliability@k, all beside one table."""
    charts = _token_charts(d, scope, scored, tokenizer, style, names)
    for metric, label, log, _ in METRICS[1:]:
        if not any(getattr(c.efficiency, metric) is not None for c in scored):
            continue  # a metric the release does not declare: its runs do not record it
        charts.append(
            chart(
                f"{d}-score-{metric}",
                f"Task Score against {label.lower()}",
                [_point(c, metric, style[c.combination], names[c.combination], ()) for c in scored],
                label,
                "Task Score",
                y_range=(0, 1),
                x_log=log,
                data_table=f"{d}-efficiency",
            )
        )
    reliability = _reliability_chart(d, scored, style, names)
    return charts + ([reliability] if reliability is not None else [])


def _reliability_chart(
    d: str,
    scored: list[CombinationScores],
    style: dict[str, tuple[str, str]],
    names: dict[str, str],
) -> Markup | None:
    """reliability@k curves of the combinations that have any value."""
    curves = [
        s
        for c in scored
        if (s := _curve(c, style[c.combination], names[c.combination])) is not None
    ]
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


def efficiency_spec(ctx: VersionContext, tokenizer: dict[str, str]) -> Spec[CombinationScores]:
    """A row per scored combination: Task Score, efficiency, frontier, reliability@k."""
    combination = attrgetter("combination")

    def best(metric: str) -> First | None:
        return best_first(ctx.release, metric)

    return Spec(
        (
            Column("Combination", combination, lambda k: combo_cell(ctx, k, 0)),
            Column("Tokenizer", lambda c: tokenizer[c.combination]),
            Column(
                "Task Score",
                lambda c: c.task_score.value,
                sorted_as(score),
                first=best("task_score"),
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
    table = efficiency_spec(ctx, tokenizer).table(
        f"{d}-efficiency",
        f"Efficiency — {report.domain_title} (data of the charts)",
        scored,
        "Per-task means over valid runs. The frontier is drawn within one tokenizer: "
        "tokens are not a common unit across models, so no cross-model ranking.",
    )
    names = labels({k: b.combination.title for k, b in ctx.frame.bundles.items()})
    return _charts(d, scope, scored, tokenizer, style, names), described(
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
        front = sorted((c for c in compared if c.pareto), key=_tokens)
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
