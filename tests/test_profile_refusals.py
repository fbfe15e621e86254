"""The refusals that hold for every benchmark (issue: benchmark profiles, item 12), each
tested on the EnterpriseBench-shaped example root: what a declared profile may not do, and
what its site never shows."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.build import build
from generator.load import load_inputs
from generator.score.report import build_report
from generator.score.results import Estimate, Rate, Report

pytestmark = pytest.mark.slow  # builds the declared-profile examples

REPO = Path(__file__).resolve().parent.parent
ROOT = REPO / "examples" / "enterprisebench"
VERSION = ROOT / "results" / "v1.0"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A writable copy of the example root."""
    copy = tmp_path / "eb"
    shutil.copytree(ROOT, copy)
    return copy


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


@pytest.fixture(scope="module")
def reports() -> dict[str, Report]:
    inputs, problems = load_inputs(ROOT)
    assert not [p for p in problems if p.severity == "error"]
    (version,) = inputs.releases
    assert version.release is not None
    return {d.id: build_report(version, d.id) for d in version.release.model.domains}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("eb-site") / "site"
    build(ROOT, out, progress=lambda _: None)
    return out


def test_no_aggregate_across_versions(root: Path, run_cli: Any) -> None:
    shutil.copytree(root / "results" / "v1.0", root / "results" / "v1.1")
    _edit(root / "results" / "v1.1" / "release.yaml", lambda d: d.update(version="v1.1"))
    args = ["report", "--root", str(root), "--domain", "qa"]
    refused = run_cli(*args, "--version", "v1.0", "--version", "v1.1")
    assert refused.exit_code == 3
    assert "versions" in refused.output


def test_no_aggregate_across_domains(run_cli: Any) -> None:
    refused = run_cli("report", "--root", str(ROOT), "--version", "v1.0", "--domain", "all")
    assert refused.exit_code == 3
    assert "no overall cross-domain score" in refused.output


def test_a_board_that_totals_is_refused(root: Path, run_cli: Any) -> None:
    def total(data: dict[str, Any]) -> None:
        board = next(v for v in data["profile"]["views"] if v["kind"] == "board")
        board["total"] = True

    _edit(root / "results" / "v1.0" / "release.yaml", total)
    result = run_cli("validate", "--root", str(root))
    assert result.exit_code == 1
    assert "never has a total row or column" in result.output
    assert "Traceback" not in result.output


def test_no_aggregate_over_different_measures(root: Path, run_cli: Any) -> None:
    """A Beer Game scenario scored in EDT earnings would average a cost with earnings."""

    def mix(data: dict[str, Any]) -> None:
        task = next(t for t in data["tasks"] if t["domain"] == "beer-game")
        task["scoring"]["measure"] = "edt_earnings"

    _edit(root / "results" / "v1.0" / "tasks.yaml", mix)
    result = run_cli("validate", "--root", str(root))
    assert result.exit_code == 1
    assert "differs from beer-game's outcome 'beer_cost'" in result.output
    assert "no aggregate over different measures" in result.output


def test_a_measure_task_without_a_failure_value_is_refused(root: Path, run_cli: Any) -> None:
    def drop(data: dict[str, Any]) -> None:
        task = next(t for t in data["tasks"] if t["domain"] == "beer-game")
        del task["scoring"]["failure_value"]

    _edit(root / "results" / "v1.0" / "tasks.yaml", drop)
    result = run_cli("validate", "--root", str(root))
    assert result.exit_code == 1
    assert "zero is the best value of a lower-is-better cost" in result.output


def test_carried_state_is_refused_where_the_release_refuses_it(root: Path, run_cli: Any) -> None:
    _edit(
        root / "results" / "v1.0" / "release.yaml",
        lambda d: d["profile"].update(carried_state="refused"),
    )
    result = run_cli("validate", "--root", str(root))
    assert result.exit_code == 1
    carried = sorted(
        p.parent.name
        for p in (VERSION / "bundles").glob("*/bundle.yaml")
        if yaml.safe_load(p.read_text(encoding="utf-8")).get("carried_state")
    )
    flagged = sorted(
        set(re.findall(r"bundles/([^/]+)/bundle\.yaml:\d+: carried_state", result.output))
    )
    assert flagged == carried
    assert carried  # AMEM and GEPA


