"""How much of a HarnessCard's minimum disclosure is disclosed (§5.1.2), and which floor
fields it withholds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.disclosure.completeness import below_floor, completeness
from generator.models import HarnessCard
from generator.models.harnesscard import MINIMUM_FIELDS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "harnesscard"
REPO = Path(__file__).resolve().parents[2]
CARDS = [
    FIXTURES / "valid-mixed.yaml",
    FIXTURES / "valid-all-withheld.yaml",
    FIXTURES / "valid-not-recorded.yaml",
    *sorted((REPO / "harnesscards").glob("*.yaml")),
]


def _raw(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def _card(path: Path) -> HarnessCard:
    return HarnessCard.model_validate(_raw(path))


def test_completeness_counts_disclosed_minimum_fields() -> None:
    result = completeness(_card(FIXTURES / "valid-mixed.yaml"))
    layers = {name: (d, t) for name, d, _, _, t in result.layers}
    assert layers["execution"] == (1, 8)  # max_steps
    assert layers["tool"] == (1, 6)  # tool_list
    assert layers["observability"] == (1, 6)  # auditable_after_run
    assert layers["governance"] == (0, 5)  # its additional field does not count
    assert (result.disclosed, result.total) == (3, 43)
    assert completeness(_card(FIXTURES / "valid-all-withheld.yaml")).share == 0.0


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.name)
def test_completeness_agrees_with_a_count_over_the_file(path: Path) -> None:
    """Per layer, the minimum fields written as ``{value: ...}``, as ``{withheld: ...}`` and
    as ``not recorded`` in the file itself."""
    raw = _raw(path)["layers"]

    def count(layer: str, fields: tuple[str, ...], kind: str) -> int:
        values = [raw[layer][f] for f in fields]
        if kind == "not recorded":
            return sum(v == kind for v in values)
        return sum(isinstance(v, dict) and kind in v for v in values)

    want = [
        (
            layer,
            count(layer, fields, "value"),
            count(layer, fields, "withheld"),
            count(layer, fields, "not recorded"),
            len(fields),
        )
        for layer, fields in MINIMUM_FIELDS.items()
    ]
    result = completeness(_card(path))
    assert list(result.layers) == want
    assert result.disclosed == sum(row[1] for row in want)
    assert result.withheld == sum(row[2] for row in want)
    assert result.not_recorded == sum(row[3] for row in want)
    assert result.total == sum(row[4] for row in want)
    assert result.share == pytest.approx(result.disclosed / result.total)


def test_not_recorded_fields_are_counted_apart_from_withheld_ones() -> None:
    mixed = completeness(_card(FIXTURES / "valid-mixed.yaml"))
    result = completeness(_card(FIXTURES / "valid-not-recorded.yaml"))
    assert result.not_recorded == 2
    assert mixed.not_recorded == 0
    assert result.withheld == mixed.withheld - 2
    assert result.disclosed == mixed.disclosed
    assert below_floor(_card(FIXTURES / "valid-not-recorded.yaml"), ("tool.schema_style",)) == [
        "tool.schema_style"
    ]


def test_below_floor_lists_withheld_floor_fields_in_floor_order() -> None:
    card = _card(FIXTURES / "valid-mixed.yaml")
    floor = (
        "tool.tool_list",
        "execution.sandboxing",
        "execution.max_steps",
        "context.cache_policy",
    )
    # tool_list and max_steps are disclosed in the fixture; the other two withheld
    assert below_floor(card, floor) == ["execution.sandboxing", "context.cache_policy"]
    assert below_floor(card, ()) == []
    assert below_floor(card, ("nolayer.x", "execution.nofield")) == []  # the release check says so
