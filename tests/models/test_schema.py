"""The committed JSON Schemas match the models, and the example satisfies them."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from generator.models import INPUT_MODELS
from generator.models.schema import json_schemas, render
from generator.score.results import OUTPUT_MODELS

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "site_src" / "schemas"


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _validator(kind: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((COMMITTED / f"{kind}.v1.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _yaml(path: Path) -> Any:
    return _jsonable(yaml.safe_load(path.read_text(encoding="utf-8")))


def test_committed_schemas_match_the_models() -> None:
    generated = json_schemas(OUTPUT_MODELS)
    committed = {p.name for p in COMMITTED.glob("*.json")}
    assert committed == set(generated), "run: python -m generator schema"
    for name, schema in generated.items():
        assert (COMMITTED / name).read_text(encoding="utf-8") == render(schema), (
            f"{name} drifted from the models; run: python -m generator schema"
        )


YAML_KINDS = {
    "release": "results/*/release.yaml",
    "tasks": "results/*/tasks.yaml",
    "bundle": "results/*/bundles/*/bundle.yaml",
    "deepdive": "results/*/deepdives/*.yaml",
    "harnesscard": "harnesscards/*.yaml",
}


@pytest.mark.parametrize("kind", sorted(YAML_KINDS))
def test_example_files_satisfy_their_schema(kind: str) -> None:
    paths = sorted(REPO.glob(YAML_KINDS[kind]))
    assert paths
    validator = _validator(kind)
    for path in paths:
        errors = list(validator.iter_errors(_yaml(path)))
        assert not errors, (path, [e.message for e in errors])


def test_example_runs_satisfy_their_schema() -> None:
    header, run = _validator("runs-header"), _validator("run")
    paths = sorted(REPO.glob("results/*/bundles/*/runs.jsonl"))
    assert paths
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        header.validate(json.loads(lines[0]))
        for line in lines[1:]:
            run.validate(json.loads(line))


def test_schemas_reject_what_the_models_reject() -> None:
    card = _yaml(REPO / "harnesscards" / "lingee-2.3.yaml")
    del card["layers"]["tool"]["schema_style"]
    assert not _validator("harnesscard").is_valid(card)
    card = _yaml(REPO / "harnesscards" / "lingee-2.3.yaml")
    card["format_version"] = 2
    assert not _validator("harnesscard").is_valid(card)
    record = json.loads(
        (REPO / "results/v1.0/bundles/lingee/runs.jsonl").read_text().splitlines()[1]
    )
    assert _validator("run").is_valid(record)
    record["input_tokens"] = -1
    assert not _validator("run").is_valid(record)


def _undescribed(node: Any, where: str) -> list[str]:
    """Every property of a schema (nested definitions included) that has no description."""
    out: list[str] = []
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            out += [f"{where}.{k}" for k, v in properties.items() if "description" not in v]
        for key, value in node.items():
            out += _undescribed(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _undescribed(value, f"{where}[{i}]")
    return out


def test_every_property_of_every_schema_has_a_description() -> None:
    schemas = json_schemas(OUTPUT_MODELS)
    assert _undescribed({"$defs": {"A": {"properties": {"x": {}}}}}, "probe") == [
        "probe/$defs/A.x"
    ]  # the walk finds what it looks for
    missing = [m for name, schema in schemas.items() for m in _undescribed(schema, name)]
    assert missing == []
    committed = Path(__file__).resolve().parents[2] / "site_src" / "schemas"
    assert len(schemas) == len(INPUT_MODELS) + 1  # each input kind and the report
    for name in schemas:  # the committed files, too, which the README links
        assert _undescribed(json.loads((committed / name).read_text("utf-8")), name) == []
