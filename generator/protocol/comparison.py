"""Which combinations may be compared (§4.1): the settings a release lets vary by design
are a combination's comparison key; token counts compare only within one tokenizer
(§4.2(2)); a setting the source did not record is the same as no other."""

from __future__ import annotations

import json
from collections.abc import Sequence

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


def tokenizer_key(name: str, tokenizer: str) -> str:
    """What a combination's token counts are counted in: they compare only within one
    tokenizer (§4.2(2)), and those of a tokenizer the source did not record with no other
    combination's."""
    return f"{NOT_RECORDED}: {name}" if tokenizer == NOT_RECORDED else tokenizer
