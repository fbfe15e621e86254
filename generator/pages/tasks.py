"""Public task pages and the six deep dives (§5.2). Held-out tasks get no page (§4.4)."""

from __future__ import annotations

from typing import Any

import pandas as pd
from markupsafe import Markup

from generator.models import Task
from generator.pages.context import VersionContext
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.results import combo_cell
from generator.pages.tables import Cell, Row, Table
from generator.pages.text import count, escape, one_decimal, render_markdown, score


def _md(text: str | None) -> Markup:
    return Markup(render_markdown(text)) if text else Markup("")


def metadata_table(ctx: VersionContext, task: Task) -> Table:
    enums = ctx.release.enumerations

    def title(values: Any, key: str | None) -> str:
        if key is None:
            return "—"
        return next((v.title for v in values if v.id == key), key)

    b = task.budgets
    domain = next(d for d in ctx.release.domains if d.id == task.domain)
    entries = [
        ("Domain", domain.title),
        (
            domain.subdivision_label.capitalize(),
            next(
                (x.title for x in domain.subdivisions if x.id == task.subdivision), task.subdivision
            ),
        ),
        ("Task family", task.family + (f" — variant: {task.variant}" if task.variant else "")),
        ("Scenario category", title(enums.scenario_categories, task.scenario_category)),
        ("Operation type", title(enums.operation_types, task.operation_type)),
        ("Difficulty", title(enums.difficulty_tiers, task.difficulty)),
        ("Interaction", task.interaction),
        ("Group", task.group),
        ("Industry", task.industry),
        ("Company size", task.company_size),
        ("Role", task.role),
        ("Process stage", task.process_stage),
        ("Business risk", title(enums.risk_levels, task.risk_level)),
        ("Key-process chain", title(enums.key_process_chains, task.key_process_chain)),
        ("Functional-boundary task", "yes" if task.functional_boundary else "no"),
        ("Exception class", title(enums.exception_classes, task.exception_class)),
        ("Budgets", f"{b.timeout_s:,} s, {b.max_steps:,} steps, {b.max_tokens:,} tokens"),
        ("Multiple solutions", task.multi_solution),
        ("Known limitations", task.known_limitations),
        ("Source", task.source),
        ("Licence", task.licence),
    ]
    return Table(
        "metadata",
        "Task metadata (§2.6)",
        ("Field", "Value"),
        tuple(Row((Cell(k), Cell(v)), {"field": k, "value": v}) for k, v in entries),
    )


def scoring_table(task: Task) -> Table:
    s = task.scoring
    rows = []
    for i in s.rule_items:
        kind = "fatal rule item" if i.fatal else "rule item"
        rows.append(
            Row(
                (Cell(i.id), Cell(kind), Cell(i.title), Cell(i.module or "—"), Cell("pass/fail")),
                {
                    "item": i.id,
                    "kind": kind,
                    "title": i.title,
                    "module": i.module,
                    "levels": "pass/fail",
                },
            )
        )
    for j in s.judge_items:
        levels = f"0–{j.max_level}" + (f", pass at {j.pass_level}" if j.pass_level else "")
        rows.append(
            Row(
                (
                    Cell(j.id),
                    Cell("Judge item"),
                    Cell(j.title),
                    Cell(j.module or "—"),
                    Cell(levels),
                ),
                {
                    "item": j.id,
                    "kind": "judge",
                    "title": j.title,
                    "module": j.module,
                    "max_level": j.max_level,
                    "pass_level": j.passing_level,
                    "evidence": list(j.evidence),
                },
            )
        )
    return Table(
        "scoring",
        "Scoring items, frozen before evaluation (§4.3)",
        ("Item", "Kind", "Checks", "Module", "Levels"),
        tuple(rows),
    )


def composition(task: Task) -> str:
    s = task.scoring
    ordinary = sum(not i.fatal for i in s.rule_items)
    fatal = sum(i.fatal for i in s.rule_items)
    text = f"{ordinary} ordinary rule item(s) ({s.rule_scoring}), {fatal} fatal item(s)"
    if s.mode == "dual-channel":
        w = s.rule_weight or 0.0
        text += f", {len(s.judge_items)} Judge item(s). Dual-channel: S = {w:g}·R + {1 - w:g}·J"
    else:
        text += ". Rule-only: S = R"
    return text + " when the core delivery threshold and every fatal item pass, else 0."


