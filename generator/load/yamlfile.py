"""Read a YAML input file safely, keeping the line of every value.

Duplicate keys, non-text keys, multiple documents, aliases that expand too far and
oversized files are reported as problems instead of being silently accepted.

Every file is first offered to rapidyaml (:mod:`generator.load.yamlrapid`), which reads it
only when it must give PyYAML's result; whatever it declines is read here by composing
libyaml's node tree (the full path), which also reports problems and says why in the
file's :attr:`Source.full_reader`. A file the fast path read has no line map until a
problem needs a line: then the full path reads its text once (:class:`LinesOnDemand`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from generator.errors import Problem, shown
from generator.load import yamlrapid
from generator.load.source import Loc, Source, dotted
from generator.load.validate import M, validate_as

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_NODES = 2_000_000
MAX_DEPTH = 64

_Loader = yamlrapid.LOADER


class _Stop(Exception):
    """Abort the walk of one file with a problem."""

    def __init__(self, line: int | None, field: str, message: str) -> None:
        super().__init__(message)
        self.line, self.field, self.message = line, field, message


_STR = "tag:yaml.org,2002:str"


class _Builder:
    """Turn a composed node tree into plain Python values, recording lines."""

    def __init__(self, loader: yaml.SafeLoader) -> None:
        self.loader = loader
        self.lines: dict[Loc, int] = {}
        self.nodes = 0

    def build(self, node: Node, loc: Loc) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Stop(None, "", f"more than {MAX_NODES:,} values (an alias expanding too far?)")
        if len(loc) > MAX_DEPTH:
            raise _Stop(node.start_mark.line + 1, dotted(loc), f"nested deeper than {MAX_DEPTH}")
        self.lines.setdefault(loc, node.start_mark.line + 1)
        if node.tag == _STR:  # most values: plain text needs no constructor
            return node.value
        if isinstance(node, MappingNode):
            return self._mapping(node, loc)
        if isinstance(node, SequenceNode):
            return [self.build(child, (*loc, i)) for i, child in enumerate(node.value)]
        assert isinstance(node, ScalarNode)
        try:
            return self.loader.construct_object(node, deep=True)
        except (ValueError, OverflowError) as exc:  # e.g. a timestamp out of range
            if "integer string conversion" in str(exc):
                raise _Stop(
                    node.start_mark.line + 1, dotted(loc), "a number with too many digits"
                ) from exc
            raise _Stop(
                node.start_mark.line + 1, dotted(loc), f"{shown(node.value)} is not valid: {exc}"
            ) from exc

    def _mapping(self, node: MappingNode, loc: Loc) -> dict[str, Any]:
        if node.tag == "tag:yaml.org,2002:merge" or any(
            k.tag == "tag:yaml.org,2002:merge" for k, _ in node.value
        ):
            raise _Stop(
                node.start_mark.line + 1, dotted(loc), "merge keys ('<<') are not supported"
            )
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _STR:
                key = key_node.value
            else:
                key = self.loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if not isinstance(key, str):
                raise _Stop(line, dotted(loc), f"key {key!r} is not text; expected a field name")
            if key in out:
                raise _Stop(line, dotted((*loc, key)), "duplicate key; each field may appear once")
            self.lines[(*loc, key)] = line
            out[key] = self.build(value_node, (*loc, key))
        return out


def read_yaml(path: Path, rel: str) -> tuple[Any, Source] | Problem:
    """Parse ``path``; return its data and source, or the first problem that stops parsing."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return Problem(
                rel, None, "", f"file is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}"
            )
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return Problem(rel, line, "", f"not UTF-8 text ({exc.reason} at byte {exc.start})")
    except OSError as exc:
        return Problem(rel, None, "", f"cannot be read: {exc.strerror}")
    fast = yamlrapid.read(text, MAX_NODES)
    if not isinstance(fast, yamlrapid.Declined):
        return fast, Source(rel, LinesOnDemand(text, rel))
    full = read_text(text, rel)
    if isinstance(full, Problem):
        return full
    return full[0], Source(rel, full[1].lines, full_reader=fast.reason)


#: PyYAML's words for a block that ends or goes on where the indentation says otherwise.
_BLOCK_ERRORS = (
    "mapping values are not allowed",
    "did not find expected key",
    "expected <block end>",
    "did not find expected '-' indicator",
)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _layout_hint(text: str, line: int | None, what: str) -> str:
    """What PyYAML's message means when a tab or the indentation caused it: YAML indents
    with spaces only, and a line's indentation says which block it belongs to."""
    if line is None:
        return ""
    lines = text.splitlines()
    near = lines[max(line - 2, 0) : line]  # PyYAML may point at the line after the culprit
    for offset, row in enumerate(near):
        if "\t" in _indent(row) or ("\t" in row and "tab" in what):
            number = max(line - 2, 0) + offset + 1
            return (
                f"; line {number} has a tab character in its indentation: YAML indents "
                "with spaces only (replace the tab by spaces)"
            )
    if not any(error in what for error in _BLOCK_ERRORS) or line > len(lines):
        return ""
    above = [row for row in lines[: line - 1] if row.strip() and not row.lstrip().startswith("#")]
    width = len(_indent(lines[line - 1]))
    if not above or len(_indent(above[-1])) == width:
        return ""  # e.g. 'a: b: c', a colon inside a value
    return (
        f"; check the indentation: line {line} is indented by {width} space(s), the line "
        f"above by {len(_indent(above[-1]))}, and "
        "fields of one mapping (or items of one list) line up at the same column"
    )


class LinesOnDemand(Mapping[Loc, int]):
    """The line map of a text the fast path read, made by the full path when first used.

    Only a file with a problem to locate pays for it; the text is kept until then.
    """

    def __init__(self, text: str, rel: str) -> None:
        self._text, self._rel = text, rel
        self._lines: Mapping[Loc, int] | None = None
        self._lock = threading.Lock()

    @property
    def made(self) -> bool:
        """Whether the full path has read the text yet."""
        return self._lines is not None

    def _made(self) -> Mapping[Loc, int]:
        with self._lock:
            if self._lines is None:
                full = read_text(self._text, self._rel)
                self._lines = {} if isinstance(full, Problem) else full[1].lines
                self._text = ""
            return self._lines

    def __getitem__(self, loc: Loc) -> int:
        return self._made()[loc]

    def __iter__(self) -> Iterator[Loc]:
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())


def read_text(text: str, rel: str) -> tuple[Any, Source] | Problem:
    """Parse ``text`` by composing libyaml's node tree (the full path, for any YAML)."""
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Problem(
                rel, None, "", "file is empty; expected a YAML mapping with format_version"
            )
        builder = _Builder(loader)
        data = builder.build(node, ())
    except _Stop as stop:
        return Problem(rel, stop.line, stop.field, stop.message)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        what = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        return Problem(rel, line, "", f"invalid YAML: {what}{_layout_hint(text, line, what)}")
    except yaml.YAMLError as exc:
        return Problem(rel, None, "", f"invalid YAML: {exc}")
    except (ValueError, OverflowError) as exc:  # e.g. a timestamp out of range
        return Problem(rel, None, "", f"invalid YAML value: {exc}")
    finally:
        loader.dispose()
    return data, Source(rel, builder.lines)


def read_valid(model: type[M], path: Path, root: Path) -> M | None:
    """The file at ``path`` (under ``root``) as ``model``, if it reads and validates."""
    if not path.is_file():
        return None
    read = read_yaml(path, path.relative_to(root).as_posix())
    if isinstance(read, Problem):
        return None
    valid = validate_as(model, *read)
    return valid if isinstance(valid, model) else None
