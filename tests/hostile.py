"""Hostile text in every free-text field, and what a page built from it may not contain.

Free-text fields are found from the models, not listed by hand: a string field without a
pattern, enumeration or literal is free text, wherever it sits (nested models, lists, maps,
unions). So a field added later is poisoned too (:func:`free_text_fields` lists them).

Text goes in two ways. :meth:`Poisoner.walk` writes it into the input files, as a submitter
would, each field getting a payload its type accepts: validate passes and the build runs
the whole way. :meth:`Poisoner.walk_inputs` puts it into models already loaded, past
validation, so that text validate refuses (control characters, bidi overrides, links
that leave the site) still reaches the pages: the rendering must be safe on its own.

Each payload, if it ever ran, would call ``__pwn(n)``; the browser tests define ``__pwn``
and assert it was never called. :func:`scan` reads a page for what input must never add.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from html.parser import HTMLParser
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic.fields import FieldInfo

from generator.load import Inputs, Loaded, LoadedBundle, LoadedRelease
from generator.models import Bundle, Catalog, DeepDive, HarnessCard, Release, RunRecord

MARK = "__pwn"

#: One payload per channel a browser might execute: tags, attributes, URLs, Markdown links
#: and images, entities that might be decoded twice, template and Markdown-extension syntax,
#: a plotly pseudo-HTML link, breaking out of attributes, code spans, tables, the <title>
#: and the front matter, and a tracking pixel. Validate accepts each in a text field; a
#: Markdown field refuses those with a link that leaves the site (the next one is used).
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
    "OpenCode </title><script>__pwn(18)</script>",
    "x\n---\ntitle: <script>__pwn(19)</script>\n...\n---\n'\"",
    "![pixel](https://tracker.invalid/p.gif) <img src=//tracker.invalid/q.gif>",
)
#: Text validate refuses in every field, or in a Markdown field: put into loaded models.
#: The first is the issue's own: it ran a script from a combination's title in Chromium.
REFUSED = (
    "OpenCode\a </title><script>alert(document.domain);__pwn(20)</script>",
    "\u202e<script>__pwn(21)</script>\u2066",
    "\x00\x02wzxhzdk:0\x03\x1b[31m\x7f\x85 <script>__pwn(22)</script>",
    "![pixel](https://tracker.invalid/p.gif) ![p](//tracker.invalid/p.gif) [x](mailto:a@b)",
    "[js](javascript:__pwn(23)) <https://tracker.invalid/a> [h](/\\tracker.invalid/x)",
    "![d](data:image/svg+xml,<svg onload=__pwn(24)>) [d](data:text/html,<script>__pwn(24))",
)


def _constrained(meta: Any) -> bool:
    if isinstance(meta, FieldInfo):
        extra = meta.json_schema_extra if isinstance(meta.json_schema_extra, dict) else {}
        return "pattern" in extra or any(_constrained(m) for m in meta.metadata)
    return getattr(meta, "pattern", None) is not None


def _metadata(info: FieldInfo | None, annotation: Any) -> list[Any]:
    found: list[Any] = [info] if info is not None else []
    if typing.get_origin(annotation) is typing.Annotated:
        found += list(annotation.__metadata__)
    return found


def _base(annotation: Any) -> Any:
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = annotation.__origin__
    return annotation


def _options(annotation: Any) -> list[Any]:
    """The alternatives of a union (None left out), or the annotation itself."""
    base = _base(annotation)
    if typing.get_origin(base) in (typing.Union, types.UnionType):
        return [a for a in typing.get_args(base) if a is not type(None)]
    return [annotation]


def _is_model(annotation: Any) -> bool:
    base = _base(annotation)
    return isinstance(base, type) and issubclass(base, BaseModel)


def _text_option(info: FieldInfo | None, annotation: Any) -> Any | None:
    """The free-text alternative of an annotation (a str with no pattern), or None."""
    for option in _options(annotation):
        if _base(option) is str:
            metadata = _metadata(info, annotation) + _metadata(None, option)
            return None if any(_constrained(m) for m in metadata) else option
    return None


def free_text_fields(models: Sequence[type[BaseModel]]) -> set[str]:
    """Every ``Model.field`` of ``models`` and the models inside them that holds free text."""
    found: set[str] = set()
    seen: set[type[BaseModel]] = set()

    def visit(annotation: Any, where: str, info: FieldInfo | None = None) -> None:
        if _text_option(info, annotation) is not None:
            found.add(where)
        for option in _options(annotation):
            base = _base(option)
            if _is_model(base):
                model(base)
            for arg in typing.get_args(base):
                if typing.get_origin(base) in (list, tuple, set, frozenset, dict):
                    visit(arg, where)

    def model(cls: type[BaseModel]) -> None:
        if cls not in seen:
            seen.add(cls)
            for name, field in cls.model_fields.items():
                visit(field.annotation, f"{cls.__name__}.{name}", field)

    for cls in models:
        model(cls)
    return found


_ADAPTERS: dict[tuple[str, int], TypeAdapter[Any]] = {}


def _accepts(where: str, option: Any, info: FieldInfo | None, text: str) -> bool:
    """Whether the field's type (``option`` with the field's own constraints) takes ``text``."""
    key = (where, id(option))
    if key not in _ADAPTERS:
        metadata = info.metadata if info is not None else []
        _ADAPTERS[key] = TypeAdapter(Annotated[option, *metadata] if metadata else option)
    try:
        _ADAPTERS[key].validate_python(text)
    except ValidationError:
        return False
    return True


class Poisoner:
    """Walks data or loaded models alongside their model and appends a payload to every
    free-text string. ``fit``: only payloads the field's type accepts (for input files)."""

    def __init__(
        self,
        payloads: Sequence[str] = PAYLOADS,
        fit: bool = True,
        pinned: Mapping[str, str] | None = None,
    ) -> None:
        self.payloads = tuple(payloads)
        self.fit = fit
        self.pinned = dict(pinned or {})  # field → the payload it always gets
        self.count = 0
        self.fields: set[str] = set()

    def payload(
        self, where: str, value: str, accepts: Callable[[str], bool] = lambda _: True
    ) -> str:
        """The payload for ``value`` of field ``where``: the same for the same value, as
        text that must agree between files (a controlled setting, an axis value, a rater's
        title) still agrees; the first from there on that the field accepts."""
        self.count += 1
        if where in self.pinned:
            return self.pinned[where]
        start = sum(map(ord, f"{where}={value}"))
        n = len(self.payloads)
        order = [self.payloads[(start + i) % n] for i in range(n)]
        return next((p for p in order if not self.fit or accepts(p)), order[0])

    def _text(self, value: str, where: str, option: Any, info: FieldInfo | None) -> str:
        self.fields.add(where)
        fits = self.payload(where, value, lambda p: _accepts(where, option, info, f"{value} {p}"))
        return f"{value} {fits}"

    def walk(self, data: Any, annotation: Any, where: str, info: FieldInfo | None = None) -> Any:
        """Parsed input data (dicts, lists, strings) with payloads in its free text."""
        if data is None:
            return data
        options = _options(annotation)
        if isinstance(data, dict):
            models = [_base(o) for o in options if _is_model(o)]
            fit = [m for m in models if set(data) <= set(m.model_fields)] or models[:1]
            if fit:
                fields = fit[0].model_fields
                name = fit[0].__name__
                return {
                    k: self.walk(v, fields[k].annotation, f"{name}.{k}", fields[k])
                    if k in fields
                    else v
                    for k, v in data.items()
                }
        if isinstance(data, str):
            text = _text_option(info, annotation)
            return data if text is None else self._text(data, where, text, info)
        for option in options:
            base = _base(option)
            args = typing.get_args(base)
            origin = typing.get_origin(base)
            if isinstance(data, list) and origin in (tuple, list, set, frozenset):
                return [self.walk(v, args[0], where) for v in data]
            if isinstance(data, dict) and origin is dict:
                return {k: self.walk(v, args[1], where) for k, v in data.items()}
        return data

    def model(self, obj: BaseModel) -> BaseModel:
        """A copy of a model (unvalidated) with payloads in its free text. Empty optional
        text stays empty: filling it would change what a page shows (a tokenizer splits a
        chart), and the clean build would no longer compare."""
        updates = {}
        for name, field in type(obj).model_fields.items():
            value = getattr(obj, name)
            new = self._value(value, field.annotation, f"{type(obj).__name__}.{name}", field)
            if new is not value:
                updates[name] = new
        return obj.model_copy(update=updates) if updates else obj

    def _value(self, value: Any, annotation: Any, where: str, info: FieldInfo | None) -> Any:
        if isinstance(value, BaseModel):
            return self.model(value)
        text = _text_option(info, annotation)
        if text is not None and isinstance(value, str):
            return self._text(value, where, text, info)
        for option in _options(annotation):
            base = _base(option)
            args = typing.get_args(base)
            if isinstance(value, tuple | list) and typing.get_origin(base) in (tuple, list):
                return type(value)(self._value(v, args[0], where, None) for v in value)
            if isinstance(value, dict) and typing.get_origin(base) is dict:
                return {k: self._value(v, args[1], where, None) for k, v in value.items()}
        return value

    def walk_inputs(self, inputs: Inputs) -> Inputs:
        """Loaded inputs with payloads in every model's free text, validation bypassed."""

        def loaded(item: Loaded[Any] | None) -> Any:
            return None if item is None else dataclasses.replace(item, model=self.model(item.model))

        def bundle(b: LoadedBundle) -> LoadedBundle:
            raters = tuple(dataclasses.replace(r, rater=self.model(r.rater)) for r in b.raters)
            return dataclasses.replace(b, bundle=loaded(b.bundle), raters=raters)

        def release(r: LoadedRelease) -> LoadedRelease:
            return dataclasses.replace(
                r,
                release=loaded(r.release),
                catalog=loaded(r.catalog),
                bundles=tuple(map(bundle, r.bundles)),
                deep_dives=tuple(map(loaded, r.deep_dives)),
            )

        return dataclasses.replace(
            inputs,
            releases=tuple(map(release, inputs.releases)),
            cards={k: loaded(v) for k, v in inputs.cards.items()},
        )


