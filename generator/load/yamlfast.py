"""A fast reader for the plain block-style YAML that input files are written in.

Composing libyaml's node tree and resolving every scalar in Python costs seconds on a
large task catalog. :func:`parse` reads the common subset directly, line by line, and gives
the same values and the same line map as the full path in :mod:`generator.load.yamlfile`.

The subset:

* block mappings and block sequences by indentation, including ``- key: value`` items,
  ``- - item``, sequences at the indentation of their key, and any number of spaces after
  a dash;
* plain scalars, also folded over more-indented continuation lines (as ``yaml.safe_dump``
  writes long text);
* single- and double-quoted scalars, also over several lines, with the escapes
  ``yaml.safe_dump`` writes (``\\n``, ``\\x..``, ``\\u....``, an escaped line break, ...);
* literal and folded block scalars (``|``, ``|-``, ``>``, ``>-``) with their indentation
  found from the first line;
* flow collections on one line, e.g. ``{value: "text"}``, ``[a, b]``, ``[]``, ``{}``,
  holding quoted scalars and plain scalars without ``:``, ``#`` or ``?``;
* comments and blank lines.

A plain scalar's type is resolved with PyYAML's own implicit resolvers and built with its
own SafeConstructor, so ``yes``, ``0o17``, ``1_000``, ``.nan``, ``~`` or ``2024-01-01`` come
out exactly as from the full path.

Anything else, or anything the full path would report as a problem, makes :func:`parse`
return None so that the full path runs and says what is wrong: anchors, aliases, tags,
``?`` keys, directives, document markers, multi-line flow collections, tabs, carriage
returns and control characters, block scalars with an explicit indentation or ``+``
chomping, keys that are not text (``1:``, ``null:``, ``<<:``), duplicate keys, values a
constructor refuses, nesting deeper than the limit, too many values, and any indentation
or line the subset does not know. Declining is always safe; a result is only returned when
it is the full path's result.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import ScalarNode

from generator.load.source import Loc

# Characters libyaml reads as ordinary printable text. Tabs, carriage returns, other
# line breaks (NEL, U+2028, U+2029), the byte-order mark and control characters all send
# the text to the full path.
_UNSUPPORTED = re.compile(
    r"[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
_MARKER = re.compile(r"^(?:---|\.\.\.)(?:[ ]|$)", re.MULTILINE)

# One word of a block plain scalar: ':' only before a non-space, '#' only after one.
_CHUNK = r"(?:[^ :#\n]++|:(?=[^ \n])|(?<=[^ \n])#)"
_WORD = rf"{_CHUNK}++"
# A block plain scalar on one line: it may not start with an indicator (but '-', '?' and
# ':' may start it when a non-space follows); spaces only between words.
_PLAIN = rf"(?:[^ \n\-?:,\[\]{{}}#&*!|>'\"%@`]|[-?:](?=[^ \n])){_CHUNK}*+(?: ++{_WORD})*+"
_SINGLE = r"'(?:[^']++|'')*+'"
_DOUBLE = r'"(?:[^"\\]++|\\.)*+"'
# What may follow a value on its line: nothing, spaces, or spaces and a comment.
_TAIL_RE = r"(?: ++(#.*+)?)?\Z"

# Every line of a text at once: indentation with any dash, and a key with a value or
# nothing, where the key is a plain word and the value plain text without ':' or '#'. Lines
# in any other form get an empty key and are read by the exact (slower) functions below.
_SIMPLE = r"[^ \n\-?:,\[\]{}#&*!|>'\"%@`]"
_ROW = re.compile(
    rf"^( *+(?:- ++)?)(?:({_SIMPLE}[^ :#\n]*+):(?: ({_SIMPLE}(?:[^:#\n]*[^ :#\n])?))?$)?",
    re.MULTILINE,
)
# The start of any mapping entry: a plain or quoted key, then ':' and a space or the end.
_HEAD = re.compile(rf"({_PLAIN}|{_SINGLE}|{_DOUBLE}):(?= |\Z)")
_PLAIN_TAIL = re.compile(rf"({_PLAIN}){_TAIL_RE}")
_CONTINUED = re.compile(rf"({_WORD}(?: ++{_WORD})*+){_TAIL_RE}")
_TAIL = re.compile(_TAIL_RE)
_SINGLE_ONE = re.compile(r"'((?:[^']++|'')*+)'")
_DOUBLE_ONE = re.compile(r'"((?:[^"\\]++|\\.)*+)"')
_SINGLE_END = re.compile(r"((?:[^']++|'')*+)'")
_DOUBLE_END = re.compile(r'((?:[^"\\]++|\\.)*+)"')
_BLOCK_HEADER = re.compile(rf"([|>])(-?){_TAIL_RE}")
_FLOW_PLAIN = re.compile(
    r"(?:[^ ,\[\]{}:#?&*!|>'\"%@`\-]|-(?=[^ ,\[\]{}:#?]))(?:[^,\[\]{}:#?]*[^ ,\[\]{}:#?])?"
)
# Line folding inside quoted scalars: spaces, a line break, blank lines, indentation.
_FOLD = re.compile(r" *\n((?: *\n)*+) *")
_DOUBLE_PART = re.compile(
    r"\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.)|\n((?: *\n)*+) *)"
    r"| *\n((?: *\n)*+) *"
)
_ESCAPES = {
    "0": "\0",
    "a": "\x07",
    "b": "\x08",
    "t": "\t",
    "n": "\n",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}

_STR = "tag:yaml.org,2002:str"
_BUILT = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("null", "bool", "int", "float", "timestamp")
)
#: Keys longer than this are left to the full path (libyaml refuses simple keys over 1024).
_MAX_KEY = 1000


class _Decline(Exception):
    """The text is outside the subset; the full path must read it."""


def parse(
    text: str, loader: type[yaml.SafeLoader], max_depth: int, max_nodes: int
) -> tuple[Any, dict[Loc, int]] | None:
    """Data and line map of ``text``, or None when the full path must read it."""
    if _UNSUPPORTED.search(text):
        return None
    if ("\n---" in text or "\n..." in text or text.startswith(("---", "..."))) and (
        _MARKER.search(text)
    ):
        return None
    try:
        scalars = _Scalars(loader)
        return _Parser(text, scalars, max_depth, max_nodes).document()
    except _Decline:
        return None


def _fold(match: re.Match[str]) -> str:
    """One line break becomes a space; n + 1 breaks become n newlines."""
    return "\n" * match[1].count("\n") or " "


def _unquote_single(body: str) -> str:
    """The value of a single-quoted scalar from the text between its quotes."""
    if "\n" in body:
        body = _FOLD.sub(_fold, body)
    return body.replace("''", "'")


def _double_part(match: re.Match[str]) -> str:
    """The value of one escape sequence or line break in a double-quoted scalar."""
    hexa = match[1] or match[2] or match[3]
    if hexa is not None:
        code = int(hexa, 16)
        if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
            raise _Decline
        return chr(code)
    if match[4] is not None:
        if match[4] not in _ESCAPES:
            raise _Decline
        return _ESCAPES[match[4]]
    if match[5] is not None:  # an escaped line break joins the lines without a space
        return "\n" * match[5].count("\n")
    return "\n" * match[6].count("\n") or " "


def _unquote_double(body: str) -> str:
    """The value of a double-quoted scalar from the text between its quotes."""
    if "\\" not in body and "\n" not in body:
        return body
    return _DOUBLE_PART.sub(_double_part, body)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_dash(line: str, col: int) -> bool:
    """Whether a block sequence entry ('-' then a space or the end) sits at ``col``."""
    return line[col] == "-" and (len(line) == col + 1 or line[col + 1] == " ")


def _tail(line: str, end: int) -> None:
    """Decline unless only spaces and a comment follow a value on its line."""
    if _TAIL.match(line, end) is None:
        raise _Decline


class _Scalars:
    """Plain scalars resolved and constructed exactly as the loader would."""

    def __init__(self, loader: type[yaml.SafeLoader]) -> None:
        resolvers = loader.yaml_implicit_resolvers
        if loader.yaml_path_resolvers or None in resolvers:
            raise _Decline
        self.resolvers = resolvers
        self.constructors = loader.yaml_constructors
        self.constructor = SafeConstructor()
        #: First characters some implicit resolver looks at; other plain text is a str.
        self.starts = frozenset(k for k in resolvers if k)
        self.cache: dict[str, Any] = {}

    def plain(self, raw: str) -> Any:
        """The value of a plain scalar whose text is ``raw``."""
        if raw and raw[0] not in self.starts:
            return raw
        try:
            return self.cache[raw]
        except KeyError:
            value = self.cache[raw] = self._construct(raw)
            return value

    def key(self, raw: str) -> str:
        """A plain key; decline keys that are not text (``1``, ``null``, ``<<``...) or long."""
        value = self.plain(raw)
        if not isinstance(value, str) or len(raw) > _MAX_KEY:
            raise _Decline
        return value

    def _construct(self, raw: str) -> Any:
        tag = self._resolve(raw)
        if tag == _STR:
            return raw
        if tag not in _BUILT or tag not in self.constructors:
            raise _Decline
        try:
            return self.constructors[tag](self.constructor, ScalarNode(tag, raw))
        except Exception as exc:  # the full path reports whatever the constructor says
            raise _Decline from exc

    def _resolve(self, raw: str) -> str:
        """The tag of a plain scalar, as ``yaml.resolver.BaseResolver.resolve`` finds it."""
        for tag, regexp in self.resolvers.get(raw[0] if raw else "", []):
            if regexp.match(raw):
                return str(tag)
        return _STR


class _Parser:
    """Recursive descent over the lines of one text; any surprise raises :class:`_Decline`.

    Each block collection is read by a loop over the lines at its indentation ``n``; a
    value's continuation lines must be indented more than ``n`` (the threshold ``t``).
    A ``- `` item is read by overwriting the dash with a space, so that the item's content
    is an ordinary node at its own column.

    Speed comes from :data:`_ROW`, which splits every line at once: a ``key: value`` line
    in the simple form costs a few dictionary operations, and every other line is read by
    the exact functions (:meth:`_entry`, :meth:`_value`, ...) from its text.
    """

    def __init__(self, text: str, scalars: _Scalars, max_depth: int, max_nodes: int) -> None:
        self.lines = text.split("\n")
        self.count = len(self.lines)
        #: Per line (indentation and dash, key, value); a line whose key is "" is read
        #: from ``lines``. Reading an item's content overwrites its dash in both.
        self.rows: list[tuple[str, str, str]] = _ROW.findall(text)
        if len(self.rows) != self.count:
            raise _Decline
        self.keys: set[str] = set()
        self.record: dict[Loc, int] = {}
        self.scalars = scalars
        self.starts = scalars.starts
        self.plain: Callable[[str], Any] = scalars.plain
        self.empty = scalars.plain("")
        self.max_depth = max_depth
        self.max_nodes = max_nodes

    def document(self) -> tuple[Any, dict[Loc, int]]:
        i = self._skip(0)
        if i == self.count:
            raise _Decline  # empty: the full path says so
        line = self.lines[i]
        col = _indent(line)
        self.record[()] = i + 1
        data: Any
        if _is_dash(line, col):
            data, i = self._sequence(i, col, ())
        elif _HEAD.match(line, col):
            data, i = self._mapping(i, col, ())
        else:
            raise _Decline  # a lone scalar is no input file
        if self._skip(i) != self.count or len(self.record) > self.max_nodes:
            raise _Decline
        return data, self.record

    def _skip(self, i: int) -> int:
        """The first line from ``i`` that is neither blank nor a comment."""
        lines = self.lines
        while i < self.count:
            rest = lines[i].lstrip(" ")
            if rest and rest[0] != "#":
                return i
            i += 1
        return i

    def _deep(self, loc: Loc) -> None:
        """Decline a collection whose values would be nested deeper than the limit."""
        if len(loc) >= self.max_depth:
            raise _Decline

    def _node(self, i: int, col: int, n: int, loc: Loc) -> tuple[Any, int]:
        """The node whose content starts at ``col`` of line ``i``, inside a block at ``n``."""
        line = self.lines[i]
        if _is_dash(line, col):
            return self._sequence(i, col, loc)
        if _HEAD.match(line, col):
            return self._mapping(i, col, loc)
        return self._value(i, col, n + 1, loc)

    def _mapping(self, i: int, n: int, loc: Loc) -> tuple[dict[str, Any], int]:
        """The block mapping whose keys sit at column ``n``, from its first entry on line i."""
        self._deep(loc)
        out: dict[str, Any] = {}
        rows, lines, count, record = self.rows, self.lines, self.count, self.record
        keys, starts, plain = self.keys, self.starts, self.plain
        spaces = " " * n
        while i < count:
            prefix, key, raw = rows[i]
            if not key or prefix != spaces:
                line = lines[i]
                rest = line.lstrip(" ")
                if not rest or rest[0] == "#":
                    i += 1
                    continue
                col = len(line) - len(rest)
                if col < n:
                    break
                if col > n:
                    raise _Decline
                i = self._entry(i, n, loc, out)
                continue
            if key not in keys:
                self.scalars.key(key)
                keys.add(key)
            if key in out:
                raise _Decline
            kloc = (*loc, key)
            record[kloc] = i + 1
            i += 1
            if not raw:
                out[key], i = self._after_empty(i, n, kloc)
                continue
            # The value may go on over the next lines unless the next line is a sibling
            # (at indentation 0 an empty line looks like one, so it is looked at).
            if i < count and (rows[i][0] != spaces or not n):
                following = lines[i]
                if not following or following.startswith(spaces + " "):
                    raw, i = self._more(raw, i, n + 1)
            out[key] = raw if raw[0] not in starts else plain(raw)
        return out, i

    def _entry(self, i: int, n: int, loc: Loc, out: dict[str, Any]) -> int:
        """Read the entry on line ``i`` (a quoted key, or a value that is not plain)."""
        line = self.lines[i]
        m = _HEAD.match(line, n)
        if m is None:
            raise _Decline
        raw = m[1]
        if len(raw) > _MAX_KEY:
            raise _Decline
        if raw[0] == "'":
            key = _unquote_single(raw[1:-1])
        elif raw[0] == '"':
            key = _unquote_double(raw[1:-1])
        else:
            key = self.scalars.key(raw)
        if key in out:
            raise _Decline
        kloc = (*loc, key)
        self.record[kloc] = i + 1
        start = m.end() + 1
        rest = line[start:].lstrip(" ")
        if not rest or rest[0] == "#":
            out[key], i = self._after_empty(i + 1, n, kloc)
        else:
            out[key], i = self._value(i, len(line) - len(rest), n + 1, kloc)
        return i

    def _after_empty(self, i: int, n: int, loc: Loc) -> tuple[Any, int]:
        """The value of a key at ``n`` with nothing after its ':': a block below, or null."""
        j = self._skip(i)
        if j < self.count:
            line = self.lines[j]
            col = _indent(line)
            if col > n:
                return self._node(j, col, n, loc)
            if col == n and _is_dash(line, col):
                return self._sequence(j, n, loc)  # a sequence at the key's indentation
        return self.empty, i

    def _sequence(self, i: int, n: int, loc: Loc) -> tuple[list[Any], int]:
        """The block sequence whose dashes sit at column ``n``, from its first item."""
        self._deep(loc)
        out: list[Any] = []
        rows, lines, count, record = self.rows, self.lines, self.count, self.record
        spaces = " " * n
        dash_at = spaces + "-"
        while i < count:
            prefix, key, raw = rows[i]
            if key and prefix.startswith(dash_at):  # "- key: value" starts a mapping
                iloc = (*loc, len(out))
                col = len(prefix)
                rows[i] = (" " * col, key, raw)
                lines[i] = " " * col + lines[i][col:]
                record[iloc] = i + 1
                value, i = self._mapping(i, col, iloc)
                out.append(value)
                continue
            line = lines[i]
            if not (line.startswith(dash_at) and (len(line) == n + 1 or line[n + 1] == " ")):
                rest = line.lstrip(" ")
                if not rest or rest[0] == "#":
                    i += 1
                    continue
                break  # not an item: the caller decides whether the line belongs there
            iloc = (*loc, len(out))
            rest = line[n + 1 :].lstrip(" ")
            if rest and rest[0] != "#":
                col = len(line) - len(rest)
                rows[i] = (" " * col, "", "")
                lines[i] = " " * col + rest
                record[iloc] = i + 1
                value, i = self._node(i, col, n, iloc)
            else:
                j = self._skip(i + 1)
                col = _indent(lines[j]) if j < count else 0
                if j < count and col > n:
                    record[iloc] = j + 1
                    value, i = self._node(j, col, n, iloc)
                else:
                    record[iloc] = i + 1
                    value, i = self.empty, i + 1
            out.append(value)
        return out, i

    def _value(self, i: int, col: int, t: int, loc: Loc) -> tuple[Any, int]:
        """A scalar or flow collection starting at ``col`` of line ``i``.

        ``t`` is the least indentation of continuation lines.
        """
        line = self.lines[i]
        first = line[col]
        if first in "'\"":
            return self._quoted(i, col, t)
        if first in "[{":
            value, end = self._flow(line, col, loc, i + 1)
            _tail(line, end)
            return value, i + 1
        if first in "|>":
            return self._block(i, col, t)
        m = _PLAIN_TAIL.match(line, col)
        if m is None:
            raise _Decline
        raw, comment = m.groups()
        i += 1
        if comment is None and i < self.count:
            raw, i = self._more(raw, i, t)
        return self.plain(raw), i

    def _more(self, raw: str, i: int, t: int) -> tuple[str, int]:
        """Fold the continuation lines of a plain scalar (from line ``i``) onto ``raw``."""
        lines, count = self.lines, self.count
        parts = [raw]
        while True:
            j = i
            while j < count and not lines[j].strip(" "):
                j += 1
            if j == count:
                break
            line = lines[j]
            col = _indent(line)
            if col < t or line[col] == "#":
                break
            m = _CONTINUED.match(line, col)
            if m is None:
                raise _Decline
            parts.append("\n" * (j - i) if j > i else " ")
            parts.append(m[1])
            i = j + 1
            if m[2] is not None:  # a comment ends the scalar
                break
        return "".join(parts), i

    def _quoted(self, i: int, col: int, t: int) -> tuple[str, int]:
        """A single- or double-quoted scalar starting at ``col`` of line ``i``."""
        line = self.lines[i]
        single = line[col] == "'"
        m = (_SINGLE_ONE if single else _DOUBLE_ONE).match(line, col)
        if m is not None:
            body, end = m[1], m.end()
        else:
            body, i, end = self._quoted_lines(i, col, t, single)
            line = self.lines[i]
        _tail(line, end)
        return (_unquote_single(body) if single else _unquote_double(body)), i + 1

    def _quoted_lines(self, i: int, col: int, t: int, single: bool) -> tuple[str, int, int]:
        """Body, closing line and end column of a quoted scalar over several lines."""
        close = _SINGLE_END if single else _DOUBLE_END
        parts = [self.lines[i][col + 1 :]]
        for j in range(i + 1, self.count):
            line = self.lines[j]
            rest = line.lstrip(" ")
            if rest and len(line) - len(rest) < t:
                raise _Decline
            m = close.match(line)
            if m is not None:
                parts.append(m[1])
                return "\n".join(parts), j, m.end()
            parts.append(line)
        raise _Decline

    def _block(self, i: int, col: int, t: int) -> tuple[str, int]:
        """A literal or folded block scalar whose header is at ``col`` of line ``i``."""
        lines, count = self.lines, self.count
        header = _BLOCK_HEADER.match(lines[i], col)
        if header is None:
            raise _Decline
        j = i + 1
        while j < count and not lines[j]:
            j += 1
        leading = j - i - 1
        indent = _indent(lines[j]) if j < count else 0
        if indent < t or indent == len(lines[j]):
            raise _Decline  # empty, or led by a line of spaces
        body: list[str] = []
        end = j
        while j < count:
            line = lines[j]
            if line:
                col = _indent(line)
                if col == len(line):
                    raise _Decline  # a line of spaces
                if col < indent:
                    break
                end = j + 1
            body.append(line[indent:])
            j += 1
        if end == count:
            raise _Decline  # runs to the end of a text without a final line break
        body = body[: end - (i + 1 + leading)]
        text = "\n".join(body) if header[1] == "|" else _fold_block(body)
        chomp = "" if header[2] else "\n"
        return "\n" * leading + text + chomp, end

    def _flow(self, line: str, pos: int, loc: Loc, number: int) -> tuple[Any, int]:
        """A flow collection on one line; returns it and the column after it."""
        self._deep(loc)
        seq = line[pos] == "["
        close = "]" if seq else "}"
        items: list[Any] = []
        entries: dict[str, Any] = {}
        pos = _spaces(line, pos + 1)
        if pos < len(line) and line[pos] == close:
            return (items if seq else entries), pos + 1
        while True:
            if seq:
                iloc = (*loc, len(items))
                self.record[iloc] = number
                value, pos = self._flow_node(line, pos, iloc, number)
                items.append(value)
            else:
                key, pos = self._flow_key(line, pos)
                if key in entries:
                    raise _Decline
                kloc = (*loc, key)
                self.record[kloc] = number
                entries[key], pos = self._flow_node(line, pos, kloc, number)
            pos = _spaces(line, pos)
            if pos >= len(line):
                raise _Decline  # continues on the next line
            if line[pos] == close:
                return (items if seq else entries), pos + 1
            if line[pos] != ",":
                raise _Decline
            pos = _spaces(line, pos + 1)

    def _flow_node(self, line: str, pos: int, loc: Loc, number: int) -> tuple[Any, int]:
        if pos >= len(line):
            raise _Decline
        first = line[pos]
        if first in "[{":
            return self._flow(line, pos, loc, number)
        if first == "'":
            m = _SINGLE_ONE.match(line, pos)
            if m is None:
                raise _Decline
            return _unquote_single(m[1]), m.end()
        if first == '"':
            m = _DOUBLE_ONE.match(line, pos)
            if m is None:
                raise _Decline
            return _unquote_double(m[1]), m.end()
        m = _FLOW_PLAIN.match(line, pos)
        if m is None:
            raise _Decline
        return self.plain(m[0]), m.end()

    def _flow_key(self, line: str, pos: int) -> tuple[str, int]:
        """A key in a flow mapping and the column of its value (after ': ')."""
        if pos >= len(line) or line[pos] in "[{":
            raise _Decline
        key, end = self._flow_node(line, pos, (), 0)
        if not isinstance(key, str) or end - pos > _MAX_KEY:
            raise _Decline
        if line[end : end + 2] != ": ":
            raise _Decline
        return key, _spaces(line, end + 2)


def _spaces(line: str, pos: int) -> int:
    """The first column from ``pos`` that is not a space."""
    while pos < len(line) and line[pos] == " ":
        pos += 1
    return pos


def _fold_block(body: list[str]) -> str:
    """Join the lines of a folded block scalar: lines of text are joined by a space, a
    blank line becomes a line break, and more-indented lines keep their breaks."""
    out = [body[0]]
    previous = body[0]
    blanks = 0
    for line in body[1:]:
        if not line:
            blanks += 1
            continue
        if previous[0] != " " and line[0] != " ":
            out.append("\n" * blanks if blanks else " ")
        else:
            out.append("\n" * (blanks + 1))
        out.append(line)
        previous, blanks = line, 0
    return "".join(out)
