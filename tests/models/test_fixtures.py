"""Good and bad fixtures for every input model, side by side in tests/fixtures/<kind>/.

A bad fixture's first line says what the validator must report: ``# expect: <text>``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from generator.errors import Problem
from generator.load.source import Source
from generator.load.validate import validate_as
from generator.load.yamlfile import read_yaml
from generator.models import Bundle, Catalog, DeepDive, HarnessCard, Release

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
KINDS: dict[str, type[BaseModel]] = {
    "release": Release,
    "tasks": Catalog,
    "harnesscard": HarnessCard,
    "bundle": Bundle,
    "deepdive": DeepDive,
}


def _load(path: Path, model: type[BaseModel]) -> BaseModel | list[Problem]:
    parsed = read_yaml(path, path.name)
    if isinstance(parsed, Problem):
        return [parsed]
    data, source = parsed
    assert isinstance(source, Source)
    return validate_as(model, data, source)


def _cases(prefix: str) -> list[tuple[Path, type[BaseModel]]]:
    return [
        (path, model)
        for kind, model in KINDS.items()
        for path in sorted((FIXTURES / kind).glob(f"{prefix}-*.yaml"))
    ]


@pytest.mark.parametrize(("path", "model"), _cases("valid"), ids=lambda v: getattr(v, "name", ""))
def test_valid_fixture_loads(path: Path, model: type[BaseModel]) -> None:
    result = _load(path, model)
    assert isinstance(result, model), [str(p) for p in result]  # type: ignore[union-attr]


@pytest.mark.parametrize(("path", "model"), _cases("invalid"), ids=lambda v: getattr(v, "name", ""))
def test_invalid_fixture_reports_expected_problem(path: Path, model: type[BaseModel]) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect: "), "bad fixtures state what they expect"
    expected = first.removeprefix("# expect: ")
    result = _load(path, model)
    assert isinstance(result, list), "an invalid fixture must not load"
    shown = [str(p) for p in result]
    assert any(expected in line for line in shown), shown
    assert all(p.line is not None for p in result), shown


def test_every_kind_has_good_and_bad_fixtures() -> None:
    for kind in KINDS:
        names = [p.name for p in (FIXTURES / kind).glob("*.yaml")]
        assert any(n.startswith("valid-") for n in names), kind
        assert sum(n.startswith("invalid-") for n in names) >= 2, kind


def test_models_are_frozen() -> None:
    card = _load(FIXTURES / "harnesscard" / "valid-all-withheld.yaml", HarnessCard)
    assert isinstance(card, HarnessCard)
    with pytest.raises(Exception, match="frozen"):
        card.id = "other"  # type: ignore[misc]
