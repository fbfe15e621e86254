"""The controlled-factor table enforced (§4.1): what a release holds fixed, every bundle holds.

Each controlled setting (:data:`generator.models.release.FACTOR_FIELDS`) must have one value
across the release's bundles. The value most bundles hold is the release's (ties: the first
bundle in id order); a bundle that departs is an error at its field, naming both values.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence

from generator.errors import Problem
from generator.load import Loaded, LoadedBundle
from generator.models import Release
from generator.models.base import NOT_RECORDED
from generator.models.release import FACTOR_FIELDS
from generator.protocol.comparison import setting


def _shown(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def check_factors(
    loaded_release: Loaded[Release], bundles: Sequence[LoadedBundle]
) -> Iterator[Problem]:
    """Every departure of a bundle from a controlled setting of its release."""
    release = loaded_release.model
    ordered = sorted(bundles, key=lambda b: b.bundle.model.combination.id)
    for key, title in release.controlled().items():
        for field in FACTOR_FIELDS[key]:
            values = [setting(b.bundle.model, field) for b in ordered]
            counts = Counter(values)
            if len(counts) < 2:
                continue
            top = max(counts.values())
            held = next(v for v in values if counts[v] == top)
            for loaded, value in zip(ordered, values, strict=True):
                if value == held:
                    continue
                src = loaded.bundle.source
                unknown = (
                    "; a setting the source did not record is not known to be the release's: "
                    "record it, or declare the factor variable (a bundle that does not record "
                    "it is then compared with no other)"
                    if json.dumps(NOT_RECORDED) in value
                    else ""
                )
                yield Problem(
                    src.path,
                    src.line(*field.split(".")),
                    field,
                    f"{_shown(value)} departs from {_shown(held)}, the setting of {top} of "
                    f"{len(values)} combinations: {key} is a controlled factor of this release "
                    f"({title}; §4.1), the same for every combination; expected {_shown(held)}, "
                    f"or a controlled_factors row that declares it variable by design{unknown}",
                )
