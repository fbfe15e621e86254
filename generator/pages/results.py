"""Release home, domain pages and the contamination monitor, from the engine's reports."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from generator.pages.context import VersionContext
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.tables import Cell, Row, Table
from generator.pages.text import (
    count,
    escape,
    escape_html,
    interval,
    one_decimal,
    render_markdown,
    score,
)
from generator.score.results import (
    CombinationScores,
    Estimate,
    Rate,
    Reliability,
    Report,
    ScopeResult,
)

VIEWS = ("risk_weighted_score", "key_process_success", "fatal_error_rate", "boundary_correctness")


def _est(e: Estimate | Rate | Reliability | None) -> Cell:
    if e is None or e.value is None:
        return Cell("—")
    mark = RUNS_MARK if e.interval == "runs" else ""
    return Cell(f"{score(e.value)} {interval(e.low, e.high)}{mark}".strip(), e.value)


# Beside an interval over too few tasks to resample: it covers run-to-run noise only.
RUNS_MARK = " †"


def runs_note(minimum: int) -> str:
    """What the † beside an interval means."""
    return (
        f"† Over fewer than {minimum} tasks: the interval shows only the run-to-run noise of "
        "these tasks, not the spread of a task population."
    )


def _est_record(prefix: str, e: Estimate | Rate | Reliability | None) -> dict[str, Any]:
    if e is None:
        return {prefix: None, f"{prefix}_low": None, f"{prefix}_high": None}
    return {
        prefix: e.value,
        f"{prefix}_low": e.low,
        f"{prefix}_high": e.high,
        f"{prefix}_interval": e.interval,
    }


@lru_cache(maxsize=4096)
def combination_link(
    combo: str, depth: int, fingerprint: str | None = None, below_floor: bool = False
) -> str:
    """Link to a result card, with the configuration fingerprint beneath it (remembered:
    every task page shows every combination)."""
    prefix = "../" * depth
    link = f'<a href="{prefix}combinations/{escape(combo)}.html">{escape(combo)}</a>'
    if fingerprint:
        link += f'<br><span class="lg-sub">fingerprint {escape(fingerprint)}</span>'
    if below_floor:
        link += '<br><span class="lg-withheld">below the disclosure floor</span>'
    return link


def combo_cell(ctx: VersionContext, combo: str, depth: int) -> Cell:
    """A combination as every score table shows it: link, fingerprint, floor label."""
    return Cell(
        combination_link(
            combo, depth, ctx.fingerprints.get(combo), bool(ctx.below_floor.get(combo))
        ),
        combo,
        html=True,
    )


def scope_table(ctx: VersionContext, scope: ScopeResult, tid: str, depth: int) -> Table:
    """One row per combination: scores with intervals, rates, efficiency, coverage."""
    ks = list(ctx.release.reliability_k)
    columns = (
        "Rank",
        "Combination",
        "Task Score [95% CI]",
        "Rule score",
        "Judge score",
        "Success rate",
        "reliability@" + "/".join(str(k) for k in ks),
        "Tokens / task",
        "Duration s",
        "Turns",
        "Coverage",
    )
    rows = []

    def order(c: CombinationScores) -> tuple[int, float, str]:
        value = c.task_score.value if c.task_score and c.task_score.value is not None else -1.0
        return (c.rank or 10**6, -value, c.combination)

    ordered = sorted(scope.combinations, key=order)
    for c in ordered:
        fp = ctx.fingerprints.get(c.combination)
        link = combo_cell(ctx, c.combination, depth)
        if c.status != "scored":
            status = STATUS_TEXT[c.status]
            note = f"{status}: {c.note}" if c.note else status
            cells = (Cell("—"), link, Cell(note), *[Cell("")] * (len(columns) - 3))
            rows.append(
                Row(
                    cells,
                    {
                        "combination": c.combination,
                        "fingerprint": fp,
                        "status": c.status,
                        "note": c.note,
                    },
                )
            )
            continue
        rel = {r.k: r for r in c.reliability}
        eff = c.efficiency
        cov = c.coverage
        covtext = "complete"
        if cov is not None and not cov.complete:
            covtext = (
                f"incomplete: {cov.valid_runs} of {cov.expected_runs} runs valid, "
                f"{cov.valid_tasks} of {cov.covered_tasks} tasks"
            )
        if cov is not None and cov.not_covered:
            covtext += "; not covered: " + ", ".join(n.split(":")[0] for n in cov.not_covered)
        rel_text = " / ".join(score(rel[k].value) if k in rel else "—" for k in ks)
        if c.reliability_excluded:
            rel_text += f" ({c.reliability_excluded} task(s) excluded)"
        cells = (
            Cell(c.rank_text or "—", c.rank),
            link,
            _est(c.task_score),
            _est(c.rule_score),
            judge_cell(c),
            _est(c.success_rate),
            Cell(rel_text, rel[ks[0]].value if ks and ks[0] in rel else None),
            Cell(count(eff.total_tokens if eff else None), eff.total_tokens if eff else None),
            Cell(one_decimal(eff.duration_s if eff else None), eff.duration_s if eff else None),
            Cell(one_decimal(eff.turns if eff else None), eff.turns if eff else None),
            Cell(covtext),
        )
        record: dict[str, Any] = {
            "combination": c.combination,
            "fingerprint": fp,
            "status": c.status,
            "rank": c.rank,
            "rank_worst": c.rank_worst,
            "pareto": c.pareto,
        }
        record |= _est_record("task_score", c.task_score)
        record |= _est_record("rule_score", c.rule_score)
        record |= _est_record("judge_score", c.judge_score)
        record["judge_coverage"] = c.judge_coverage
        record |= _est_record("success_rate", c.success_rate)
        for k in ks:
            record |= _est_record(f"reliability_at_{k}", rel.get(k))
        if eff is not None:
            record |= eff.model_dump()
        if cov is not None:
            record |= {
                "valid_runs": cov.valid_runs,
                "expected_runs": cov.expected_runs,
                "incomplete_runs": cov.incomplete_runs,
                "complete": cov.complete,
            }
        rows.append(Row(cells, record))
    notes = []
    if any(c.status == "scored" for c in scope.combinations):
        stats = ctx.release.statistics
        notes.append(rank_note(stats.min_tasks_to_order, stats.confidence))
    if scope.comparison_groups:
        notes.append(groups_note(scope.comparison_groups, ctx.release.varying()))
    if any(_runs_basis(c) for c in scope.combinations):
        notes.append(runs_note(ctx.release.statistics.min_tasks_to_resample))
    reasons = sorted(
        {
            c.judge_coverage
            for c in scope.combinations
            if c.judge_coverage and c.judge_coverage.startswith("withheld")
        }
    )
    notes += [f"Judge score {r}." for r in reasons]
    note = " ".join(notes)
    return Table(tid, scope.title, columns, tuple(rows), note)


STATUS_TEXT = {
    "scored": "",
    "not-covered": "not covered",
    "no-valid-runs": "no valid runs",
    "withheld": "withheld",
}


def rank_note(minimum: int, confidence: float) -> str:
    """What a rank range means, as the pages say it."""
    return (
        "Rank: the best to the worst rank the data allows. A combination ranks below another "
        f"only when their paired difference is significant (its {confidence:.0%} interval "
        "excludes 0, over "
        f"at least {minimum} common tasks); overlapping ranges are not ordered by the data, "
        "though listed by score."
    )


def groups_note(groups: list[list[str]], varying: tuple[str, ...]) -> str:
    """Which combinations are compared with which, when settings vary by design (§4.1)."""
    shown = " · ".join("{" + ", ".join(g) + "}" for g in groups)
    return (
        f"The release lets {', '.join(varying)} vary by design (§4.1): differences, ranks and "
        f"the frontier compare only combinations that share them: {shown}."
    )


def _runs_basis(c: CombinationScores) -> bool:
    """Whether any interval of the combination covers run noise only."""
    shown = [c.task_score, c.rule_score, c.judge_score, c.success_rate, *c.reliability]
    return any(e is not None and e.interval == "runs" for e in shown)


def judge_cell(c: CombinationScores) -> Cell:
    """The Judge score with its coverage, or why it is withheld."""
    coverage = c.judge_coverage or ""
    if c.judge_score is None or c.judge_score.value is None:
        return Cell("withheld" if coverage.startswith("withheld") else "—")
    mark = RUNS_MARK if c.judge_score.interval == "runs" else ""
    text = f"{score(c.judge_score.value)} {interval(c.judge_score.low, c.judge_score.high)}{mark}"
    return Cell(
        f'{escape_html(text)}<br><span class="lg-sub">{escape_html(coverage)}</span>',
        c.judge_score.value,
        html=True,
    )


def view_cell(e: Estimate | Rate | None, name: str, withheld: list[str]) -> Cell:
    if e is None:
        return Cell("withheld" if name in withheld else "not applicable")
    return _est(e)


def differences_table(
    scope: ScopeResult, tid: str, minimum: int, resample: int, confidence: float
) -> Table | None:
    if not scope.differences:
        return None
    rows = []
    for d in scope.differences:
        if d.tasks < minimum or d.interval == "runs":
            reading = f"too few common tasks (< {max(minimum, resample)}) to judge"
        else:
            reading = "significant" if d.significant else "inside the noise: no difference"
        rows.append(
            Row(
                (
                    Cell(f"{d.a} − {d.b}"),
                    Cell(score(d.value), d.value),
                    Cell(interval(d.low, d.high) + (RUNS_MARK if d.interval == "runs" else "")),
                    Cell(str(d.tasks), d.tasks),
                    Cell(reading),
                ),
                {
                    "a": d.a,
                    "b": d.b,
                    "difference": d.value,
                    "low": d.low,
                    "high": d.high,
                    "tasks": d.tasks,
                    "interval": d.interval,
                    "significant": d.significant,
                },
            )
        )
    judged = [d for d in scope.differences if d.tasks >= minimum and d.interval == "tasks"]
    significant = sum(d.significant for d in judged)
    return Table(
        tid,
        f"Paired differences — {scope.title}",
        ("a − b", "Difference", f"{confidence:.0%} CI", "Common tasks", "Reading"),
        tuple(rows),
        f"{significant} of {len(rows)} pairs differ significantly (the {confidence:.0%} interval "
        f"of the paired difference excludes 0, over at least {minimum} common tasks)."
        + (
            f" {runs_note(resample)}"
            if any(d.interval == "runs" for d in scope.differences)
            else ""
        ),
        inline=len(rows) if len(rows) <= DIFFERENCES_INLINE else 0,
    )


#: Pairs a differences table shows in the page; more (over ten combinations) load on demand:
#: 20 combinations make 190 pairs in each of dozens of scopes (page weight at scale).
DIFFERENCES_INLINE = 45


def business_table(ctx: VersionContext, scope: ScopeResult, tid: str) -> Table | None:
    views = [c for c in scope.combinations if c.business is not None]
    if not views:
        return None
    rows = []
    shown_runs = False
    for c in views:
        b = c.business
        assert b is not None
        shown = [getattr(b, n) for n in VIEWS if n not in b.withheld]
        shown_runs |= any(e is not None and e.interval == "runs" for e in shown)
        cells = (
            combo_cell(ctx, c.combination, 1),
            *[view_cell(getattr(b, n), n, b.withheld) for n in VIEWS],
        )
        record: dict[str, Any] = {"combination": c.combination, "withheld": b.withheld}
        for name in VIEWS:
            record |= _est_record(name, getattr(b, name))
        rows.append(Row(cells, record))
    return Table(
        tid,
        f"Business views — {scope.title}",
        (
            "Combination",
            "Risk-weighted score",
            "Key-process end-to-end success",
            "Fatal-error rate",
            "Functional-boundary correctness",
        ),
        tuple(rows),
        "Rates are shares of valid runs; their intervals resample tasks (a task's runs are "
        "not independent draws). The risk-weighted score uses the release's frozen risk "
        "weights."
        + (f" {runs_note(ctx.release.statistics.min_tasks_to_resample)}" if shown_runs else ""),
    )


def failure_table(ctx: VersionContext, scope: ScopeResult, tid: str) -> Table | None:
    scored = [c for c in scope.combinations if c.status == "scored"]
    if not scored:
        return None
    types = list(ctx.release.enumerations.failure_types)
    rows = []
    for c in scored:
        total = sum(c.failure_types.values())
        valid = c.coverage.valid_runs if c.coverage else 0
        cells = (
            combo_cell(ctx, c.combination, 1),
            *[Cell(str(c.failure_types.get(f.id, 0)), c.failure_types.get(f.id, 0)) for f in types],
            Cell(f"{total} of {valid}", total),
        )
        record: dict[str, Any] = {"combination": c.combination, "valid_runs": valid}
        record |= {f.id: c.failure_types.get(f.id, 0) for f in types}
        rows.append(Row(cells, record))
    return Table(
        tid,
        f"Failure types — {scope.title}",
        ("Combination", *[f.title for f in types], "Failed runs"),
        tuple(rows),
        "Counts of valid runs that did not succeed, by failure type (§4.2).",
    )


def _scope_section(ctx: VersionContext, scope: ScopeResult) -> tuple[list[Table], dict[str, Any]]:
    tid = f"{scope.scope.subdivision or 'domain'}-{scope.scope.group}"
    if scope.withheld:
        return [], {"scope": scope, "tables": []}
    tables = [scope_table(ctx, scope, f"{tid}-scores", 1)]
    for extra in (
        business_table(ctx, scope, f"{tid}-business"),
        differences_table(
            scope,
            f"{tid}-differences",
            ctx.release.statistics.min_tasks_to_order,
            ctx.release.statistics.min_tasks_to_resample,
            ctx.release.statistics.confidence,
        ),
        failure_table(ctx, scope, f"{tid}-failures"),
    ):
        if extra is not None:
            tables.append(extra)
    return tables, {"scope": scope, "tables": [t.id for t in tables]}


def domain_page(ctx: VersionContext, report: Report) -> Page:
    env = environment()
    tables: list[Table] = []
    parts: dict[str, list[dict[str, Any]]] = {}
    for scope in report.scopes:
        t, section = _scope_section(ctx, scope)
        tables += t
        title, _, group = scope.title.partition(" — ")
        section["heading"] = group[:1].upper() + group[1:]
        parts.setdefault(title, []).append(section)
    sections = [{"title": title, "sections": items} for title, items in parts.items()]
    domain = next(d for d in ctx.release.domains if d.id == report.domain)
    html = tables_html(tables, "index")
    markdown = render(
        env,
        "domain.md.j2",
        report=report,
        domain=domain,
        sections=sections,
        tables=html,
        notice=_notice(ctx),
    )
    return Page(f"{report.domain}/index.md", domain.title, markdown, tuple(tables), wide=True)


def _notice(ctx: VersionContext) -> Markup:
    if not ctx.release.illustrative or not ctx.release.notice:
        return Markup("")
    return Markup(
        '<div class="admonition warning lg-illustrative"><p class="admonition-title">'
        "Illustrative release</p>" + render_markdown(ctx.release.notice) + "</div>"
    )


def home_page(ctx: VersionContext) -> Page:
    env = environment()
    release = ctx.release
    comp = release.components
    components = [
        ("Tasks", comp.tasks),
        ("Data", comp.data),
        ("Environment", comp.environment),
        ("Protocol", comp.protocol),
        ("Judge assets", comp.judge_assets),
    ]
    components += [(f"Scorer: {k}", v) for k, v in comp.scorer.items()]
    comp_table = Table(
        "components",
        "Component versions (§7.2)",
        ("Component", "Version"),
        tuple(Row((Cell(n), Cell(v)), {"component": n, "version": v}) for n, v in components),
    )
    counts: Counter[tuple[str, str]] = Counter((t.domain, t.group) for t in ctx.catalog.tasks)
    task_rows = []
    for d in release.domains:
        pub, held = counts[(d.id, "public")], counts[(d.id, "held-out")]
        task_rows.append(
            Row(
                (
                    Cell(d.title),
                    Cell(str(pub), pub),
                    Cell(str(held), held),
                    Cell(str(pub + held), pub + held),
                ),
                {"domain": d.id, "public": pub, "held_out": held, "total": pub + held},
            )
        )
    task_table = Table(
        "tasks",
        "Tasks by domain and group (§2.3, §4.4)",
        ("Domain", "Public", "Held-out", "Tasks"),
        tuple(task_rows),
        "The two domains are reported separately; there is no total score.",
    )
    factor_table = Table(
        "factors",
        "Controlled factors (§4.1)",
        ("Factor", "Status", "Setting"),
        tuple(
            Row((Cell(f.factor), Cell(f.status), Cell(f.setting)), f.model_dump())
            for f in release.controlled_factors
        ),
    )
    cov_rows = []
    for combo, bundle in sorted(ctx.frame.bundles.items()):
        notes = "; ".join(
            f"{n.domain}" + (f"/{n.subdivision}" if n.subdivision else "") + f": {n.reason}"
            for n in bundle.not_covered
        )
        runs = ctx.frame.runs[ctx.frame.runs["combination"] == combo]
        valid = int(runs["valid"].sum())
        cov_rows.append(
            Row(
                (
                    combo_cell(ctx, combo, 0),
                    Cell(bundle.evaluation),
                    Cell(str(valid), valid),
                    Cell(str(len(runs) - valid), len(runs) - valid),
                    Cell(notes or "—"),
                ),
                {
                    "combination": combo,
                    "evaluation": bundle.evaluation,
                    "valid_runs": valid,
                    "incomplete_runs": len(runs) - valid,
                    "not_covered": notes,
                },
            )
        )
    cov_table = Table(
        "coverage",
        "Coverage of each combination",
        ("Combination", "Evaluation", "Valid runs", "Evaluation-incomplete runs", "Not covered"),
        tuple(cov_rows),
        "'Not covered' scopes were not evaluated and are never shown as zero.",
    )
    tables = [comp_table, task_table, factor_table, cov_table]
    markdown = render(
        env,
        "home.md.j2",
        release=release,
        notice=_notice(ctx),
        tables=tables_html(tables, "index"),
        boundaries=Markup(render_markdown(release.boundaries_of_use)),
        domains=release.domains,
    )
    return Page("index.md", "Release home", markdown, tuple(tables))


def contamination_page(ctx: VersionContext) -> Page:
    env = environment()
    tables, notes = [], {}
    for domain_id, report in ctx.reports.items():
        if not report.contamination:
            notes[domain_id] = report.contamination_note or "not available"
            continue
        rows = []
        for row in report.contamination:
            rows.append(
                Row(
                    (
                        combo_cell(ctx, row.combination, 0),
                        _est(row.public),
                        _est(row.held_out),
                        _est(row.gap),
                    ),
                    {
                        "combination": row.combination,
                        **_est_record("public", row.public),
                        **_est_record("held_out", row.held_out),
                        **_est_record("gap", row.gap),
                    },
                )
            )
        tables.append(
            Table(
                f"gap-{domain_id}",
                f"Public − held-out — {report.domain_title}",
                ("Combination", "Public", "Held-out", "Gap (public − held-out)"),
                tuple(rows),
                runs_note(ctx.release.statistics.min_tasks_to_resample)
                if any(
                    e.interval == "runs"
                    for r in report.contamination
                    for e in (r.public, r.held_out, r.gap)
                )
                else "",
            )
        )
    markdown = render(
        env,
        "contamination.md.j2",
        notice=_notice(ctx),
        reports=ctx.reports,
        tables=tables_html(tables, "contamination"),
        notes=notes,
    )
    return Page("contamination.md", "Contamination monitor", markdown, tuple(tables))
