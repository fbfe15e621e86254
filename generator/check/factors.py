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
from generator.models import Bundle, Release
from generator.models.base import NOT_RECORDED
from generator.models.release import FACTOR_FIELDS


def setting(bundle: Bundle, field: str) -> str:
    """The value of a dotted bundle field, as canonical JSON (comparable, printable)."""
    value: object = bundle.model_dump(mode="json")
    for part in field.split("."):
        assert isinstance(value, dict)
        value = value[part]
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def comparison_key(release: Release, bundle: Bundle, judged: bool = True) -> tuple[str, ...]:
    """The values of the settings that vary by design: combinations are compared only with
    those that have the same key (§4.1). Where no task is judged (``judged`` false), the
    evaluator does not enter it: it scored nothing there. A varying setting the source did
    not record matches no other bundle's: two unknowns are not known to be the same."""
    values = tuple(
        setting(bundle, field)
        for key in release.varying()
        if judged or key != "evaluator"
        for field in FACTOR_FIELDS[key]
    )
    if any(json.dumps(NOT_RECORDED) in v for v in values):
        return (f"{NOT_RECORDED}: {bundle.combination.id}",)
    return values


def not_recorded_controls(release: Release, bundles: Sequence[Bundle]) -> tuple[str, ...]:
    """The controlled factor keys some bundle's source did not record: the release declares
    them held fixed (§4.1), and the results cannot show it."""
    unknown = json.dumps(NOT_RECORDED)
    return tuple(
        key
        for key in release.controlled()
        if any(unknown in setting(b, f) for b in bundles for f in FACTOR_FIELDS[key])
    )


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
