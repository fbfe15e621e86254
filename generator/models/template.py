"""The bundle template of ``python -m generator new-bundle``, written from the models.

Every field of :class:`~generator.models.bundle.Bundle` appears with its description as a
comment; what the release fixes (its version, runs per task and component versions) is filled
in, and every other required value is :data:`PLACEHOLDER`, which ``validate`` reports as "not
filled in yet" with the field's description. Optional fields are written commented out.
"""

from __future__ import annotations

import textwrap
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal

import yaml
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from generator.models.base import FORMAT_VERSION
from generator.models.bundle import Bundle
from generator.models.release import Release

#: What the template writes where a value is wanted; ``validate`` names each one left.
PLACEHOLDER = "<fill in>"

#: The input kinds ``new-bundle`` writes a template of: only these are searched for
#: :data:`PLACEHOLDER` (a walk over every value; the task catalog can be megabytes).
TEMPLATED: tuple[type[BaseModel], ...] = (Bundle,)

WIDTH = 92

#: The runs file of a new bundle: the header line, and no run yet.
RUNS_HEADER = f'{{"format_version": {FORMAT_VERSION}}}\n'

_HEAD = """\
# A result bundle of {version}: one evaluated combination (harness × model), written by
# `python -m generator new-bundle`. Replace every {placeholder}, then run
# `python -m generator validate` in the folder that holds results/: each value still
# missing is named with its file, line and field. Quote versions and dates that must stay
# text ("2.3", "2026-10-01"). The format: site_src/schemas/bundle.v1.schema.json.
# The runs go into runs.jsonl beside this file: the header line it already has, then one
# JSON object a line per run (site_src/schemas/run.v1.schema.json).
"""


def _unwrap(kind: Any) -> list[Any]:
    """The types inside an optional, a union, a tuple or a list annotation."""
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType, tuple, list):
        return [k for arg in typing.get_args(kind) for k in _unwrap(arg) if k is not Ellipsis]
    return [kind]


def submodel(info: FieldInfo | None) -> type[BaseModel] | None:
    """The model a field holds (alone, optional, or as the items of a list), if any."""
    if info is None:
        return None
    found = [k for k in _unwrap(info.annotation) if isinstance(k, type)]
    return next((k for k in found if issubclass(k, BaseModel)), None)


def describe(model: type[BaseModel], loc: tuple[str | int, ...]) -> str | None:
    """The description of the field at ``loc`` of ``model`` (list positions skipped; a key
    of a mapping field is described by that field)."""
    info: FieldInfo | None = None
    current: type[BaseModel] | None = model
    for part in loc:
        if isinstance(part, int):
            continue
        if current is None:
            break
        info = current.model_fields.get(part)
        current = submodel(info)
    return None if info is None else info.description


def _scalar(value: Any) -> str:
    """A value as YAML writes it on one line, quoted when it would read otherwise."""
    text: str = yaml.safe_dump([value], default_flow_style=True, allow_unicode=True, width=10**6)
    return text.strip()[1:-1]


def _allowed(info: FieldInfo) -> str:
    """What a closed or boolean field accepts, said after its description."""
    for kind in _unwrap(info.annotation):
        if typing.get_origin(kind) is Literal:
            return " One of: " + ", ".join(str(a) for a in typing.get_args(kind)) + "."
    return ""


def _comment(text: str, indent: str) -> list[str]:
    return textwrap.wrap(
        text, WIDTH - len(indent), initial_indent=f"{indent}# ", subsequent_indent=f"{indent}# "
    )


def _lines(model: type[BaseModel], filled: Mapping[str, Any], depth: int) -> list[str]:
    indent = "  " * depth
    out: list[str] = []
    for name, info in model.model_fields.items():
        key = info.alias or name
        if depth == 0:
            out.append("")
        described = (info.description or info.title or "") + _allowed(info)
        out += _comment(described, indent) if described.strip() else []
        inner = submodel(info)
        if name in filled and not isinstance(filled[name], Mapping):
            out.append(f"{indent}{key}: {_scalar(filled[name])}")
        elif name in filled:
            out.append(f"{indent}{key}:")
            if inner is None:  # a mapping of names to values (e.g. the scorer components)
                out += [f"{indent}  {k}: {_scalar(v)}" for k, v in filled[name].items()]
            else:
                out += _lines(inner, filled[name], depth + 1)
        elif not info.is_required() and inner is not None:
            out.append(f"{indent}# {key}:  # optional: remove one '# ' from each line to use it")
            out += [f"{indent}# {line[len(indent) :]}" for line in _entry(inner, info, depth)]
        elif not info.is_required():
            default = info.get_default(call_default_factory=True)
            shown = PLACEHOLDER if default is None else default
            out.append(f"{indent}# {key}: {_scalar(shown)}  # optional")
        elif inner is not None and typing.get_origin(info.annotation) is None:
            out.append(f"{indent}{key}:")
            out += _lines(inner, {}, depth + 1)
        elif typing.get_origin(info.annotation) is dict:
            out.append(f"{indent}{key}:")
            out.append(f"{indent}  {_scalar(PLACEHOLDER)}: {_scalar(PLACEHOLDER)}")
        else:
            out.append(f"{indent}{key}: {_scalar(PLACEHOLDER)}")
    return out


def _entry(inner: type[BaseModel], info: FieldInfo, depth: int) -> list[str]:
    """The fields of ``inner`` one level down; as a list's first entry when ``info`` holds a
    list of them ("- " before its first field)."""
    lines = [line for line in _lines(inner, {}, depth + 1) if line]
    if typing.get_origin(info.annotation) in (tuple, list):
        inside = "  " * (depth + 1)
        first = next(i for i, line in enumerate(lines) if not line.lstrip().startswith("#"))
        lines[first] = "  " * depth + "- " + lines[first][len(inside) :]
    return lines


def bundle_template(version: str, combination: str, release: Release | None) -> str:
    """The text of a new ``bundle.yaml`` for ``combination`` in ``version``; what the
    ``release`` fixes is filled in when it could be read."""
    configuration: dict[str, Any] = {}
    if release is not None:
        components = release.components.model_dump(mode="json")
        configuration = {"runs_per_task": release.runs_per_task}
        configuration["pipeline_components"] = components
    filled: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "release": version,
        "combination": {"id": combination},
        "configuration": configuration,
    }
    head = _HEAD.format(version=version, placeholder=_scalar(PLACEHOLDER))
    return head + "\n".join(_lines(Bundle, filled, 0)) + "\n"