def results_table(ctx: VersionContext, task: Task) -> Table:
    rows = []
    for r in ctx.task_rows.get(task.id, []):
        status = {"scored": "", "not-covered": "not covered", "no-valid-runs": "no valid runs"}[
            r.status
        ]
        rows.append(
            Row(
                (
                    combo_cell(ctx, r.combination, 1),
                    Cell(status or score(r.score), r.score),
                    Cell(score(r.rule), r.rule),
                    Cell(score(r.judge), r.judge),
                    Cell(str(r.valid_runs), r.valid_runs),
                    Cell(str(r.successes), r.successes),
                ),
                r.model_dump(),
            )
        )
    return Table(
        "results",
        "Task means by combination (over valid runs)",
        ("Combination", "Task Score", "Rule score", "Judge score", "Valid runs", "Successful runs"),
        tuple(rows),
        "One task is not a sample: do not rank combinations on it (§5.3).",
    )


def breakdown_table(
    ctx: VersionContext, task: Task, evidence: dict[tuple[str, str], list[str]]
) -> Table:
    data = ctx.breakdowns.get(task.id, [])
    titles = {i.id: i.title for i in task.scoring.rule_items}
    titles |= {j.id: j.title for j in task.scoring.judge_items}
    rows = []
    for r in data:
        item, combo = str(r["item_id"]), str(r["combination"])
        n = int(r["valid_runs"])
        if r["kind"] == "judge":
            verdict = f"mean level {float(r['mean_level']):.2f} of {int(r['max_level'])}"
        else:
            verdict = f"passed {int(r['passed'])} of {n} runs"
        cited = ", ".join(evidence.get((combo, item), [])) or "—"
        rows.append(
            Row(
                (
                    Cell(combo),
                    Cell(item),
                    Cell(titles.get(item, item)),
                    Cell(str(r["kind"])),
                    Cell(verdict, float(r["mean_level"])),
                    Cell(cited),
                ),
                {
                    "combination": combo,
                    "item": item,
                    "kind": r["kind"],
                    "valid_runs": n,
                    "passed": int(r["passed"]),
                    "mean_level": float(r["mean_level"]),
                    "max_level": int(r["max_level"]),
                    "evidence_cited": evidence.get((combo, item), []),
                },
            )
        )
    return Table(
        "reconstruction",
        "Scoring reconstruction: item verdicts over valid runs",
        ("Combination", "Item", "Checks", "Kind", "Verdicts", "Evidence cited"),
        tuple(rows),
        "Items of a failed module count as failed (level 0)." if task.scoring.modules else "",
    )


#: Per-run rows a page may show inline; a longer runs table shows none of them and loads all
#: on demand, so that no page at benchmark scale embeds per-run data (page weight).
RUNS_INLINE = 30


def runs_table(ctx: VersionContext, task: Task) -> Table:
    """Every run of the task: D, fatal items, R, J, S and success, so scores can be rebuilt."""
    rows = []
    for r in ctx.scored_by_task.get(task.id, []):
        valid = bool(r["valid"])
        judge = None if pd.isna(r["judge"]) else float(r["judge"])
        status = "valid" if valid else f"evaluation-incomplete ({r['cause']})"
        cells = (
            Cell(str(r["combination"])),
            Cell(str(r["run"]), int(r["run"])),
            Cell(status),
            Cell(("passed" if r["delivery"] else "failed") if valid else "—"),
            Cell(("failed" if r["fatal_failed"] else "passed") if valid else "—"),
            Cell(score(None if pd.isna(r["rule"]) else float(r["rule"])), r["rule"]),
            Cell(score(judge), judge),
            Cell(score(None if pd.isna(r["score"]) else float(r["score"])), r["score"]),
            Cell(("yes" if r["success"] else "no") if valid else "—"),
            Cell(str(r["failure_type"]) or "—"),
        )
        rows.append(
            Row(
                cells,
                {
                    "combination": r["combination"],
                    "run": int(r["run"]),
                    "status": status,
                    "delivery": bool(r["delivery"]) if valid else None,
                    "fatal_failed": bool(r["fatal_failed"]) if valid else None,
                    "rule": None if pd.isna(r["rule"]) else float(r["rule"]),
                    "judge": judge,
                    "score": None if pd.isna(r["score"]) else float(r["score"]),
                    "success": bool(r["success"]) if valid else None,
                    "failure_type": r["failure_type"] or None,
                    "retries": int(r["retries"]),
                },
            )
        )
    return Table(
        "runs",
        "Runs: core delivery D, fatal items, R, J and the run's Task Score S",
        (
            "Combination",
            "Run",
            "Status",
            "D",
            "Fatal items",
            "R",
            "J",
            "S",
            "Success",
            "Failure type",
        ),
        tuple(rows),
        "S = 0 when D or a fatal item fails, else R or w·R + (1 − w)·J; "
        "evaluation-incomplete runs are excluded from every mean.",
        inline=len(rows) if len(rows) <= RUNS_INLINE else 0,
    )


