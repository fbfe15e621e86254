"""Page files and the Jinja environment that fills the templates in ``site_src/templates``.

Templates are data. Every value reaching a template is escaped unless it is ``Markup``
(pre-rendered, already safe HTML such as tables and authored Markdown).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from generator.pages.tables import Table
from generator.pages.text import escape, escape_html

TEMPLATES = Path(__file__).resolve().parents[2] / "site_src" / "templates"


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
    return env


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

    @property
    def stem(self) -> str:
        return Path(self.path).stem

    def files(self) -> dict[str, str]:
        """The page itself and its tables' downloads, beside it."""
        folder = Path(self.path).parent
        hide = "hide:\n  - toc\n" if self.wide else ""
        meta = (
            f"---\ntitle: {escape_yaml(escape_html(self.title))}\n"
            f"charts: {str(self.charts).lower()}\n"
            f"{hide}---\n\n"
        )
        out = {self.path: meta + str(self.markdown)}
        for table in self.tables:
            base = (folder / f"{self.stem}.{table.id}").as_posix()
            out[f"{base}.csv"] = table.to_csv()
            out[f"{base}.json"] = table.to_json()
            if table.paged:
                out[f"{base}.rows.txt"] = table.rows_html()
        for name, text in self.extra_files.items():
            out[(folder / name).as_posix()] = text
        return out


def escape_yaml(text: str) -> str:
    """A double-quoted YAML scalar."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(env: Environment, template: str, **context: Any) -> str:
    return env.get_template(template).render(**context)


def tables_html(tables: list[Table], stem: str) -> dict[str, Markup]:
    return {t.id: opaque(t.to_html(stem)) for t in tables}


def opaque(html: str) -> Markup:
    """A finished HTML block that Markdown must not read: an HTML comment carrying it in
    base64, expanded in the final page by ``site_src/hooks.py``. Large tables then cost
    Python-Markdown and the search plugin one comment each instead of thousands of cells."""
    encoded = base64.b64encode(html.encode("utf-8")).decode("ascii")
    return Markup(f"\n<!--lg-html:{encoded}-->\n")
