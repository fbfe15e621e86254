"""The CSV form of a report (generator/score/render_csv.py): fixed columns, a row per figure,
what the report holds and no more."""

from __future__ import annotations

import csv
import io

import pytest
from builders import catalog, release, run, task, version

from generator.score.render_csv import CSV_COLUMNS, metric_rows, to_csv
from generator.score.report import build_report
from generator.score.results import Report
from generator.score.rounding import DECIMALS


def test_csv_has_fixed_columns_and_one_row_per_figure(small_report: Report) -> None:
    report = small_report
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    assert list(rows[0]) == CSV_COLUMNS
    shown = {s.title for s in report.scopes}
    assert {r["scope"] for r in rows if r["section"] == "scope"} == shown
    scores = 0
    for s in report.scopes:
        for c in s.combinations:
            if c.task_score is None:
                continue
            row = next(
                r
                for r in rows
                if r["scope"] == s.title
                and r["combination"] == c.combination
                and r["metric"] == "task_score"
            )
            assert c.task_score.value is not None
            assert float(row["value"]) == pytest.approx(c.task_score.value, abs=10**-DECIMALS)
            scores += 1
        assert len(
            [r for r in rows if r["scope"] == s.title and r["metric"] == "difference"]
        ) == len(s.differences)
    assert scores == 6  # p and q in each of the three scopes not withheld
    tasks = [r for r in rows if r["section"] == "task"]
    assert len(tasks) == 3 * len(report.tasks)  # score, rule, judge of each task row
    assert not [r for r in rows if r["task"].startswith("h")]  # held-out tasks never get a row


def test_a_withheld_scope_is_one_row_without_value(small_report: Report) -> None:
    withheld = [s for s in small_report.scopes if s.withheld]
    assert withheld  # two held-out tasks: fewer than min_held_out_aggregate (§4.4)
    rows = list(csv.DictReader(io.StringIO(to_csv(small_report))))
    for s in withheld:
        mine = [r for r in rows if r["scope"] == s.title]
        assert [(r["metric"], r["value"], r["note"]) for r in mine] == [
            ("withheld", "", s.withheld)
        ]


def test_each_combination_s_rows_are_its_metric_rows(small_report: Report) -> None:
    rows = list(csv.DictReader(io.StringIO(to_csv(small_report))))
    combinations = 0
    for s in small_report.scopes:
        for c in s.combinations:
            combinations += 1
            mine = [
                r["metric"]
                for r in rows
                if r["scope"] == s.title and r["combination"] == c.combination and not r["other"]
            ]
            expected = [m[0] for m in metric_rows(c)]
            assert mine == expected
            rerun = ["task_score_rerun_se"] if c.rerun_se is not None else []
            assert expected[: 2 + len(rerun)] == ["task_score", *rerun, "rule_score"]
            assert expected[-2:] == ["rank", "pareto"]
            assert [m for m in expected if m.startswith("reliability@")] == [
                f"reliability@{r.k}" for r in c.reliability
            ]
    assert combinations == 6  # p and q in each of the three scopes not withheld


def test_a_profile_s_figures_are_rows_of_their_own() -> None:
    """The judged overall, each judged dimension and each measured resource of the
    EnterpriseBench-shaped example's Consulting scopes, one row each, as the report has them."""
    import csv as csv_module
    import io
    from pathlib import Path

    from generator.load import load_inputs
    from generator.score.render_csv import to_csv
    from generator.score.report import build_report

    root = Path(__file__).resolve().parents[2] / "examples" / "enterprisebench"
    inputs, _ = load_inputs(root)
    report = build_report(inputs.releases[0], "consulting")
    rows = list(csv_module.DictReader(io.StringIO(to_csv(report))))
    scope = report.scopes[0]
    assert len(scope.combinations) == 10  # 4 methods × 3 backbones, two cells not evaluated
    dimensions, measures = 0, 0
    for c in scope.combinations:
        mine = {
            r["metric"]: r
            for r in rows
            if r["scope"] == scope.title and r["combination"] == c.combination
        }
        assert c.overall is not None
        assert float(mine["overall"]["value"]) == pytest.approx(c.overall.value, abs=1e-6)
        for d, e in c.dimensions.items():
            assert float(mine[f"dimension:{d}"]["low"]) == pytest.approx(e.low, abs=1e-6)
            dimensions += 1
        for m, e in c.measures.items():
            assert float(mine[f"measure:{m}"]["value"]) == pytest.approx(e.value, abs=1e-6)
            measures += 1
        if c.reliability_note:
            assert mine["reliability"]["note"] == c.reliability_note
    assert dimensions > 0
    assert measures > 0


def test_a_count_some_runs_leave_out_gives_the_runs_it_rests_on() -> None:
    """q records turns on its first runs only: its turns row carries those runs as ``n``;
    every other efficiency row has none."""
    tasks = [task(f"t{i}") for i in range(1, 4)]
    runs = {
        c: [
            run(t["id"], i).model_copy(update={"turns": None} if (c, i) == ("q", 2) else {})
            for t in tasks
            for i in (1, 2)
        ]
        for c in ("p", "q")
    }
    report = build_report(version(release(), catalog(tasks), runs), "office")
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    counted = {
        (r["combination"], r["metric"]): r["n"]
        for r in rows
        if r["section"] == "scope" and r["scope"] == report.scopes[0].title
        if r["metric"] in ("turns", "total_tokens")
    }
    assert counted == {
        ("p", "turns"): "",
        ("p", "total_tokens"): "",
        ("q", "turns"): "3",
        ("q", "total_tokens"): "",
    }
