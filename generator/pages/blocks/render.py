"""Page files and the Jinja environment that fills the templates in ``site_src/templates``.

Templates are data. Every value reaching a template is escaped unless it is ``Markup``
(pre-rendered, already safe HTML such as tables and authored Markdown).
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from generator.pages.blocks.tables import BOM, Table
from generator.pages.blocks.text import escape, escape_html, spelled

TEMPLATES = Path(__file__).resolve().parents[3] / "site_src" / "templates"


def _finalize(value: Any) -> Any:
    if isinstance(value, Markup):
        return value
    return Markup(escape(value))


@cache
def environment(templates: Path = TEMPLATES) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(templates)),
        autoescape=False,
        undefined=StrictUndefined,
        finalize=_finalize,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["raw"] = Markup
    env.filters["spelled"] = spelled
    return env


#: The search weight of the pages of result tables (the domain pages): their text names
#: every sub-division and group, so without it they come before the page a search is for
#: (a task's, a combination's).
RESULT_PAGES_BOOST = 0.5


@dataclass(frozen=True)
class Page:
    """One Markdown page of a version, the tables it shows, and its navigation title."""

    path: str  # relative to the version's docs folder, e.g. "general/index.md"
    title: str
    markdown: str
    tables: tuple[Table, ...] = ()
    charts: bool = False
    extra_files: dict[str, str] = field(default_factory=dict)
    wide: bool = False  # hide the table of contents to give wide tables room
    shared_nav: str = ""  # outside the nav: pages with the same key share its rendering
    long_title: str = ""  # the browser's and the search's title, if it says more than title
    search_boost: float = 1.0  # its search results' weight; below 1 they come after others'
    searched: bool = True  # False: left out of the search index

    @property
    def stem(self) -> str:
        return Path(self.path).stem

    def sources(self) -> dict[str, str]:
        """What mkdocs builds: the page itself, and files it links from its Markdown."""
        meta: dict[str, object] = {
            # Material writes a title into <title>, the header, the nav and the search
            # index as HTML, unescaped: it crosses into the engine escaped.
            "title": escape_html(self.long_title or self.title),
            "charts": self.charts,
        }
        if self.shared_nav:
            meta["shared_nav"] = self.shared_nav
        if not self.searched:
            meta["search"] = {"exclude": True}
        elif self.search_boost != 1.0:
            meta["search"] = {"boost": self.search_boost}
        if self.wide:
            meta["hide"] = ["toc"]
        folder = Path(self.path).parent
        out = {self.path: front_matter(meta) + str(self.markdown)}
        for name, text in self.extra_files.items():
            out[(folder / name).as_posix()] = text
        return out

    def downloads(self) -> dict[str, str]:
        """Its tables' downloads (and rows loaded on demand), beside it in the built site.

        They bypass mkdocs: only the tables' HTML links to them, which mkdocs never reads
        (see :func:`opaque`), and copying hundreds of thousands of rows through it would
        cost a large release seconds."""
        folder = Path(self.path).parent
        out = {}
        for table in self.tables:
            base = (folder / table.base(self.stem)).as_posix()
            out[f"{base}.csv"] = BOM + table.to_csv()
            out[f"{base}.json"] = table.to_json()
            if table.paged:
                out[f"{base}.rows.txt"] = table.rows_html()
        return out

    def files(self) -> dict[str, str]:
        """Every file of the page, as the built site holds it."""
        return self.sources() | self.downloads()


_NO_FOLDING = 1 << 30  # one line per value, however long


def front_matter(meta: dict[str, object]) -> str:
    """A page's metadata as the YAML block that starts it, written by the YAML serializer:
    no text can end the block early or break it (a line ``---``, quotes, control
    characters)."""
    body = yaml.safe_dump(meta, sort_keys=False, width=_NO_FOLDING)
    return f"---\n{body}---\n\n"


def render(env: Environment, template: str, **context: Any) -> str:
    return env.get_template(template).render(**context)


def tables_html(tables: list[Table], stem: str) -> dict[str, Markup]:
    return {t.id: opaque(t.to_html(stem)) for t in tables}


def opaque(html: str) -> Markup:
    """A finished HTML block that Markdown must not read: an HTML comment carrying it in
    base64, expanded in the final page by :mod:`generator.site.assemble`. Large tables then cost
    Python-Markdown and the search plugin one comment each instead of thousands of cells."""
    encoded = base64.b64encode(html.encode("utf-8")).decode("ascii")
    return Markup(f"\n<!--lg-html:{encoded}-->\n")


_BLOCK = re.compile(r"<!--lg-html:([A-Za-z0-9+/=]+)-->")


def lift_blocks(markdown: str) -> tuple[str, list[str]]:
    """The page with each finished HTML block replaced by ``<!--lg-block:N-->``, and the
    blocks (still base64). mkdocs then reads a few bytes per table instead of the whole
    table; :mod:`generator.site.assemble` puts block N back from the page's side file."""
    blocks: list[str] = []

    def lift(match: re.Match[str]) -> str:
        blocks.append(match.group(1))
        return f"<!--lg-block:{len(blocks) - 1}-->"

    return _BLOCK.sub(lift, markdown), blocks
