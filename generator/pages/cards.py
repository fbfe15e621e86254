"""Result cards (§5.1.2–5.1.3): one page per combination — configuration beside every score."""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup

from generator.disclosure import fingerprint_document
from generator.models import Bundle, HarnessCard
from generator.models.harnesscard import Disclosed, Layer, Withheld
from generator.pages.cells import estimate_cell, estimate_record, judge_cell
from generator.pages.charts import Series, chart, style_of
from generator.pages.context import VersionContext
from generator.pages.diffs import diff_path, related
from generator.pages.render import Page, environment, opaque, render, tables_html
from generator.pages.tables import Cell, Row, Table
from generator.pages.text import count, escape, one_decimal, render_markdown


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def card_tables(card: HarnessCard) -> list[Table]:
    """One table per layer: every field, disclosed or visibly withheld with its reason."""
    tables = []
    for name, layer in card.layers.items():
        rows = []
        record: dict[str, Any]
        fields = {**layer.minimum_fields(), **layer.additional}
        for field_name, field in fields.items():
            title = _title(layer, field_name)
            if isinstance(field, Withheld):
                cells = (
                    Cell(title),
                    Cell('<span class="lg-withheld">withheld</span>', "withheld", html=True),
                    Cell(field.withheld),
                )
                record = {
                    "layer": name,
                    "field": field_name,
                    "status": "withheld",
                    "value": None,
                    "reason": field.withheld,
                }
            else:
                assert isinstance(field, Disclosed)
                cells = (Cell(title), Cell("disclosed"), Cell(_value(field.value)))
                record = {
                    "layer": name,
                    "field": field_name,
                    "status": "disclosed",
                    "value": field.value,
                    "reason": None,
                }
            rows.append(Row(cells, record))
        layer_title = type(card.layers).model_fields[name].title or name
        tables.append(
            Table(
                f"layer-{name}",
                f"{layer_title} layer",
                ("Field", "Status", "Value or reason"),
                tuple(rows),
            )
        )
    return tables


def _title(layer: Layer, field_name: str) -> str:
    info = type(layer).model_fields.get(field_name)
    return info.title if info is not None and info.title else field_name.replace("_", " ")


def _config_table(bundle: Bundle) -> Table:
    c, cfg = bundle.combination, bundle.configuration
    entries: list[tuple[str, str, Any]] = [
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
            "none"
            if cfg.compression_threshold is None
            else f"{cfg.compression_threshold:,} tokens",
            cfg.compression_threshold,
        ),
        ("Reasoning mode", cfg.reasoning_mode, cfg.reasoning_mode),
        ("Runs per task", str(cfg.runs_per_task), cfg.runs_per_task),
    ]
    comp = cfg.pipeline_components
    entries += [
        (f"Component: {k}", v, v)
        for k, v in [
            ("tasks", comp.tasks),
            ("data", comp.data),
            ("environment", comp.environment),
            ("protocol", comp.protocol),
            ("judge assets", comp.judge_assets),
            *[(f"scorer {n}", v) for n, v in comp.scorer.items()],
        ]
    ]
    b, cl, ev = bundle.budgets, bundle.clarification, bundle.evaluator
    entries += [
        ("Budget: timeout", f"{b.timeout_s:,} s", b.timeout_s),
        ("Budget: steps", f"{b.max_steps:,}", b.max_steps),
        ("Budget: tokens", f"{b.max_tokens:,}", b.max_tokens),
        (
            "Retries after technical exceptions",
            f"{b.max_retries} — {b.retry_policy}",
            b.max_retries,
        ),
        (
            "Clarification script",
            cl.simulated_user_script_version,
            cl.simulated_user_script_version,
        ),
        ("Clarification waiting cap", f"{cl.waiting_cap_s} s", cl.waiting_cap_s),
        ("Clarification rules", cl.rules, cl.rules),
        ("Environment snapshot", bundle.environment_snapshot, bundle.environment_snapshot),
        ("Judge model", f"{ev.judge_model} {ev.judge_model_version}", ev.judge_model),
        ("Judge prompt version", ev.prompt_version, ev.prompt_version),
        ("Judge voting", ev.voting, ev.voting),
        (
            "Run dates",
            f"{bundle.run_dates.start.isoformat()} – {bundle.run_dates.end.isoformat()}",
            f"{bundle.run_dates.start.isoformat()}/{bundle.run_dates.end.isoformat()}",
        ),
        ("Evaluation", bundle.evaluation, bundle.evaluation),
    ]
    rows = tuple(
        Row((Cell(k), Cell(text)), {"setting": k, "value": raw}) for k, text, raw in entries
    )
    return Table(
        "configuration",
        "Configuration record, budgets, clarification, environment and evaluator (§5.1.3)",
        ("Setting", "Value"),
        rows,
    )


