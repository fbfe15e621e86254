"""The CSV form of a :class:`Report`: one long table, a row per (section, scope,
combination, metric), in the columns of :data:`CSV_COLUMNS`.

:func:`to_csv` writes the scopes (each combination's figures, then the paired
differences), the public tasks, the contamination signal and the raters' agreement;
:func:`metric_rows` lists the figures of one combination in one scope.
"""

from __future__ import annotations

from collections.abc import Iterator

from generator.score.results import (
    EFFICIENCY_COUNTS,
    CombinationScores,
    Estimate,
    Rate,
    Report,
    ScopeResult,
)
from generator.score.tables import Cell, Fig, Table, bare, csv_text, fig

CSV_COLUMNS = [
    "section",
    "scope",
    "subdivision",
    "group",
    "combination",
    "other",
    "task",
    "metric",
    "value",
    "low",
    "high",
    "n",
    "note",
]

RUNS_BASIS = "interval over run noise only (too few tasks to resample)"

#: (metric, figure, n, note) of one figure: a :class:`Fig` fills value, low and high (its
#: basis, which the Markdown marks, is said in the note here).
MetricRow = tuple[str, Fig | Cell, Cell, str]
#: What the rerun-only standard error is, where a row gives it.
RERUN_NOTE = "standard error over reruns of these tasks, not over another draw of tasks"
Row = tuple[Cell, ...]


def _basis(note: str, interval: str) -> str:
    """The note, with a word on what the interval covers when it is not the task population."""
    if interval == "tasks":
        return note
    return f"{note}; {RUNS_BASIS}" if note else RUNS_BASIS


def _row(figure: Fig | Cell = None, **cells: Cell) -> Row:
    """A row of :data:`CSV_COLUMNS`: ``figure`` in value, low and high, the cells not given
    left empty."""
    if isinstance(figure, Fig):
        cells |= {"value": figure.value, "low": figure.low, "high": figure.high}
    else:
        cells["value"] = figure
    return tuple(cells.get(column) for column in CSV_COLUMNS)


def to_csv(report: Report) -> str:
    """One long table: a row per (section, scope, combination, metric)."""
    rows = [
        *(row for s in report.scopes for row in _scope_rows(s)),
        *_task_rows(report),
        *_contamination_rows(report),
        *_experiment_rows(report),
        *_agreement_rows(report),
    ]
    return csv_text(Table(tuple(CSV_COLUMNS), tuple(rows)))


def _scope_rows(s: ScopeResult) -> Iterator[Row]:
    """A withheld scope's one row, or every combination's figures and every difference."""
    base = {
        "section": "scope",
        "scope": s.title,
        "subdivision": s.scope.cut,
        "group": s.scope.group,
    }
    if s.withheld:
        yield _row(**base, metric="withheld", n=s.tasks, note=s.withheld)
        return
    for c in s.combinations:
        for metric, figure, n, note in metric_rows(c):
            yield _row(figure, **base, combination=c.combination, metric=metric, n=n, note=note)
    for d in s.differences:
        reading = _basis("significant" if d.significant else "inside the noise", d.interval)
        yield _row(
            bare(d),
            **base,
            combination=d.a,
            other=d.b,
            metric="difference",
            n=d.tasks,
            note=reading,
        )


def _task_rows(report: Report) -> Iterator[Row]:
    """Score, rule and Judge of each public task and combination."""
    for t in report.tasks:
        for metric, value in (("score", t.score), ("rule", t.rule), ("judge", t.judge)):
            yield _row(
                value,
                section="task",
                subdivision=t.subdivision,
                group="public",
                combination=t.combination,
                task=t.task,
                metric=metric,
                n=t.valid_runs,
                note=t.status,
            )


def _contamination_rows(report: Report) -> Iterator[Row]:
    """Public, held-out and their gap, per combination."""
    for row in report.contamination:
        for metric, e in (("public", row.public), ("held_out", row.held_out), ("gap", row.gap)):
            yield _row(
                bare(e),
                section="contamination",
                scope=report.domain_title,
                combination=row.combination,
                metric=metric,
                n=e.tasks,
            )


def _experiment_rows(report: Report) -> Iterator[Row]:
    """Each experiment's changes (treatment − baseline): per level and consumer (the
    consumer in ``other``), per level (no consumer), then per public target task."""
    for e in report.experiments:
        base = {"section": "experiment", "scope": e.id}
        for c in (*e.cells, *e.level_means):
            yield _row(
                bare(c),
                **base,
                combination=c.treatment,
                other=c.consumer,
                metric=f"change:{c.level}",
                n=c.tasks,
                note=c.withheld or _basis("", c.interval),
            )
        for t in e.tasks:
            yield _row(
                bare(t),
                **base,
                other=t.consumer,
                task=t.task,
                metric=f"change:{t.level}",
                n=1,
                note=RUNS_BASIS,
            )


