"""What free text may hold: the rules every text and Markdown field of the inputs follows.

Free text reaches pages as text, escaped wherever it is written, so no character can make
markup. These rules refuse what would still mislead a reader or break a file format:

- control characters (C0 but tab, line feed and carriage return; DEL; C1), which no
  display shows and some formats cannot hold (a lone surrogate pydantic refuses itself);
- bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
  reorder the text after them, so that a name could show as another name or a score
  beside it read reversed. The marks U+200E, U+200F and U+061C stay allowed;
- in Markdown, a link or an image that leaves the site: any URL with a scheme
  (``https:``, ``mailto:``, ``javascript:``, ``data:``) or a host (``//host``). An offline
  site loads nothing from another host, and a link that leaves it is written as text.

:func:`markdown_parser` is the one Markdown configuration: validation reads authored text
with it, and the pages render with it (:mod:`generator.pages.blocks.text`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator

from markdown_it import MarkdownIt
from markdown_it.token import Token

#: Characters free text may not hold (see the module's docstring).
REFUSED_CHARACTERS = "".join(
    map(chr, [*range(0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0),
              *range(0x202A, 0x202F), *range(0x2066, 0x206A)])
)  # fmt: skip
REFUSED = re.compile(f"[{re.escape(REFUSED_CHARACTERS)}]")
#: A URL with a scheme (RFC 3986: a letter, then letters, digits, "+", "-" or "."), or one
#: that names a host: "//host", and "\\host" or "/\\host", which browsers read as "//host".
_LEAVES_SITE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*:|[/\\]{2})")
#: What browsers drop from a URL before reading it: space and C0 controls at either end,
#: tab and line breaks anywhere.
_URL_EDGES = "".join(map(chr, range(0x21)))


def _name(char: str) -> str:
    code = f"U+{ord(char):04X}"
    try:
        return f"{code} {unicodedata.name(char)}"
    except ValueError:  # controls have no name in unicodedata
        return code


def refused_character(text: str) -> str | None:
    """Why ``text`` cannot be free text because of a character it holds, or None."""
    found = REFUSED.search(text)
    if found is None:
        return None
    char = found.group()
    if "\u202a" <= char <= "\u2069":
        kind = "a bidirectional override or isolate"
    else:
        kind = "a control character"
    return (
        f"holds {kind}, {_name(char)}, at character {found.start() + 1}; expected text "
        "without control characters (tab and line breaks are allowed) and without "
        "bidirectional overrides or isolates (U+202A–U+202E, U+2066–U+2069)"
    )


def local_url(url: str) -> bool:
    """Whether a link or image target stays inside the site: a relative path, ``#anchor``
    or ``?query``, never a scheme or a host."""
    cleaned = re.sub("[\t\n\r]", "", url.strip(_URL_EDGES))
    return not _LEAVES_SITE.match(cleaned) and "\\" not in cleaned


def markdown_parser(link_ok: Callable[[str], bool] = local_url) -> MarkdownIt:
    """CommonMark with tables, raw HTML off (shown as text) and no linkify; a link or image
    whose target ``link_ok`` refuses stays text."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    md.validateLink = link_ok  # type: ignore[method-assign,assignment]
    return md


_READ_ALL = markdown_parser(lambda _: True)


def _targets(tokens: list[Token]) -> Iterator[tuple[int, str, str]]:
    line = 1
    for token in tokens:
        if token.map is not None:
            line = token.map[0] + 1
        for child in token.children or ():
            if child.type in ("softbreak", "hardbreak"):
                line += 1  # a paragraph's inline tokens carry no line: count its breaks
            elif child.type == "link_open":
                yield line, "a link", str(child.attrGet("href") or "")
            elif child.type == "image":
                yield line, "an image", str(child.attrGet("src") or "")


def remote_targets(markdown: str) -> list[tuple[int, str, str]]:
    """(line of the text, "a link" or "an image", target) of every link and image in
    ``markdown`` that would leave the site."""
    if "[" not in markdown and "<" not in markdown:
        return []  # every link and image starts with one of them
    found = _targets(_READ_ALL.parse(markdown))
    return [(line, kind, url) for line, kind, url in found if not local_url(url)]


def plain_text(value: str) -> str:
    """A free-text value, or ValueError naming the character it may not hold."""
    problem = refused_character(value)
    if problem is not None:
        raise ValueError(problem)
    return value


def markdown_text(value: str) -> str:
    """An authored Markdown value, or ValueError naming a refused character or the first
    link or image that leaves the site."""
    plain_text(value)
    remote = remote_targets(value)
    if remote:
        line, kind, url = remote[0]
        shown = url if len(url) <= 60 else url[:59] + "…"
        raise ValueError(
            f"line {line} of the text has {kind} to {shown!r}, outside the site; expected "
            "links and images only to pages and files of the site (a relative path or "
            "#anchor): write an outside address as plain text, without [...]( ) or < >"
        )
    return value
