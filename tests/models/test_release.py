"""The release manifest (§2.2–2.5, §4.1–4.2, §7.2): what it declares and the rules inside it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from generator.models import Release
from generator.models.release import DEFAULT_CONTROLLED, FACTOR_FIELDS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "release"
GOOD: dict[str, Any] = yaml.safe_load((FIXTURES / "valid-minimal.yaml").read_text())


def _release(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    data.update(changes)
    return data


def test_the_good_fixture_and_its_statistics_defaults() -> None:
    release = Release.model_validate(GOOD)
    assert release.statistics.confidence == 0.95
    assert release.groups.min_held_out_aggregate == 5


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"illustrative": True, "notice": None}, "an illustrative release needs a 'notice'"),
        ({"runs_per_task": 2, "reliability_k": [1, 3]}, "reliability_k [3] exceed runs_per_task 2"),
        ({"runs_per_task": 3, "reliability_k": [2, 1]}, "reliability_k must be increasing"),
        ({"runs_per_task": 3, "reliability_k": [1, 1]}, "reliability_k must be increasing"),
    ],
)
def test_rules_between_fields(changes: dict[str, Any], says: str) -> None:
    with pytest.raises(ValidationError, match=says.replace("[", r"\[").replace("]", r"\]")):
        Release.model_validate(_release(**changes))


def test_an_illustrative_release_with_a_notice_passes() -> None:
    release = Release.model_validate(_release(illustrative=True, notice="Illustrative data."))
    assert release.notice == "Illustrative data."


def _factors(*rows: tuple[str, tuple[str, ...]]) -> list[dict[str, Any]]:
    return [
        {"factor": f"row {i}", "status": status, "setting": "s", "covers": list(covers)}
        for i, (status, covers) in enumerate(rows)
    ]


def test_controlled_factors_default_to_the_protocol_s() -> None:
    release = Release.model_validate(_release(controlled_factors=_factors(("controlled", ()))))
    assert release.varying() == ()
    assert release.controlled() == dict.fromkeys(DEFAULT_CONTROLLED, "held fixed by the protocol")


def test_a_row_declares_settings_variable_or_controlled() -> None:
    rows = _factors(("variable", ("budgets",)), ("controlled", ("clarification", "evaluator")))
    release = Release.model_validate(_release(controlled_factors=rows))
    assert release.varying() == ("budgets",)
    controlled = release.controlled()
    assert "budgets" not in controlled
    assert controlled["clarification"] == controlled["evaluator"] == "row 1"
    assert set(controlled) == (set(DEFAULT_CONTROLLED) - {"budgets"}) | {"clarification"}
    assert list(controlled) == [k for k in FACTOR_FIELDS if k in controlled]  # declared order


def test_a_setting_is_named_in_one_row_only() -> None:
    rows = _factors(("variable", ("budgets",)), ("controlled", ("budgets",)))
    with pytest.raises(
        ValidationError, match="controlled_factors name \\['budgets'\\] in more than one row"
    ):
        Release.model_validate(_release(controlled_factors=rows))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("domains", []),
        ("metrics", [{"id": "task_score", "title": "T", "direction": "up"}]),
        ("disclosure_floor", ["Execution.Sandboxing"]),
        ("statistics", {"confidence": 0.5}),
        ("statistics", {"bootstrap_samples": 99}),
        ("groups", {"public": 1, "held_out": 0, "min_held_out_aggregate": 1}),
    ],
)
def test_declarations_out_of_range_are_refused(field: str, value: Any) -> None:
    with pytest.raises(ValidationError) as caught:
        Release.model_validate(_release(**{field: value}))
    assert {e["loc"][0] for e in caught.value.errors()} == {field}


def test_a_domain_is_found_by_its_id() -> None:
    from builders import release

    rel = release()
    assert rel.domains, "the fixture declares domains"
    for d in rel.domains:
        assert rel.domain(d.id) is d
        assert rel.find_domain(d.id) is d
    assert rel.find_domain("no-such-domain") is None
    with pytest.raises(KeyError):
        rel.domain("no-such-domain")
