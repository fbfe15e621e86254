"""The tables of a result card (§5.1.2–5.1.3): scores by scope, efficiency, failure types and
reliability@k by domain, the configuration record, and the HarnessCard's layers."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from operator import attrgetter
from typing import Any, NamedTuple

from generator.models import Bundle, HarnessCard
from generator.models.harnesscard import Disclosed, Layer, Withheld
from generator.pages.cells import STATUS_TEXT, efficiency_cell, estimate_cell, judge_cell
from generator.pages.columns import Column, Field, Spec, estimate_fields, fields, pairs, sorted_as
from generator.pages.context import VersionContext
from generator.pages.outcome import channel_fields, outcome_of
from generator.pages.tables import Cell, Table
from generator.pages.text import NBSP, kilo, one_decimal
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
            Column("Rule score", _scores("rule_score"), estimate_cell),
            *((Column("Judge score", attrgetter("scores"), judge_cell),) if judged else ()),
            *(channel(c.id, c.title) for c in ctx.release.profile.channels),
            Column("Success rate", _scores("success_rate"), estimate_cell),
        ),
        (
            Field("domain", attrgetter("domain")),
            Field("subdivision", lambda p: p.scope.scope.subdivision),
            Field("group", lambda p: p.scope.scope.group),
            Field("status", _scores("status")),
            Field("rank", _scores("rank"), "integer"),
            Field("rank_worst", _scores("rank_worst"), "integer"),
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


def _model_entries(bundle: Bundle) -> list[tuple[str, str, Any]]:
    """The combination's model and generation settings: (setting, shown, raw value)."""
    c, cfg = bundle.combination, bundle.configuration
    threshold = cfg.compression_threshold
    return [
        ("Model", f"{c.model.name} {c.model.version} ({c.model.provider})", c.model.name),
        ("Tokenizer", c.model.tokenizer, c.model.tokenizer),
        ("Agent version", c.agent_version, c.agent_version),
        ("Harness mode", c.harness_mode or "—", c.harness_mode),
        ("Temperature", str(cfg.temperature), cfg.temperature),
        ("Top-p", str(cfg.top_p), cfg.top_p),
        ("Max output tokens", f"{cfg.max_output_tokens:,}", cfg.max_output_tokens),
        ("Context window", f"{cfg.context_window:,}", cfg.context_window),
        (
            "Compression threshold",
            "none" if threshold is None else f"{threshold:,} tokens",
            threshold,
        ),
        ("Reasoning mode", cfg.reasoning_mode, cfg.reasoning_mode),
        ("Runs per task", str(cfg.runs_per_task), cfg.runs_per_task),
    ]


def _component_entries(bundle: Bundle) -> list[tuple[str, str, Any]]:
    """The pipeline components the combination ran with (§7.2)."""
    comp = bundle.configuration.pipeline_components
    named = [
        ("tasks", comp.tasks),
        ("data", comp.data),
        ("environment", comp.environment),
        ("protocol", comp.protocol),
        ("judge assets", comp.judge_assets),
        *[(f"scorer {n}", v) for n, v in comp.scorer.items()],
    ]
    return [(f"Component: {k}", v, v) for k, v in named]


def _run_entries(bundle: Bundle) -> list[tuple[str, str, Any]]:
    """Budgets, clarification, environment, evaluator and run dates (§5.1.3)."""
    b, cl, ev, dates = bundle.budgets, bundle.clarification, bundle.evaluator, bundle.run_dates
    script, retries = cl.simulated_user_script_version, b.max_retries
    start, end = dates.start.isoformat(), dates.end.isoformat()
    return [
        ("Budget: timeout", f"{b.timeout_s:,} s", b.timeout_s),
        ("Budget: steps", f"{b.max_steps:,}", b.max_steps),
        ("Budget: tokens", f"{b.max_tokens:,}", b.max_tokens),
        ("Retries after technical exceptions", f"{retries} — {b.retry_policy}", retries),
        ("Clarification script", script, script),
        ("Clarification waiting cap", f"{cl.waiting_cap_s} s", cl.waiting_cap_s),
        ("Clarification rules", cl.rules, cl.rules),
        ("Environment snapshot", bundle.environment_snapshot, bundle.environment_snapshot),
        ("Judge model", f"{ev.judge_model} {ev.judge_model_version}", ev.judge_model),
        ("Judge prompt version", ev.prompt_version, ev.prompt_version),
        ("Judge voting", ev.voting, ev.voting),
        ("Run dates", f"{start} – {end}", f"{start}/{end}"),
        ("Evaluation", bundle.evaluation, bundle.evaluation),
    ]


CONFIGURATION = pairs(("Setting", "setting"), ("Value", "value"))


def config_table(bundle: Bundle) -> Table:
    entries = _model_entries(bundle) + _component_entries(bundle) + _run_entries(bundle)
    caption = "Configuration record, budgets, clarification, environment and evaluator (§5.1.3)"
    return CONFIGURATION.table("configuration", caption, entries)


class LayerField(NamedTuple):
    """One field of a HarnessCard layer, disclosed or withheld."""

    layer: str
    name: str
    title: str
    field: Disclosed | Withheld


def _withheld(f: LayerField) -> bool:
    return isinstance(f.field, Withheld)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def _status_cell(f: LayerField) -> Cell:
    if _withheld(f):
        return Cell('<span class="lg-withheld">withheld</span>', "withheld", html=True)
    return Cell("disclosed")


def _value_or_reason(f: LayerField) -> str:
    field = f.field
    return field.withheld if isinstance(field, Withheld) else _shown(field.value)


#: A row per field of a layer: disclosed with its value, or withheld with its reason.
LAYER: Spec[LayerField] = Spec(
    (
        Column("Field", attrgetter("title")),
        Column("Status", lambda f: f, _status_cell),
        Column("Value or reason", _value_or_reason),
    ),
    (
        Field("layer", attrgetter("layer")),
        Field("field", attrgetter("name")),
        Field("status", lambda f: "withheld" if _withheld(f) else "disclosed"),
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
        assert isinstance(field, Disclosed | Withheld)
        out.append(LayerField(name, key, _title(layer, key), field))
    return out


def card_tables(card: HarnessCard) -> list[Table]:
    """One table per layer: every field, disclosed or visibly withheld with its reason."""
    titles = type(card.layers).model_fields
    return [
        LAYER.table(
            f"layer-{name}", f"{titles[name].title or name} layer", _layer_fields(name, layer)
        )
        for name, layer in card.layers.items()
    ]
