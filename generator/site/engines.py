"""The engine that turns a version's Markdown into its site: mkdocs, or Zensical.

The generator writes one configuration per version (:func:`configure`): the shared
``mkdocs.yml`` with the version's settings merged in, as mkdocs' ``INHERIT`` would, written
out whole with the docs and site folders relative to it (Zensical reads no ``INHERIT`` and
refuses absolute folders). :func:`run` builds it in this process, through each engine's
public entry point: for mkdocs ``mkdocs.config.load_config`` and
``mkdocs.commands.build.build`` (what ``mkdocs build`` calls), for Zensical
``zensical.build`` (what ``zensical build`` calls). No plugin or hook is involved: what the
pages need beyond the theme, the generator puts in afterwards (:mod:`generator.site.assemble`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import yaml

from generator.errors import GeneratorError
from generator.load import LoadedRelease
from generator.pages.blocks.text import escape_html

REPO = Path(__file__).resolve().parents[2]
SITE_SRC = REPO / "site_src"
BASE_CONFIG = REPO / "mkdocs.yml"

#: The engines ``build --engine`` accepts; the first is the default.
ENGINES = ("mkdocs", "zensical")


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
        "site_name": escape_html(f"{release.benchmark.name} {release.version}"),
        "docs_dir": "docs",
        "site_dir": "site",
        "use_directory_urls": False,
        "strict": strict,
        "theme": {"name": "material", "custom_dir": str(SITE_SRC / "overrides"), "font": False},
        "extra_css": ["assets/stylesheets/lg.css"],
        "extra_javascript": ["assets/javascripts/lg-tables.js", "assets/javascripts/lg-charts.js"],
        "extra": {
            "version": {"provider": "mike", "default": "latest"},
            "generator": False,
            "lg_nav_source": dict(sorted(nav_sources.items())),
        },
        "nav": _escaped_nav(nav),
    }
    base = yaml.safe_load(BASE_CONFIG.read_text(encoding="utf-8"))
    path = work / "mkdocs.yml"
    path.write_text(yaml.safe_dump(_merged(base, config), sort_keys=False), encoding="utf-8")
    return path


def _merged(base: dict[str, object], version: dict[str, object]) -> dict[str, object]:
    """``base`` with ``version`` merged in as mkdocs merges an ``INHERIT``ed file: mappings
    key by key, anything else replaced."""
    out = dict(base)
    for key, value in version.items():
        below = base.get(key)
        if isinstance(value, dict) and isinstance(below, dict):
            out[key] = _merged(below, value)
        else:
            out[key] = value
    return out


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


def run(config_file: Path, strict: bool, engine: str = ENGINES[0]) -> list[str]:
    """Build the site of ``config_file`` with ``engine``; return the engine's warnings
    (strict: fail on any)."""
    if engine == "zensical":
        return _zensical(config_file, strict)
    return _mkdocs(config_file, strict)


def _mkdocs(config_file: Path, strict: bool) -> list[str]:
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


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# A Zensical warning: "Warning: <what>", then a frame whose first line names "[ file:line:col ]".
_WARNING = re.compile(r"^Warning: (?P<what>.+)\n(?:.*\n)*?.*\[ (?P<where>\S+) \]", re.MULTILINE)


def _zensical(config_file: Path, strict: bool) -> list[str]:
    """Zensical prints its progress and warnings on the process's standard output and error
    (from its Rust core, not through Python's logging): both are caught, and the warnings
    returned as lines."""
    try:
        import zensical
    except ImportError as exc:
        raise EngineFailed(
            "--engine zensical needs the zensical package: pip install zensical"
        ) from exc
    failure: Exception | None = None
    with _output() as said:
        try:
            zensical.build(str(config_file), {"clean": False, "strict": strict})
        except RuntimeError as exc:  # what it raises for a failed or strict build
            failure = exc
    text = _ANSI.sub("", "".join(said))
    warnings = [f"{m['where']}: {m['what']}" for m in _WARNING.finditer(text)]
    if failure is not None:
        raise EngineFailed(f"zensical failed: {failure}; " + "; ".join(warnings)) from failure
    return warnings


@contextlib.contextmanager
def _output() -> Iterator[list[str]]:
    """What this process writes on file descriptors 1 and 2 meanwhile (in the list, at the
    end)."""
    said: list[str] = []
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    saved = [os.dup(1), os.dup(2)]
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as caught:
        os.dup2(caught.fileno(), 1)
        os.dup2(caught.fileno(), 2)
        try:
            yield said
        finally:
            for fd, before in enumerate(saved, start=1):
                (sys.stdout, sys.stderr)[fd - 1].flush()
                os.dup2(before, fd)
                os.close(before)
            caught.seek(0)
            said.append(caught.read())
