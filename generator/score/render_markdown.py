"""The Markdown form of a :class:`Report`: readable tables of every aggregate.

:func:`to_markdown` writes the header and settings, the combinations, each scope
(:func:`scope_markdown`: its combinations' figures, the business views, the paired
differences), the public tasks, the contamination signal and, where bundles have second
raters, their agreement with the Judge.
"""

from __future__ import annotations

from generator.score.changes import Change, ExperimentResult
from generator.score.render_csv import business_rows, declared_rows
from generator.score.results import CombinationScores, Report, ScopeResult
from generator.score.tables import (
    Cell,
    Fig,
    Table,
    bare,
    fig,
    head,
    markdown_cell,
    markdown_table,
)

#: The business views, in their columns' order.
BUSINESS_VIEWS = (
    "risk_weighted_score",
    "key_process_success",
    "fatal_error_rate",
    "boundary_correctness",
)
#: The legend under each scope's table of combinations.
LEGEND = [
    "Rank: best to worst rank the significant paired differences allow "
    "(overlapping ranges: the data does not order them).",
    "◆ on the score-against-tokens Pareto frontier of its tokenizer.",
    "† interval over run noise only: too few tasks to resample.",
]


def _table(head: tuple[str, ...], rows: list[list[Cell]]) -> list[str]:
    return markdown_table(Table(head, tuple(tuple(r) for r in rows)))


def to_markdown(report: Report) -> str:
    """Readable tables of every aggregate."""
    lines = [f"# {report.domain_title}, {report.version}", ""]
    if report.illustrative and report.notice:
        lines += ["> " + report.notice.replace("\n", " "), ""]
    st = report.settings
    lines += [
        f"Intervals: {st.confidence:.0%}; bootstrap {st.bootstrap_samples:,} samples, "
        f"seed {st.seed}; {st.runs_per_task} runs per task. No number here combines "
        "versions or domains.",
        "",
        "## Combinations",
        "",
        *_combinations(report),
        "",
        "## Scopes",
        "",
    ]
    for s in report.scopes:
        lines += scope_markdown(s, st.reliability_k)
    lines += ["## Public tasks", "", *_public_tasks(report), ""]
    lines += ["## Contamination signal (public − held-out)", "", *_contamination(report)]
    for e in report.experiments:
        lines += ["", f"## Experiment: {e.title} (treatment − baseline)", "", *_experiment(e)]
    if report.agreement:
        lines += ["", "## Rater agreement with the Judge", "", *_agreement(report)]
    return "\n".join(lines) + "\n"


def _experiment(e: ExperimentResult) -> list[str]:
    """A row per level: its change on each consumer, then its mean over them."""
    cells = {(c.level, c.consumer): c for c in (*e.cells, *e.level_means)}

    def shown(c: Change | None) -> str:
        if c is None:
            return "not evaluated"
        if c.value is None:
            return f"withheld: {c.withheld}"
        return f"{markdown_cell(Fig(c.value, c.low, c.high, c.interval))}, {c.tasks} tasks"

    columns = (e.factor, *e.consumers.values(), "mean over consumers")
    rows: list[list[Cell]] = [
        [title, *(shown(cells.get((level, c))) for c in (*e.consumers, None))]
        for level, title in e.levels.items()
    ]
    return _table(columns, rows)


def _combinations(report: Report) -> list[str]:
    rows: list[list[Cell]] = [
        [c.id, c.title, c.harnesscard, c.harness_mode or None, c.model, c.evaluation]
        for c in report.combinations
    ]
    return _table(head("id | title | HarnessCard | mode | model | evaluation"), rows)


def _public_tasks(report: Report) -> list[str]:
    rows: list[list[Cell]] = [
        [
            t.task,
            t.combination,
            t.score if t.status == "scored" else t.status.replace("-", " "),
            t.rule,
            t.judge,
            t.valid_runs,
        ]
        for t in report.tasks
    ]
    return _table(head("task | combination | score | rule | Judge | valid runs"), rows)


def _contamination(report: Report) -> list[str]:
    if not report.contamination:
        return [f"*Not available: {report.contamination_note}*"]
    rows: list[list[Cell]] = [
        [row.combination, fig(row.public), fig(row.held_out), fig(row.gap)]
        for row in report.contamination
    ]
    return _table(head("combination | public [CI] | held-out [CI] | gap [CI]"), rows)


def _agreement(report: Report) -> list[str]:
    """Each second rater against the Judge per channel, over the runs both rated."""
    rows: list[list[Cell]] = []
    for a in report.agreement:
        shown = [a.channel_title, a.title, a.kind]
        counts = [a.runs, a.tasks]
        if a.withheld:
            rows.append([*shown, a.withheld, None, None, *counts])
            continue
        rows.append([*shown, bare(a.spearman), bare(a.mae), bare(a.difference), *counts])
    notes = [
        f"*{a.title}, {a.channel_title}: {a.interval_note}*"
        for a in report.agreement
        if a.interval_note
    ]
    columns = head(
        "channel | rater | kind | ρ [CI] | MAE [CI] | mean difference [CI] | runs | tasks"
    )
    return _table(columns, rows) + (["", *notes] if notes else [])


