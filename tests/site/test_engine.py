"""mkdocs on two processes builds the site one process builds, warnings and failures included."""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import Abort
from mkdocs.structure.pages import Page

from generator.site import engine, forked

PAGES = {
    "index.md": "# Home\n\nSee [the first task](tasks/a.md#results).\n",
    "about.md": "# About\n\nA page in the navigation.\n",
    "tasks/a.md": "# Task a\n\n## Results\n\nSome *text* to index.\n",
    "tasks/b.md": "# Task b\n\n## Results\n\nMore text, and a table:\n\n"
    "| x | y |\n|---|---|\n| 1 | 2 |\n",
    "tasks/c.md": "# Task c\n\nBack [home](../index.md).\n",
}
THEIRS = frozenset({"tasks/b.md", "tasks/c.md"})


def _project(
    tmp_path: Path, name: str, pages: dict[str, str], strict: bool = False, extra: str = ""
) -> Any:
    root = tmp_path / name
    for rel, text in pages.items():
        (root / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "docs" / rel).write_text(text, encoding="utf-8")
    config = root / "mkdocs.yml"
    config.write_text(
        "site_name: Split\n"
        f"docs_dir: {root / 'docs'}\n"
        f"site_dir: {root / 'site'}\n"
        "use_directory_urls: false\n"
        "theme:\n  name: material\n  font: false\n"
        "nav:\n  - index.md\n  - about.md\n" + extra,
        encoding="utf-8",
    )
    return load_config(str(config), strict=strict)


def _digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(autouse=True)
def _fixed_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


@pytest.fixture
def warnings() -> Iterator[list[str]]:
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = Keep(logging.WARNING)
    logging.getLogger("mkdocs").addHandler(handler)
    yield seen
    logging.getLogger("mkdocs").removeHandler(handler)


@pytest.fixture
def renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each page rendered, with the process that rendered it, appended to a file."""
    log = tmp_path / "renders.txt"
    original = Page.render

    def render(page: Page, config: Any, files: Any) -> None:
        with log.open("a", encoding="utf-8") as out:
            out.write(f"{page.file.src_uri} {os.getpid()}\n")
        original(page, config, files)

    monkeypatch.setattr(Page, "render", render)
    return log


def test_two_processes_build_the_site_of_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, renders: Path
) -> None:
    engine.build(_project(tmp_path, "split", PAGES), THEIRS)
    by = dict(line.split() for line in renders.read_text().splitlines())
    assert {page for page, pid in by.items() if pid != str(os.getpid())} == THEIRS
    monkeypatch.setattr(forked, "FORK", False)
    engine.build(_project(tmp_path, "alone", PAGES), THEIRS)
    split, alone = _digest(tmp_path / "split" / "site"), _digest(tmp_path / "alone" / "site")
    assert split == alone
    assert "search/search_index.json" in split
    index = (tmp_path / "split" / "site" / "search" / "search_index.json").read_text()
    assert "More text" in index  # a page of the child, in the parent's index


def test_the_child_s_warnings_are_logged_by_the_parent(tmp_path: Path, warnings: list[str]) -> None:
    pages = {**PAGES, "tasks/c.md": "# Task c\n\nA [broken link](missing.md).\n"}
    engine.build(_project(tmp_path, "split", pages), THEIRS)
    assert any("missing.md" in w for w in warnings)


HOOKS = """
import logging

log = logging.getLogger("mkdocs.hooks.order")


def on_page_content(html, page, config, files):
    log.warning("read %s", page.file.src_uri)
    return html


def on_env(env, config, files):
    log.warning("theme")
    return env


def on_post_page(output, page, config):
    log.warning("rendered %s", page.file.src_uri)
    return output
