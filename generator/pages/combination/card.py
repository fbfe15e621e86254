"""Result cards (§5.1.2–5.1.3): one page per combination — configuration beside every score."""

from __future__ import annotations

import json
from operator import attrgetter
from typing import Any, NamedTuple

from markupsafe import Markup

from generator.disclosure import fingerprint_document
from generator.models import Bundle, HarnessCard
from generator.models.base import NOT_RECORDED
from generator.models.harnesscard import Layers, field_state
from generator.pages.blocks.cells import display_names
from generator.pages.blocks.charts import chart, labels, style_of
from generator.pages.blocks.columns import Column, Field, Spec
from generator.pages.blocks.downloads import described
from generator.pages.blocks.render import Page, environment, opaque, render, tables_html
from generator.pages.blocks.series import reliability_series
from generator.pages.blocks.tables import Cell, Table
from generator.pages.blocks.text import attr, escape, escape_html, render_markdown, spelled
from generator.pages.combination.card_tables import (
    EFFICIENCY,
    Placed,
    card_tables,
    failures_spec,
    placed,
    reliability_points,
    reliability_spec,
    scores_spec,
)
from generator.pages.combination.config_diffs import diff_path, related
from generator.pages.combination.configuration import config_table, model_shown
from generator.pages.context import VersionContext

SCORES_NOTE = (
    "Rank: best to worst rank the significant paired differences allow in that scope. "
    "Every interval resamples tasks (a task's runs are not independent draws); † marks one "
    "over too few tasks, which shows run-to-run noise only. ± SE over reruns: the Task "
    "Score's standard error over reruns of these very tasks (the ± many leaderboards show), "
    "given over public tasks only."
)
#: Said where the card shows the success rate beside reliability@k.
SUCCESS_NOTE = (
    " The success rate pools valid runs; reliability@1 averages tasks, so the two can differ "
    "when tasks have unequal valid runs."
)


def scores_note(ctx: VersionContext) -> str:
    """The card's scores note, and what its success rate is where it shows one."""
    return SCORES_NOTE + ("" if "success_rate" in ctx.repeats_outcome else SUCCESS_NOTE)


def combination_tables(ctx: VersionContext, combo: str) -> list[Table]:
    """The result card's tables: scores, efficiency, failures, configuration, reliability@k
    and the HarnessCard's layers."""
    bundle = ctx.frame.bundles[combo]
    scopes = list(placed(ctx, combo))
    domains = [p for p in scopes if p.whole_domain]
    confidence = ctx.release.statistics.confidence
    return [
        scores_spec(ctx, confidence).table(
            "scores", "Scores by domain, sub-division and group", scopes, scores_note(ctx)
        ),
        EFFICIENCY.table(
            "efficiency",
            "Efficiency per task (means over valid runs)",
            domains,
            "Tokens are comparable only within one tokenizer (§4.2(2)).",
        ),
        failures_spec(ctx).table(
            "failures", "Failure types of valid runs that did not succeed", domains
        ),
        config_table(bundle),
        reliability_spec(confidence).table(
            "reliability",
            "reliability@k by domain (data of the charts)",
            reliability_points(ctx, combo),
            f"Over tasks with all {ctx.release.runs_per_task} prescribed valid runs.",
        ),
        *card_tables(ctx.cards[bundle.combination.harnesscard]),
    ]


def _reliability_chart(p: Placed, style: tuple[str, str], name: str) -> Markup | None:
    """The combination's reliability@k curve in one domain, if it has any value."""
    combo, title = p.scores.combination, p.report.domain_title
    rel = [r for r in p.scores.reliability if r.value is not None]
    if not rel:
        return None
    series = reliability_series(name, rel, style)
    return chart(
        f"rel-{combo}-{p.domain}",
        f"reliability@k — {title}",
        [series],
        "k (all k runs succeed)",
        "reliability@k",
        y_range=(0, 1),
        integer_x=True,
        data_table="reliability",
    )


