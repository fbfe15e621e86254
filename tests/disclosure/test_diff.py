"""Field-by-field differences between two combinations' configurations (§5.1.3)."""

from __future__ import annotations

from pathlib import Path

from builders import bundle, card_with, harnesscard

from generator.disclosure.diff import SEPARATOR, configuration_fields, diff, field_label
from generator.models.bundle import Configuration
from generator.models.harnesscard import Disclosed, Withheld

LINGEE = Path(__file__).resolve().parents[2] / "harnesscards" / "lingee-2.3.yaml"


def test_diff_lists_exactly_the_differing_fields() -> None:
    card, b = harnesscard(LINGEE), bundle("x")
    other_card = card_with(card, "tool", "schema_style", Withheld(withheld="not shown"))
    other = b.model_copy(
        update={"configuration": b.configuration.model_copy(update={"temperature": 0.9})}
    )
    result = diff(configuration_fields(card, b), configuration_fields(other_card, other))
    assert [(k, va, vb) for k, va, vb in result.differing] == [
        ("card.tool.schema_style", "JSON Schema function calling", "withheld: not shown"),
        ("configuration.temperature", "0.0", "0.9"),
    ]
    assert len(result.identical) == len(configuration_fields(card, b)) - 2
    same = diff(configuration_fields(card, b), configuration_fields(card, b))
    assert same.differing == ()


def test_a_field_on_one_side_only_differs_as_absent() -> None:
    result = diff({"a": "1", "both": "x"}, {"both": "x", "b": "2"})
    assert result.differing == (("a", "1", "(absent)"), ("b", "(absent)", "2"))
    assert result.identical == (("both", "x"),)


def test_configuration_fields_cover_card_and_record_as_text() -> None:
    card, b = harnesscard(LINGEE), bundle("x")
    fields = configuration_fields(card, b)
    assert fields["harness"] == f"{card.harness.name} {card.harness.version}"
    covered = 0
    for name, layer in card.layers.items():
        for field in layer.minimum_fields():
            assert any(
                k == f"card.{name}.{field}" or k.startswith(f"card.{name}.{field}.") for k in fields
            )
            covered += 1
    assert covered == 43  # the HarnessCard's minimum fields
    assert fields["configuration.runs_per_task"] == str(b.configuration.runs_per_task)
    assert fields["combination.harness_mode"] == "—"  # None reads as a dash
    assert fields["environment_snapshot"] == b.environment_snapshot
    withheld = card_with(card, "tool", "tool_list", Withheld(withheld="secret list"))
    assert configuration_fields(withheld, b)["card.tool.tool_list"] == "withheld: secret list"
    listed = card_with(card, "tool", "tool_list", Disclosed(value=["a", "b"]))
    assert configuration_fields(listed, b)["card.tool.tool_list"] == "a, b"


def test_not_recorded_reads_as_such_on_either_side() -> None:
    card, b = harnesscard(LINGEE), bundle("x")
    unknown = b.model_copy(
        update={"configuration": b.configuration.model_copy(update={"temperature": "not recorded"})}
    )
    blank = card_with(card, "tool", "schema_style", "not recorded")
    result = diff(configuration_fields(card, b), configuration_fields(blank, unknown))
    assert [(k, va, vb) for k, va, vb in result.differing] == [
        ("card.tool.schema_style", "JSON Schema function calling", "not recorded"),
        ("configuration.temperature", "0.0", "not recorded"),
    ]


def test_not_recorded_on_both_sides_is_not_identical() -> None:
    """Two unknowns are not known to be the same: neither differing nor identical."""
    result = diff({"a": "not recorded", "b": "1"}, {"a": "not recorded", "b": "1"})
    assert result.differing == ()
    assert result.identical == (("b", "1"),)
    assert result.unknown == ("a",)


def test_every_compared_field_has_a_label_from_the_models_titles() -> None:
    card, b = harnesscard(LINGEE), bundle("x")
    keys = list(configuration_fields(card, b))
    labels = [field_label(k) for k in keys]
    assert len(set(labels)) == len(labels)  # one label, one field
    layers = type(card.layers).model_fields
    labelled = 0
    for name, layer in card.layers.items():
        for field, info in type(layer).model_fields.items():
            if field != "additional":
                assert field_label(f"card.{name}.{field}") == SEPARATOR.join(
                    ["HarnessCard", str(layers[name].title), str(info.title)]
                )
                labelled += 1
    assert labelled == 43  # the HarnessCard's minimum fields
    top_p = Configuration.model_fields["top_p"].title
    assert field_label("configuration.top_p") == f"Configuration{SEPARATOR}{top_p}"
    # a field without a title reads as its name in words; a vendor's field as its own name
    assert field_label("configuration.reasoning_mode").endswith(f"{SEPARATOR}Reasoning mode")
    assert field_label("card.tool.browser_pool") == SEPARATOR.join(
        ["HarnessCard", str(layers["tool"].title), "Browser pool"]
    )
