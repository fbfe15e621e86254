"""The per-run and per-item tables of the public tasks (§5.2 parts 3–5): item verdicts,
runs, cited evidence and efficiency, computed once per version from version-wide frames, their
downloads written in bulk (``generator.pages.blocks.bulk``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np
import pandas as pd

from generator.models import Task
from generator.pages.blocks import bulk
from generator.pages.blocks.cells import display_names
from generator.pages.blocks.columns import Column, Field, Spec, sorted_as
from generator.pages.blocks.downloads import tasks_about
from generator.pages.blocks.tables import Cell, Prepared, Table, escaped
from generator.pages.blocks.text import NBSP, kilo, one_decimal, score
from generator.pages.context import VersionContext
from generator.score.items import item_breakdown_table, task_efficiency_table
from generator.score.rounding import DECIMALS, fixed

VERDICTS_CAPTION = "Scoring reconstruction: item verdicts over valid runs"
#: Per-run rows a page may show inline; a longer runs table shows none of them and loads all
#: on demand, so that no page at benchmark scale embeds per-run data (page weight).
RUNS_INLINE = 30
RUNS_CAPTION = "Runs: core delivery D, fatal items, R, J and the run's Task Score S"


@dataclass(frozen=True)
class TaskTables:
    """The per-run and per-item tables of every public task, computed once per version from
    version-wide frames, with their downloads written in bulk (``generator.pages.blocks.bulk``)."""

    verdicts: Mapping[str, list[Any]]  # one row per (task, combination, item), by task
    verdict_cells: list[str]  # each verdict row's matrix cell, as HTML
    spans: Mapping[str, slice]  # task -> its rows in verdicts
    verdict_files: Mapping[str, Prepared]
    run_files: Mapping[str, Prepared]
    efficiencies: Mapping[str, list[dict[str, Any]]]  # task -> per-combination means
    cited: Mapping[str, Mapping[tuple[str, str], list[str]]]
    names: Mapping[str, str]  # combination -> display name


def task_tables(ctx: VersionContext, tasks: Collection[str] | None = None) -> TaskTables:
    """Item verdicts and runs of the public tasks (§5.2 part 4), for all of them (or those
    of ``tasks``) at once."""
    public = {t.id for t in ctx.catalog.tasks if t.group == "public"}
    if tasks is not None:
        public &= set(tasks)
    verdicts = item_breakdown_table(ctx.frame, public)
    verdicts = verdicts[verdicts["task"].isin(public)].reset_index(drop=True)
    tasks = verdicts["task"].astype(str)
    cited = verdicts.assign(evidence_cited=_cited_column(verdicts, ctx.cited))
    records = _with_about(ctx, bulk.records(VERDICTS, cited), tasks)
    runs = ctx.scored[ctx.scored["task"].isin(public)]
    runs = runs.sort_values(["task", "combination", "run"], kind="stable").reset_index(drop=True)
    return TaskTables(
        verdicts={c: verdicts[c].tolist() for c in verdicts.columns if c != "task"},
        verdict_cells=_verdict_cells(verdicts),
        spans=dict(bulk.groups(tasks)),
        verdict_files=bulk.downloads(records, tasks, "reconstruction", VERDICTS_CAPTION),
        run_files=_run_files(ctx, runs),
        efficiencies=_efficiencies(ctx, public),
        cited=ctx.cited,
        names=display_names(ctx),
    )


def _verdict_cells(verdicts: pd.DataFrame) -> list[str]:
    """Each verdict as its matrix cell: runs passing of valid runs (rule and fatal items), or
    the mean level of the maximum (Judge items), sorted by the fraction."""

    def encode(row: tuple[Any, ...]) -> str:
        judge, n, passed, mean, top = row
        if judge:
            return _td(f"{fixed(mean, 2)} of {top}", round(mean / top, DECIMALS))
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


def _or_none(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """``values`` as objects, None where ``keep`` is false."""
    out = values.astype(object)
    out[~keep] = None
    return out


def _when_valid(column: str) -> Callable[[pd.DataFrame], np.ndarray]:
    """A flag of the runs, None for an evaluation-incomplete run (it has no verdict)."""

    def values(runs: pd.DataFrame) -> np.ndarray:
        return _or_none(runs[column].to_numpy(dtype=bool), runs["valid"].to_numpy(dtype=bool))

    return values


def _status(runs: pd.DataFrame) -> np.ndarray:
    cause = "evaluation-incomplete (" + runs["cause"].astype(str).to_numpy() + ")"
    return np.where(runs["valid"].to_numpy(dtype=bool), "valid", cause)


def _failure(runs: pd.DataFrame) -> np.ndarray:
    failure = runs["failure_type"].astype(str).to_numpy(dtype=object)
    return _or_none(failure, failure != "")


def _as(column: str, kind: type) -> Callable[[pd.DataFrame], pd.Series]:
    return lambda runs: runs[column].astype(kind)


def _flag(yes: str, no: str) -> Callable[[Any], Cell]:
    return lambda v: Cell("—" if v is None else (yes if v else no))


def _number(v: Any) -> float | None:
    return None if v is None or v != v else float(v)


def _run_score(v: Any) -> Cell:
    return Cell(score(_number(v)), _number(v))


def _named(names: Mapping[str, str]) -> Callable[[Any], Cell]:
    """A combination shown (and sorted) by its display name, harness × model."""

    def show(combo: Any) -> Cell:
        name = names.get(str(combo), str(combo))
        return Cell(name, name)

    return show


def runs_spec(names: Mapping[str, str]) -> Spec[pd.DataFrame]:
    """The runs table, column-wise: each field takes its column from the runs frame, each
    shown column its values from the fields' records (so a cell shows what the download
    holds), the combination by its display name (``names``)."""
    combination: Column[pd.DataFrame] = Column(
        "Combination", itemgetter("combination"), _named(names)
    )
    return Spec((combination, *RUNS.columns), RUNS.fields)


#: The runs table but its combination column (:func:`runs_spec`).
RUNS: Spec[pd.DataFrame] = Spec(
    (
        Column("Run", itemgetter("run"), sorted_as(str)),
        Column("Status", itemgetter("status")),
        Column("D", itemgetter("delivery"), _flag("passed", "failed")),
        Column("Fatal items", itemgetter("fatal_failed"), _flag("failed", "passed")),
        Column("R", itemgetter("rule"), _run_score),
        Column("J", itemgetter("judge"), _run_score),
        Column("S", itemgetter("score"), _run_score),
        Column("Success", itemgetter("success"), _flag("yes", "no")),
        Column("Failure type", itemgetter("failure_type"), lambda v: Cell(v or "—")),
    ),
    (
        Field("combination", _as("combination", str)),
        Field("run", _as("run", int), "integer"),
        Field("status", _status),
        Field("delivery", _when_valid("delivery"), "boolean"),
        Field("fatal_failed", _when_valid("fatal_failed"), "boolean"),
        Field("rule", _as("rule", float), "number"),
        Field("judge", _as("judge", float), "number"),
        Field("score", _as("score", float), "number"),
        Field("success", _when_valid("success"), "boolean"),
        Field("failure_type", _failure),
        Field("retries", _as("retries", int), "integer"),
    ),
)


def _with_about(ctx: VersionContext, records: pd.DataFrame, tasks: pd.Series) -> pd.DataFrame:
    """The records, each starting with its task's about fields (version, domain, ...)."""
    return pd.concat([tasks_about(ctx, tasks), records], axis=1)


