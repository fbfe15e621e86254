"""The agreement figures in the report (generator/score/agreement_results.py): frozen and
strict, carried by report --format json, and absent from the report of a release whose
bundles have no second rater, which reads exactly as before."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError
from rated import rated_version

from generator.score.agreement_results import AgreementFigure, RaterAgreement
from generator.score.render import to_csv, to_json, to_markdown
from generator.score.report import build_report
from generator.score.results import Report


def test_figures_are_frozen_and_strict() -> None:
    figure = AgreementFigure(value=0.5, low=0.2, high=0.7)
    with pytest.raises(ValidationError):
        figure.value = 0.1  # type: ignore[misc]
    with pytest.raises(ValidationError):
        AgreementFigure.model_validate({"value": 0.5, "low": None, "high": None, "n": 3})
    with pytest.raises(ValidationError):
        RaterAgreement.model_validate(
            {"rater": "r", "title": "R", "kind": "crowd", "channel": "c", "channel_title": "C"}
            | {"runs": 1, "tasks": 1, "held_out_tasks": 0}
        )


def test_a_report_without_raters_has_no_agreement_anywhere(small_report: Report) -> None:
    assert small_report.agreement == []
    assert "agreement" not in json.loads(to_json(small_report))
    assert "agreement" not in to_csv(small_report)
    assert "Rater agreement" not in to_markdown(small_report)


def test_a_report_with_raters_carries_each_figure_in_every_form() -> None:
    report = build_report(rated_version(public=5), "office")
    assert report.agreement
    data = json.loads(to_json(report))["agreement"]
    assert [(a["rater"], a["channel"]) for a in data] == [
        (a.rater, a.channel) for a in report.agreement
    ]
    csv_rows = [r.split(",") for r in to_csv(report).splitlines() if r.startswith("agreement,")]
    assert len(csv_rows) == 3 * len(report.agreement)
    markdown = to_markdown(report)
    assert "## Rater agreement with the Judge" in markdown
    for a in report.agreement:
        assert a.mae is not None
        assert a.mae.value is not None
        assert f"{a.mae.value:.3f}" in markdown
        mine = [r for r in csv_rows if r[5] == a.rater and a.channel_title in r[1]]
        assert {r[7] for r in mine} == {"spearman", "mae", "difference"}
        mae = next(r for r in mine if r[7] == "mae")
        assert float(mae[8]) == pytest.approx(a.mae.value, abs=1e-6)
        assert int(mae[11]) == a.runs