def test_held_out_tasks_never_appear_one_by_one(site: Path) -> None:
    tasks = yaml.safe_load((VERSION / "tasks.yaml").read_text(encoding="utf-8"))["tasks"]
    held = [t["id"] for t in tasks if t["group"] == "held-out"]
    public = [t["id"] for t in tasks if t["group"] == "public"]
    assert held
    files = [p for p in site.rglob("*") if p.is_file() and p.suffix in (".html", ".csv", ".json")]
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)
    assert [t for t in held if re.search(rf"\b{re.escape(t)}\b", text)] == []
    assert public
    assert all(re.search(rf"\b{re.escape(t)}\b", text) for t in public)


def test_no_consent_no_output(root: Path, tmp_path: Path) -> None:
    bundle = root / "results" / "v1.0" / "bundles" / "cot-gpt-4.1" / "bundle.yaml"
    _edit(bundle, lambda d: d["consent"].update(granted=False))
    out = tmp_path / "site"
    build(root, out, progress=lambda _: None)
    files = [p for p in out.rglob("*") if p.is_file() and p.suffix in (".html", ".csv", ".json")]
    assert not [
        p for p in files if "cot-gpt-4.1" in p.read_text(encoding="utf-8", errors="replace")
    ]


def test_not_covered_and_incomplete_are_never_zero(reports: dict[str, Report]) -> None:
    edt = next(s for s in reports["edt"].scopes if s.scope.whole and s.scope.group == "all")
    absent = [c for c in edt.combinations if c.status == "not-covered"]
    assert [c.combination for c in absent] == ["gepa-glm-5.2"]
    assert absent[0].task_score is None
    incomplete = 0
    for report in reports.values():
        for scope in report.scopes:
            for c in scope.combinations:
                if c.coverage is not None and c.coverage.incomplete_runs:
                    assert c.coverage.valid_runs < c.coverage.expected_runs
                    assert not c.coverage.complete
                    incomplete += 1
    assert incomplete > 0  # the example has combinations with incomplete runs


def _figures(c: Any) -> list[Estimate | Rate]:
    found = [c.task_score, c.success_rate, c.cell_mean, c.overall]
    found += [*c.dimensions.values(), *c.measures.values(), *c.reliability]
    return [f for f in found if f is not None and f.value is not None]


def test_an_interval_on_every_number(reports: dict[str, Report]) -> None:
    counted, differences = 0, 0
    for report in reports.values():
        for scope in report.scopes:
            for c in scope.combinations:
                for f in _figures(c):
                    counted += 1
                    assert f.low is not None, (scope.title, c.combination)
                    assert f.high is not None, (scope.title, c.combination)
                    assert f.low <= f.value <= f.high
            for d in scope.differences:
                assert d.low <= d.value <= d.high
                differences += 1
    assert differences > 0
    assert counted > 500  # every scope, combination and figure of the example