MODELS: dict[str, type[BaseModel]] = {
    "release.yaml": Release,
    "tasks.yaml": Catalog,
    "bundle.yaml": Bundle,
}
#: Every model an input file is read into: their free-text fields are the ones to poison.
INPUT_MODELS = (Release, Catalog, Bundle, HarnessCard, DeepDive, RunRecord)


def _model_of(path: Path) -> type[BaseModel]:
    if path.parent.name == "harnesscards":
        return HarnessCard
    if path.parent.name == "deepdives":
        return DeepDive
    return MODELS[path.name]


def poison(root: Path, poisoner: Poisoner | None = None) -> Poisoner:
    """Rewrite every input under ``root`` with payloads in its free-text fields."""
    poisoner = poisoner or Poisoner()
    for path in sorted(root.rglob("*.yaml")):
        if path.parent.name == "raters":
            continue  # second raters' verdicts hold no free text
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        data = poisoner.walk(data, _model_of(path), path.name)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    for path in sorted(root.rglob("runs.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines[1:]]
        records = [poisoner.walk(r, RunRecord, "run") for r in records]
        body = [lines[0], *(json.dumps(r, separators=(",", ":")) for r in records)]
        path.write_text("\n".join(body) + "\n", encoding="utf-8")
    return poisoner


# ------------------------------------------------------------------ what a page may not hold

#: Elements that can run script, load something, or change the page when injected.
ACTIVE = {
    "script", "style", "iframe", "frame", "object", "embed", "img", "svg", "math", "details",
    "form", "input", "textarea", "button", "base", "meta", "link", "video", "audio", "source",
}  # fmt: skip
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "srcdoc", "xlink:href", "data", "poster"}
#: A URL that names a host ("//host", "https://host"), as browsers read it.
_HOST = re.compile(
    r"^[\s\x00-\x1f]*(?:(?:https?|ftp|wss?):|[a-z][a-z0-9+.-]*:[/\\]{2}|[/\\]{2})", re.IGNORECASE
)
_CSS_URL = re.compile(r"(?:url\(|@import)\s*['\"]?\s*(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)


class _Scan(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.active: Counter[str] = Counter()
        self.attributes: Counter[tuple[str, str]] = Counter()
        self.bad: list[str] = []
        self.remote: list[str] = []
        self.titles: list[str] = []
        self._in: str = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in = tag
        if tag in ACTIVE:
            self.active[tag] += 1
        for name, value in attrs:
            value = value or ""
            self.attributes[(tag, name)] += 1
            in_page = name == "href" and value.startswith("#")  # an anchor made from a heading
            if MARK in value and (name.startswith("on") or name in URL_ATTRIBUTES) and not in_page:
                self.bad.append(f"<{tag} {name}={value[:60]!r}>")
            if name in URL_ATTRIBUTES and value.strip().lower().startswith(
                ("javascript:", "data:")
            ):
                self.bad.append(f"<{tag} {name}={value[:60]!r}>")
            urls = (
                [u.split()[0] for u in value.split(",") if u.strip()]
                if name == "srcset"
                else [value]
            )
            if (name in URL_ATTRIBUTES | {"srcset"} and any(_HOST.match(u) for u in urls)) or (
                name == "style" and _CSS_URL.search(value)
            ):
                self.remote.append(f"<{tag} {name}={value[:60]!r}>")

    def handle_endtag(self, tag: str) -> None:
        self._in = ""

    def handle_data(self, data: str) -> None:
        if self._in == "title":
            self.titles.append(data)
        elif self._in == "style" and _CSS_URL.search(data):
            self.remote.append(f"<style>{data[:60]!r}")


def scan(text: str) -> _Scan:
    """What a page's HTML holds: active elements, attributes, references to another host,
    handlers or URLs carrying a payload, and the text of its <title>."""
    parser = _Scan()
    parser.feed(text)
    parser.close()
    return parser
