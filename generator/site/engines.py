"""The engine that turns a version's Markdown into its site: mkdocs through its public API.

The generator writes one configuration per version (:func:`configure`) and runs the engine
on it in this process (:func:`run`): ``mkdocs.config.load_config`` and
``mkdocs.commands.build.build``, the API that ``mkdocs build`` itself calls. No plugin or
hook is involved: what the pages need beyond the theme, the generator puts in afterwards
(:mod:`generator.site.assemble`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

import yaml

from generator.errors import GeneratorError
from generator.load import LoadedRelease
from generator.pages.text import escape_html

REPO = Path(__file__).resolve().parents[2]
SITE_SRC = REPO / "site_src"
BASE_CONFIG = REPO / "mkdocs.yml"

#: The engines ``build --engine`` accepts; the first is the default.
ENGINES = ("mkdocs",)


class EngineFailed(GeneratorError):
    """The engine refused the configuration or failed on a page."""


def configure(
    version: LoadedRelease,
    work: Path,
    nav: list[dict[str, object]],
    nav_sources: Mapping[str, str],
    strict: bool,
) -> Path:
    """Write the configuration of ``version``'s site (docs in ``work/docs``, built into
    ``work/site``) and return its path."""
    assert version.release is not None
    release = version.release.model
    config = {
        "INHERIT": str(BASE_CONFIG),
        "site_name": escape_html(f"{release.benchmark.name} {release.version}"),
        "docs_dir": str(work / "docs"),
        "site_dir": str(work / "site"),
        "use_directory_urls": False,
        "strict": strict,
        "theme": {"name": "material", "custom_dir": str(SITE_SRC / "overrides"), "font": False},
        "extra_css": ["assets/stylesheets/lg.css"],
        "extra_javascript": ["assets/javascripts/lg-tables.js"],
        "extra": {
            "version": {"provider": "mike", "default": "latest"},
            "generator": False,
            "lg_nav_source": dict(sorted(nav_sources.items())),
        },
        "nav": _escaped_nav(nav),
    }
    path = work / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return path


def _escaped_nav(nav: object) -> object:
    """The theme writes navigation titles into pages as HTML, unescaped: escape them here."""
    if isinstance(nav, list):
        return [_escaped_nav(item) for item in nav]
    if isinstance(nav, dict):
        return {escape_html(title): _escaped_nav(target) for title, target in nav.items()}
    return nav


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def run(config_file: Path, strict: bool) -> list[str]:
    """Build the site of ``config_file``; return the engine's warnings (strict: fail on any)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    handler = _Collect()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        build(load_config(str(config_file), strict=strict))
    except MkDocsException as exc:
        raise EngineFailed(f"mkdocs failed: {exc}; " + "; ".join(handler.messages)) from exc
    finally:
        logger.removeHandler(handler)
    return handler.messages
