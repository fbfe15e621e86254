"""Field-by-field differences between two combinations' configurations (§5.1.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.models import Bundle, HarnessCard
from generator.models.harnesscard import Disclosed


def _flatten(prefix: str, value: Any, out: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key in value:
            _flatten(f"{prefix}.{key}" if prefix else str(key), value[key], out)
    elif isinstance(value, list):
        out[prefix] = ", ".join(str(v) for v in value) or "(empty)"
    else:
        out[prefix] = "—" if value is None else str(value)


def configuration_fields(card: HarnessCard, bundle: Bundle) -> dict[str, str]:
    """Every compared field as text: card layers (withheld with its reason), then the record."""
    out: dict[str, str] = {"harness": f"{card.harness.name} {card.harness.version}"}
    for name, layer in card.layers.items():
        for field, value in {**layer.minimum_fields(), **layer.additional}.items():
            text: Any = (
                value.value if isinstance(value, Disclosed) else f"withheld: {value.withheld}"
            )
            _flatten(f"card.{name}.{field}", text, out)
    c = bundle.combination
    _flatten(
        "combination",
        {
            "harness_mode": c.harness_mode,
            "model": c.model.model_dump(mode="json"),
            "agent_version": c.agent_version,
        },
        out,
    )
    for part in ("configuration", "budgets", "clarification", "evaluator"):
        _flatten(part, getattr(bundle, part).model_dump(mode="json"), out)
    out["environment_snapshot"] = bundle.environment_snapshot
    return out


@dataclass(frozen=True)
class Diff:
    differing: tuple[tuple[str, str, str], ...]  # (field, value of a, value of b)
    identical: tuple[tuple[str, str], ...]


def diff(a: dict[str, str], b: dict[str, str]) -> Diff:
    """Fields that differ (present in either), and those that are the same."""
    keys = list(a) + [k for k in b if k not in a]
    differing = tuple(
        (k, a.get(k, "(absent)"), b.get(k, "(absent)")) for k in keys if a.get(k) != b.get(k)
    )
    identical = tuple((k, a[k]) for k in keys if k in a and k in b and a[k] == b[k])
    return Diff(differing, identical)
