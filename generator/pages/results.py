"""Domain pages: a scope's scores, business views, paired differences and failure types."""

from __future__ import annotations

from typing import Any

from generator.pages.cells import (
    RUNS_MARK,
    STATUS_TEXT,
    VIEWS,
    combo_cell,
    estimate_cell,
    estimate_record,
    groups_note,
    judge_cell,
    rank_note,
    release_notice,
    runs_basis,
    runs_note,
    view_cell,
)
from generator.pages.context import VersionContext
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.tables import Cell, Row, Table
from generator.pages.text import (
    count,
    interval,
    one_decimal,
    score,
)
from generator.score.results import (
    CombinationScores,
    Report,
    ScopeResult,
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
            estimate_cell(c.task_score),
            estimate_cell(c.rule_score),
            judge_cell(c),
            estimate_cell(c.success_rate),
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
        record |= estimate_record("task_score", c.task_score)
        record |= estimate_record("rule_score", c.rule_score)
        record |= estimate_record("judge_score", c.judge_score)
        record["judge_coverage"] = c.judge_coverage
        record |= estimate_record("success_rate", c.success_rate)
        for k in ks:
            record |= estimate_record(f"reliability_at_{k}", rel.get(k))
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
    if any(runs_basis(c) for c in scope.combinations):
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
            record |= estimate_record(name, getattr(b, name))
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
        notice=release_notice(ctx),
    )
    return Page(f"{report.domain}/index.md", domain.title, markdown, tuple(tables), wide=True)
