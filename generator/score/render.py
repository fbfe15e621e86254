"""Text forms of a :class:`Report`: JSON (stable, documented by its schema), CSV, Markdown."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from generator.score.results import (
    CombinationScores,
    Estimate,
    Rate,
    Reliability,
    Report,
    ScopeResult,
)

DECIMALS = 6


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, DECIMALS)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def to_json(report: Report) -> str:
    """Stable JSON: fields in model order, floats rounded to six decimals."""
    data = _rounded(report.model_dump(mode="json"))
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


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


def _num(value: float | int | None) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(round(value, DECIMALS))
    return str(value)


def _metric_rows(c: CombinationScores) -> list[tuple[str, Any, Any, Any, Any, str]]:
    """(metric, value, low, high, n, note) of one combination in one scope."""
    if c.status != "scored":
        return [("status", None, None, None, None, f"{c.status}: {c.note or ''}".strip())]
    rows: list[tuple[str, Any, Any, Any, Any, str]] = []

    def est(name: str, e: Estimate | None, note: str = "") -> None:
        if e is not None:
            rows.append((name, e.value, e.low, e.high, e.tasks, _basis(note, e.interval)))

    def rate(name: str, r: Rate | None) -> None:
        if r is not None:
            note = _basis(f"{r.successes} of {r.trials}", r.interval)
            rows.append((name, r.value, r.low, r.high, r.trials, note))

    est("task_score", c.task_score)
    est("rule_score", c.rule_score)
    est("judge_score", c.judge_score, c.judge_coverage or "")
    rate("success_rate", c.success_rate)
    for r in c.reliability:
        rows.append(
            (
                f"reliability@{r.k}",
                r.value,
                r.low,
                r.high,
                c.reliability_tasks,
                _basis(f"{c.reliability_excluded} task(s) excluded", r.interval),
            )
        )
    if c.efficiency is not None:
        for name, value in c.efficiency.model_dump().items():
            rows.append((name, value, None, None, None, "mean per task"))
    for name, count in c.failure_types.items():
        rows.append((f"failure_type:{name}", count, None, None, None, ""))
    if c.business is not None:
        b = c.business
        est("risk_weighted_score", b.risk_weighted_score)
        rate("key_process_success", b.key_process_success)
        for chain, chain_rate in b.key_process_chains.items():
            rate(f"key_process_success:{chain}", chain_rate)
        rate("fatal_error_rate", b.fatal_error_rate)
        rate("boundary_correctness", b.boundary_correctness)
    if c.coverage is not None:
        cov = c.coverage
        rows.append(
            (
                "coverage",
                cov.valid_runs,
                None,
                None,
                cov.expected_runs,
                "complete"
                if cov.complete
                else f"incomplete evaluation: {cov.valid_tasks} of {cov.covered_tasks} tasks "
                f"with valid runs, {cov.incomplete_runs} incomplete run(s)",
            )
        )
        for note in cov.not_covered:
            rows.append(("not_covered", None, None, None, None, note))
    rows.append(
        (
            "rank",
            c.rank,
            c.rank,
            c.rank_worst,
            None,
            "best to worst rank the significant paired differences allow",
        )
    )
    rows.append(("pareto", c.pareto, None, None, None, "within its tokenizer"))
    return rows


RUNS_BASIS = "interval over run noise only (too few tasks to resample)"


def _basis(note: str, interval: str) -> str:
    """The note, with a word on what the interval covers when it is not the task population."""
    if interval == "tasks":
        return note
    return f"{note}; {RUNS_BASIS}" if note else RUNS_BASIS


def to_csv(report: Report) -> str:
    """One long table: a row per (section, scope, combination, metric)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for s in report.scopes:
        base = ["scope", s.title, s.scope.subdivision or "", s.scope.group]
        if s.withheld:
            writer.writerow([*base, "", "", "", "withheld", "", "", "", s.tasks, s.withheld])
            continue
        for c in s.combinations:
            for metric, value, low, high, n, note in _metric_rows(c):
                writer.writerow(
                    [
                        *base,
                        c.combination,
                        "",
                        "",
                        metric,
                        _num(value),
                        _num(low),
                        _num(high),
                        _num(n),
                        note,
                    ]
                )
        for d in s.differences:
            writer.writerow(
                [
                    *base,
                    d.a,
                    d.b,
                    "",
                    "difference",
                    _num(d.value),
                    _num(d.low),
                    _num(d.high),
                    d.tasks,
                    _basis("significant" if d.significant else "inside the noise", d.interval),
                ]
            )
    for t in report.tasks:
        for metric, value in (("score", t.score), ("rule", t.rule), ("judge", t.judge)):
            writer.writerow(
                [
                    "task",
                    "",
                    t.subdivision,
                    "public",
                    t.combination,
                    "",
                    t.task,
                    metric,
                    _num(value),
                    "",
                    "",
                    t.valid_runs,
                    t.status,
                ]
            )
    for row in report.contamination:
        for metric, e in (("public", row.public), ("held_out", row.held_out), ("gap", row.gap)):
            writer.writerow(
                [
                    "contamination",
                    report.domain_title,
                    "",
                    "",
                    row.combination,
                    "",
                    "",
                    metric,
                    _num(e.value),
                    _num(e.low),
                    _num(e.high),
                    e.tasks,
                    "",
                ]
            )
    return out.getvalue()


