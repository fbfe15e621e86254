"""Parsed data against a model: every pydantic error becomes one located problem."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from generator.load.source import Source
from generator.load.validate import check_format_version, data_loc, problems_from, validate_as
from generator.load.yamlfile import read_yaml
from generator.models import FORMAT_VERSION, Bundle, HarnessCard, Release

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RELEASE: dict[str, Any] = yaml.safe_load((FIXTURES / "release" / "valid-minimal.yaml").read_text())
CARD: dict[str, Any] = yaml.safe_load(
    (FIXTURES / "harnesscard" / "valid-all-withheld.yaml").read_text()
)
SOURCE = Source("r.yaml", {(): 1, ("format_version",): 1, ("title",): 4, ("version",): 3})


def test_a_good_file_validates() -> None:
    assert isinstance(validate_as(Release, copy.deepcopy(RELEASE), SOURCE), Release)


@pytest.mark.parametrize(
    ("data", "field", "says"),
    [
        ([1, 2], "", "expected a mapping of fields, found list"),
        (
            {"title": "x"},
            "format_version",
            f"is missing; expected format_version: {FORMAT_VERSION}",
        ),
        ({"format_version": True}, "format_version", "True is not a format version"),
        ({"format_version": 0}, "format_version", "0 is not a format version"),
        ({"format_version": "1"}, "format_version", "'1' is not a format version"),
        ({"format_version": FORMAT_VERSION + 1}, "format_version", "is newer than this generator"),
    ],
)
def test_format_version_is_checked_first(data: Any, field: str, says: str) -> None:
    problem = check_format_version(data, SOURCE)
    assert problem is not None
    assert (problem.path, problem.line, problem.field) == ("r.yaml", 1, field)
    assert says in problem.message
    result = validate_as(Release, data, SOURCE)
    assert result == [problem]  # nothing else is reported for a file of unknown version


def test_current_format_version_passes() -> None:
    assert check_format_version({"format_version": FORMAT_VERSION}, SOURCE) is None


def test_each_error_names_its_field_and_line() -> None:
    data = copy.deepcopy(RELEASE)
    data["version"] = "not an id!"
    del data["title"]
    source = Source("r.yaml", {(): 1, ("version",): 3})  # as read from a file without title
    result = validate_as(Release, data, source)
    assert isinstance(result, list)
    by_field = {p.field: p for p in result}
    assert set(by_field) == {"version", "title"}
    assert by_field["version"].line == 3
    assert by_field["version"].message.startswith("'not an id!' is not allowed: string should")
    assert by_field["title"].message == "is required but missing"
    assert by_field["title"].line == 1  # a missing field: the line of its parent


def test_an_unknown_field_next_to_a_missing_one_suggests_the_spelling() -> None:
    data = copy.deepcopy(RELEASE)
    data["titel"] = data.pop("title")
    result = validate_as(Release, data, SOURCE)
    assert isinstance(result, list)
    messages = {p.field: p.message for p in result}
    assert messages["titel"] == "is not a field of this format; did you mean 'title'?"
    data["zzz"] = 1
    result = validate_as(Release, data, SOURCE)
    assert isinstance(result, list)
    assert {p.field: p.message for p in result}["zzz"] == (
        "is not a field of this format; check the spelling (see the schema)"
    )


def test_union_alternatives_merge_into_one_problem_at_the_data_path() -> None:
    data = copy.deepcopy(CARD)
    data["layers"]["execution"]["max_steps"] = {"value": {"nested": 1}}
    with pytest.raises(ValidationError) as caught:
        HarnessCard.model_validate(data)
    problems = problems_from(caught.value, data, Source("c.yaml"))
    assert [p.field for p in problems] == ["layers.execution.max_steps.value"]
    assert problems[0].message.startswith("does not match any allowed form: ")
    assert problems[0].message.count("; or ") >= 1
    # pydantic's location holds the union's tags; the problem's path holds only the data's
    raw = [e["loc"] for e in caught.value.errors()]
    assert any("disclosed-field" in loc for loc in raw)


def test_data_loc_keeps_only_parts_that_index_into_the_data() -> None:
    data = {"a": [{"b": 1}]}
    assert data_loc(data, ("a", 0, "tag", "b"), missing=False) == ("a", 0, "b")
    assert data_loc(data, ("a", 0, "c"), missing=True) == ("a", 0, "c")  # the missing key
    assert data_loc(data, ("a", 0, "c"), missing=False) == ("a", 0)
    assert data_loc(data, ("a", 5), missing=False) == ("a",)


def test_base_prefixes_the_reported_path() -> None:
    data = {"format_version": 1}
    with pytest.raises(ValidationError) as caught:
        Release.model_validate(data)
    source = Source("x.yaml", {("releases", 2): 7})
    problems = problems_from(caught.value, data, source, base=("releases", 2))
    assert problems
    assert all(p.field.startswith("releases[2].") and p.line == 7 for p in problems)


def test_a_value_left_as_the_template_s_placeholder_is_named_not_filled_in() -> None:
    path = FIXTURES / "bundle" / "invalid-not-filled-in.yaml"
    read = read_yaml(path, "bundle.yaml")
    assert isinstance(read, tuple)
    problems = validate_as(Bundle, *read)
    assert isinstance(problems, list)
    lines = path.read_text(encoding="utf-8").splitlines()
    want = {
        "combination.title": "title:",
        "configuration.temperature": "temperature:",
        "environment_snapshot": "environment_snapshot:",
    }
    assert sorted(p.field for p in problems) == sorted(want)  # nothing else: one each
    for p in problems:
        assert p.path == "bundle.yaml"
        assert lines[p.line - 1].strip().startswith(want[p.field])  # type: ignore[operator]
        assert p.message.startswith("not filled in yet; expected: ")
    good = read_yaml(FIXTURES / "bundle" / "valid-minimal.yaml", "bundle.yaml")
    assert isinstance(good, tuple)
    assert isinstance(validate_as(Bundle, *good), Bundle)
