"""The configuration fingerprint (§5.1.3): it changes with every disclosed setting, only
with them, and is recomputable as its docstring says."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from builders import bundle, card_with, harnesscard

from generator.disclosure.fingerprint import (
    CANONICAL_JSON,
    LENGTH,
    digest,
    fingerprint,
    fingerprint_document,
)
from generator.models.harnesscard import Disclosed, Withheld

LINGEE = Path(__file__).resolve().parents[2] / "harnesscards" / "lingee-2.3.yaml"


def test_fingerprint_is_recomputable_from_its_document() -> None:
    card, b = harnesscard(LINGEE), bundle("x")
    text = json.dumps(
        fingerprint_document(card, b), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    want = hashlib.sha256(text.encode("utf-8")).hexdigest()[:LENGTH]
    assert fingerprint(card, b) == want
    assert LENGTH == 12
    assert int(want, 16) >= 0


def test_fingerprint_changes_with_every_disclosed_field() -> None:
    card, b = harnesscard(LINGEE), bundle("x")
    base = fingerprint(card, b)
    changed = 0
    for layer_name, layer in card.layers.items():
        for field_name, field in layer.minimum_fields().items():
            if isinstance(field, Disclosed):
                other = card_with(card, layer_name, field_name, Disclosed(value="something else"))
                assert fingerprint(other, b) != base, (layer_name, field_name)
                withheld = card_with(card, layer_name, field_name, Withheld(withheld="secret"))
                assert fingerprint(withheld, b) != base, (layer_name, field_name)
                changed += 1
    assert changed == 42


def test_fingerprint_ignores_what_is_not_configuration() -> None:
    card, b = harnesscard(LINGEE), bundle("x")
    base = fingerprint(card, b)
    reason = card_with(card, "verification", "anomaly_detection", Withheld(withheld="other reason"))
    assert fingerprint(reason, b) == base
    assert fingerprint(card.model_copy(update={"notes": "new notes"}), b) == base
    dates = b.model_copy(
        update={"run_dates": b.run_dates.model_copy(update={"end": b.run_dates.start})}
    )
    assert fingerprint(card, dates) == base


@pytest.mark.parametrize(
    ("part", "field", "value"),
    [
        ("configuration", "temperature", 0.7),
        ("budgets", "max_steps", 11),
        ("clarification", "waiting_cap_s", 31),
        ("evaluator", "prompt_version", "9"),
    ],
)
def test_fingerprint_changes_with_the_configuration_record(
    part: str, field: str, value: Any
) -> None:
    card, b = harnesscard(LINGEE), bundle("x")
    changed = b.model_copy(update={part: getattr(b, part).model_copy(update={field: value})})
    assert fingerprint(card, changed) != fingerprint(card, b)
    snapshot = b.model_copy(update={"environment_snapshot": "snap-2"})
    assert fingerprint(card, snapshot) != fingerprint(card, b)


def test_digest_keeps_non_ascii_characters_as_they_are() -> None:
    document = {"b": "Zhipu AI – GLM × 5", "a": [1, 2]}
    text = '{"a":[1,2],"b":"Zhipu AI – GLM × 5"}'
    assert json.dumps(document, **CANONICAL_JSON) == text
    assert digest(document) == hashlib.sha256(text.encode("utf-8")).hexdigest()[:LENGTH]
    escaped = json.dumps(document, sort_keys=True, separators=(",", ":"))
    assert digest(document) != hashlib.sha256(escaped.encode()).hexdigest()[:LENGTH]
