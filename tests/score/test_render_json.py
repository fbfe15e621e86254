"""The JSON form of a report (generator/score/render_json.py): the report itself, stable,
floats rounded."""

from __future__ import annotations

import json

from generator.score.render_json import to_json
from generator.score.results import Report
from generator.score.rounding import DECIMALS


def test_json_is_the_report_with_floats_rounded(small_report: Report) -> None:
    data = json.loads(to_json(small_report))
    assert to_json(small_report) == to_json(Report.model_validate(data))  # round trip, stable
    scope = next(s for s in data["scopes"] if s["combinations"])
    q = next(c for c in scope["combinations"] if c["combination"] == "q")
    assert q["task_score"]["value"] == round(1 / 3, DECIMALS)
    assert to_json(small_report).endswith("}\n")
