"""Public task pages and the six deep dives (§5.2). Held-out tasks get no page (§4.4)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from markupsafe import Markup

from generator.models import Task
from generator.pages import bulk
from generator.pages.cells import combo_cell
from generator.pages.context import VersionContext
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.tables import DECIMALS, Cell, Prepared, Row, Table, escaped
from generator.pages.text import count, escape, one_decimal, render_markdown, score
from generator.score.items import item_breakdown_table, task_efficiency_table


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


@dataclass(frozen=True)
class TaskTables:
    """The per-run and per-item tables of every public task, computed once per version from
    version-wide frames, with their downloads written in bulk (``generator.pages.bulk``)."""

    verdicts: Mapping[str, list[Any]]  # one row per (task, combination, item), by task
    verdict_cells: list[str]  # each verdict row's matrix cell, as HTML
    spans: Mapping[str, slice]  # task -> its rows in verdicts
    verdict_files: Mapping[str, Prepared]
    run_files: Mapping[str, Prepared]
    efficiencies: Mapping[str, list[dict[str, Any]]]  # task -> per-combination means
    cited: Mapping[str, Mapping[tuple[str, str], list[str]]]


def task_tables(ctx: VersionContext, tasks: Collection[str] | None = None) -> TaskTables:
    """Item verdicts and runs of the public tasks (§5.2 part 4), for all of them (or those
    of ``tasks``) at once."""
    public = {t.id for t in ctx.catalog.tasks if t.group == "public"}
    if tasks is not None:
        public &= set(tasks)
    verdicts = item_breakdown_table(ctx.frame, public)
    verdicts = verdicts[verdicts["task"].isin(public)].reset_index(drop=True)
    tasks = verdicts["task"].astype(str)
    records = pd.DataFrame(
        {
            "combination": verdicts["combination"],
            "item": verdicts["item_id"],
            "kind": verdicts["kind"],
            "valid_runs": verdicts["valid_runs"],
            "passed": verdicts["passed"],
            "mean_level": verdicts["mean_level"],
            "max_level": verdicts["max_level"],
            "evidence_cited": _cited_column(verdicts, ctx.cited),
        }
    )
    runs = ctx.scored[ctx.scored["task"].isin(public)]
    runs = runs.sort_values(["task", "combination", "run"], kind="stable").reset_index(drop=True)
    run_records, run_cells = _run_columns(runs)
    rows = bulk.rows_by_key(bulk.html_rows(run_cells), runs["task"])
    run_files = {
        task: prepared._replace(rows_html=rows[task][0], size=rows[task][1])
        for task, prepared in bulk.downloads(
            run_records, runs["task"], "runs", RUNS_CAPTION
        ).items()
    }
    return TaskTables(
        verdicts={c: verdicts[c].tolist() for c in verdicts.columns if c != "task"},
        verdict_cells=_verdict_cells(verdicts),
        spans=dict(bulk.groups(tasks)),
        verdict_files=bulk.downloads(records, tasks, "reconstruction", VERDICTS_CAPTION),
        run_files=run_files,
        efficiencies=_efficiencies(ctx, public),
        cited=ctx.cited,
    )


def _verdict_cells(verdicts: pd.DataFrame) -> list[str]:
    """Each verdict as its matrix cell: runs passing of valid runs (rule and fatal items), or
    the mean level of the maximum (Judge items), sorted by the fraction."""

    def encode(row: tuple[Any, ...]) -> str:
        judge, n, passed, mean, top = row
        if judge:
            return _td(f"{mean:.2f} of {top}", round(mean / top, DECIMALS))
        return _td(f"{passed} of {n}", round(passed / n, DECIMALS))

    key = pd.DataFrame(
        {
            "judge": verdicts["kind"] == "judge",
            "n": verdicts["valid_runs"],
            "passed": verdicts["passed"],
            "mean": verdicts["mean_level"],
            "top": verdicts["max_level"],
        }
    )
    return bulk.joined([bulk.encoded(key, encode)]) if len(key) else []


def _td(text: str, sort: float) -> str:
    return f'<td data-sort="{sort}">{escaped(text)}</td>'


def _efficiencies(ctx: VersionContext, public: set[str]) -> dict[str, list[dict[str, Any]]]:
    """Each public task's efficiency rows as records (few rows, nearly all values distinct:
    written record by record)."""
    table = task_efficiency_table(ctx.frame)
    out: dict[str, list[dict[str, Any]]] = {}
    for record in table[table["task"].isin(public)].to_dict("records"):
        out.setdefault(str(record["task"]), []).append({str(k): v for k, v in record.items()})
    return out


def _cited_column(
    verdicts: pd.DataFrame, cited: Mapping[str, Mapping[tuple[str, str], list[str]]]
) -> np.ndarray:
    """Per verdict row, the evidence ids that valid runs cite for it (a tuple, maybe empty)."""
    out = np.empty(len(verdicts), dtype=object)
    for row in range(len(out)):
        out[row] = ()
    keys = [(t, c, i) for t, by in cited.items() for (c, i) in by]
    if not keys or not len(verdicts):
        return out
    index = pd.MultiIndex.from_frame(verdicts[["task", "combination", "item_id"]].astype(str))
    at = index.get_indexer(pd.MultiIndex.from_tuples(keys))
    for pos, (task, combo, item) in zip(at.tolist(), keys, strict=True):
        if pos >= 0:
            out[pos] = tuple(cited[task][(combo, item)])
    return out


def _run_columns(
    runs: pd.DataFrame,
) -> tuple[pd.DataFrame, list[tuple[pd.Series | np.ndarray, bulk.Encode]]]:
    """The runs table's download records and its cells, as columns."""
    valid = runs["valid"].to_numpy(dtype=bool)

    def when_valid(column: str) -> np.ndarray:
        return _or_none(runs[column].to_numpy(dtype=bool), valid)

    status = np.where(
        valid, "valid", "evaluation-incomplete (" + runs["cause"].astype(str).to_numpy() + ")"
    )
    failure = runs["failure_type"].astype(str).to_numpy(dtype=object)
    records = pd.DataFrame(
        {
            "combination": runs["combination"].astype(str),
            "run": runs["run"].astype(int),
            "status": status,
            "delivery": when_valid("delivery"),
            "fatal_failed": when_valid("fatal_failed"),
            "rule": runs["rule"].astype(float),
            "judge": runs["judge"].astype(float),
            "score": runs["score"].astype(float),
            "success": when_valid("success"),
            "failure_type": _or_none(failure, failure != ""),
            "retries": runs["retries"].astype(int),
        }
    )

    def flag(yes: str, no: str) -> Callable[[Any], str]:
        return lambda v: "—" if v is None else (yes if v else no)

    def number(v: Any) -> float | None:
        return None if v is None or v != v else float(v)

    cells: list[tuple[pd.Series | np.ndarray, bulk.Encode]] = [
        (records["combination"], bulk.cell(str)),
        (records["run"], bulk.cell(str, int)),
        (records["status"], bulk.cell(str)),
        (records["delivery"], bulk.cell(flag("passed", "failed"))),
        (records["fatal_failed"], bulk.cell(flag("failed", "passed"))),
        *(
            (records[c], bulk.cell(lambda v: score(number(v)), number))
            for c in ("rule", "judge", "score")
        ),
        (records["success"], bulk.cell(flag("yes", "no"))),
        (records["failure_type"], bulk.cell(lambda v: v or "—")),
    ]
    return records, cells