def _run_files(ctx: VersionContext, runs: pd.DataFrame) -> dict[str, Prepared]:
    """Per task, its runs' downloads and rows (:data:`RUNS`), written in bulk."""
    spec = runs_spec(display_names(ctx))
    records = _with_about(ctx, bulk.records(spec.fields, runs), runs["task"])
    rows = bulk.rows_by_key(bulk.spec_rows(spec.columns, records), runs["task"])
    return {
        task: prepared._replace(rows_html=rows[task][0], size=rows[task][1])
        for task, prepared in bulk.downloads(records, runs["task"], "runs", RUNS_CAPTION).items()
    }


#: The reconstruction's downloads: a record per (task, combination, item) verdict.
VERDICTS: tuple[Field[pd.DataFrame], ...] = (
    Field("combination", itemgetter("combination")),
    Field("item", itemgetter("item_id")),
    Field("kind", itemgetter("kind")),
    Field("valid_runs", itemgetter("valid_runs"), "integer"),
    Field("passed", itemgetter("passed"), "integer"),
    Field("mean_level", itemgetter("mean_level"), "number"),
    Field("max_level", itemgetter("max_level"), "integer"),
    Field("evidence_cited", itemgetter("evidence_cited"), "array"),
)


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
        ("Item", "Kind", "Checks", *(tables.names.get(c, c) for c in combos)),
        (),
        note,
        inline=len(titles),
        prepared=prepared._replace(rows_html=body + "\n", size=len(titles)),
    )