def _charts(ctx: VersionContext, combo: str) -> dict[str, Markup]:
    style = style_of(list(ctx.frame.bundles))[combo]
    name = labels({k: b.combination.title for k, b in ctx.frame.bundles.items()})[combo]
    drawn = {
        p.domain: _reliability_chart(p, style, name) for p in placed(ctx, combo) if p.whole_domain
    }
    return {domain: html for domain, html in drawn.items() if html is not None}


def _disclosure(card: HarnessCard) -> dict[str, int]:
    """How many minimum fields the card has, how many it withholds and how many its source
    did not record."""
    minimum = [f for _, layer in card.layers.items() for f in layer.minimum_fields().values()]
    states = [field_state(f) for f in minimum]
    return {
        "minimum": len(minimum),
        "withheld": states.count("withheld"),
        "not_recorded": states.count(NOT_RECORDED),
    }


def unrecorded_settings(card: HarnessCard, bundle: Bundle) -> int:
    """How many settings of the configuration record and the card's minimum fields the
    source of the results did not record."""
    values = json.dumps(fingerprint_document(card, bundle), ensure_ascii=False)
    return values.count(json.dumps(NOT_RECORDED)) + values.count('"not_recorded": true')


def _md(text: str | None) -> Markup:
    return Markup(render_markdown(text)) if text else Markup("")


def _scope_title(ctx: VersionContext, domain: str, subdivision: str | None) -> str:
    """A scope the card does not cover, by the titles readers know (not by its ids)."""
    found = ctx.release.find_domain(domain)
    if found is None:
        return domain + (f"/{subdivision}" if subdivision else "")
    sub = next((s.title for s in found.subdivisions if s.id == subdivision), subdivision)
    return found.title + (f" — {sub}" if sub else "")


def _card_context(ctx: VersionContext, combo: str) -> dict[str, Any]:
    """What the result card's template shows besides its tables and charts."""
    bundle = ctx.frame.bundles[combo]
    card = ctx.cards[bundle.combination.harnesscard]
    names = display_names(ctx)
    runs = ctx.frame.runs[ctx.frame.runs["combination"] == combo]
    valid_runs = int(runs["valid"].sum())
    return {
        "valid_runs": valid_runs,
        "incomplete_runs": len(runs) - valid_runs,
        "fingerprint": ctx.fingerprints[combo],
        "below_floor": ctx.below_floor.get(combo, []),
        "related": [(names[o], s, "../" + diff_path(combo, o)) for o, s in related(ctx, combo)],
        "bundle": bundle,
        "card": card,
        "combo": combo,
        "axes": [
            (a.title, bundle.combination.axes.get(a.id, "—")) for a in ctx.release.profile.axes
        ],
        "reports": ctx.reports,
        "not_covered": [
            (_scope_title(ctx, n.domain, n.subdivision), n.reason) for n in bundle.not_covered
        ],
        "model": model_shown(bundle.combination.model, provider=False),
        "unrecorded": unrecorded_settings(card, bundle),
        **_disclosure(card),
    }


def _record(ctx: VersionContext, combo: str, bundle: Bundle) -> str:
    """The configuration record as a JSON file: what the fingerprint is computed from."""
    card = ctx.cards[bundle.combination.harnesscard]
    record = {
        "combination": combo,
        "fingerprint": ctx.fingerprints[combo],
        "run_dates": bundle.run_dates.model_dump(mode="json"),
        "evaluation": bundle.evaluation,
        "fingerprinted": fingerprint_document(card, bundle),
    }
    return json.dumps(record, indent=2, ensure_ascii=False) + "\n"


class Part(NamedTuple):
    """A collapsed part of the result card: its summary line, a lead and its blocks."""

    id: str
    summary: str
    lead: Markup
    blocks: tuple[Markup, ...]


