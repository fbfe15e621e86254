"""The tables of a result card (§5.1.2–5.1.3): scores by scope, efficiency, failure types and
reliability@k by domain, the configuration record, and the HarnessCard's layers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import attrgetter
from typing import Any, NamedTuple

from generator.models import HarnessCard
from generator.models.harnesscard import Disclosed, Layer, Withheld, field_state
from generator.pages.blocks.cells import STATUS_TEXT, efficiency_cell, estimate_cell, judge_cell
from generator.pages.blocks.columns import Column, Field, Spec, estimate_fields, fields, sorted_as
from generator.pages.blocks.outcome import channel_fields, outcome_of
from generator.pages.blocks.tables import Cell, Table
from generator.pages.blocks.text import NBSP, kilo, one_decimal
from generator.pages.context import VersionContext
from generator.score.results import (
    EFFICIENCY_COUNTS,
    CombinationScores,
    Reliability,
    Report,
    ScopeResult,
)


class Placed(NamedTuple):
    """A combination's scores in one scope of one domain."""

    domain: str
    report: Report
    scope: ScopeResult
    scores: CombinationScores

    @property
    def whole_domain(self) -> bool:
        """Whether this is the domain's all-tasks scope, scored."""
        s = self.scope.scope
        return s.whole and s.group == "all" and self.scores.status == "scored"


def placed(ctx: VersionContext, combo: str) -> Iterator[Placed]:
    """The combination in every scope that shows numbers, domain by domain."""
    for domain, report in ctx.reports.items():
        for scope in report.scopes:
            c = next((x for x in scope.combinations if x.combination == combo), None)
            if not scope.withheld and c is not None:
                yield Placed(domain, report, scope, c)


def _scores(name: str) -> Callable[[Placed], Any]:
    return lambda p: getattr(p.scores, name)


def _rank_cell(p: Placed) -> Cell:
    c = p.scores
    return Cell(STATUS_TEXT[c.status] or c.rank_text or "—", c.rank)


def _rerun_cell(ctx: VersionContext) -> Callable[[Placed], Cell]:
    """The Task Score's standard error over reruns of these tasks, or why there is none:
    not given over held-out tasks (:mod:`generator.score.rerun`), else a task of one run."""

    def show(p: Placed) -> Cell:
        se = p.scores.rerun_se
        if se is not None:
            return Cell(f"±{se:.{RERUN_DECIMALS}f}", se)
        if p.scores.status != "scored":
            return Cell("—")
        s = p.scope.scope
        held = s.group != "public" and any(
            t.group == "held-out"
            and t.domain == p.domain
            and s.subdivision in (None, t.subdivision)
            for t in ctx.catalog.tasks
        )
        if held:
            return Cell("not over held-out tasks, or a task has one valid run")
        return Cell("— (a task has one valid run)")

    return show


#: Decimals of a rerun standard error (a leaderboard's ± is read to the third).
RERUN_DECIMALS = 3


def scores_spec(ctx: VersionContext, confidence: float) -> Spec[Placed]:
    """A row per scope: the combination's rank and scores there, with intervals (§4.2); a
    domain that scores in a declared metric names it beside its figure."""

    def outcome_cell(p: Placed) -> Cell:
        return outcome_of(ctx, p.domain).labelled(p.scores.task_score)

    def channel(channel: str, title: str) -> Column[Placed]:
        """A Judge channel's score beside the Task Score that combines the channels, with
        the tasks it judged."""

        def show(p: Placed) -> Cell:
            e = p.scores.channels.get(channel)
            if e is None:
                return Cell("withheld (§4.4)" if channel in p.scope.channels_withheld else "—")
            cell = outcome_of(ctx, p.domain).cell(e)
            return cell._replace(text=f"{cell.text} · {e.tasks}")

        return Column(f"{title} judge · tasks", lambda p: p, show)

    judged = ctx.declares_judge_items()
    return Spec(
        (
            Column("Scope", lambda p: p.scope.title),
            Column("Rank", lambda p: p, _rank_cell),
            Column(f"Task Score [{confidence:.0%} CI]", lambda p: p, outcome_cell),
            Column("± SE over reruns", lambda p: p, _rerun_cell(ctx)),
            *(
                (Column("Rule score", _scores("rule_score"), estimate_cell),)
                if "rule_score" not in ctx.repeats_outcome
                else ()
            ),
            *((Column("Judge score", attrgetter("scores"), judge_cell),) if judged else ()),
            *(channel(c.id, c.title) for c in ctx.release.profile.channels),
            *(
                (Column("Success rate", _scores("success_rate"), estimate_cell),)
                if "success_rate" not in ctx.repeats_outcome
                else ()
            ),
        ),
        (
            Field("domain", attrgetter("domain")),
            Field("subdivision", lambda p: p.scope.scope.subdivision),
            Field("group", lambda p: p.scope.scope.group),
            Field("status", _scores("status")),
            Field("rank", _scores("rank"), "integer"),
            Field("rank_worst", _scores("rank_worst"), "integer"),
            Field("task_score_rerun_se", _scores("rerun_se"), "number"),
            *(
                f
                for name in ("task_score", "rule_score", "judge_score", "success_rate")
                if judged or name != "judge_score"
                for f in estimate_fields(name, _scores(name))
            ),
            *channel_fields(ctx, attrgetter("scores")),
        ),
    )


