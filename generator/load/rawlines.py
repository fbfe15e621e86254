"""Byte-level checks of a runs file that its bulk reader cannot make: the lines it must
hand to the line-by-line reader (a field written as null that may only be absent, bytes that
are not UTF-8)."""

from __future__ import annotations

import codecs
import typing

from pydantic import BaseModel

from generator.load.runschema import unwrap
from generator.models.runs import RunRecord


def _defaulted(model: type[BaseModel]) -> set[bytes]:
    """JSON names of fields that may be absent but not null, in ``model`` and its items."""
    names: set[bytes] = set()
    for name, info in model.model_fields.items():
        base, nullable = unwrap(info.annotation)
        if not info.is_required() and not nullable:
            names.add((info.alias or name).encode())
        if typing.get_origin(base) in (tuple, list):
            item, _ = unwrap(typing.get_args(base)[0])
            if isinstance(item, type) and issubclass(item, BaseModel):
                names |= _defaulted(item)
    return names


_DEFAULTED = sorted(_defaulted(RunRecord))


def suspect_nulls(raw: bytes, start: int) -> set[int]:
    """Lines where a field that may be absent is written as null: Arrow reads that as
    absent, pydantic refuses it. A few byte searches, and only when the file has a null."""
    lines: set[int] = set()
    if raw.find(b"null", start) == -1:
        return lines
    for key in _DEFAULTED:
        for needle in (b'"' + key + b'":null', b'"' + key + b'": null'):
            at_ = raw.find(needle, start)
            while at_ != -1:
                lines.add(raw.count(b"\n", 0, at_) + 1)
                at_ = raw.find(needle, at_ + 1)
    return lines


#: Bytes decoded at a time when a runs file is checked for UTF-8.
UTF8_CHUNK = 1 << 24


def not_utf8_lines(raw: bytes, start: int) -> set[int]:
    """Lines holding bytes that are not UTF-8 text: Arrow's reader takes any bytes inside a
    string. Decoded a chunk at a time (no copy of the file); an ASCII file is not decoded."""
    lines: set[int] = set()
    if raw.isascii():
        return lines
    view, at, line, counted = memoryview(raw), start, 1, 0
    decoder = codecs.getincrementaldecoder("utf-8")()
    while at < len(raw):
        chunk = view[at : at + UTF8_CHUNK]
        pending = len(decoder.getstate()[0])  # bytes of a character cut by the last chunk
        try:
            decoder.decode(chunk, final=at + len(chunk) >= len(raw))
            at += len(chunk)
            continue
        except UnicodeDecodeError as exc:
            bad = at - pending + exc.start
        line += raw.count(b"\n", counted, bad)
        counted = bad
        lines.add(line)
        end = raw.find(b"\n", bad)
        at = len(raw) if end == -1 else end + 1
        decoder.reset()
    return lines
