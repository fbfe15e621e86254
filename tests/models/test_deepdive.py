"""A deep dive's authored text (§5.2): both parts written, no blank text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from generator.models import DeepDive

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "deepdive"


def _read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def test_the_good_fixture_loads_with_its_differences() -> None:
    dive = DeepDive.model_validate(_read("valid-minimal.yaml"))
    assert dive.task == "sheet-sum"
    assert set(dive.differences) == {"tiny-x-model"}
    without = {k: v for k, v in _read("valid-minimal.yaml").items() if k != "differences"}
    assert DeepDive.model_validate(without).differences == {}


@pytest.mark.parametrize(
    ("name", "field"),
    [
        ("invalid-empty-text.yaml", "trajectory_nodes"),
        ("invalid-missing-interpretation.yaml", "interpretation"),
    ],
)
def test_bad_fixtures_are_refused_at_their_field(name: str, field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        DeepDive.model_validate(_read(name))
    assert [e["loc"] for e in caught.value.errors()] == [(field,)]


def test_differences_are_keyed_by_combination_ids_and_scores_are_not_fields() -> None:
    data = _read("valid-minimal.yaml")
    with pytest.raises(ValidationError):
        DeepDive.model_validate({**data, "differences": {"not an id": "x"}})
    with pytest.raises(ValidationError, match="extra"):
        DeepDive.model_validate({**data, "score": 0.9})  # computed, never typed (§5.2)
