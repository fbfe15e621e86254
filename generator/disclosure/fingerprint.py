"""The configuration fingerprint: a short, stable hash of what produced a score (§5.1.3).

It covers the HarnessCard's disclosed settings, the combination (harness mode, model, agent
version), the configuration record, budgets, clarification rules, environment snapshot and
evaluator. It changes when any disclosed setting changes, and only then: a withheld field
counts as "withheld" whatever its reason, a field the source did not record as "not
recorded" (its state, never a made-up value), and the card's date and notes do not count.

Recompute it: build :func:`fingerprint_document` (each result card exports it as the
``fingerprinted`` member of ``<combination>.configuration-record.json``), serialise it as JSON
with :data:`CANONICAL_JSON` (sorted keys, separators ``(",", ":")``, non-ASCII characters kept
as they are, not escaped), encode that text as UTF-8, take its SHA-256 and keep the first 12
hexadecimal digits (:func:`digest`); ``python -m generator fingerprint`` does it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from generator.models import Bundle, HarnessCard
from generator.models.harnesscard import Disclosed, Withheld

LENGTH = 12

#: The settings of :func:`json.dumps` that make the hashed text: with ``ensure_ascii=True``
#: (Python's default) a name such as "Zhipu AI × GLM" would hash to another fingerprint.
CANONICAL_JSON: dict[str, Any] = {
    "sort_keys": True,
    "separators": (",", ":"),
    "ensure_ascii": False,
}


def _state(field: Disclosed | Withheld | str) -> Any:
    if isinstance(field, Disclosed):
        return field.value
    return {"withheld": True} if isinstance(field, Withheld) else {"not_recorded": True}


def _card(card: HarnessCard) -> dict[str, Any]:
    layers: dict[str, Any] = {}
    for name, layer in card.layers.items():
        fields = {**layer.minimum_fields(), **layer.additional}
        layers[name] = {k: _state(f) for k, f in fields.items()}
    return {"harness": card.harness.model_dump(mode="json"), "layers": layers}


def fingerprint_document(card: HarnessCard, bundle: Bundle) -> dict[str, Any]:
    """Exactly what the fingerprint hashes."""
    c = bundle.combination
    return {
        "fingerprint_version": 1,
        "harnesscard": _card(card),
        "combination": {
            "harness_mode": c.harness_mode,
            "model": c.model.model_dump(mode="json"),
            "agent_version": c.agent_version,
        },
        "configuration": bundle.configuration.model_dump(mode="json"),
        "budgets": bundle.budgets.model_dump(mode="json"),
        "clarification": bundle.clarification.model_dump(mode="json"),
        "environment_snapshot": bundle.environment_snapshot,
        "evaluator": bundle.evaluator.model_dump(mode="json"),
    }


def digest(document: Any) -> str:
    """The first :data:`LENGTH` hexadecimal digits of the SHA-256 of ``document`` written
    as JSON with :data:`CANONICAL_JSON` and encoded as UTF-8."""
    text = json.dumps(document, **CANONICAL_JSON)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:LENGTH]


def fingerprint(card: HarnessCard, bundle: Bundle) -> str:
    """12 hexadecimal digits of the SHA-256 of the canonical fingerprint document."""
    return digest(fingerprint_document(card, bundle))
