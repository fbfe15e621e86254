"""The configuration fingerprint: a short, stable hash of what produced a score (§5.1.3).

It covers the HarnessCard's disclosed settings, the combination (harness mode, model, agent
version), the configuration record, budgets, clarification rules, environment snapshot and
evaluator. It changes when any disclosed setting changes, and only then: a withheld field
counts as "withheld" whatever its reason, and the card's date and notes do not count.

Recompute it: build :func:`fingerprint_document`, serialise it as JSON with sorted keys,
separators ``(",", ":")`` and UTF-8 (no ASCII escaping), take its SHA-256 and keep the first
12 hexadecimal digits.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from generator.models import Bundle, HarnessCard
from generator.models.harnesscard import Disclosed

LENGTH = 12


def _card(card: HarnessCard) -> dict[str, Any]:
    layers: dict[str, Any] = {}
    for name, layer in card.layers.items():
        fields = {**layer.minimum_fields(), **layer.additional}
        layers[name] = {
            k: (f.value if isinstance(f, Disclosed) else {"withheld": True})
            for k, f in fields.items()
        }
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


def fingerprint(card: HarnessCard, bundle: Bundle) -> str:
    """12 hexadecimal digits of the SHA-256 of the canonical fingerprint document."""
    text = json.dumps(
        fingerprint_document(card, bundle),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:LENGTH]
