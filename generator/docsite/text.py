"""Text from the command line and the models, made safe to put into Markdown."""

from __future__ import annotations

import html
import re

# Characters Python-Markdown reads as markup inside running text or a table cell.
_MARKUP = re.compile(r"([\\`*_\[\]|{}#])")
# A code span as docstrings and descriptions write it: ``code`` or `code`.
_CODE = re.compile(r"``(.+?)``|`([^`]+)`")


def prose(text: str) -> str:
    """``text`` as literal Markdown on one line: its code spans kept as code, the rest HTML
    escaped and its markup characters escaped."""
    flat = " ".join(text.split())
    out, at = [], 0
    for found in _CODE.finditer(flat):
        out += [_literal(flat[at : found.start()]), code(found.group(1) or found.group(2))]
        at = found.end()
    return "".join([*out, _literal(flat[at:])])


def _literal(text: str) -> str:
    return _MARKUP.sub(r"\\\1", html.escape(text, quote=False))


def code(text: str) -> str:
    """``text`` as an inline code span (backticks inside it are kept by a longer fence; a
    table reads a ``|`` inside a code span as text)."""
    fence = "``" if "`" in text else "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def paragraphs(text: str) -> list[str]:
    """The paragraphs of a help text or a description, each as :func:`prose`."""
    parts = re.split(r"\n\s*\n", text.replace("\b", "").strip())
    return [prose(p) for p in parts if p.strip()]


def slug(name: str) -> str:
    """An anchor id for ``name``: lower case, runs of other characters as one '-'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
