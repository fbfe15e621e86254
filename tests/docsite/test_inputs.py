"""The input-format reference is generated from the models: every file kind and every field
of every object it holds, with its type, default and description; the limits are the code's."""

from __future__ import annotations

import html
from typing import Any

from generator.docsite.inputs import LIMITS, PLACES, input_reference, type_of
from generator.load import jsonlines, yamlfile
from generator.models import INPUT_MODELS
from generator.models.schema import json_schemas
from generator.score.results import OUTPUT_MODELS


def _plain(text: str) -> str:
    """``text`` without code fences and Markdown escapes."""
    return text.replace("`", "").replace("\\", "")


def _section(page: str, heading: str) -> str:
    return page.split(heading, 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def test_every_field_of_every_schema_is_documented_in_its_section() -> None:
    schemas = json_schemas(OUTPUT_MODELS)
    page = input_reference(schemas)
    fields = 0
    for name, schema in schemas.items():
        stem = name.split(".")[0]
        objects = {f"## {stem} {{#": schema} | {
            f"### {stem}: {d} {{#": spec for d, spec in schema.get("$defs", {}).items()
        }
        for heading, spec in objects.items():
            section = _section(page, heading)
            for field, field_spec in spec.get("properties", {}).items():
                row = next(r for r in section.splitlines() if r.startswith(f"| `{field}` |"))
                words = " ".join(field_spec.get("description", "").split()[:3])
                assert _plain(words) in _plain(html.unescape(row)), (name, field)
                fields += 1
    assert fields > len(schemas) > 0


def test_every_input_kind_says_where_its_file_lives() -> None:
    assert set(INPUT_MODELS) | {"report"} == set(PLACES)


def test_defaults_and_required_fields_are_shown() -> None:
    page = input_reference()
    statistics = _section(page, "### release: Statistics {#")
    assert "| `min_tasks_to_resample` | integer, from 2 to 10000 | `5` |" in statistics
    assert "| `format_version` | integer, from 1 to 1 | required |" in page


def test_the_limits_are_the_code_s() -> None:
    limits = dict(LIMITS)
    assert limits["a YAML file"] == f"at most {yamlfile.MAX_FILE_BYTES // 2**20} MiB"
    assert limits["a runs file"] == f"at most {jsonlines.MAX_RUNS_BYTES // 2**30} GiB"
    assert limits["problems reported for one file"] == f"at most {jsonlines.MAX_PROBLEMS_PER_FILE}"
    page = input_reference()
    assert len(LIMITS) == len(limits)  # each limit named once
    assert all(f"| {what} | {bound} |" in page for what, bound in LIMITS)


def test_types_read_in_words_with_links_to_their_definitions() -> None:
    def words(spec: dict[str, Any]) -> str:
        return type_of(spec, "bundle")

    assert words({"$ref": "#/$defs/RunDates"}) == "[RunDates](#bundle-rundates)"
    assert words({"anyOf": [{"type": "string"}, {"type": "null"}]}) == "text or null"
    assert words({"type": "array", "items": {"type": "integer"}}) == "list of integer"
    assert words({"enum": ["a", "b"]}) == 'one of `"a"`, `"b"`'
    assert words({"const": "not recorded"}) == '`"not recorded"`'
    assert words({"type": "number", "minimum": 0, "maximum": 1}) == "number, from 0 to 1"
    assert words({"type": "number", "exclusiveMinimum": 0}) == "number, above 0"
    assert words({"type": "number", "minimum": -1e15, "maximum": 1e15}) == "number"
    assert words({"type": "string", "format": "date"}) == "text (a date)"
    assert (
        words({"type": "object", "patternProperties": {"^x$": {"$ref": "#/$defs/Evaluator"}}})
        == "mapping of id to [Evaluator](#bundle-evaluator)"
    )
    assert words({"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}]}) == (
        "a pair or tuple (text, number)"
    )
