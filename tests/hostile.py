"""A copy of the example whose every free-text field carries a script-injection payload.

Free-text fields are found from the models, not listed by hand: a string field without a
pattern, enumeration or literal is free text, wherever it sits (nested models, lists, maps,
unions). So a field added later is poisoned too. Each payload, if it ever ran, would call
``__pwn(n)``; the browser test defines ``__pwn`` and asserts it was never called.
"""

from __future__ import annotations

import json
import types
import typing
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from generator.models import Bundle, Catalog, DeepDive, HarnessCard, Release, RunRecord

MARK = "__pwn"

#: One payload per channel a browser might execute: tags, attributes, URLs, Markdown links
#: and images, entities that might be decoded twice, template and Markdown-extension syntax,
#: a plotly pseudo-HTML link, and breaking out of attributes, code spans and tables.
PAYLOADS = (
    "<script>__pwn(1)</script>",
    "<img src=x onerror=__pwn(2)>",
    '"><svg onload=__pwn(3)>',
    '\'><iframe srcdoc="<script>parent.__pwn(4)</script>"></iframe>',
    "[click me](javascript:__pwn(5))",
    "[data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd24oNik8L3NjcmlwdD4=)",
    '<a href="javascript:__pwn(7)">link</a>',
    "&lt;script&gt;__pwn(8)&lt;/script&gt;",
    "`</code><script>__pwn(9)</script>`",
    "<details open ontoggle=__pwn(10)>x</details>",
    "![img](x onerror=__pwn(11))",
    "{: onclick=__pwn(12) } {{ __pwn(12) }} {% raw %}",
    "| a | <b onmouseover=__pwn(13)>b</b> |",
    "<style>@import 'javascript:__pwn(14)';</style>",
    "[auto](<javascript:__pwn(15)>) <javascript:__pwn(15)>",
    "</textarea></title></script><script>__pwn(16)</script>",
    '<a href="https://example.invalid/" onclick="__pwn(17)">plotly link</a>',
    "\u202e<script>__pwn(18)</script>",
)


def _constrained(meta: Any) -> bool:
    if isinstance(meta, FieldInfo):
        extra = meta.json_schema_extra if isinstance(meta.json_schema_extra, dict) else {}
        return "pattern" in extra or any(_constrained(m) for m in meta.metadata)
    return getattr(meta, "pattern", None) is not None


def _free_text(info: FieldInfo | None, annotation: Any) -> bool:
    """A string with no pattern: free text (ids, versions and file names have patterns)."""
    metadata: list[Any] = [info] if info is not None else []
    if typing.get_origin(annotation) is typing.Annotated:
        metadata += list(annotation.__metadata__)
    return not any(_constrained(m) for m in metadata)


def _base(annotation: Any) -> Any:
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = annotation.__origin__
    return annotation


# Models of the settings a release holds fixed across its bundles (controlled factors, §4.1).
SHARED = frozenset({"Evaluator", "BundleBudgets", "Clarification", "Components"})


class Poisoner:
    """Walks data alongside its model and appends a payload to every free-text string."""

    def __init__(self) -> None:
        self.count = 0
        self.fields: set[str] = set()

    def payload(self, where: str) -> str:
        if where.split(".")[0] in SHARED:
            # a setting every bundle of a release must share (§4.1): one payload per field
            return PAYLOADS[sum(map(ord, where)) % len(PAYLOADS)]
        self.count += 1
        return PAYLOADS[self.count % len(PAYLOADS)]

    def walk(self, data: Any, annotation: Any, where: str, info: FieldInfo | None = None) -> Any:
        base = _base(annotation)
        origin = typing.get_origin(base)
        if isinstance(base, type) and issubclass(base, BaseModel):
            if not isinstance(data, dict):
                return data
            out = dict(data)
            for key, value in data.items():
                field = base.model_fields.get(key)
                if field is not None:
                    out[key] = self.walk(value, field.annotation, f"{base.__name__}.{key}", field)
            return out
        if origin in (typing.Union, types.UnionType):
            options = [a for a in typing.get_args(base) if a is not type(None)]
            if data is None:
                return data
            models = [
                a for a in map(_base, options) if isinstance(a, type) and issubclass(a, BaseModel)
            ]
            if isinstance(data, dict) and models:
                fit = [m for m in models if set(data) <= set(m.model_fields)]
                return self.walk(data, fit[0], where) if fit else data
            plain = [
                o
                for o in options
                if not (isinstance(_base(o), type) and issubclass(_base(o), BaseModel))
            ]
            return self.walk(data, plain[0], where, info) if plain else data
        if origin in (tuple, list, set, frozenset) and isinstance(data, list):
            item = typing.get_args(base)[0]
            return [self.walk(v, item, where) for v in data]
        if origin is dict and isinstance(data, dict):
            value_type = typing.get_args(base)[1]
            return {k: self.walk(v, value_type, where) for k, v in data.items()}
        if base is str and isinstance(data, str) and _free_text(info, annotation):
            self.fields.add(where)
            return f"{data} {self.payload(where)}"
        return data


MODELS: dict[str, type[BaseModel]] = {
    "release.yaml": Release,
    "tasks.yaml": Catalog,
    "bundle.yaml": Bundle,
}


def _model_of(path: Path) -> type[BaseModel]:
    if path.parent.name == "harnesscards":
        return HarnessCard
    if path.parent.name == "deepdives":
        return DeepDive
    return MODELS[path.name]


def poison(root: Path) -> Poisoner:
    """Rewrite every input under ``root`` with payloads in its free-text fields."""
    poisoner = Poisoner()
    for path in sorted(root.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data = poisoner.walk(data, _model_of(path), path.name)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    for path in sorted(root.rglob("*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines[1:]]
        records = [poisoner.walk(r, RunRecord, "run") for r in records]
        body = [lines[0], *(json.dumps(r, separators=(",", ":")) for r in records)]
        path.write_text("\n".join(body) + "\n", encoding="utf-8")
    return poisoner
