"""How much of a HarnessCard's minimum disclosure is disclosed, per layer and overall."""

from __future__ import annotations

from dataclasses import dataclass

from generator.models import HarnessCard
from generator.models.harnesscard import Disclosed, Withheld


@dataclass(frozen=True)
class Completeness:
    """Disclosed minimum fields, per layer (in checklist order) and in total, with the
    withheld ones (the vendor declines) and the not recorded ones (the source does not say)
    counted apart."""

    # (layer, disclosed, withheld, not recorded, minimum fields)
    layers: tuple[tuple[str, int, int, int, int], ...]

    @property
    def disclosed(self) -> int:
        return sum(row[1] for row in self.layers)

    @property
    def withheld(self) -> int:
        return sum(row[2] for row in self.layers)

    @property
    def not_recorded(self) -> int:
        return sum(row[3] for row in self.layers)

    @property
    def total(self) -> int:
        return sum(row[4] for row in self.layers)

    @property
    def share(self) -> float:
        return self.disclosed / self.total if self.total else 0.0


def completeness(card: HarnessCard) -> Completeness:
    """Count disclosed minimum fields; additional vendor fields do not count (PRODUCT.md)."""
    rows = []
    for name, layer in card.layers.items():
        fields = layer.minimum_fields().values()
        disclosed = sum(isinstance(f, Disclosed) for f in fields)
        withheld = sum(isinstance(f, Withheld) for f in fields)
        rows.append((name, disclosed, withheld, len(fields) - disclosed - withheld, len(fields)))
    return Completeness(tuple(rows))


def below_floor(card: HarnessCard, floor: tuple[str, ...]) -> list[str]:
    """Floor fields ('layer.field') that the card withholds or did not record, in floor
    order."""
    out = []
    for ref in floor:
        layer_name, _, field = ref.partition(".")
        layer = getattr(card.layers, layer_name, None)
        value = layer.minimum_fields().get(field) if layer is not None else None
        if value is not None and not isinstance(value, Disclosed):
            out.append(ref)
    return out