def combination_page(ctx: VersionContext, combo: str) -> Page:
    bundle = ctx.frame.bundles[combo]
    card = ctx.cards[bundle.combination.harnesscard]
    env = environment()
    score_rows, eff_rows, fail_rows, charts = [], [], [], {}
    style = style_of(list(ctx.frame.bundles))
    failure_titles = {f.id: f.title for f in ctx.release.enumerations.failure_types}
    ks = list(ctx.release.reliability_k)
    for domain_id, report in ctx.reports.items():
        for scope in report.scopes:
            if scope.withheld:
                continue
            c = next((x for x in scope.combinations if x.combination == combo), None)
            if c is None:
                continue
            status = {
                "scored": "",
                "not-covered": "not covered",
                "no-valid-runs": "no valid runs",
                "withheld": "withheld",
            }[c.status]
            score_rows.append(
                Row(
                    (
                        Cell(scope.title),
                        Cell(status or c.rank_text or "—", c.rank),
                        estimate_cell(c.task_score),
                        estimate_cell(c.rule_score),
                        judge_cell(c),
                        estimate_cell(c.success_rate),
                    ),
                    {
                        "domain": domain_id,
                        "subdivision": scope.scope.subdivision,
                        "group": scope.scope.group,
                        "status": c.status,
                        "rank": c.rank,
                        "rank_worst": c.rank_worst,
                        **estimate_record("task_score", c.task_score),
                        **estimate_record("rule_score", c.rule_score),
                        **estimate_record("judge_score", c.judge_score),
                        **estimate_record("success_rate", c.success_rate),
                    },
                )
            )
            if (
                scope.scope.subdivision is None
                and scope.scope.group == "all"
                and c.status == "scored"
            ):
                eff = c.efficiency
                assert eff is not None
                eff_rows.append(
                    Row(
                        (
                            Cell(report.domain_title),
                            Cell(count(eff.input_tokens), eff.input_tokens),
                            Cell(count(eff.output_tokens), eff.output_tokens),
                            Cell(count(eff.total_tokens), eff.total_tokens),
                            Cell(one_decimal(eff.duration_s), eff.duration_s),
                            Cell(one_decimal(eff.turns), eff.turns),
                        ),
                        {"domain": domain_id, **eff.model_dump()},
                    )
                )
                fail_rows.append(
                    Row(
                        (
                            Cell(report.domain_title),
                            Cell(
                                ", ".join(
                                    f"{failure_titles.get(k, k)}: {v}"
                                    for k, v in c.failure_types.items()
                                )
                                or "none"
                            ),
                        ),
                        {"domain": domain_id, **c.failure_types},
                    )
                )
                rel = [r for r in c.reliability if r.value is not None]
                if rel:
                    charts[domain_id] = chart(
                        f"rel-{combo}-{domain_id}",
                        f"reliability@k — {report.domain_title}",
                        [
                            Series(
                                combo,
                                tuple(float(r.k) for r in rel),
                                tuple(float(r.value or 0) for r in rel),
                                tuple(float(r.low or 0) for r in rel),
                                tuple(float(r.high or 0) for r in rel),
                                mode="lines+markers",
                                color=style[combo][0],
                                symbol=style[combo][1],
                            )
                        ],
                        "k (all k runs succeed)",
                        "reliability@k",
                        y_range=(0, 1),
                        integer_x=True,
                        data_table="reliability",
                    )
    scores = Table(
        "scores",
        "Scores by domain, sub-division and group",
        ("Scope", "Rank", "Task Score [95% CI]", "Rule score", "Judge score", "Success rate"),
        tuple(score_rows),
        "Rank: best to worst rank the significant paired differences allow in that scope. "
        "Every interval resamples tasks (a task's runs are not independent draws); † marks one "
        "over too few tasks, which shows run-to-run noise only. The success rate pools valid "
        "runs; reliability@1 averages tasks, so the two can differ when tasks have unequal "
        "valid runs.",
    )
    efficiency = Table(
        "efficiency",
        "Efficiency per task (means over valid runs)",
        ("Domain", "Input tokens", "Output tokens", "Total tokens", "Duration s", "Turns"),
        tuple(eff_rows),
        "Tokens are comparable only within one tokenizer (§4.2(2)).",
    )
    failures = Table(
        "failures",
        "Failure types of valid runs that did not succeed",
        ("Domain", "Failure types"),
        tuple(fail_rows),
    )
    config = _config_table(bundle)
    layers = card_tables(card)
    reliability = _reliability_table(ctx, combo, ks)
    tables = [scores, efficiency, failures, config, reliability, *layers]
    runs = ctx.frame.runs[ctx.frame.runs["combination"] == combo]
    valid_runs = int(runs["valid"].sum())
    markdown = render(
        env,
        "combination.md.j2",
        valid_runs=valid_runs,
        fingerprint=ctx.fingerprints[combo],
        below_floor=ctx.below_floor.get(combo, []),
        related=[
            (other, shared, "../" + diff_path(combo, other))
            for other, shared in related(ctx, combo)
        ],
        incomplete_runs=len(runs) - valid_runs,
        bundle=bundle,
        card=card,
        combo=combo,
        tables=tables_html(tables, combo),
        charts=charts,
        layers=[t.id for t in layers],
        reports=ctx.reports,
        notes=Markup(render_markdown(bundle.notes)) if bundle.notes else Markup(""),
        card_notes=Markup(render_markdown(card.notes)) if card.notes else Markup(""),
        not_covered=[
            (n.domain + (f"/{n.subdivision}" if n.subdivision else ""), n.reason)
            for n in bundle.not_covered
        ],
        withheld=sum(
            isinstance(f, Withheld)
            for _, layer in card.layers.items()
            for f in layer.minimum_fields().values()
        ),
        minimum=sum(len(layer.minimum_fields()) for _, layer in card.layers.items()),
    )
    record = {
        "combination": combo,
        "fingerprint": ctx.fingerprints[combo],
        "run_dates": bundle.run_dates.model_dump(mode="json"),
        "evaluation": bundle.evaluation,
        "fingerprinted": fingerprint_document(card, bundle),
    }
    exports = {
        f"{combo}.configuration-record.json": json.dumps(record, indent=2, ensure_ascii=False)
        + "\n"
    }
    return Page(
        f"combinations/{combo}.md",
        bundle.combination.title,
        markdown,
        tuple(tables),
        charts=bool(charts),
        extra_files=exports,
    )


