"""The result bundle (§5.1.1–5.1.3): what a bundle file may and may not say."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from generator.models import Bundle

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "bundle"
GOOD: dict[str, Any] = yaml.safe_load((FIXTURES / "valid-minimal.yaml").read_text())


def _bundle(**changes: Any) -> dict[str, Any]:
    """The good fixture with ``part__field=value`` changes (``part=value`` for top level)."""
    data = copy.deepcopy(GOOD)
    for key, value in changes.items():
        part, _, field = key.partition("__")
        if field:
            data[part][field] = value
        else:
            data[part] = value
    return data


def _errors(data: dict[str, Any]) -> list[tuple[str, ...]]:
    try:
        Bundle.model_validate(data)
    except ValidationError as exc:
        return [tuple(str(p) for p in e["loc"]) for e in exc.errors()]
    return []


def test_the_good_fixture_and_its_defaults() -> None:
    bundle = Bundle.model_validate(GOOD)
    assert bundle.runs == "runs.jsonl"  # runs beside the bundle unless named
    assert bundle.not_covered == ()
    assert bundle.configuration.compression_threshold is None


@pytest.mark.parametrize(
    ("changes", "where"),
    [
        ({"configuration__temperature": 2.5}, ("configuration", "temperature")),
        ({"configuration__temperature": -0.1}, ("configuration", "temperature")),
        ({"configuration__top_p": 1.5}, ("configuration", "top_p")),
        ({"configuration__runs_per_task": 0}, ("configuration", "runs_per_task")),
        ({"budgets__max_retries": 101}, ("budgets", "max_retries")),
        ({"evaluation": "partial"}, ("evaluation",)),
        ({"runs": "../other/runs.jsonl"}, ("runs",)),
        ({"consent__granted": "yes"}, ("consent", "granted")),
    ],
)
def test_out_of_range_settings_are_refused_at_their_field(
    changes: dict[str, Any], where: tuple[str, ...]
) -> None:
    assert _errors(_bundle(**changes)) == [where]


def test_run_dates_must_be_ordered() -> None:
    data = _bundle(run_dates={"start": "2026-02-02", "end": "2026-02-01"})
    with pytest.raises(ValidationError, match="end 2026-02-01 is before start 2026-02-02"):
        Bundle.model_validate(data)
    same_day = _bundle(run_dates={"start": "2026-02-02", "end": "2026-02-02"})
    assert _errors(same_day) == []


def test_consent_is_required_for_every_bundle() -> None:
    data = _bundle()
    del data["consent"]
    assert _errors(data) == [("consent",)]


def test_not_covered_scopes_state_a_reason() -> None:
    scope = {"domain": "office", "subdivision": "a", "reason": "no adapter"}
    assert _errors(_bundle(not_covered=[scope])) == []
    assert _errors(_bundle(not_covered=[{"domain": "office"}])) == [("not_covered", "0", "reason")]


def test_pricing_names_a_currency_source_and_date() -> None:
    from builders import bundle as _bundle

    data = _bundle("p").model_dump(mode="json", exclude_none=True)
    data["pricing"] = {"currency": "CNY", "source": "price list", "date": "2026-06-01"}
    priced = Bundle.model_validate(data)
    assert priced.pricing is not None
    assert priced.pricing.date.isoformat() == "2026-06-01"
    data["pricing"]["currency"] = "yuan"
    with pytest.raises(ValidationError, match=r"pricing\.currency"):
        Bundle.model_validate(data)
