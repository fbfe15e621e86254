"""The output of task sets compared (generator/score/set_results.py): a report without sets
leaves them out of its JSON; one with sets carries each row and ρ's interval."""

from __future__ import annotations

import json

from generator.score.estimates import Estimate
from generator.score.set_results import SetComparison, SetRank


def test_a_comparison_reads_back_from_its_json() -> None:
    e = Estimate(value=0.6, low=0.5, high=0.7, tasks=20)
    row = SetRank(combination="a", first=e, second=e, first_rank=1, second_rank=2)
    found = SetComparison(
        first="lite", second="full", rows=[row], rho=0.5, low=-0.5, high=1.0, tasks=30
    )
    data = json.loads(found.model_dump_json())
    assert data["rows"][0]["second_rank"] == 2
    assert SetComparison.model_validate(data) == found
    assert data["withheld"] is None
