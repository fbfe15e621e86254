"""The efficiency page's charts (§4.2(2)): a domain's outcome against total tokens per
tokenizer (with its Pareto frontiers), against duration and turns, and reliability@k curves;
the page and its table are :mod:`generator.pages.efficiency.page`."""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup

from generator.models.base import NOT_RECORDED
from generator.pages.blocks.charts import GREY, Series, chart
from generator.pages.blocks.series import (
    DASHES,
    estimate_lines,
    frontier_text,
    reliability_series,
)
from generator.pages.blocks.text import kilo, one_decimal
from generator.score.results import (
    CombinationScores,
    ScopeResult,
)


def has(c: CombinationScores, metric: str) -> bool:
    """Whether the combination has a figure of the efficiency ``metric``: a count its runs
    leave out has none, and is not drawn (never at 0)."""
    return c.efficiency is not None and getattr(c.efficiency, metric) is not None


def tokens(c: CombinationScores) -> float:
    """Total tokens per run of a combination that has them (:func:`has`)."""
    assert c.efficiency is not None
    assert c.efficiency.total_tokens is not None
    return float(c.efficiency.total_tokens)


def recorded(c: CombinationScores, metric: str) -> str | None:
    """On how many of its valid runs a combination's figure of ``metric`` rests, where some
    valid runs leave the count out; None where every one records it."""
    runs = c.efficiency.recorded.get(metric) if c.efficiency else None
    if runs is None or c.coverage is None:
        return None
    return f"{runs} of {c.coverage.valid_runs} valid runs"


def _value(c: CombinationScores) -> float:
    return float(c.task_score.value or 0) if c.task_score else 0.0


#: The charts of Task Score against efficiency: (metric, axis label, logarithmic axis, how a
#: value reads in a hover box).
METRICS: tuple[tuple[str, str, bool, Callable[[float | None], str]], ...] = (
    ("total_tokens", "Total tokens per task", True, lambda v: f"{kilo(v)} tokens"),
    ("duration_s", "Duration per task (s)", False, lambda v: f"{one_decimal(v)} s"),
    ("turns", "Turns per task", False, lambda v: f"{one_decimal(v)} turns"),
)
#: What a hover box calls each metric's count when it says on how many runs it rests.
COUNTED = {"total_tokens": "tokens", "duration_s": "duration", "turns": "turns"}


def _point(
    c: CombinationScores,
    metric: str,
    style: tuple[str, str],
    name: str,
    extra: tuple[str, ...],
    title: str = "Task Score",
) -> Series:
    """The combination's Task Score (its domain's outcome, ``title``), with its interval,
    against one efficiency metric."""
    assert c.task_score is not None
    x = getattr(c.efficiency, metric)
    label, reads = next((m[1], m[3]) for m in METRICS if m[0] == metric)
    on = recorded(c, metric)
    coverage = (f"{COUNTED[metric]} recorded on {on}",) if on else ()
    return Series(
        name,
        (float(x),),
        (_value(c),),
        (float(c.task_score.low or 0),),
        (float(c.task_score.high or 0),),
        color=style[0],
        symbol=style[1],
        hover=(
            (name, *estimate_lines(title, c.task_score), f"{label}: {reads(x)}", *coverage, *extra),
        ),
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
        front = sorted((c for c in members if c.pareto), key=tokens)
        name = f"Pareto frontier, group {g + 1}" if len(scope.comparison_groups) > 1 else ""
        out.append(
            Series(
                name or "Pareto frontier",
                tuple(map(tokens, front)),
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
    axis: tuple[str, tuple[float, float] | None] = ("Task Score", (0, 1)),
) -> list[Markup]:
    """Task Score (``axis``: the domain's outcome and its range) against total tokens: a
    chart per tokenizer, each with its own frontiers; none without tokens (a release that
    declares no token metric), and no point whose tokenizer was not recorded (its tokens
    compare with no other's: the table gives them)."""
    title, y_range = axis
    scored = [
        c for c in scored if has(c, "total_tokens") and tokenizer[c.combination] != NOT_RECORDED
    ]
    charts = []
    for tok in sorted({tokenizer[c.combination] for c in scored}):
        mine = [c for c in scored if tokenizer[c.combination] == tok]
        points = [
            _point(
                c,
                "total_tokens",
                style[c.combination],
                names[c.combination],
                (f"tokenizer {tok}", f"Pareto frontier: {frontier_text(c.pareto, c)}"),
                title,
            )
            for c in mine
        ]
        charts.append(
            chart(
                token_chart_id(d, tok),
                f"{title} against total tokens per task — tokenizer {tok}",
                points + _frontiers(scope, mine),
                f"Total tokens per task ({tok})",
                title,
                y_range=y_range,
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


def domain_charts(
    d: str,
    scope: ScopeResult,
    scored: list[CombinationScores],
    tokenizer: dict[str, str],
    style: dict[str, tuple[str, str]],
    names: dict[str, str],
    axis: tuple[str, tuple[float, float] | None] = ("Task Score", (0, 1)),
) -> list[Markup]:
    """Task Score (``axis``: the domain's outcome and its range) against each efficiency
    metric, then reliability@k, all beside one table."""
    charts = _token_charts(d, scope, scored, tokenizer, style, names, axis)
    title, y_range = axis
    for metric, label, log, _ in METRICS[1:]:
        given = [c for c in scored if has(c, metric)]
        if not given:
            continue  # a count no run records (a release that does not report it)
        charts.append(
            chart(
                f"{d}-score-{metric}",
                f"{title} against {label.lower()}",
                [
                    _point(c, metric, style[c.combination], names[c.combination], (), title)
                    for c in given
                ],
                label,
                title,
                y_range=y_range,
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