def test_no_ranking_across_the_judge_that_varies(reports: dict[str, Report]) -> None:
    """The Consulting judge follows the backbone: combinations judged by different models are
    never compared, ranked only within their group; QA, judged by nobody, is one group."""
    release = yaml.safe_load((VERSION / "release.yaml").read_text(encoding="utf-8"))
    judge = {
        p.parent.name: yaml.safe_load(p.read_text(encoding="utf-8"))["evaluator"]["judge_model"]
        for p in (VERSION / "bundles").glob("*/bundle.yaml")
    }
    assert any(
        f["status"] == "variable" and "evaluator" in f.get("covers", ())
        for f in release["controlled_factors"]
    )
    consulting = next(
        s for s in reports["consulting"].scopes if s.scope.whole and s.scope.group == "all"
    )
    assert len(consulting.comparison_groups) == len(set(judge.values()))
    for group in consulting.comparison_groups:
        assert len({judge[c] for c in group}) == 1
    pairs = sum(len(g) * (len(g) - 1) // 2 for g in consulting.comparison_groups)
    assert len(consulting.differences) == pairs > 0  # every pair within a group, none across
    assert all(judge[d.a] == judge[d.b] for d in consulting.differences)
    qa = next(s for s in reports["qa"].scopes if s.scope.whole and s.scope.group == "all")
    assert len(qa.comparison_groups) <= 1


def _held_out_of(scope: Any, held: list[dict[str, Any]]) -> frozenset[str]:
    """The held-out tasks a scope's figures rest on."""
    return frozenset(
        t["id"]
        for t in held
        if all(t.get("facets", {}).get(f) == v for f, v in scope.facets)
        and scope.subdivision in (None, t.get("subdivision"))
    )


def _assert_no_subtraction(report: Report, tasks: list[dict[str, Any]], minimum: int) -> None:
    """No published scope holds 1..min − 1 held-out tasks, no two differ by so few, and no two
    overlap without one holding the other (their sets are then a checked, laminar family)."""
    held = [t for t in tasks if t["domain"] == report.domain and t["group"] == "held-out"]
    published = {
        _held_out_of(s.scope, held)
        for s in report.scopes
        if not s.withheld and s.scope.group != "public"
    } - {frozenset()}
    for a in published:
        assert len(a) >= minimum, (report.domain, sorted(a))
        for b in published:
            if b < a:
                assert len(a - b) >= minimum, (report.domain, sorted(a - b))
            assert not (a & b) or a <= b or b <= a, (report.domain, sorted(a ^ b))


def test_no_held_out_task_by_subtraction(reports: dict[str, Report]) -> None:
    release = yaml.safe_load((VERSION / "release.yaml").read_text(encoding="utf-8"))
    tasks = yaml.safe_load((VERSION / "tasks.yaml").read_text(encoding="utf-8"))["tasks"]
    assert len(reports) == 4  # the example's four domains
    for report in reports.values():
        _assert_no_subtraction(report, tasks, release["groups"].get("min_held_out_aggregate", 5))


def test_a_second_partition_never_isolates_a_held_out_task(root: Path) -> None:
    """Held out: one Numerical-Calculation easy task, the five middle ones, the four
    Domain-Knowledge middle ones and one hard one. Capability and difficulty each pass their
    own withholding, yet six NC held-out tasks less the five NC-middle ones is one task: only
    one partition of a domain publishes held-out figures."""
    path = root / "results" / "v1.0" / "tasks.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    chosen: list[str] = []
    for prefix, count in (
        ("qa-nc-easy", 1),
        ("qa-nc-middle", 5),
        ("qa-dk-middle", 4),
        ("qa-dk-hard", 1),
    ):
        chosen += sorted(t["id"] for t in data["tasks"] if t["id"].startswith(prefix))[:count]
    for t in data["tasks"]:
        t["group"] = "held-out" if t["id"] in chosen else "public"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    inputs, problems = load_inputs(root)
    assert not [p for p in problems if p.severity == "error"]
    report = build_report(inputs.releases[0], "qa")
    nc = next(
        s
        for s in report.scopes
        if s.scope.facets == (("capability", "numerical-calculation"),)
        and s.scope.group == "held-out"
    )
    assert nc.withheld is None  # six held-out tasks: published in the first partition
    middle = [
        s
        for s in report.scopes
        if ("difficulty", "middle") in s.scope.facets and s.scope.group == "held-out"
    ]
    assert middle
    assert all(s.withheld and "one partition" in s.withheld for s in middle)
    _assert_no_subtraction(report, data["tasks"], 5)


def test_a_measure_s_interval_stays_in_its_range(reports: dict[str, Report]) -> None:
    """A cost is at least 0: no interval of the Beer Game reaches below it (before the
    clipping, two or four runs' noise reached −12 ×10⁴)."""
    release = yaml.safe_load((VERSION / "release.yaml").read_text(encoding="utf-8"))
    cost = next(m for m in release["metrics"] if m["id"] == "beer_cost")
    low = cost["range"]["low"]
    shown = [
        c.task_score
        for s in reports["beer-game"].scopes
        for c in s.combinations
        if c.task_score is not None and c.task_score.low is not None
    ]
    assert shown
    assert min(e.low for e in shown) >= low