"""


def test_messages_come_in_the_order_of_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warnings: list[str], renders: Path
) -> None:
    """Every page, in either process (the child's pages between the parent's), says something
    as it is read and as it is rendered, with a broken link too, and the theme step speaks in
    between: the messages are those of a one-process build, in its order."""
    theirs = frozenset({"about.md", "tasks/b.md"})
    pages = {
        rel: text + f"\nA [broken link](missing-{rel.replace('/', '-')})\n"
        for rel, text in PAGES.items()
    }
    (tmp_path / "hooks.py").write_text(HOOKS, encoding="utf-8")
    extra = f"hooks:\n  - {tmp_path / 'hooks.py'}\n"
    engine.build(_project(tmp_path, "split", pages, extra=extra), theirs)
    split = list(warnings)
    by = dict(line.split() for line in renders.read_text().splitlines())
    assert {page for page, pid in by.items() if pid != str(os.getpid())} == theirs
    warnings.clear()
    monkeypatch.setattr(forked, "FORK", False)
    engine.build(_project(tmp_path, "alone", pages, extra=extra), theirs)
    said = [w for w in warnings if w.startswith(("read", "theme", "rendered"))]
    order = [w.split()[1] for w in said if w.startswith("read")]
    assert sorted(order) == sorted(PAGES)
    assert said == [f"read {p}" for p in order] + ["theme"] + [f"rendered {p}" for p in order]
    assert sum("missing-" in w for w in warnings) == len(PAGES)
    assert split == warnings


def test_a_warning_in_the_child_fails_a_strict_build(tmp_path: Path) -> None:
    pages = {**PAGES, "tasks/c.md": "# Task c\n\nA [broken link](missing.md).\n"}
    with pytest.raises(Abort, match="strict"):
        engine.build(_project(tmp_path, "split", pages, strict=True), THEIRS)


def test_a_failure_in_the_child_fails_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = Page.render

    def render(page: Page, config: Any, files: Any) -> None:
        if page.file.src_uri == "tasks/c.md":
            raise ValueError("cannot render tasks/c.md (simulated)")
        original(page, config, files)

    monkeypatch.setattr(Page, "render", render)
    with pytest.raises(ValueError, match="simulated"):
        engine.build(_project(tmp_path, "split", PAGES), THEIRS)


FAILING_HOOK = """
def on_post_page(output, page, config):
    if page.file.src_uri == "tasks/c.md":
        raise ValueError("cannot render tasks/c.md (simulated)")
    return output
"""


@pytest.mark.parametrize("strict", [False, True], ids=["lenient", "strict"])
def test_a_failing_child_s_messages_are_logged_and_no_handler_is_left(
    tmp_path: Path, warnings: list[str], strict: bool
) -> None:
    """The child reads tasks/c.md (a broken link) and fails to render it: the parent still
    logs what the child said, and mkdocs' handlers are as before (its strict-mode counter,
    added before the split, is gone)."""
    pages = {**PAGES, "tasks/c.md": "# Task c\n\nA [broken link](missing.md).\n"}
    (tmp_path / "hooks.py").write_text(FAILING_HOOK, encoding="utf-8")
    extra = f"hooks:\n  - {tmp_path / 'hooks.py'}\n"
    logger = logging.getLogger("mkdocs")
    handlers, propagate = logger.handlers[:], logger.propagate
    with pytest.raises(ValueError, match="simulated"):
        engine.build(_project(tmp_path, "split", pages, strict=strict, extra=extra), THEIRS)
    assert (logger.handlers, logger.propagate) == (handlers, propagate)
    assert any("missing.md" in w for w in warnings)
    assert any("Error building page 'tasks/c.md'" in w for w in warnings)


def test_with_anchors_validated_as_warnings_one_process_builds(
    tmp_path: Path, renders: Path
) -> None:
    extra = "validation:\n  links:\n    anchors: warn\n"
    engine.build(_project(tmp_path, "split", PAGES, extra=extra), THEIRS)
    pids = {line.split()[1] for line in renders.read_text().splitlines()}
    assert pids == {str(os.getpid())}  # the child would check no anchor of its pages
