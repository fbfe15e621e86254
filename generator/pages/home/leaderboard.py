"""The release home's leaderboards: per domain, its combinations by Task Score with the
interval, the rank range and the tasks each score rests on; a dot-and-whisker chart of the
same; and the rank groups read in one sentence. One domain at a time (§4.2, §5.3): nothing
here combines domains."""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter

import plotly.graph_objects as go
from markupsafe import Markup

from generator.pages.blocks.cells import (
    FEWER_MARK,
    STATUS_TEXT,
    combo_cell,
    display_name,
    fewer_note,
    fewer_tasks,
    groups_note,
    harness_name,
    model_name,
    runs_basis,
    runs_note,
)
from generator.pages.blocks.charts import embedded, style_of
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields, only
from generator.pages.blocks.outcome import (
    Outcome,
    cells_column,
    channel_columns,
    channel_fields,
    outcome_of,
    report_order,
)
from generator.pages.blocks.tables import RANK, Cell, Table
from generator.pages.blocks.text import attr, escape_html, spelled
from generator.pages.context import VersionContext
from generator.score.results import CombinationScores, Estimate, Report, ScopeResult


def headline(report: Report) -> ScopeResult:
    """The domain's all-tasks scope: the one its leaderboard shows."""
    return next(s for s in report.scopes if s.scope.whole and s.scope.group == "all")


def _scored(c: CombinationScores) -> bool:
    return c.status == "scored" and c.task_score is not None and c.task_score.value is not None


@dataclass(frozen=True)
class Standing:
    """A scored combination in its domain's leaderboard."""

    combination: str
    name: str  # harness × model
    scores: CombinationScores
    scope_tasks: int  # tasks of the domain
    fewer: bool  # its score rests on fewer tasks than another's of the table

    @property
    def score(self) -> Estimate:
        """Its Task Score (a standing is scored: it has one, with a value)."""
        e = self.scores.task_score
        assert e is not None
        return e

    @property
    def value(self) -> float:
        return self.score.value or 0.0

    @property
    def tasks(self) -> int:
        return self.score.tasks

    @property
    def rank_text(self) -> str:
        return self.scores.rank_text or "—"


def _group_of(scope: ScopeResult) -> dict[str, int]:
    """Each combination's comparison group (0 when every setting is controlled)."""
    return {c: i for i, group in enumerate(scope.comparison_groups) for c in group}


def standings(ctx: VersionContext, scope: ScopeResult) -> list[Standing]:
    """The scope's scored combinations by comparison group, each group best first as the
    report orders them (:func:`~generator.pages.blocks.outcome.report_order`)."""
    scored = report_order(scope, (c for c in scope.combinations if _scored(c)))
    group = _group_of(scope)
    scored.sort(key=lambda c: group.get(c.combination, 0))
    fewer = fewer_tasks(scored)
    return [
        Standing(
            c.combination,
            display_name(ctx, c.combination),
            c,
            scope.tasks,
            c.combination in fewer,
        )
        for c in scored
    ]


def _lettered(group: list[Standing]) -> str:
    return ", ".join(f"{r.name} ({r.scores.letters or '?'})" for r in group)


def reading(ctx: VersionContext, scope: ScopeResult) -> str:
    """The leaderboard in one sentence: each combination with its letters, best first, and
    what they mean — two share a letter exactly when their paired difference is not
    significant (:func:`generator.score.ranking.letters`), so every pair the sentence
    relates is as the differences say."""
    rows = standings(ctx, scope)
    if not rows:
        return "No combination has a score in this domain."
    if len(rows) == 1:
        return f"{rows[0].name} is the only combination scored in this domain."
    group = _group_of(scope)
    parts: dict[int, list[Standing]] = {}
    for r in rows:
        parts.setdefault(group.get(r.combination, 0), []).append(r)
    stats = ctx.release.statistics
    rule = (
        f"the paired difference's {stats.confidence:.0%} interval over resampled tasks "
        f"excludes 0, over at least {spelled(stats.min_tasks_to_order)} common tasks"
    )
    within = " within a comparison group" if len(parts) > 1 else ""
    if all(len({r.scores.letters for r in m}) == 1 for m in parts.values()):
        return (
            f"The data shown order none of these {spelled(len(rows))} combinations{within}: "
            f"no pair is significantly different (significant: {rule})."
        )
    read = [_lettered(members) for members in parts.values()]
    if len(read) == 1:
        sentence = f"Best first, with significance letters: {read[0]}."
    else:
        sentence = (
            f"Best first within each comparison group, with significance letters: "
            f"{'; '.join(read)}."
        )
    start = "Within a comparison group, two" if len(parts) > 1 else "Two"
    return sentence + (
        f" {start} combinations that share no letter are significantly different ({rule}); "
        "two that share one are not shown to differ."
    )


