"""The generator's own pass over the pages the engine wrote: finished blocks and navigation in.

Tables and charts are finished HTML before the engine sees a page. The Markdown carries each
as ``<!--lg-html:BASE64-->`` (:func:`generator.pages.blocks.render.opaque`): an HTML comment that
Python-Markdown and the search index pass over in one step instead of parsing every cell of a
large table. :func:`write_sources` lifts the comments of a page into a side file beside the
docs folder, leaving ``<!--lg-block:N-->``, so the engine reads a few bytes per table. After
the engine has built, :func:`assemble` puts every block back into the written HTML.

Pages outside the navigation (the task pages of a large release) all show the same
navigation per folder: it marks no item active. The theme renders it once per folder, on the
page named in ``extra.lg_nav_source`` (between ``<!--lg-nav-begin:KEY-->`` and
``<!--lg-nav-end-->``), and writes ``<!--lg-nav:KEY-->`` on the others
(``site_src/overrides/main.html``); :func:`assemble` copies it in: mkdocs took 5.4 s with
the shared navigation and 7.3 s with every page rendering its own (reference release,
medians of three, ``bench/tricks.py``, 2026-12-01). The site depends on no plugin or hook
API of the engine.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from generator.errors import GeneratorError
from generator.pages import Page
from generator.pages.blocks.render import lift_blocks

_INLINE = re.compile(r"<!--lg-html:([A-Za-z0-9+/=]+)-->")
_LIFTED = re.compile(r"<!--lg-block:(\d+)-->")
_NAV = re.compile(r"<!--lg-nav:([^<>]*?)-->")
_NAV_SOURCE = re.compile(r"<!--lg-nav-begin:([^<>]*?)-->(.*?)<!--lg-nav-end-->", re.DOTALL)

Write = Callable[[Path, Iterable[tuple[str, str]]], None]


class AssemblyFailed(GeneratorError):
    """A page the engine wrote lacks what the generator expected to put into it."""


def blocks_folder(docs: Path) -> Path:
    """Where the pages' lifted blocks wait for :func:`assemble` (beside docs, not in it)."""
    return docs.parent / "blocks"


def write_sources(pages: Iterable[Page], docs: Path, write: Write) -> None:
    """Write what the engine builds of ``pages`` into ``docs``, their lifted blocks beside."""
    sources, blocks = {}, {}
    for page in pages:
        for rel, text in page.sources().items():
            if rel == page.path:
                text, lifted = lift_blocks(text)
                if lifted:
                    blocks[f"{_html(rel)}.json"] = json.dumps(lifted)
            sources[rel] = text
    write(docs, sources.items())
    write(blocks_folder(docs), blocks.items())


def nav_sources(pages: Iterable[Page]) -> dict[str, str]:
    """For each shared-navigation key, the first of ``pages`` that renders it: its URL."""
    sources: dict[str, str] = {}
    for page in pages:
        if page.shared_nav:
            sources.setdefault(page.shared_nav, _html(page.path))
    return sources


def _html(source: str) -> str:
    """The page the engine writes for ``source`` (``use_directory_urls: false``)."""
    return source.removesuffix(".md") + ".html"


def _decode(encoded: str) -> str:
    return base64.b64decode(encoded).decode("utf-8")


def assemble(site: Path, docs: Path, sources: Mapping[str, str]) -> None:
    """Put the blocks and the shared navigation into every page the engine wrote in ``site``
    (``sources``: the URL of each key's source page, :func:`nav_sources`)."""
    navs = {key: _nav_of(site / url, key) for key, url in sorted(sources.items())}
    for page in sorted(site.rglob("*.html")):
        _assemble_page(page, page.relative_to(site).as_posix(), navs, blocks_folder(docs))


def _assemble_page(page: Path, rel: str, navs: Mapping[str, str], blocks: Path) -> None:
    """One page: its shared navigation, then its inline blocks, then its lifted ones."""
    text = page.read_text(encoding="utf-8")
    if "<!--lg-" not in text:
        return
    text = _NAV.sub(lambda m: _shared(navs, m.group(1), rel), text)
    text = _INLINE.sub(lambda m: _decode(m.group(1)), text)
    side = blocks / f"{rel}.json"
    if side.is_file():
        lifted = json.loads(side.read_text(encoding="utf-8"))
        text = _LIFTED.sub(lambda m: _decode(lifted[int(m.group(1))]), text)
    page.write_text(text, encoding="utf-8")


def _nav_of(page: Path, key: str) -> str:
    """The navigation ``page`` renders for ``key``; the page is left without the markers."""
    text = page.read_text(encoding="utf-8") if page.is_file() else ""
    found = _NAV_SOURCE.search(text)
    if found is None or found.group(1) != key:
        raise AssemblyFailed(f"{page}: the navigation of {key!r} is not marked in this page")
    page.write_text(text[: found.start()] + found.group(2) + text[found.end() :], encoding="utf-8")
    return found.group(2)


def _shared(navs: Mapping[str, str], key: str, page: str) -> str:
    if key not in navs:
        raise AssemblyFailed(f"{page}: no page renders the navigation {key!r} it shares")
    return navs[key]
