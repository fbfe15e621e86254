"""The result bundle (§5.1.1–5.1.3): what a bundle file may and may not say."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from generator.load.validate import data_loc
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
    """Each refused field's place in the data (a union's alternatives at one place once)."""
    try:
        Bundle.model_validate(data)
    except ValidationError as exc:
        places = [data_loc(data, e["loc"], e["type"] == "missing") for e in exc.errors()]
        return list(dict.fromkeys(tuple(str(p) for p in place) for place in places))
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


NOT_RECORDED_FIELDS = [
    ("combination", "model", "version"),
    ("combination", "model", "provider"),
    ("combination", "model", "tokenizer"),
    ("combination", "agent_version"),
    *(("configuration", f) for f in ("temperature", "top_p", "max_output_tokens")),
    *(("configuration", f) for f in ("context_window", "compression_threshold", "reasoning_mode")),
    *(("budgets", f) for f in ("timeout_s", "max_steps", "max_tokens", "max_retries")),
    ("budgets", "retry_policy"),
    *(("clarification", f) for f in ("simulated_user_script_version", "waiting_cap_s", "rules")),
    ("environment_snapshot",),
    *(("evaluator", f) for f in ("judge_model", "judge_model_version", "prompt_version", "voting")),
]


#: Fields of text (any words are a recorded value) and of ids or versions (one word).
TEXT = {"provider", "retry_policy", "rules", "reasoning_mode", "voting", "judge_model"}
WORD = {"version", "tokenizer", "agent_version", "simulated_user_script_version"}
WORD |= {"environment_snapshot", "judge_model_version", "prompt_version"}


@pytest.mark.parametrize("where", NOT_RECORDED_FIELDS, ids=".".join)
def test_a_setting_the_source_does_not_say_may_be_not_recorded(where: tuple[str, ...]) -> None:
    """'not recorded' is accepted and kept as such (never a made-up value); near spellings
    are refused where the field is a number (or a one-word id or version)."""
    name = where[-1]
    for text in ("not recorded", "unknown", "Not Recorded"):
        data = copy.deepcopy(GOOD)
        parent = data
        for part in where[:-1]:
            parent = parent[part]
        parent[name] = text
        accepted = text == "not recorded" or name in TEXT or (name in WORD and " " not in text)
        assert (not _errors(data)) == accepted, (where, text)
        if text == "not recorded":
            value: Any = Bundle.model_validate(data)
            for part in where:
                value = getattr(value, part)
            assert value == "not recorded"


def test_the_not_recorded_fixture_keeps_every_state() -> None:
    bundle = Bundle.model_validate(
        yaml.safe_load((FIXTURES / "valid-not-recorded.yaml").read_text())
    )
    assert bundle.configuration.temperature == "not recorded"
    assert bundle.counts_not_recorded == ("duration_s", "input_tokens")
    assert bundle.configuration.runs_per_task == 2  # the release's: never not recorded
