"""The shape of every figure (generator/score/estimates.py): frozen, with its interval's
basis, and empty declared fields left out of the JSON."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from generator.score.estimates import Estimate, nothing


def test_an_estimate_is_frozen_and_says_what_its_interval_covers() -> None:
    e = Estimate(value=0.5, low=0.4, high=0.6, tasks=8)
    assert e.interval == "tasks"
    with pytest.raises(ValidationError):
        e.value = 0.7  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Estimate(value=0.5, low=0.4, high=0.6, tasks=8, interval="judges")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "empty"), [(None, True), ({}, True), ([], True), (0.0, False), ([1], False)]
)
def test_nothing_is_what_a_release_declaring_nothing_leaves_out(value: object, empty: bool) -> None:
    assert nothing(value) is empty
