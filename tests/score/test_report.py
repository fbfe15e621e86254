"""The report of the example: §5.2 reproduced, held-out kept private, output stable."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from generator.load import Inputs, load_inputs
from generator.score.render import CSV_COLUMNS, to_csv, to_json, to_markdown
from generator.score.report import build_report
from generator.score.results import Report

REPO = Path(__file__).resolve().parents[2]

# Per-task Task Scores reported in whitepaper §5.2 (task → combination → figure).
SECTION_5_2 = {
    ("general", "IMG-multi-invoice-batch-recognition-L2"): {
        "lingee": 1.0,
        "deepseek-harness-dual": 0.87,
        "deepseek-harness-code": 0.0,
    },
    ("general", "DA-cost-overrun-attribution-drilldown-L3"): {
        "lingee": 1.0,
        "deepseek-harness-standard": 0.883,
    },
    ("general", "KBR-refund-reversal-chain-tracing-L4"): {"lingee": 1.0},
    ("enterprise", "finance-fa-20"): {
        "lingee": 1.0,
        "opencode": 0.70,
        "deepseek-harness-standard": 0.59,
    },
    ("enterprise", "supply-chain-tc-059"): {
        "lingee": 1.0,
        "opencode": 0.60,
        "deepseek-harness-standard": 0.0,
    },
    ("enterprise", "manufacturing-qc-029"): {
        "lingee": 1.0,
        "opencode": 0.93,
        "deepseek-harness-standard": 1.0,
    },
}


@pytest.fixture(scope="module")
def inputs() -> Inputs:
    loaded, problems = load_inputs(REPO)
    assert not [p for p in problems if p.severity == "error"]
    return loaded


_REPORT_JSON = """
import sys
from pathlib import Path
from generator.load import load_inputs
from generator.score.render import to_json
from generator.score.report import build_report
inputs, _ = load_inputs(Path.cwd())
(v10,) = [r for r in inputs.releases if r.folder == "v1.0"]
sys.stdout.write(to_json(build_report(v10, "general")))
"""


@pytest.fixture(scope="module")
def reports(inputs: Inputs) -> dict[tuple[str, str], Report]:
    return {
        (v.folder, d): build_report(v, d)
        for v in inputs.releases
        for d in ("general", "enterprise")
    }


def test_section_5_2_figures_come_out_of_the_engine(reports: dict[tuple[str, str], Report]) -> None:
    checked = 0
    for (domain, task), figures in SECTION_5_2.items():
        rows = {r.combination: r for r in reports[("v1.0", domain)].tasks if r.task == task}
        for combo, reported in figures.items():
            score = rows[combo].score
            assert score is not None
            digits = len(str(reported).split(".")[1])
            assert round(score, digits) == reported, (task, combo, score)
            checked += 1
    assert checked == sum(len(figures) for figures in SECTION_5_2.values())


def _held_out_ids(inputs: Inputs, version: str) -> set[str]:
    v = next(r for r in inputs.releases if r.folder == version)
    assert v.catalog is not None
    return {t.id for t in v.catalog.model.tasks if t.group == "held-out"}


def test_no_held_out_task_leaves_the_engine(
    inputs: Inputs, reports: dict[tuple[str, str], Report]
) -> None:
    assert len(reports) == 4  # two domains in each of two versions
    for (version, _), report in reports.items():
        held = _held_out_ids(inputs, version)
        assert held
        for text in (to_json(report), to_csv(report), to_markdown(report)):
            assert not [t for t in held if t in text]


def test_json_is_stable_and_matches_its_schema(
    inputs: Inputs, reports: dict[tuple[str, str], Report]
) -> None:
    v10 = next(r for r in inputs.releases if r.folder == "v1.0")
    again = build_report(v10, "general")
    assert to_json(again) == to_json(reports[("v1.0", "general")])
    # and in two other processes, which salt str hashes differently (set order, hash())
    for seed in ("1", "2"):
        elsewhere = subprocess.run(
            [sys.executable, "-c", _REPORT_JSON],
            capture_output=True,
            check=True,
            cwd=REPO,
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO)},
            text=True,
        ).stdout
        assert elsewhere == to_json(again), seed
    schema = json.loads((REPO / "site_src/schemas/report.v1.schema.json").read_text())
    for report in reports.values():
        jsonschema.validate(json.loads(to_json(report)), schema)


def test_csv_has_fixed_columns_and_every_scope(reports: dict[tuple[str, str], Report]) -> None:
    report = reports[("v1.0", "enterprise")]
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    assert list(rows[0]) == CSV_COLUMNS
    assert {r["scope"] for r in rows if r["section"] == "scope"} == {s.title for s in report.scopes}
    withheld = [r for r in rows if r["metric"] == "withheld"]
    assert withheld
    assert all(r["value"] == "" for r in withheld)


def test_every_scope_is_one_version_and_one_domain(reports: dict[tuple[str, str], Report]) -> None:
    assert len(reports) == 4  # two domains in each of two versions
    for (version, domain), report in reports.items():
        assert {(s.scope.version, s.scope.domain) for s in report.scopes} == {(version, domain)}


def test_report_command(run_cli: Any, repo_root: Path) -> None:
    result = run_cli(
        "report", "--root", str(repo_root), "--version", "v1.0", "--domain", "enterprise"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["format"] == "lg-bench.report/1"
    assert (data["version"], data["domain"]) == ("v1.0", "enterprise")
    for fmt, start in (("csv", ",".join(CSV_COLUMNS)), ("markdown", "# Enterprise")):
        out = run_cli(
            "report",
            "--root",
            str(repo_root),
            "--version",
            "v1.0",
            "--domain",
            "enterprise",
            "--format",
            fmt,
        )
        assert out.exit_code == 0
        assert out.output.startswith(start)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (
            ["--version", "v1.0", "--version", "v1.1", "--domain", "general"],
            "refused: one version per report, got v1.0, v1.1: scores are bound to one version",
        ),
        (
            ["--version", "v1.0", "--domain", "general", "--domain", "enterprise"],
            "refused: one domain per report, got general, enterprise: the domains' scorers differ",
        ),
        (
            ["--version", "v1.0", "--domain", "all"],
            "refused: one domain per report, got all: the domains' scorers differ, so no number "
            "combines domains and there is no overall cross-domain score (§4.2, §5.3)",
        ),
    ],
)
def test_cross_scope_requests_are_refused_in_one_line(
    run_cli: Any, repo_root: Path, args: list[str], reason: str
) -> None:
    result = run_cli("report", "--root", str(repo_root), *args)
    assert result.exit_code == 3
    assert result.output.count("\n") == 1
    assert result.output.startswith(f"Error: {reason}")


def test_unknown_version_or_domain_is_a_usage_error(run_cli: Any, repo_root: Path) -> None:
    result = run_cli("report", "--root", str(repo_root), "--version", "v9", "--domain", "general")
    assert result.exit_code == 2
    assert "'v9' is not a version" in result.output
    result = run_cli("report", "--root", str(repo_root), "--version", "v1.0", "--domain", "hr")
    assert result.exit_code == 2
    assert (
        "'hr' is not a domain of v1.0; expected one of ['general', 'enterprise']" in result.output
    )


def test_report_refuses_invalid_input(run_cli: Any, example: Path) -> None:
    (example / "results/v1.0/tasks.yaml").write_text("")
    result = run_cli("report", "--root", str(example), "--version", "v1.1", "--domain", "general")
    assert result.exit_code == 1
    assert "results/v1.0/tasks.yaml: file is empty" in result.output


def _recomputed(version: Any, domain: str, group: str) -> dict[str, dict[str, float]]:
    """Task Score, Judge score, success rate and reliability@k of every combination over the
    domain's tasks of ``group``, straight from the run records (§4.2): no frame, table or
    figure of the engine, only the per-record run formulas."""
    from collections import defaultdict
    from math import comb

    from builders import read_records
    from outcome_oracle import run_outcome

    release, catalog = version.release.model, version.catalog.model
    tasks = {
        t.id: t
        for t in catalog.tasks
        if t.domain == domain and (group == "all" or t.group == group)
    }
    out = {}
    for loaded in version.bundles:
        bundle = loaded.bundle.model
        off = {
            t
            for t in tasks
            if any(
                nc.domain == domain and nc.subdivision in (None, tasks[t].subdivision)
                for nc in bundle.not_covered
            )
        }
        per: dict[str, list[Any]] = defaultdict(list)
        path = REPO / "results" / version.folder / "bundles" / loaded.folder / bundle.runs
        for r in read_records(path):
            if r.task in tasks and r.task not in off and r.status == "valid":
                per[r.task].append(run_outcome(tasks[r.task], r))
        if not per:
            continue
        n = release.runs_per_task
        judged = [t for t in per if tasks[t].scoring.mode == "dual-channel"]
        full = [t for t in per if len(per[t]) == n]
        figures = {
            "score": sum(sum(o.score for o in v) / len(v) for v in per.values()) / len(per),
            "success": sum(o.success for v in per.values() for o in v)
            / sum(len(v) for v in per.values()),
        }
        if judged:
            figures["judge"] = sum(
                sum(o.judge for o in per[t]) / len(per[t])
                for t in judged  # type: ignore[misc]
            ) / len(judged)
        for k in release.reliability_k:
            if full:
                figures[f"reliability@{k}"] = sum(
                    comb(sum(o.success for o in per[t]), k) / comb(n, k) for t in full
                ) / len(full)
        out[bundle.combination.id] = figures
    return out


def test_the_example_agrees_with_a_recomputation_from_the_run_records(
    inputs: Inputs, reports: dict[tuple[str, str], Report]
) -> None:
    checked = 0
    for version in inputs.releases:
        for domain in ("general", "enterprise"):
            for scope in reports[(version.folder, domain)].scopes:
                if scope.scope.subdivision is not None or scope.withheld:
                    continue
                want = _recomputed(version, domain, scope.scope.group)
                for c in scope.combinations:
                    if c.status != "scored":
                        continue
                    assert c.task_score is not None
                    assert c.success_rate is not None
                    got = {"score": c.task_score.value, "success": c.success_rate.value}
                    if c.judge_score is not None and c.judge_score.value is not None:
                        got["judge"] = c.judge_score.value
                    got |= {f"reliability@{r.k}": r.value for r in c.reliability}
                    for name, value in got.items():
                        assert value == pytest.approx(want[c.combination][name], abs=1e-12)
                        checked += 1
                    assert c.judge_coverage == (
                        f"{c.judge_score.tasks} of {c.task_score.tasks} tasks"
                        if c.judge_score is not None
                        else c.judge_coverage
                    )
    assert checked > 100