def _agreement_rows(report: Report) -> Iterator[Row]:
    """Each second rater against the Judge per channel: ρ, MAE and the mean difference
    (``other``: the rater; ``n``: runs compared), or one row saying why withheld."""
    for a in report.agreement:
        base = {"section": "agreement", "scope": f"{report.domain_title} — {a.channel_title}"}
        note = "; ".join(x for x in (f"{a.tasks} tasks rated", a.interval_note, a.withheld) if x)
        if a.withheld:
            yield _row(**base, other=a.rater, metric="withheld", n=a.runs, note=note)
            continue
        figures = (("spearman", a.spearman), ("mae", a.mae), ("difference", a.difference))
        for metric, f in figures:
            assert f is not None
            yield _row(bare(f), **base, other=a.rater, metric=metric, n=a.runs, note=note)


def metric_rows(c: CombinationScores) -> list[MetricRow]:
    """(metric, figure, n, note) of one combination in one scope: its status when
    not scored; else the channels, reliability@k, efficiency, failure types, business views,
    coverage and its standing (rank range, Pareto frontier)."""
    if c.status != "scored":
        return [("status", None, None, f"{c.status}: {c.note or ''}".strip())]
    return [
        *_estimate("task_score", c.task_score),
        *(
            [("task_score_rerun_se", c.rerun_se, None, RERUN_NOTE)]
            if c.rerun_se is not None
            else []
        ),
        *declared_rows(c),
        *_estimate("rule_score", c.rule_score),
        *_estimate("judge_score", c.judge_score, c.judge_coverage or ""),
        *_rate("success_rate", c.success_rate),
        *_reliability_rows(c),
        *_efficiency_rows(c),
        *business_rows(c),
        *_coverage_rows(c),
        ("rank", Fig(c.rank, c.rank, c.rank_worst), None, RANK_NOTE),
        ("pareto", c.pareto, None, "within its tokenizer"),
    ]


RANK_NOTE = "best to worst rank the significant paired differences allow"


def _estimate(name: str, e: Estimate | None, note: str = "") -> list[MetricRow]:
    if e is None:
        return []
    return [(name, fig(e), e.tasks, _basis(note, e.interval))]


def _rate(name: str, r: Rate | None) -> list[MetricRow]:
    if r is None:
        return []
    note = _basis(f"{r.successes} of {r.trials}", r.interval)
    return [(name, fig(r), r.trials, note)]


def declared_rows(c: CombinationScores) -> list[MetricRow]:
    """What a declared profile adds: the mean over cells, the judged overall, each judged
    dimension, each Judge channel (its tasks, its coverage), each rule class and each measured
    resource (none in Lingee's reports)."""
    return [
        *_estimate("cell_mean", c.cell_mean, "equal-weight mean over the declared cells"),
        *_estimate("overall", c.overall, "judged on its own"),
        *(row for d, e in c.dimensions.items() for row in _estimate(f"dimension:{d}", e)),
        *(row for ch, e in c.channels.items() for row in _estimate(f"channel:{ch}", e)),
        *(row for r, e in c.rule_classes.items() for row in _estimate(f"rule_class:{r}", e)),
        *(row for m, e in c.measures.items() for row in _estimate(f"measure:{m}", e)),
    ]


def _reliability_rows(c: CombinationScores) -> list[MetricRow]:
    if c.reliability_note:
        return [("reliability", None, None, c.reliability_note)]
    note = f"{c.reliability_excluded} task(s) excluded"
    return [
        (f"reliability@{r.k}", bare(r), c.reliability_tasks, _basis(note, r.interval))
        for r in c.reliability
    ]


def _efficiency_rows(c: CombinationScores) -> list[MetricRow]:
    rows: list[MetricRow] = []
    eff = c.efficiency
    if eff is not None:
        for name in EFFICIENCY_COUNTS:
            runs = eff.recorded.get(name)
            note = (
                "mean per task"
                if runs is None
                else "not recorded by any valid run"
                if runs == 0
                else "mean per task, over the runs recording it"
            )
            rows.append((name, getattr(eff, name), runs, note))
    for name, count in c.failure_types.items():
        rows.append((f"failure_type:{name}", count, None, ""))
    return rows


def business_rows(c: CombinationScores) -> list[MetricRow]:
    b = c.business
    if b is None:
        return []
    chains = [
        row
        for chain, chain_rate in b.key_process_chains.items()
        for row in _rate(f"key_process_success:{chain}", chain_rate)
    ]
    return [
        *_estimate("risk_weighted_score", b.risk_weighted_score),
        *_rate("key_process_success", b.key_process_success),
        *chains,
        *_rate("fatal_error_rate", b.fatal_error_rate),
        *_rate("boundary_correctness", b.boundary_correctness),
    ]


def _coverage_rows(c: CombinationScores) -> list[MetricRow]:
    cov = c.coverage
    if cov is None:
        return []
    note = (
        "complete"
        if cov.complete
        else f"incomplete evaluation: {cov.valid_tasks} of {cov.covered_tasks} tasks "
        f"with valid runs, {cov.incomplete_runs} incomplete run(s)"
    )
    return [
        ("coverage", cov.valid_runs, cov.expected_runs, note),
        *(("not_covered", None, None, n) for n in cov.not_covered),
    ]