def _f(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def _ci(e: Estimate | Rate | Reliability | None, digits: int = 3) -> str:
    if e is None or e.value is None:
        return "—"
    mark = "†" if e.interval == "runs" else ""
    return f"{_f(e.value, digits)} [{_f(e.low, digits)}, {_f(e.high, digits)}]{mark}"


def _int(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def _scope_md(s: ScopeResult, ks: list[int]) -> list[str]:
    lines = [f"### {s.title}", "", f"{s.tasks} task(s).", ""]
    if s.withheld:
        return [*lines, f"*{s.withheld}*", ""]
    rel = [f"rel@{k}" for k in ks]
    head = [
        "rank",
        "combination",
        "Task Score [CI]",
        "rule",
        "Judge (tasks)",
        "success [CI]",
        *rel,
        "total tokens",
        "duration s",
        "turns",
        "coverage",
    ]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c in sorted(s.combinations, key=lambda c: (c.rank or 10**6, c.combination)):
        if c.status != "scored":
            cells = [
                "—",
                c.combination,
                c.status.replace("-", " "),
                *["—"] * (len(head) - 4),
                c.note or "",
            ]
            lines.append("| " + " | ".join(cells) + " |")
            continue
        eff = c.efficiency
        cov = c.coverage
        covtext = (
            "complete"
            if cov is not None and cov.complete
            else (f"incomplete: {cov.valid_runs}/{cov.expected_runs} runs" if cov else "—")
        )
        rels = {r.k: _ci(r) for r in c.reliability}
        cells = [
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
        lines.append("| " + " | ".join(cells) + " |")
    lines += [
        "",
        "Rank: best to worst rank the significant paired differences allow "
        "(overlapping ranges: the data does not order them).",
        "◆ on the score-against-tokens Pareto frontier of its tokenizer.",
        "† interval over run noise only: too few tasks to resample.",
        *(
            [
                "Compared only within groups that share the settings varying by design: "
                + " · ".join("{" + ", ".join(g) + "}" for g in s.comparison_groups)
            ]
            if s.comparison_groups
            else []
        ),
        "",
    ]
    views = [c for c in s.combinations if c.business is not None]
    if views:
        lines += [
            "| combination | risk-weighted [CI] | key-process success | fatal-error rate "
            "| boundary correctness |",
            "|---|---|---|---|---|",
        ]
        for c in views:
            b = c.business
            assert b is not None
            lines.append(
                f"| {c.combination} | {_ci(b.risk_weighted_score)} | "
                f"{_ci(b.key_process_success)} | {_ci(b.fatal_error_rate)} | "
                f"{_ci(b.boundary_correctness)} |"
            )
        lines.append("")
    if s.differences:
        lines += ["| a − b | difference [CI] | tasks | reading |", "|---|---|---|---|"]
        for d in s.differences:
            reading = "significant" if d.significant else "inside the noise: no difference"
            lines.append(
                f"| {d.a} − {d.b} | {_f(d.value)} [{_f(d.low)}, {_f(d.high)}] | "
                f"{d.tasks} | {reading} |"
            )
        lines.append("")
    return lines


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
        "| id | title | HarnessCard | mode | model | evaluation |",
        "|---|---|---|---|---|---|",
    ]
    for c in report.combinations:
        lines.append(
            f"| {c.id} | {c.title} | {c.harnesscard} | {c.harness_mode or '—'} | "
            f"{c.model} | {c.evaluation} |"
        )
    lines += ["", "## Scopes", ""]
    for s in report.scopes:
        lines += _scope_md(s, st.reliability_k)
    lines += [
        "## Public tasks",
        "",
        "| task | combination | score | rule | Judge | valid runs |",
        "|---|---|---|---|---|---|",
    ]
    for t in report.tasks:
        score = _f(t.score) if t.status == "scored" else t.status.replace("-", " ")
        lines.append(
            f"| {t.task} | {t.combination} | {score} | {_f(t.rule)} | {_f(t.judge)} | "
            f"{t.valid_runs} |"
        )
    lines += ["", "## Contamination signal (public − held-out)", ""]
    if not report.contamination:
        lines.append(f"*Not available: {report.contamination_note}*")
    else:
        lines += ["| combination | public [CI] | held-out [CI] | gap [CI] |", "|---|---|---|---|"]
        for row in report.contamination:
            lines.append(
                f"| {row.combination} | {_ci(row.public)} | {_ci(row.held_out)} | {_ci(row.gap)} |"
            )
    return "\n".join(lines) + "\n"


RENDERERS = {"json": to_json, "csv": to_csv, "markdown": to_markdown}
