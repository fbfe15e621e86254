"""JSON Schema for every input file, generated from the models (never written by hand)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from generator.models import FORMAT_VERSION, INPUT_MODELS

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def json_schemas(outputs: Mapping[str, type[BaseModel]]) -> dict[str, dict[str, Any]]:
    """File name → schema, for every input kind and for the ``outputs`` with a documented
    format (:data:`generator.score.results.OUTPUT_MODELS`: ``report --format json``)."""
    kinds: dict[str, type[BaseModel]] = {**INPUT_MODELS, **outputs}
    out: dict[str, dict[str, Any]] = {}
    for stem, model in kinds.items():
        schema = model.model_json_schema(by_alias=True, mode="validation")
        name = f"{stem}.v{FORMAT_VERSION}.schema.json"
        out[name] = {"$schema": SCHEMA_DIALECT, "$id": name, **schema}
    return out


def render(schema: dict[str, Any]) -> str:
    """Stable text of a schema: sorted keys, two-space indent, final newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(out: Path, outputs: Mapping[str, type[BaseModel]]) -> list[Path]:
    """Write every schema into ``out``; return the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in json_schemas(outputs).items():
        path = out / name
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written