def _parts(
    ctx: VersionContext, combo: str, tables: dict[str, Markup], charts: dict[str, Markup]
) -> list[Part]:
    """The detail beside the scores, one click away: stability, efficiency, failure types,
    the configuration record and the HarnessCard's layers, each collapsed with its tables."""
    bundle = ctx.frame.bundles[combo]
    card = ctx.cards[bundle.combination.harnesscard]
    layers = [tid for tid in tables if tid.startswith("layer-")]
    drawn = len(charts)
    domains = sum(p.whole_domain for p in placed(ctx, combo))
    where = f"{domains} domain" + ("" if domains == 1 else "s")
    own = escape_html(card.harness.title)
    return [
        Part(
            "stability",
            f"Stability: reliability@k in {where}"
            + (f", {drawn} chart" + ("" if drawn == 1 else "s") if drawn else "")
            + " and their data",
            Markup(""),
            (*charts.values(), tables["reliability"]),
        ),
        Part("efficiency", f"Efficiency per task in {where}", Markup(""), (tables["efficiency"],)),
        Part("failure-types", f"Failure types in {where}", Markup(""), (tables["failures"],)),
        Part(
            "configuration-record",
            "Configuration record: budgets, clarification, environment and evaluator",
            Markup(""),
            (tables["configuration"], _md(bundle.notes)),
        ),
        Part(
            "harnesscard",
            f"HarnessCard {card.id}: {spelled(len(layers))}-layer disclosure of {own}",
            Markup(
                "Withheld fields are marked and give the vendor's reason; fields the source "
                "of the results does not say read “not recorded”. The same layers are "
                f'on <a href="../cards/{attr(card.id)}.html">the HarnessCard\'s own page</a>.'
            ),
            (*(tables[tid] for tid in layers), _md(card.notes)),
        ),
    ]


def combination_page(ctx: VersionContext, combo: str) -> Page:
    bundle = ctx.frame.bundles[combo]
    about = (("combination", combo),)
    tables = described(ctx, combination_tables(ctx, combo), ("combination", combo), about)
    charts = _charts(ctx, combo)
    html = tables_html(tables, combo)
    markdown = render(
        environment(),
        "combination.md.j2",
        tables=html,
        parts=_parts(ctx, combo, html, charts),
        **_card_context(ctx, combo),
    )
    return Page(
        f"combinations/{combo}.md",
        bundle.combination.title,
        markdown,
        tuple(tables),
        charts=bool(charts),
        wide=True,
        extra_files={f"{combo}.configuration-record.json": _record(ctx, combo, bundle)},
    )


def _title_link(bundle: Bundle) -> Cell:
    c = bundle.combination
    return Cell(f'<a href="{escape(c.id)}.html">{escape(c.title)}</a>', c.title, html=True)


#: The evaluated combinations, a row each, linked to their result cards.
INDEX: Spec[Bundle] = Spec(
    (
        Column("Combination", lambda b: b, _title_link),
        Column("HarnessCard", attrgetter("combination.harnesscard")),
        Column("Mode", lambda b: b.combination.harness_mode or "—"),
        Column("Model", lambda b: b.combination.model.title),
        Column("Evaluation", attrgetter("evaluation")),
    ),
    (
        Field("combination", attrgetter("combination.id")),
        Field("title", attrgetter("combination.title")),
        Field("harnesscard", attrgetter("combination.harnesscard")),
        Field("harness_mode", attrgetter("combination.harness_mode")),
        Field("model", attrgetter("combination.model.name")),
        Field("model_version", attrgetter("combination.model.version")),
        Field("evaluation", attrgetter("evaluation")),
    ),
)


def combinations_index(ctx: VersionContext) -> Page:
    bundles = [bundle for _, bundle in sorted(ctx.frame.bundles.items())]
    table = INDEX.table("combinations", "Evaluated combinations (harness × model)", bundles)
    (table,) = described(ctx, [table])
    layers = spelled(len(Layers.model_fields))
    md = (
        "# Result cards\n\nEach evaluated combination has a result card: its HarnessCard "
        f"({layers} layers), configuration record, budgets, clarification rules, environment "
        "snapshot, evaluator and run dates, beside its scores (§5.1).\n\n"
        + str(opaque(table.to_html("index")))
        + "\n"
    )
    return Page("combinations/index.md", "Result cards", md, (table,))
