"""Rules inside one release manifest (generator/check/release.py): a good manifest passes,
each break is reported once, at its field and line."""

from __future__ import annotations

from typing import Any

import pytest
from builders import release

from generator.check.release import check_one_benchmark, check_release, repeated
from generator.load import Loaded
from generator.load.source import Source
from generator.models import Release
from generator.models.harnesscard import MINIMUM_FIELDS

LINES = {
    ("version",): 3,
    ("domains",): 10,
    ("domains", 0, "subdivisions"): 14,
    ("enumerations", "risk_levels"): 30,
    ("metrics",): 40,
    ("disclosure_floor", 1): 61,
    ("deep_dives",): 70,
    ("benchmark", "code"): 2,
}


def _loaded(model: Release, path: str = "results/v0.1/release.yaml") -> Loaded[Release]:
    return Loaded(model, Source(path, LINES))


def _changed(**update: Any) -> Release:
    return release().model_copy(update=update)


def test_repeated_lists_each_repeated_id_once_sorted() -> None:
    assert repeated(["b", "a", "b", "c", "a", "b"]) == ["a", "b"]
    assert repeated(["a", "b"]) == []


def test_a_good_release_passes() -> None:
    good = release()
    assert list(check_release(good.version, _loaded(good))) == []


def _one(model: Release, folder: str = "v0.1") -> tuple[int | None, str, str]:
    problems = list(check_release(folder, _loaded(model)))
    assert len(problems) == 1, [str(p) for p in problems]
    p = problems[0]
    assert p.path == "results/v0.1/release.yaml"
    return p.line, p.field, p.message


def test_version_must_equal_its_folder() -> None:
    line, field, message = _one(release(), folder="v0.2")
    assert (line, field) == (3, "version")
    assert "'v0.1' differs from its folder name 'v0.2'" in message


def test_repeated_domains_and_subdivisions() -> None:
    good = release()
    twice = _changed(domains=(good.domains[0], good.domains[0], good.domains[1]))
    problems = list(check_release("v0.1", _loaded(twice)))
    assert [(p.line, p.field) for p in problems] == [(10, "domains")]
    assert good.domains[0].id in problems[0].message
    office = good.domains[0]
    doubled = office.model_copy(
        update={"subdivisions": (*office.subdivisions, office.subdivisions[0])}
    )
    line, field, message = _one(_changed(domains=(doubled, good.domains[1])))
    assert (line, field) == (14, "domains[0].subdivisions")
    assert repr([office.subdivisions[0].id]) in message


def test_repeated_enumeration_values() -> None:
    enums = release().enumerations
    risks = (*enums.risk_levels, enums.risk_levels[0])
    line, field, message = _one(
        _changed(enumerations=enums.model_copy(update={"risk_levels": risks}))
    )
    assert (line, field) == (30, "enumerations.risk_levels")
    assert enums.risk_levels[0].id in message


def test_floor_fields_must_be_minimum_card_fields() -> None:
    layer, fields = next(iter(MINIMUM_FIELDS.items()))
    known = f"{layer}.{fields[0]}"
    assert list(check_release("v0.1", _loaded(_changed(disclosure_floor=(known,))))) == []
    line, field, message = _one(_changed(disclosure_floor=(known, f"{layer}.nope")))
    assert (line, field) == (61, "disclosure_floor[1]")
    assert f"'{layer}.nope' is not a minimum HarnessCard field" in message


def test_repeated_deep_dives() -> None:
    line, field, message = _one(_changed(deep_dives=("a", "b", "a")))
    assert (line, field, message) == (70, "deep_dives", "repeated tasks: ['a']")


@pytest.mark.parametrize("codes", [("lg", "lg", "lg"), ("lg",), ()])
def test_one_benchmark_per_root_passes(codes: tuple[str, ...]) -> None:
    releases = [_benchmark(code, i) for i, code in enumerate(codes)]
    assert list(check_one_benchmark(releases)) == []


def _benchmark(code: str, i: int) -> Loaded[Release]:
    model = release()
    model = model.model_copy(
        update={
            "benchmark": model.benchmark.model_copy(update={"code": code, "name": code.upper()})
        }
    )
    return _loaded(model, f"results/v{i}/release.yaml")


def test_a_second_benchmark_under_one_root_names_both() -> None:
    releases = [_benchmark("lg", 0), _benchmark("other", 1), _benchmark("lg", 2)]
    problems = list(check_one_benchmark(releases))
    assert [(p.path, p.line, p.field) for p in problems] == [
        ("results/v1/release.yaml", 2, "benchmark.code")
    ]
    assert (
        "'other' (OTHER) differs from 'lg' (LG) of results/v0/release.yaml" in problems[0].message
    )
