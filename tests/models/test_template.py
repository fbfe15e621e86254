"""The bundle template (``python -m generator new-bundle``): every field of the bundle format
described, what the release fixes filled in, the rest a placeholder that validate names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generator.load.validate import placeholders, validate_as
from generator.load.yamlfile import read_text, read_yaml
from generator.models import Bundle, Release
from generator.models.template import PLACEHOLDER, bundle_template, describe, submodel

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "results" / "v1.1" / "bundles" / "lingee" / "bundle.yaml"


def _release() -> Release:
    read = read_yaml(REPO / "results" / "v1.1" / "release.yaml", "release.yaml")
    assert isinstance(read, tuple)
    release = validate_as(Release, *read)
    assert isinstance(release, Release)
    return release


def _fields(model: Any, prefix: str = "") -> list[tuple[str, Any]]:
    out = []
    for name, info in model.model_fields.items():
        out.append((prefix + (info.alias or name), info))
        inner = submodel(info)
        if inner is not None:
            out += _fields(inner, f"{prefix}{info.alias or name}.")
    return out


def _get(data: Any, loc: tuple[Any, ...]) -> Any:
    for part in loc:
        data = data[part]
    return data


def _add_missing(data: dict[str, Any], example: dict[str, Any]) -> None:
    for key, value in example.items():
        if key not in data:
            data[key] = value
        elif isinstance(value, dict) and isinstance(data[key], dict):
            _add_missing(data[key], value)


def test_every_field_is_written_with_its_description() -> None:
    text = bundle_template("v1.1", "my-agent", _release())
    fields = list(_fields(Bundle))
    assert {"format_version", "combination.id", "configuration.temperature"} <= {
        d for d, _ in fields
    }
    for dotted, info in fields:
        key = dotted.rsplit(".", 1)[-1]
        assert f"{key}:" in text, dotted
        first_words = " ".join((info.description or "").split()[:3])
        assert first_words in " ".join(text.replace("#", " ").split()), dotted


def test_the_template_reads_and_names_each_value_left_to_fill_in() -> None:
    release = _release()
    text = bundle_template("v1.1", "my-agent", release)
    read = read_text(text, "bundle.yaml")
    assert isinstance(read, tuple)
    data, source = read
    assert data["release"] == "v1.1"
    assert data["combination"]["id"] == "my-agent"
    assert data["configuration"]["runs_per_task"] == release.runs_per_task
    assert data["configuration"]["pipeline_components"] == release.components.model_dump()
    problems = validate_as(Bundle, data, source)
    assert isinstance(problems, list)
    holes = placeholders(data)
    assert len(problems) == len(holes) > 0
    lines = text.splitlines()
    for problem, hole in zip(problems, holes, strict=True):
        assert problem.message.startswith("not filled in yet; expected: ")
        assert problem.message.endswith(str(describe(Bundle, hole)))
        assert PLACEHOLDER in lines[problem.line - 1]  # type: ignore[operator]
        assert lines[problem.line - 1].strip().startswith(str(hole[-1]))  # type: ignore[union-attr]


def test_filled_in_with_a_real_bundle_s_values_it_is_that_bundle() -> None:
    """The template's structure is the format's: each placeholder takes the example
    bundle's value at the same place, and the result validates to the same bundle."""
    read_example = read_yaml(EXAMPLE, "bundle.yaml")
    assert isinstance(read_example, tuple)
    example, _ = read_example
    read = read_text(bundle_template("v1.1", example["combination"]["id"], None), "b.yaml")
    assert isinstance(read, tuple)
    data, source = read
    for hole in placeholders(data):
        if hole[-1] == PLACEHOLDER:  # a key: the scorer's components, from the example
            parent = _get(data, hole[:-1])
            parent.clear()
            parent.update(_get(example, hole[:-1]))
        else:
            _get(data, hole[:-1])[hole[-1]] = _get(example, hole)
    _add_missing(data, example)  # optional fields: written commented out
    filled = validate_as(Bundle, data, source)
    assert isinstance(filled, Bundle), filled
    assert filled == validate_as(Bundle, example, source)


@pytest.mark.parametrize("release", [True, False])
def test_a_template_without_a_release_leaves_its_settings_to_fill_in(release: bool) -> None:
    text = bundle_template("v9", "x", _release() if release else None)
    read = read_text(text, "b.yaml")
    assert isinstance(read, tuple)
    holes = {".".join(map(str, h)) for h in placeholders(read[0])}
    assert ("configuration.runs_per_task" in holes) is not release
    problems = validate_as(Bundle, *read)
    assert isinstance(problems, list)
    assert sorted(p.field for p in problems) == sorted(holes)  # one each, a key hole too
    assert all("not filled in yet; expected: " in p.message for p in problems)


def test_an_optional_list_uncommented_reads_as_one_entry_to_fill_in() -> None:
    lines = bundle_template("v1.1", "x", _release()).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# not_covered:"))
    block = []
    for line in lines[start:]:
        if not line.startswith("#"):
            break
        block.append(line.removeprefix("# "))
    read = read_text("\n".join(block) + "\n", "b.yaml")
    assert isinstance(read, tuple)
    (entry,) = read[0]["not_covered"]
    assert entry == {"domain": PLACEHOLDER, "reason": PLACEHOLDER}  # subdivision: optional