def _rank_cell(s: Standing) -> Cell:
    return Cell(s.rank_text, s.scores.rank)


def _score_cell(outcome: Outcome) -> Callable[[Standing], Cell]:
    def show(s: Standing) -> Cell:
        return Cell(outcome.text(s.score) + (FEWER_MARK if s.fewer else ""), s.value)

    return show


def _tasks_cell(s: Standing) -> Cell:
    return Cell(f"{s.tasks} of {s.scope_tasks}" + (FEWER_MARK if s.fewer else ""), s.tasks)


def leaderboard_spec(ctx: VersionContext, confidence: float, domain: str) -> Spec[Standing]:
    """Rank range, combination, the domain's outcome (the Task Score) with its interval,
    tasks scored of the domain's."""
    outcome = outcome_of(ctx, domain)
    report = ctx.reports.get(domain)
    withheld = headline(report).channels_withheld if report is not None else {}
    return Spec(
        (
            Column(RANK, lambda s: s, _rank_cell),
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 0)),
            Column(outcome.header(confidence), lambda s: s, _score_cell(outcome)),
            *cells_column(ctx, domain, confidence, lambda s: s.scores),
            *channel_columns(ctx, domain, confidence, lambda s: s.scores, withheld),
            Column("Tasks", lambda s: s, _tasks_cell),
        ),
        (
            Field("combination", attrgetter("combination")),
            Field("harness", lambda s: harness_name(ctx, s.combination)),
            Field("model", lambda s: model_name(ctx, s.combination)),
            Field("fingerprint", lambda s: ctx.fingerprints.get(s.combination)),
            Field("rank", lambda s: s.scores.rank, "integer"),
            Field("rank_worst", lambda s: s.scores.rank_worst, "integer"),
            Field("letters", lambda s: s.scores.letters),
            *estimate_fields("task_score", lambda s: s.scores.task_score),
            *only(
                lambda s: s.scores.cell_mean is not None,
                estimate_fields("cell_mean", lambda s: s.scores.cell_mean),
            ),
            *channel_fields(ctx, lambda s: s.scores),
            Field("tasks", attrgetter("tasks"), "integer"),
            Field("domain_tasks", attrgetter("scope_tasks"), "integer"),
        ),
    )


def _unscored_note(ctx: VersionContext, scope: ScopeResult) -> str:
    """The combinations of the version the leaderboard leaves out, and why."""
    out = [c for c in scope.combinations if not _scored(c)]
    if not out:
        return ""
    told = "; ".join(f"{display_name(ctx, c.combination)}: {STATUS_TEXT[c.status]}" for c in out)
    return f"Without a score in this domain (never shown as zero): {told}."


def leaderboard_table(ctx: VersionContext, report: Report) -> Table:
    """A domain's leaderboard: :func:`leaderboard_spec` over its scored combinations, best
    first, with what its marks mean and which combinations it leaves out."""
    scope = headline(report)
    stats = ctx.release.statistics
    rows = standings(ctx, scope)
    notes = []
    if scope.comparison_groups:
        notes.append(groups_note(ctx, scope.comparison_groups))
    if any(runs_basis(r.scores) for r in rows):
        notes.append(runs_note(stats.min_tasks_to_resample))
    fewer = {r.combination: r.tasks for r in rows if r.fewer}
    notes += [fewer_note(ctx, fewer, scope.tasks, report.domain), _unscored_note(ctx, scope)]
    notes += [f"{c.capitalize()} judge {r}." for c, r in sorted(scope.channels_withheld.items())]
    domain = ctx.release.domain(report.domain)
    over = f"its {spelled(scope.tasks)} tasks"
    if domain.task_sets:  # the first set's: no figure pools the sets
        over = f"the {spelled(scope.tasks)} tasks of its {domain.task_sets[0].title} set"
    return leaderboard_spec(ctx, stats.confidence, report.domain).table(
        f"{report.domain}-leaderboard",
        f"{report.domain_title}: leaderboard over {over}",
        rows,
        " ".join(n for n in notes if n),
    )


