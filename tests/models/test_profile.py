"""A release's declared profile: metrics, facets, cells and views (Lingee's as defaults)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from generator.models.profile import (
    KNOWN_METRICS,
    LINGEE_TASK_FIELDS,
    RUN_FIELDS,
    TOKEN_METRICS,
    Cells,
    Metric,
    Profile,
    Range,
)


def test_nothing_declared_is_lingee() -> None:
    profile = Profile()
    assert profile.task_fields == LINGEE_TASK_FIELDS
    assert profile.carried_state == "refused"
    assert (profile.facets, profile.axes, profile.views) == ((), (), ())
    assert not profile.continuous_levels


@pytest.mark.parametrize("metric", KNOWN_METRICS)
def test_the_engines_metrics_keep_their_roles(metric: str) -> None:
    declared = Metric(id=metric, title=metric, direction="higher")
    assert declared.comparable == (metric not in TOKEN_METRICS)
    assert declared.kind == ("resource" if metric in RUN_FIELDS else "outcome")
    assert declared.bounds.high == (None if metric in RUN_FIELDS else 1.0)


def test_a_measured_metric_declares_its_own() -> None:
    cost = Metric.model_validate(
        {
            "id": "cost",
            "title": "Total cost",
            "direction": "lower",
            "measured": True,
            "scale": 10_000,
            "range": {"low": 0},
            "role": "outcome",
        }
    )
    earnings = Metric(
        id="earnings", title="Earnings", direction="higher", measured=True, range=Range(low=None)
    )
    assert (cost.kind, cost.comparable, cost.bounds.signed) == ("outcome", True, False)
    assert earnings.bounds.signed
    assert earnings.bounds.high is None


def test_a_range_is_ordered() -> None:
    with pytest.raises(ValidationError, match="is not above low"):
        Range(low=1.0, high=0.5)


@pytest.mark.parametrize(("over", "facets"), [("cells", ()), ("tasks", ("difficulty",))])
def test_cells_need_their_facets_and_only_they(over: str, facets: tuple[str, ...]) -> None:
    with pytest.raises(ValidationError, match="needs one or two facets"):
        Cells.model_validate({"over": over, "facets": list(facets)})
