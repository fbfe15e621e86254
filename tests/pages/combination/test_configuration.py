"""A result card's configuration record (§5.1.3): every setting as recorded, and "not
recorded" where the source of the results does not say."""

from __future__ import annotations

from typing import Any

import pytest
from builders import bundle as make_bundle

from generator.models.bundle import Bundle, Model
from generator.pages import VersionContext
from generator.pages.combination.configuration import config_table, model_shown, shown


def test_the_configuration_table_shows_the_bundle_s_settings(small: VersionContext) -> None:
    assert sorted(small.frame.bundles) == ["p", "q", "r", "s"]
    for bundle in small.frame.bundles.values():
        table = config_table(bundle)
        values = {r.record["setting"]: r.record["value"] for r in table.rows}
        cfg, budgets = bundle.configuration, bundle.budgets
        assert values["Tokenizer"] == bundle.combination.model.tokenizer
        assert values["Temperature"] == cfg.temperature
        assert values["Budget: steps"] == budgets.max_steps
        assert values["Environment snapshot"] == bundle.environment_snapshot
        assert values["Run dates"] == (
            f"{bundle.run_dates.start.isoformat()}/{bundle.run_dates.end.isoformat()}"
        )
        scorers = {k for k in values if k.startswith("Component: scorer ")}
        assert scorers == {f"Component: scorer {n}" for n in cfg.pipeline_components.scorer}
        assert len(values) == len(table.rows)  # no setting twice


def _unrecorded(b: Bundle, **parts: dict[str, Any]) -> Bundle:
    """``b`` with settings of its parts set to "not recorded"."""
    data = b.model_dump(mode="json", by_alias=True)
    for part, fields in parts.items():
        data[part].update(fields)
    return Bundle.model_validate(data)


def test_a_setting_not_recorded_reads_so_never_a_number() -> None:
    b = _unrecorded(
        make_bundle("x"),
        configuration=dict.fromkeys(("temperature", "max_output_tokens"), "not recorded"),
        budgets=dict.fromkeys(("timeout_s", "max_retries", "retry_policy"), "not recorded"),
        evaluator={"judge_model_version": "not recorded"},
    )
    table = config_table(b)
    shown_as = {r.cells[0].text: r.cells[1].text for r in table.rows}
    downloaded = {r.record["setting"]: r.record["value"] for r in table.rows}
    for setting in ("Temperature", "Max output tokens", "Budget: timeout"):
        assert shown_as[setting] == "not recorded"
        assert downloaded[setting] == "not recorded"
    assert shown_as["Retries after technical exceptions"] == "not recorded"
    assert shown_as["Judge model"].endswith("(version not recorded)")
    assert shown_as["Context window"] == f"{b.configuration.context_window:,}"


@pytest.mark.parametrize(
    ("version", "provider", "with_provider", "without"),
    [
        ("1", "Z", "GLM 1 (Z)", "GLM 1"),
        ("not recorded", "Z", "GLM (Z; version not recorded)", "GLM (version not recorded)"),
        ("1", "not recorded", "GLM 1 (provider not recorded)", "GLM 1"),
        (
            "not recorded",
            "not recorded",
            "GLM (version and provider not recorded)",
            "GLM (version not recorded)",
        ),
    ],
)
def test_the_model_is_named_as_recorded(
    version: str, provider: str, with_provider: str, without: str
) -> None:
    model = Model(name="GLM", version=version, provider=provider, tokenizer="t")
    assert model_shown(model) == with_provider
    assert model_shown(model, provider=False) == without


def test_shown_writes_a_recorded_value_in_its_form() -> None:
    assert shown(1500, lambda v: f"{v:,} s") == "1,500 s"
    assert shown("not recorded", lambda v: f"{v:,} s") == "not recorded"
