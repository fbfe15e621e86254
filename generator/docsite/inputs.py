"""The input-format reference, generated from the models' JSON Schemas (the ones
``python -m generator schema`` writes): every file kind, every field with its type, whether it
is required or its default, and its description; then the limits of what is read, from the
loader's own constants."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from generator import errors
from generator.docsite.text import code, paragraphs, prose, slug
from generator.load import jsonlines, raters, yamlfile
from generator.models import base
from generator.models.schema import json_schemas
from generator.score.results import OUTPUT_MODELS

#: Where each kind of file lives in a root, by its schema's stem.
PLACES = {
    "release": "`results/<version>/release.yaml`",
    "tasks": "`results/<version>/tasks.yaml`",
    "harnesscard": "`harnesscards/<card>.yaml`",
    "bundle": "`results/<version>/bundles/<combination>/bundle.yaml`",
    "runs-header": "the first line of `results/<version>/bundles/<combination>/runs.jsonl`",
    "run": "every further line of `runs.jsonl`",
    "deepdive": "`results/<version>/deepdives/<task>.yaml`",
    "report": "what `python -m generator report --format json` prints",
}

#: JSON Schema's types as the reference names them.
TYPES = {
    "string": "text",
    "integer": "integer",
    "number": "number",
    "boolean": "true or false",
    "null": "null",
    "object": "mapping",
    "array": "list",
}

_MIB = 1024 * 1024
#: The bound of a number with a fraction, as a power of ten.
_EXP = f"10^{len(str(int(base.MAX_FLOAT))) - 1}"


def _size(n: int) -> str:
    """A size in bytes as MiB or GiB."""
    return f"{n // (1024 * _MIB)} GiB" if n % (1024 * _MIB) == 0 else f"{n // _MIB} MiB"


#: The limits of what is read, each with its bound from the code that enforces it.
LIMITS = (
    ("a YAML file", f"at most {_size(yamlfile.MAX_FILE_BYTES)}"),
    ("values in one YAML file (aliases expanded)", f"at most {yamlfile.MAX_NODES:,}"),
    ("nesting of a YAML file", f"at most {yamlfile.MAX_DEPTH} levels"),
    ("a line of a runs or verdicts file", f"at most {_size(jsonlines.MAX_LINE_BYTES)}"),
    ("a runs file", f"at most {_size(jsonlines.MAX_RUNS_BYTES)}"),
    ("a second rater's verdicts file", f"at most {_size(raters.MAX_VERDICTS_BYTES)}"),
    ("problems reported for one file", f"at most {jsonlines.MAX_PROBLEMS_PER_FILE}"),
    ("a value quoted in a message", f"cut to {errors.MAX_SHOWN} characters"),
    ("an integer", f"within ±2^{base.MAX_INT.bit_length() - 1}"),
    ("a number with a fraction (a cost, a duration, a measured value, a bound)", f"within ±{_EXP}"),
    ("a scale or a weight", f"at least {_EXP.replace('^', '^-')}"),
    ("a date", f"from {base.FIRST_DATE} to {base.LAST_DATE}"),
)


def input_reference(schemas: Mapping[str, dict[str, Any]] | None = None) -> str:
    """The reference page: a section per file kind, a table of fields per object it holds."""
    found = json_schemas(OUTPUT_MODELS) if schemas is None else schemas
    lines = [
        "# Input-format reference",
        "",
        "Generated from the models when this site is built; `python -m generator schema` "
        "writes the same formats as JSON Schema files. [Input formats](../input-formats.md) "
        "says how the files fit together.",
        "",
    ]
    for name, schema in found.items():
        lines += list(_kind(name, schema))
    lines += ["## Limits of what is read", "", "| what | bound |", "| --- | --- |"]
    lines += [f"| {prose(what)} | {prose(value)} |" for what, value in LIMITS]
    return "\n".join(lines) + "\n"


def _kind(name: str, schema: dict[str, Any]) -> Iterator[str]:
    stem = name.split(".")[0]
    prefix = slug(stem)
    definitions: dict[str, Any] = schema.get("$defs", {})
    yield f"## {stem} {{#{prefix}}}"
    yield ""
    yield f"Schema `{name}`: {prose(PLACES.get(stem, 'an input file'))}."
    yield ""
    yield from _object(schema, definitions, prefix)
    for def_name in sorted(definitions):
        yield f"### {stem}: {def_name} {{#{prefix}-{slug(def_name)}}}"
        yield ""
        yield from _object(definitions[def_name], definitions, prefix)


def _object(schema: dict[str, Any], definitions: dict[str, Any], prefix: str) -> Iterator[str]:
    for paragraph in paragraphs(schema.get("description", "")):
        yield paragraph
        yield ""
    properties: dict[str, Any] = schema.get("properties", {})
    if not properties:
        yield f"A value of type {type_of(schema, prefix)}."
        yield ""
        return
    required = set(schema.get("required", []))
    yield "| field | type | required or default | description |"
    yield "| --- | --- | --- | --- |"
    for field, spec in properties.items():
        need = "required" if field in required else _default(spec)
        described = _described(spec, definitions)
        yield f"| {code(field)} | {type_of(spec, prefix)} | {need} | {described} |"
    yield ""


def _default(spec: dict[str, Any]) -> str:
    if "default" not in spec:
        return "optional"
    return code(json.dumps(spec["default"], ensure_ascii=False, sort_keys=True))


def _described(spec: dict[str, Any], definitions: dict[str, Any]) -> str:
    """The field's description, else that of the definition it refers to."""
    text = spec.get("description")
    if text is None and "$ref" in spec:
        text = definitions.get(_ref(spec), {}).get("description")
    return " ".join(paragraphs(text or ""))


