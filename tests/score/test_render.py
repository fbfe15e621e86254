"""The text forms of a report (JSON, CSV, Markdown) say what the report holds, no more."""

from __future__ import annotations

import csv
import io
import json

import pytest
from builders import catalog, release, run, task, version

from generator.score.render import CSV_COLUMNS, DECIMALS, RENDERERS, to_csv, to_json, to_markdown
from generator.score.report import build_report
from generator.score.results import Report

PUBLIC = [task(f"t{i}", sub="a" if i < 4 else "b", rules=3) for i in range(1, 7)]
HELD = [task(f"h{i}", group="held-out", rules=3) for i in (1, 2)]


@pytest.fixture(scope="module")
def report() -> Report:
    runs = {
        "p": [run(t["id"], i, of=3) for t in PUBLIC + HELD for i in (1, 2)],
        # q passes 1 of 3 items on every run: R = 1/3, a float that needs rounding
        "q": [run(t["id"], i, passed=1, of=3) for t in PUBLIC + HELD for i in (1, 2)],
    }
    return build_report(version(release(), catalog(PUBLIC + HELD), runs), "office")


def test_json_is_the_report_with_floats_rounded(report: Report) -> None:
    data = json.loads(to_json(report))
    assert to_json(report) == to_json(Report.model_validate(data))  # round trip, stable
    scope = next(s for s in data["scopes"] if s["combinations"])
    q = next(c for c in scope["combinations"] if c["combination"] == "q")
    assert q["task_score"]["value"] == round(1 / 3, DECIMALS)
    assert to_json(report).endswith("}\n")


def test_csv_has_fixed_columns_and_one_row_per_figure(report: Report) -> None:
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    assert list(rows[0]) == CSV_COLUMNS
    shown = {s.title for s in report.scopes}
    assert {r["scope"] for r in rows if r["section"] == "scope"} == shown
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
        assert len(
            [r for r in rows if r["scope"] == s.title and r["metric"] == "difference"]
        ) == len(s.differences)
    tasks = [r for r in rows if r["section"] == "task"]
    assert len(tasks) == 3 * len(report.tasks)  # score, rule, judge of each task row
    assert not [r for r in rows if r["task"].startswith("h")]  # held-out tasks never get a row


def test_a_withheld_scope_is_one_row_without_value(report: Report) -> None:
    withheld = [s for s in report.scopes if s.withheld]
    assert withheld  # two held-out tasks: fewer than min_held_out_aggregate (§4.4)
    rows = list(csv.DictReader(io.StringIO(to_csv(report))))
    for s in withheld:
        mine = [r for r in rows if r["scope"] == s.title]
        assert [(r["metric"], r["value"], r["note"]) for r in mine] == [
            ("withheld", "", s.withheld)
        ]


def test_markdown_shows_every_combination_scope_and_public_task(report: Report) -> None:
    text = to_markdown(report)
    assert text.startswith(f"# {report.domain_title}, {report.version}\n")
    for c in report.combinations:
        assert f"| {c.id} |" in text
    for s in report.scopes:
        assert s.title in text
    for t in report.tasks:
        assert f"| {t.task} | {t.combination} |" in text
    assert "h1" not in text


def test_every_format_has_a_renderer() -> None:
    assert {"json": to_json, "csv": to_csv, "markdown": to_markdown} == RENDERERS