#: Which frozen evidence valid runs cite: a row per (combination, Judge item).
CITED: Spec[tuple[tuple[str, str], list[str]]] = Spec(
    (
        Column("Combination", lambda e: e[0][0]),
        Column("Item", lambda e: e[0][1]),
        Column("Evidence cited", lambda e: ", ".join(e[1])),
    ),
    (
        Field("combination", lambda e: e[0][0]),
        Field("item", lambda e: e[0][1]),
        Field("evidence_cited", itemgetter(1), "array"),
    ),
)


def cited_table(task: Task, tables: TaskTables) -> Table | None:
    """Which frozen evidence valid runs cite, by combination and Judge item."""
    cited = tables.cited.get(task.id, {})
    if not cited:
        return None
    caption = "Evidence cited by valid runs, by combination and Judge item"
    return CITED.table("cited", caption, cited.items())


def _empty(table: str, caption: str) -> Prepared:
    """The downloads of a table without rows."""
    empty = Table(table, caption, (), ())
    return Prepared(empty.to_csv(), empty.to_json())


def _runs_note(task: Task) -> str:
    """How the runs table's S is made, by the task's scoring mode (§4.3)."""
    s = task.scoring
    if s.mode == "judge-only":
        made = "S = J, 0 when D or a fatal item fails"
    elif s.mode == "measure":
        made = (
            f"S is the run's {s.measure} in its own unit (not scaled), or the failure value "
            f"{s.failure_value:g} when D or a fatal item fails or it records none"
        )
    else:
        made = "S = 0 when D or a fatal item fails, else R or w·R + (1 − w)·J"
    return f"{made}; evaluation-incomplete runs are excluded from every mean."


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
        _runs_note(task),
        inline=prepared.size if prepared.size <= RUNS_INLINE else 0,
        prepared=prepared,
    )


def _mean(header: str, name: str, text: Callable[[Any], str]) -> Column[dict[str, Any]]:
    return Column(header, itemgetter(name), sorted_as(text))


def _number_field(name: str) -> Field[dict[str, Any]]:
    return Field(name, itemgetter(name), "number")


#: A task's efficiency but its combination column: a row per combination, means over valid
#: runs (§4.2(2)).
EFFICIENCY: Spec[dict[str, Any]] = Spec(
    (
        _mean("Input tokens", "input_tokens", kilo),
        _mean("Output tokens", "output_tokens", kilo),
        _mean("Total tokens", "total_tokens", kilo),
        _mean(f"Duration{NBSP}(s)", "duration_s", one_decimal),
        _mean("Turns", "turns", one_decimal),
    ),
    (
        Field("combination", itemgetter("combination")),
        Field("valid_runs", itemgetter("valid_runs"), "integer"),
        *map(_number_field, ("input_tokens", "output_tokens", "duration_s", "turns")),
        _number_field("total_tokens"),
    ),
)


def efficiency_table(task: Task, tables: TaskTables) -> Table:
    combination: Column[dict[str, Any]] = Column(
        "Combination", lambda r: str(r["combination"]), _named(tables.names)
    )
    spec = Spec((combination, *EFFICIENCY.columns), EFFICIENCY.fields)
    return spec.table(
        "efficiency",
        "Efficiency on this task (means over valid runs)",
        tables.efficiencies.get(task.id, []),
        "Tokens compare only within one tokenizer (§4.2(2)).",
    )
