"""The engine's output models: frozen, closed, and documented for ``report --format json``."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from generator.score.results import CombinationScores, Estimate, Report


@pytest.mark.parametrize(
    ("rank", "worst", "text"),
    [(None, None, None), (2, None, "2"), (2, 2, "2"), (1, 3, "1–3")],
)
def test_rank_text_reads_a_range_only_when_the_data_allows_several(
    rank: int | None, worst: int | None, text: str | None
) -> None:
    scores = CombinationScores(combination="c", status="scored", rank=rank, rank_worst=worst)
    assert scores.rank_text == text


def test_results_are_frozen_and_closed() -> None:
    estimate = Estimate(value=0.5, low=0.4, high=0.6, tasks=3)
    assert estimate.interval == "tasks"
    with pytest.raises(ValidationError):
        estimate.value = 0.7  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Estimate.model_validate({"value": 0.5, "low": 0.4, "high": 0.6, "tasks": 3, "extra": 1})
    with pytest.raises(ValidationError):
        Estimate(value=0.5, low=0.4, high=0.6, tasks=3, interval="bootstrap")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        CombinationScores(combination="c", status="ranked")  # type: ignore[arg-type]


def test_the_report_schema_documents_its_fields() -> None:
    schema = Report.model_json_schema()
    assert schema["properties"]["format"]["const"] == "lg-bench.report/1"
    coverage = schema["$defs"]["Coverage"]["properties"]
    assert all("description" in coverage[f] for f in ("scope_tasks", "covered_tasks", "complete"))
    basis = schema["$defs"]["Estimate"]["properties"]["interval"]
    assert set(basis["enum"]) == {"tasks", "runs"}
    assert "description" in basis