def _or_none(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """``values`` as objects, None where ``keep`` is false."""
    out = values.astype(object)
    out[~keep] = None
    return out


VERDICTS_CAPTION = "Scoring reconstruction: item verdicts over valid runs"


def breakdown_table(ctx: VersionContext, task: Task, tables: TaskTables) -> Table:
    """Items by combination: runs that pass each item of its valid runs, or a Judge item's
    mean level of its maximum (§5.2 part 4). The downloads hold one record per combination
    and item, with the evidence valid runs cite."""
    titles = {i.id: i.title for i in task.scoring.rule_items}
    titles |= {j.id: j.title for j in task.scoring.judge_items}
    kinds = {i.id: "fatal" if i.fatal else "rule" for i in task.scoring.rule_items}
    kinds |= {j.id: "judge" for j in task.scoring.judge_items}
    combos = [r.combination for r in ctx.task_rows.get(task.id, [])]
    span = tables.spans.get(task.id, slice(0, 0))
    v = tables.verdicts
    cells = dict(
        zip(
            zip(v["combination"][span], v["item_id"][span], strict=True),
            tables.verdict_cells[span],
            strict=True,
        )
    )
    body = "".join(
        f"<tr><td>{escaped(item)}</td><td>{kinds[item]}</td><td>{escaped(titles[item])}</td>"
        + "".join(cells.get((c, item), "<td>—</td>") for c in combos)
        + "</tr>"
        for item in titles
    )
    note = (
        "Rule and fatal items: runs passing the item of the combination's valid runs. "
        "Judge items: mean level of the maximum. Downloads hold one record per combination "
        "and item, with the evidence that valid runs cite."
    )
    if task.scoring.modules:
        note += " Items of a failed module count as failed (level 0)."
    prepared = tables.verdict_files.get(task.id)
    prepared = prepared or _empty("reconstruction", VERDICTS_CAPTION)
    return Table(
        "reconstruction",
        VERDICTS_CAPTION,
        ("Item", "Kind", "Checks", *combos),
        (),
        note,
        inline=len(titles),
        prepared=prepared._replace(rows_html=body + "\n", size=len(titles)),
    )


def cited_table(task: Task, tables: TaskTables) -> Table | None:
    """Which frozen evidence valid runs cite, by combination and Judge item."""
    cited = tables.cited.get(task.id, {})
    if not cited:
        return None
    return Table(
        "cited",
        "Evidence cited by valid runs, by combination and Judge item",
        ("Combination", "Item", "Evidence cited"),
        tuple(
            Row(
                (Cell(combo), Cell(item), Cell(", ".join(ids))),
                {"combination": combo, "item": item, "evidence_cited": ids},
            )
            for (combo, item), ids in cited.items()
        ),
    )


def _empty(table: str, caption: str) -> Prepared:
    """The downloads of a table without rows."""
    empty = Table(table, caption, (), ())
    return Prepared(empty.to_csv(), empty.to_json())


#: Per-run rows a page may show inline; a longer runs table shows none of them and loads all
#: on demand, so that no page at benchmark scale embeds per-run data (page weight).
RUNS_INLINE = 30
RUNS_CAPTION = "Runs: core delivery D, fatal items, R, J and the run's Task Score S"


def runs_table(task: Task, tables: TaskTables) -> Table:
    """Every run of the task: D, fatal items, R, J, S and success, so scores can be rebuilt."""
    prepared = tables.run_files.get(task.id) or _empty("runs", RUNS_CAPTION)
    return Table(
        "runs",
        RUNS_CAPTION,
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
        (),
        "S = 0 when D or a fatal item fails, else R or w·R + (1 − w)·J; "
        "evaluation-incomplete runs are excluded from every mean.",
        inline=prepared.size if prepared.size <= RUNS_INLINE else 0,
        prepared=prepared,
    )


def efficiency_table(task: Task, tables: TaskTables) -> Table:
    rows = []
    for r in tables.efficiencies.get(task.id, []):
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


def task_page(ctx: VersionContext, task: Task, deep: bool, bulk: TaskTables) -> Page:
    tables = [
        metadata_table(ctx, task),
        scoring_table(task),
        results_table(ctx, task),
        breakdown_table(ctx, task, bulk),
        runs_table(task, bulk),
        efficiency_table(task, bulk),
    ]
    cited = cited_table(task, bulk)
    if cited is not None:
        tables.append(cited)
    evidence = evidence_table(task)
    if evidence is not None:
        tables.append(evidence)
    dive = ctx.deep_dives.get(task.id) if deep else None
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
        has_cited=cited is not None,
    )
    return replace(task_entry(task, deep), markdown=markdown, tables=tuple(tables))


def task_entry(task: Task, deep: bool) -> Page:
    """Where the task's page (or deep dive) lives, and its title: a page without content,
    for the navigation."""
    return Page(f"{'deep-dives' if deep else 'tasks'}/{task.id}.md", task.title, "")


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
