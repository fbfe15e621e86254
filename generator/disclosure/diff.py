"""Field-by-field differences between two combinations' configurations (§5.1.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from generator.models import Bundle, HarnessCard
from generator.models.base import NOT_RECORDED
from generator.models.harnesscard import Disclosed, Layers, Withheld

#: Between the parts of a field's label: "HarnessCard › Execution › Runtime substrate".
SEPARATOR = " › "


def _flatten(prefix: str, value: Any, out: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key in value:
            _flatten(f"{prefix}.{key}" if prefix else str(key), value[key], out)
    elif isinstance(value, list):
        out[prefix] = ", ".join(str(v) for v in value) or "(empty)"
    else:
        out[prefix] = "—" if value is None else str(value)


def configuration_fields(card: HarnessCard, bundle: Bundle) -> dict[str, str]:
    """Every compared field as text: card layers (withheld with its reason, or "not
    recorded"), then the record (a field the source did not record reads "not recorded")."""
    out: dict[str, str] = {"harness": card.harness.title}
    for name, layer in card.layers.items():
        for field, value in {**layer.minimum_fields(), **layer.additional}.items():
            text: Any = value
            if isinstance(value, Disclosed):
                text = value.value
            elif isinstance(value, Withheld):
                text = f"withheld: {value.withheld}"
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


def _title(info: FieldInfo | None, name: str) -> str:
    """A field's title in its model, else its name as words ("max_steps": "Max steps")."""
    if info is not None and info.title:
        return info.title
    words = name.replace("_", " ").replace("-", " ")
    return words[:1].upper() + words[1:]


def _model(info: FieldInfo | None) -> type[BaseModel] | None:
    kind = None if info is None else info.annotation
    return kind if isinstance(kind, type) and issubclass(kind, BaseModel) else None


def field_label(key: str) -> str:
    """The readable label of a key of :func:`configuration_fields`, from the models' field
    titles (a field without one reads as its name in words): ``card.execution.max_steps`` is
    "HarnessCard › Execution › Maximum steps", ``configuration.top_p`` "Configuration › Top-p".
    A vendor's additional card field, or a scorer component, reads as its own name."""
    parts = key.split(".")
    model: type[BaseModel] | None = Bundle
    names: list[str] = []
    if parts[0] == "card":
        model, names, parts = Layers, ["HarnessCard"], parts[1:]
    elif parts == ["harness"]:
        model, names = HarnessCard, ["HarnessCard"]
    for part in parts:
        info = None if model is None else model.model_fields.get(part)
        names.append(_title(info, part))
        model = _model(info)
    return SEPARATOR.join(names)


@dataclass(frozen=True)
class Diff:
    differing: tuple[tuple[str, str, str], ...]  # (field, value of a, value of b)
    identical: tuple[tuple[str, str], ...]
    unknown: tuple[str, ...] = ()  # not recorded on either side: not known to be the same


def diff(a: dict[str, str], b: dict[str, str]) -> Diff:
    """Fields that differ (present in either), those that are the same, and those not
    recorded on either side (two unknowns are not known to be the same)."""
    keys = list(a) + [k for k in b if k not in a]
    differing = tuple(
        (k, a.get(k, "(absent)"), b.get(k, "(absent)")) for k in keys if a.get(k) != b.get(k)
    )
    same = [k for k in keys if k in a and k in b and a[k] == b[k]]
    identical = tuple((k, a[k]) for k in same if a[k] != NOT_RECORDED)
    return Diff(differing, identical, tuple(k for k in same if a[k] == NOT_RECORDED))
