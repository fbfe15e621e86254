"""The HarnessCard (§5.1.2): seven layers, every minimum field disclosed or withheld."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from generator.models import HarnessCard
from generator.models.harnesscard import MINIMUM_FIELDS, Disclosed, Withheld

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "harnesscard"
LAYERS = [
    "execution",
    "tool",
    "context",
    "scheduling",
    "observability",
    "verification",
    "governance",
]


def _read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def test_withheld_and_disclosed_fields_stay_apart() -> None:
    card = HarnessCard.model_validate(_read("valid-mixed.yaml"))
    execution = card.layers.execution
    assert execution.max_steps == Disclosed(value=50)
    assert isinstance(execution.sandboxing, Withheld)
    assert execution.sandboxing.withheld == "Not yet documented."
    assert card.layers.tool.tool_list == Disclosed(value=["shell", "python"])
    assert card.layers.governance.additional["audit_log_retention"] == Disclosed(value="90 days")
    assert next(iter(card.layers.execution.minimum_fields())) == "runtime_substrate"
    assert [name for name, _ in card.layers.items()] == LAYERS


def test_minimum_fields_are_the_layers_fields_in_file_order() -> None:
    data = _read("valid-all-withheld.yaml")
    card = HarnessCard.model_validate(data)
    assert list(MINIMUM_FIELDS) == LAYERS
    assert [name for name, _ in card.layers.items()] == LAYERS
    for name, layer in card.layers.items():
        written = [k for k in data["layers"][name] if k != "additional"]
        assert list(layer.minimum_fields()) == list(MINIMUM_FIELDS[name]) == written


def _card_with(layer: str, field: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(_read("valid-all-withheld.yaml"))
    data["layers"][layer][field] = value
    return data


@pytest.mark.parametrize(
    "value",
    [{"value": "x"}, {"value": 3}, {"value": True}, {"value": ["a", "b"]}, {"withheld": "Why."}],
)
def test_a_field_is_disclosed_or_withheld(value: Any) -> None:
    card = HarnessCard.model_validate(_card_with("execution", "sandboxing", value))
    kind = Withheld if "withheld" in value else Disclosed
    assert isinstance(card.layers.execution.sandboxing, kind)


@pytest.mark.parametrize(
    "value",
    [
        600,
        {"value": "x", "withheld": "y"},
        {},
        {"withheld": ""},
        {"value": ["a", ""]},
        {"value": {"k": 1}},
    ],
)
def test_anything_else_is_refused(value: Any) -> None:
    with pytest.raises(ValidationError):
        HarnessCard.model_validate(_card_with("execution", "sandboxing", value))


def test_every_minimum_field_and_layer_is_required() -> None:
    data = copy.deepcopy(_read("valid-all-withheld.yaml"))
    del data["layers"]["context"]["cache_policy"]
    del data["layers"]["governance"]
    with pytest.raises(ValidationError) as caught:
        HarnessCard.model_validate(data)
    assert sorted(e["loc"] for e in caught.value.errors()) == [
        ("layers", "context", "cache_policy"),
        ("layers", "governance"),
    ]
    unknown = copy.deepcopy(_read("valid-all-withheld.yaml"))
    unknown["layers"]["memory"] = {}
    with pytest.raises(ValidationError, match="memory"):
        HarnessCard.model_validate(unknown)