def scope_markdown(s: ScopeResult, ks: list[int]) -> list[str]:
    """One scope: its title and task count, then (unless withheld) its combinations with the
    legend, the business views where it has them and the paired differences."""
    lines = [f"### {s.title}", "", f"{s.tasks} task(s).", ""]
    if s.withheld:
        return [*lines, f"*{s.withheld}*", ""]
    lines += [*_scope_combinations(s, ks), "", *LEGEND]
    if s.comparison_groups:
        lines.append(
            "Compared only within groups that share the settings varying by design: "
            + " · ".join("{" + ", ".join(g) + "}" for g in s.comparison_groups)
        )
    lines.append("")
    views = [c for c in s.combinations if c.business is not None]
    if views:
        lines += [*_business_views(views), ""]
    declared = _declared(s.combinations)
    if declared:
        lines += [*declared, ""]
    if s.differences:
        lines += [*_differences(s), ""]
    return lines


def _scope_combinations(s: ScopeResult, ks: list[int]) -> list[str]:
    """A row per combination, best rank first."""
    columns = (
        *head("rank | combination | Task Score [CI] | rule | Judge (tasks) | success [CI]"),
        *[f"rel@{k}" for k in ks],
        *head("total tokens | duration s | turns | coverage"),
    )
    ranked = sorted(s.combinations, key=lambda c: (c.rank or 10**6, c.combination))
    return _table(columns, [_combination_cells(c, ks, len(columns)) for c in ranked])


def _combination_cells(c: CombinationScores, ks: list[int], width: int) -> list[Cell]:
    """A combination's cells: its figures when scored, else its status and note."""
    if c.status != "scored":
        return [None, c.combination, c.status.replace("-", " "), *[None] * (width - 4), c.note]
    eff, cov = c.efficiency, c.coverage
    covtext = (
        "complete"
        if cov is not None and cov.complete
        else (f"incomplete: {cov.valid_runs}/{cov.expected_runs} runs" if cov else None)
    )
    rels = {r.k: fig(r) for r in c.reliability}
    return [
        c.rank_text or None,
        c.combination + (" ◆" if c.pareto else ""),
        fig(c.task_score),
        fig(c.rule_score),
        f"{markdown_cell(fig(c.judge_score))} ({c.judge_coverage})",
        fig(c.success_rate),
        *[rels.get(k) for k in ks],
        None if eff is None or eff.total_tokens is None else f"{eff.total_tokens:,.0f}",
        Fig(eff.duration_s, digits=1) if eff else None,
        Fig(eff.turns, digits=1) if eff else None,
        covtext,
    ]


def _business_views(views: list[CombinationScores]) -> list[str]:
    columns = head(
        "combination | risk-weighted [CI] | key-process success | fatal-error rate | "
        "boundary correctness"
    )
    rows: list[list[Cell]] = []
    for c in views:
        found = {metric: figure for metric, figure, _, _ in business_rows(c)}
        rows.append([c.combination, *(found.get(v) for v in BUSINESS_VIEWS)])
    return _table(columns, rows)


#: The columns a declared profile adds (:func:`~generator.score.render_csv.declared_rows`),
#: by their metric's name or its prefix, in order: each one's header.
DECLARED = {
    "cell_mean": "cell mean [CI]",
    "overall": "overall [CI]",
    "dimension:": "{} [CI]",
    "channel:": "{} channel [CI] (tasks)",
    "rule_class:": "{} passed [CI]",
    "measure:": "{} [CI]",
}


def _declared(combos: list[CombinationScores]) -> list[str]:
    """What a declared profile adds, a column each: the mean over cells, the judged overall,
    each judged dimension, Judge channel (with the tasks it judged), rule class and measured
    resource; nothing when no combination has any."""
    found = {
        c.combination: {metric: (figure, n) for metric, figure, n, _ in declared_rows(c)}
        for c in combos
        if c.status == "scored"
    }

    def kind(metric: str) -> str:
        return next(k for k in DECLARED if metric == k or (k[-1] == ":" and metric.startswith(k)))

    order = list(DECLARED)
    metrics = sorted(
        {m for rows in found.values() for m in rows}, key=lambda m: (order.index(kind(m)), m)
    )
    if not metrics:
        return []
    columns = ("combination", *(DECLARED[kind(m)].format(m.removeprefix(kind(m))) for m in metrics))
    rows: list[list[Cell]] = []
    for combination, mine in found.items():
        cells: list[Cell] = [combination]
        for m in metrics:
            figure, n = mine.get(m, (None, None))
            channel = kind(m) == "channel:" and figure is not None
            cells.append(f"{markdown_cell(figure)} ({n})" if channel else figure)
        rows.append(cells)
    return _table(columns, rows)


def _differences(s: ScopeResult) -> list[str]:
    rows: list[list[Cell]] = [
        [
            f"{d.a} − {d.b}",
            bare(d),
            d.tasks,
            "significant" if d.significant else "inside the noise: no difference",
        ]
        for d in s.differences
    ]
    return _table(head("a − b | difference [CI] | tasks | reading"), rows)