def _ref(spec: dict[str, Any]) -> str:
    return str(spec["$ref"]).rsplit("/", 1)[-1]


def type_of(spec: dict[str, Any], prefix: str) -> str:
    """The type of a schema in words, with a link to the definition it refers to."""
    if "$ref" in spec:
        return f"[{_ref(spec)}](#{prefix}-{slug(_ref(spec))})"
    for union in ("anyOf", "oneOf"):
        if union in spec:
            return " or ".join(dict.fromkeys(type_of(s, prefix) for s in spec[union]))
    if "allOf" in spec and len(spec["allOf"]) == 1:
        return type_of(spec["allOf"][0], prefix)
    if "const" in spec:
        return code(json.dumps(spec["const"], ensure_ascii=False))
    if "enum" in spec:
        return "one of " + ", ".join(code(json.dumps(v, ensure_ascii=False)) for v in spec["enum"])
    kind = spec.get("type")
    if isinstance(kind, list):
        return " or ".join(TYPES.get(k, str(k)) for k in kind)
    if kind == "array":
        if "prefixItems" in spec:
            parts = ", ".join(type_of(s, prefix) for s in spec["prefixItems"])
            return f"a pair or tuple ({parts})"
        return f"list of {type_of(spec.get('items', {}), prefix)}"
    if kind == "object":
        values = spec.get("additionalProperties")
        for pattern in spec.get("patternProperties", {}).values():
            values = pattern
        if isinstance(values, dict):
            return f"mapping of id to {type_of(values, prefix)}"
        return "mapping"
    return TYPES.get(str(kind), "any value") + _bounds(spec)


def _bounds(spec: dict[str, Any]) -> str:
    """A number's or a date's bounds, as ``, from 0 to 1``."""
    if spec.get("format") == "date":
        low, high = spec.get("formatMinimum"), spec.get("formatMaximum")
        return f" (a date{f', from {low} to {high}' if low and high else ''})"
    low = spec.get("minimum", spec.get("exclusiveMinimum"))
    high = spec.get("maximum", spec.get("exclusiveMaximum"))
    # the bounds every number shares are listed once, under the limits
    low = None if low is not None and abs(low) >= base.MAX_FLOAT else low
    high = None if high is not None and abs(high) >= base.MAX_FLOAT else high
    if low is None and high is None:
        return ""
    low_text = "" if low is None else f"{'above' if 'exclusiveMinimum' in spec else 'from'} {low}"
    high_text = "" if high is None else f"{'below' if 'exclusiveMaximum' in spec else 'to'} {high}"
    return ", " + " ".join(t for t in (low_text, high_text) if t)