def _reliability_table(ctx: VersionContext, combo: str, ks: list[int]) -> Table:
    rows = []
    for domain_id, report in ctx.reports.items():
        scope = report.scopes[0]
        c = next((x for x in scope.combinations if x.combination == combo), None)
        if scope.withheld or c is None:  # the domain's all-tasks scope is withheld (§4.4)
            continue
        for r in c.reliability:
            rows.append(
                Row(
                    (Cell(report.domain_title), Cell(str(r.k), r.k), estimate_cell(r)),
                    {"domain": domain_id, "k": r.k, **estimate_record("value", r)},
                )
            )
    return Table(
        "reliability",
        "reliability@k by domain (data of the charts)",
        ("Domain", "k", "reliability@k [95% CI]"),
        tuple(rows),
        f"Over tasks with all {ctx.release.runs_per_task} prescribed valid runs.",
    )


def combinations_index(ctx: VersionContext) -> Page:
    rows = []
    for combo, bundle in sorted(ctx.frame.bundles.items()):
        c = bundle.combination
        rows.append(
            Row(
                (
                    Cell(
                        f'<a href="{escape(combo)}.html">{escape(c.title)}</a>', c.title, html=True
                    ),
                    Cell(c.harnesscard),
                    Cell(c.harness_mode or "—"),
                    Cell(f"{c.model.name} {c.model.version}"),
                    Cell(bundle.evaluation),
                ),
                {
                    "combination": combo,
                    "title": c.title,
                    "harnesscard": c.harnesscard,
                    "harness_mode": c.harness_mode,
                    "model": c.model.name,
                    "model_version": c.model.version,
                    "evaluation": bundle.evaluation,
                },
            )
        )
    table = Table(
        "combinations",
        "Evaluated combinations (harness × model)",
        ("Combination", "HarnessCard", "Mode", "Model", "Evaluation"),
        tuple(rows),
    )
    md = (
        "# Result cards\n\nEach evaluated combination has a result card: its HarnessCard "
        "(seven layers), configuration record, budgets, clarification rules, environment "
        "snapshot, evaluator and run dates, beside its scores (§5.1).\n\n"
        + str(opaque(table.to_html("index")))
        + "\n"
    )
    return Page("combinations/index.md", "Result cards", md, (table,))
