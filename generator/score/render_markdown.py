"""The Markdown form of a :class:`Report`: readable tables of every aggregate.

:func:`to_markdown` writes the header and settings, the combinations, each scope
(:func:`scope_markdown`: its combinations' figures, the business views, the paired
differences), the public tasks, the contamination signal and, where bundles have second
raters, their agreement with the Judge.
"""

from __future__ import annotations

from generator.score.agreement_results import AgreementFigure
from generator.score.changes import Change, ExperimentResult
from generator.score.results import (
    CombinationScores,
    Estimate,
    Rate,
    Reliability,
    Report,
    ScopeResult,
)
from generator.score.rounding import fixed

#: The legend under each scope's table of combinations.
LEGEND = [
    "Rank: best to worst rank the significant paired differences allow "
    "(overlapping ranges: the data does not order them).",
    "◆ on the score-against-tokens Pareto frontier of its tokenizer.",
    "† interval over run noise only: too few tasks to resample.",
]


def _f(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else fixed(value, digits)


def _ci(e: Estimate | Rate | Reliability | None, digits: int = 3) -> str:
    if e is None or e.value is None:
        return "—"
    mark = "†" if e.interval == "runs" else ""
    return f"{_f(e.value, digits)} [{_f(e.low, digits)}, {_f(e.high, digits)}]{mark}"


def _int(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table: its header, the rule under it, a line per row."""
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return lines + ["| " + " | ".join(cells) + " |" for cells in rows]


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
        mark = " †" if c.interval == "runs" else ""
        return f"{_f(c.value)} [{_f(c.low)}, {_f(c.high)}]{mark}, {c.tasks} tasks"

    head = [e.factor, *e.consumers.values(), "mean over consumers"]
    rows = [
        [title, *(shown(cells.get((level, c))) for c in (*e.consumers, None))]
        for level, title in e.levels.items()
    ]
    return _table(head, rows)


def _combinations(report: Report) -> list[str]:
    head = ["id", "title", "HarnessCard", "mode", "model", "evaluation"]
    rows = [
        [c.id, c.title, c.harnesscard, c.harness_mode or "—", c.model, c.evaluation]
        for c in report.combinations
    ]
    return _table(head, rows)


def _public_tasks(report: Report) -> list[str]:
    head = ["task", "combination", "score", "rule", "Judge", "valid runs"]
    rows = [
        [
            t.task,
            t.combination,
            _f(t.score) if t.status == "scored" else t.status.replace("-", " "),
            _f(t.rule),
            _f(t.judge),
            str(t.valid_runs),
        ]
        for t in report.tasks
    ]
    return _table(head, rows)


def _contamination(report: Report) -> list[str]:
    if not report.contamination:
        return [f"*Not available: {report.contamination_note}*"]
    head = ["combination", "public [CI]", "held-out [CI]", "gap [CI]"]
    rows = [
        [row.combination, _ci(row.public), _ci(row.held_out), _ci(row.gap)]
        for row in report.contamination
    ]
    return _table(head, rows)


def _agreement(report: Report) -> list[str]:
    """Each second rater against the Judge per channel, over the runs both rated."""
    head = [
        "channel",
        "rater",
        "kind",
        "ρ [CI]",
        "MAE [CI]",
        "mean difference [CI]",
        "runs",
        "tasks",
    ]
    rows = []
    for a in report.agreement:
        shown = [a.channel_title, a.title, a.kind]
        counts = [str(a.runs), str(a.tasks)]
        if a.withheld:
            rows.append([*shown, a.withheld, "—", "—", *counts])
            continue
        figures = [_pair(a.spearman), _pair(a.mae), _pair(a.difference)]
        rows.append([*shown, *figures, *counts])
    notes = [
        f"*{a.title}, {a.channel_title}: {a.interval_note}*"
        for a in report.agreement
        if a.interval_note
    ]
    return _table(head, rows) + (["", *notes] if notes else [])


def _pair(figure: AgreementFigure | None) -> str:
    """A figure and its interval, as ``_ci`` writes an estimate."""
    if figure is None or figure.value is None:
        return "—"
    if figure.low is None or figure.high is None:
        return _f(figure.value)
    return f"{_f(figure.value)} [{_f(figure.low)}, {_f(figure.high)}]"


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
    head = [
        "rank",
        "combination",
        "Task Score [CI]",
        "rule",
        "Judge (tasks)",
        "success [CI]",
        *[f"rel@{k}" for k in ks],
        "total tokens",
        "duration s",
        "turns",
        "coverage",
    ]
    ranked = sorted(s.combinations, key=lambda c: (c.rank or 10**6, c.combination))
    return _table(head, [_combination_cells(c, ks, len(head)) for c in ranked])


def _combination_cells(c: CombinationScores, ks: list[int], width: int) -> list[str]:
    """A combination's cells: its figures when scored, else its status and note."""
    if c.status != "scored":
        return ["—", c.combination, c.status.replace("-", " "), *["—"] * (width - 4), c.note or ""]
    eff, cov = c.efficiency, c.coverage
    covtext = (
        "complete"
        if cov is not None and cov.complete
        else (f"incomplete: {cov.valid_runs}/{cov.expected_runs} runs" if cov else "—")
    )
    rels = {r.k: _ci(r) for r in c.reliability}
    return [
        c.rank_text or "—",
        c.combination + (" ◆" if c.pareto else ""),
        _ci(c.task_score),
        _ci(c.rule_score),
        f"{_ci(c.judge_score)} ({c.judge_coverage})",
        _ci(c.success_rate),
        *[rels.get(k, "—") for k in ks],
        _int(eff.total_tokens if eff else None),
        _f(eff.duration_s if eff else None, 1),
        _f(eff.turns if eff else None, 1),
        covtext,
    ]


def _business_views(views: list[CombinationScores]) -> list[str]:
    head = [
        "combination",
        "risk-weighted [CI]",
        "key-process success",
        "fatal-error rate",
        "boundary correctness",
    ]
    rows = []
    for c in views:
        b = c.business
        assert b is not None
        rows.append(
            [
                c.combination,
                _ci(b.risk_weighted_score),
                _ci(b.key_process_success),
                _ci(b.fatal_error_rate),
                _ci(b.boundary_correctness),
            ]
        )
    return _table(head, rows)


def _declared(combos: list[CombinationScores]) -> list[str]:
    """What a declared profile adds, a column each: the mean over cells, the judged overall,
    each judged dimension and each measured resource; nothing when no combination has any."""
    names = ["cell_mean", "overall"]
    dims = sorted({d for c in combos for d in c.dimensions})
    channels = sorted({ch for c in combos for ch in c.channels})
    classes = sorted({r for c in combos for r in c.rule_classes})
    measures = sorted({m for c in combos for m in c.measures})
    shown = [n for n in names if any(getattr(c, n) is not None for c in combos)]
    if not (shown or dims or channels or classes or measures):
        return []
    head = ["combination", *(f"{n.replace('_', ' ')} [CI]" for n in shown)]
    head += [f"{d} [CI]" for d in dims] + [f"{ch} channel [CI] (tasks)" for ch in channels]
    head += [f"{r} passed [CI]" for r in classes]
    head += [f"{m} [CI]" for m in measures]
    rows = [
        [
            c.combination,
            *(_ci(getattr(c, n)) for n in shown),
            *(_ci(c.dimensions.get(d)) for d in dims),
            *(_judged_on(c.channels.get(ch)) for ch in channels),
            *(_ci(c.rule_classes.get(r)) for r in classes),
            *(_ci(c.measures.get(m)) for m in measures),
        ]
        for c in combos
        if c.status == "scored"
    ]
    return _table(head, rows)


def _judged_on(e: Estimate | None) -> str:
    """A channel's score with its interval and the tasks it judged (its coverage)."""
    return _ci(e) if e is None else f"{_ci(e)} ({e.tasks})"


def _differences(s: ScopeResult) -> list[str]:
    head = ["a − b", "difference [CI]", "tasks", "reading"]
    rows = [
        [
            f"{d.a} − {d.b}",
            f"{_f(d.value)} [{_f(d.low)}, {_f(d.high)}]",
            str(d.tasks),
            "significant" if d.significant else "inside the noise: no difference",
        ]
        for d in s.differences
    ]
    return _table(head, rows)