def efficiency_table(ctx: VersionContext, task: Task) -> Table:
    rows = []
    for r in ctx.efficiencies.get(task.id, []):
        rows.append(
            Row(
                (
                    Cell(str(r["combination"])),
                    Cell(count(r["input_tokens"]), r["input_tokens"]),
                    Cell(count(r["output_tokens"]), r["output_tokens"]),
                    Cell(count(r["total_tokens"]), r["total_tokens"]),
                    Cell(one_decimal(r["duration_s"]), r["duration_s"]),
                    Cell(one_decimal(r["turns"]), r["turns"]),
                ),
                {str(k): v for k, v in r.items() if k != "task"},
            )
        )
    return Table(
        "efficiency",
        "Efficiency on this task (means over valid runs)",
        ("Combination", "Input tokens", "Output tokens", "Total tokens", "Duration s", "Turns"),
        tuple(rows),
        "Tokens compare only within one tokenizer (§4.2(2)).",
    )


def evidence_table(task: Task) -> Table | None:
    if not task.scoring.evidence:
        return None
    return Table(
        "evidence",
        "Frozen evidence bound to Judge items (source, location, text)",
        ("Evidence", "Source", "Location", "Excerpt"),
        tuple(
            Row((Cell(e.id), Cell(e.source), Cell(e.location), Cell(e.excerpt)), e.model_dump())
            for e in task.scoring.evidence
        ),
    )


def _cited(ctx: VersionContext, task: str) -> dict[tuple[str, str], list[str]]:
    return dict(ctx.cited.get(task, {}))


def task_page(ctx: VersionContext, task: Task, deep: bool) -> Page:
    tables = [
        metadata_table(ctx, task),
        scoring_table(task),
        results_table(ctx, task),
        breakdown_table(ctx, task, _cited(ctx, task.id)),
        runs_table(ctx, task),
        efficiency_table(ctx, task),
    ]
    evidence = evidence_table(task)
    if evidence is not None:
        tables.append(evidence)
    dive = ctx.deep_dives.get(task.id) if deep else None
    folder = "deep-dives" if deep else "tasks"
    differences = []
    if dive is not None:
        differences = [
            (k, Markup(render_markdown(v)))
            for k, v in sorted(dive.differences.items())
            if k in ctx.frame.bundles  # no note on a combination without consent (§7.2)
        ]
    markdown = render(
        environment(),
        "deepdive.md.j2" if deep else "task.md.j2",
        task=task,
        deep=dive,
        card={k: _md(getattr(task.card, k)) for k in type(task.card).model_fields},
        composition=composition(task),
        tables=tables_html(tables, task.id),
        trajectory=_md(dive.trajectory_nodes) if dive else Markup(""),
        interpretation=_md(dive.interpretation) if dive else Markup(""),
        differences=differences,
        has_evidence=evidence is not None,
    )
    return Page(f"{folder}/{task.id}.md", task.title, markdown, tuple(tables))


def index_page(ctx: VersionContext, deep: bool) -> Page:
    tasks = [ctx.tasks[t] for t in ctx.release.deep_dives] if deep else ctx.public_tasks()
    folder = "deep-dives" if deep else "tasks"
    rows = tuple(
        Row(
            (
                Cell(f'<a href="{escape(t.id)}.html">{escape(t.id)}</a>', t.id, html=True),
                Cell(t.title),
                Cell(t.domain),
                Cell(t.subdivision),
                Cell(t.difficulty),
                Cell(t.interaction),
                Cell(t.scoring.mode),
            ),
            {
                "task": t.id,
                "title": t.title,
                "domain": t.domain,
                "subdivision": t.subdivision,
                "difficulty": t.difficulty,
                "interaction": t.interaction,
                "mode": t.scoring.mode,
            },
        )
        for t in tasks
    )
    table = Table(
        "tasks",
        "Deep-dive tasks" if deep else "Public tasks",
        ("Task", "Title", "Domain", "Sub-division", "Difficulty", "Interaction", "Scoring"),
        rows,
    )
    if deep:
        intro = (
            "# Deep dives\n\nSix public tasks analysed one by one in the six parts of §5.2: "
            "task card, per-combination overview, key trajectory nodes, scoring "
            "reconstruction, efficiency and interpretation. Cases illustrate how results "
            "are read; they are not a sample and do not rank combinations (§5.3).\n\n"
        )
    else:
        intro = (
            "# Public tasks\n\nOne page per public task. Held-out tasks are evaluated "
            "but never shown one by one; they count only inside group aggregates "
            "(§4.4).\n\n"
        )
    return Page(
        f"{folder}/index.md",
        "Deep dives" if deep else "Public tasks",
        intro + table.to_html("index") + "\n",
        (table,),
    )