def _efficiency(name: str, text: Callable[[Any], str], header: str) -> Column[Placed]:
    return Column(header, attrgetter("scores"), efficiency_cell(name, text))


#: A row per domain: the combination's per-task means over valid runs (§4.2(2)).
EFFICIENCY: Spec[Placed] = Spec(
    (
        Column("Domain", lambda p: p.report.domain_title),
        _efficiency("input_tokens", kilo, "Input tokens"),
        _efficiency("output_tokens", kilo, "Output tokens"),
        _efficiency("total_tokens", kilo, "Total tokens"),
        _efficiency("duration_s", one_decimal, f"Duration{NBSP}(s)"),
        _efficiency("turns", one_decimal, "Turns"),
    ),
    (
        Field("domain", attrgetter("domain")),
        *fields(EFFICIENCY_COUNTS, lambda p: p.scores.efficiency, "number"),
    ),
)


def _failure_field(kind: str) -> Field[Placed]:
    """A failure type's count, present where it occurs (the scores list no zero counts)."""
    return Field(
        kind,
        lambda p: p.scores.failure_types[kind],
        "integer",
        lambda p: kind in p.scores.failure_types,
    )


def failures_spec(ctx: VersionContext) -> Spec[Placed]:
    """A row per domain: the combination's failed valid runs by failure type (§4.2)."""
    types = ctx.release.enumerations.failure_types
    titles = {f.id: f.title for f in types}

    def listed(p: Placed) -> str:
        found = p.scores.failure_types.items()
        return ", ".join(f"{titles.get(k, k)}: {v}" for k, v in found) or "none"

    return Spec(
        (Column("Domain", lambda p: p.report.domain_title), Column("Failure types", listed)),
        (Field("domain", attrgetter("domain")), *(_failure_field(f.id) for f in types)),
    )


class Point(NamedTuple):
    """reliability@k of the combination in one domain, at one k."""

    domain: str
    title: str
    value: Reliability


def reliability_spec(confidence: float) -> Spec[Point]:
    """A row per domain and k: reliability@k with its interval (the charts' data)."""
    return Spec(
        (
            Column("Domain", attrgetter("title")),
            Column("k", lambda p: p.value.k, sorted_as(str)),
            Column(f"reliability@k [{confidence:.0%} CI]", attrgetter("value"), estimate_cell),
        ),
        (
            Field("domain", attrgetter("domain")),
            Field("k", lambda p: p.value.k, "integer"),
            *estimate_fields("value", attrgetter("value")),
        ),
    )


def reliability_points(ctx: VersionContext, combo: str) -> list[Point]:
    """reliability@k in each domain's all-tasks scope, unless it is withheld (§4.4)."""
    points = []
    for domain, report in ctx.reports.items():
        scope = report.scopes[0]
        c = next((x for x in scope.combinations if x.combination == combo), None)
        if not scope.withheld and c is not None:
            points += [Point(domain, report.domain_title, r) for r in c.reliability]
    return points


class LayerField(NamedTuple):
    """One field of a HarnessCard layer: disclosed, withheld or not recorded."""

    layer: str
    name: str
    title: str
    field: Disclosed | Withheld | str

    @property
    def state(self) -> str:
        return field_state(self.field)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def _status_cell(f: LayerField) -> Cell:
    if f.state == "disclosed":
        return Cell("disclosed")
    css = "lg-withheld" if f.state == "withheld" else "lg-not-recorded"
    return Cell(f'<span class="{css}">{f.state}</span>', f.state, html=True)


def _value_or_reason(f: LayerField) -> str:
    field = f.field
    if isinstance(field, Disclosed):
        return _shown(field.value)
    if isinstance(field, Withheld):
        return field.withheld
    return "The source of the results does not say."


#: A row per field of a layer: disclosed with its value, withheld with its reason, or not
#: recorded.
LAYER: Spec[LayerField] = Spec(
    (
        Column("Field", attrgetter("title")),
        Column("Status", lambda f: f, _status_cell),
        Column("Value or reason", _value_or_reason),
    ),
    (
        Field("layer", attrgetter("layer")),
        Field("field", attrgetter("name")),
        Field("status", attrgetter("state")),
        Field("value", lambda f: getattr(f.field, "value", None), "any"),
        Field("reason", lambda f: getattr(f.field, "withheld", None)),
    ),
)


def _title(layer: Layer, field_name: str) -> str:
    info = type(layer).model_fields.get(field_name)
    return info.title if info is not None and info.title else field_name.replace("_", " ")


def _layer_fields(name: str, layer: Layer) -> list[LayerField]:
    found = {**layer.minimum_fields(), **layer.additional}
    out = []
    for key, field in found.items():
        out.append(LayerField(name, key, _title(layer, key), field))
    return out


def card_tables(card: HarnessCard) -> list[Table]:
    """One table per layer: every field, disclosed, visibly withheld with its reason, or not
    recorded."""
    titles = type(card.layers).model_fields
    return [
        LAYER.table(
            f"layer-{name}", f"{titles[name].title or name} layer", _layer_fields(name, layer)
        )
        for name, layer in card.layers.items()
    ]