#: Pixels per combination of the chart, and of its axis below them.
ROW, AXIS = 44, 46


def _plain(text: str) -> str:
    """Text for plotly, which reads a subset of HTML in labels: shown literally."""
    return html.escape(text, quote=False)


def _axis_range(rows: list[Standing], outcome: Outcome) -> list[float]:
    """The scores' axis: the intervals' span widened to tenths of the range, within [0, 1]
    in display units (0 to 10 for a score shown ×10); for a measure not confined to [0, 1],
    its display span with a twentieth of it either side."""
    shown = [outcome.scaled(r.score) for r in rows]
    low = min((e.low for e in shown if e.low is not None), default=0.0)
    high = max((e.high for e in shown if e.high is not None), default=1.0)
    if not outcome.metric.unit_interval:
        pad = (high - low) / 20 or abs(high) / 20 or 1.0
        return [low - pad, high + pad]
    top = 1.0 / (outcome.metric.scale or 1.0)
    return [
        max(0.0, math.floor(low * 10 / top) * top / 10),
        min(top, math.ceil(high * 10 / top) * top / 10),
    ]


def _hover(r: Standing, outcome: Outcome) -> str:
    lines = [
        f"<b>{_plain(r.name)}</b>",
        _plain(f"{outcome.title} {outcome.text(r.score)}"),
        _plain(f"rank {r.rank_text} · {r.tasks} of {r.scope_tasks} tasks"),
    ]
    return "<br>".join(lines)


def leaderboard_chart(ctx: VersionContext, report: Report) -> Markup:
    """The leaderboard as a chart: per combination a dot (its Task Score) and a whisker (its
    interval), best on top, each labelled above its whisker; colour and marker as on every
    chart of the version: finished HTML. Empty when the domain has no score."""
    rows = standings(ctx, headline(report))
    if not rows:
        return Markup("")
    style = style_of(sorted(ctx.frame.bundles))
    outcome = outcome_of(ctx, report.domain)
    n = len(rows)
    fig = go.Figure()
    for i, r in enumerate(rows):
        e = outcome.scaled(r.score)
        value = e.value or 0.0
        colour, symbol = style.get(r.combination, ("#0072B2", "circle"))
        y = n - 1 - i
        fig.add_trace(
            go.Scatter(
                x=[value],
                y=[y],
                mode="markers",
                name=_plain(r.name),
                marker={"size": 10, "color": colour, "symbol": symbol},
                error_x={
                    "type": "data",
                    "symmetric": False,
                    "array": [(e.high or value) - value],
                    "arrayminus": [value - (e.low or value)],
                    "thickness": 2,
                    "width": 5,
                    "color": colour,
                },
                text=[_hover(r, outcome)],
                hovertemplate="%{text}<extra></extra>",
            )
        )
        fig.add_annotation(
            x=0,
            xref="paper",
            xanchor="left",
            y=y + 0.5,
            yanchor="top",
            text=_plain(f"{r.rank_text}. {r.name}"),
            showarrow=False,
            font={"size": 11},
        )
    height = ROW * n + AXIS
    axis = f"{outcome.title} ({outcome.qualifier})" if outcome.qualifier else outcome.title
    fig.update_layout(
        template="none",
        height=height,
        margin={"l": 8, "r": 12, "t": 4, "b": AXIS - 4},
        showlegend=False,
        xaxis={  # best at the right whichever the direction: reversed where lower is better
            "range": _axis_range(rows, outcome)[:: 1 if outcome.metric.higher else -1],
            "title": {"text": axis, "standoff": 4},
            "gridcolor": "#e5e7eb",
            "zeroline": False,
            "fixedrange": True,
        },
        yaxis={
            "range": [-0.55, n - 0.45],
            "showticklabels": False,
            "showgrid": False,
            "zeroline": False,
            "fixedrange": True,
        },
        hoverlabel={"namelength": -1, "align": "left", "font": {"size": 12}},
        font={"family": "sans-serif", "size": 12, "color": "#374151"},
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
    )
    div = f"leaderboard-{report.domain}"
    drawn = embedded(fig, div, height)
    title = f"{report.domain_title}: {axis} with its interval, best on top"
    return Markup(
        f'<figure class="lg-dots" aria-label="{attr(title)}">{drawn}'
        f'<figcaption>{escape_html(title)} — data: <a href="#table-{attr(report.domain)}'
        f'-leaderboard">the table</a></figcaption></figure>'
    )
