"""Pages outside the navigation share one rendering of it: the site is byte-identical to a
build where every page renders its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from synthetic import make_release

import generator.pages
from generator.build import build_site
from generator.check import check_inputs
from generator.load import load_inputs
from generator.pages import NAV_CHILDREN


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_shared_navigation_changes_no_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "release"
    make_release().write_release(
        root, tasks_general=30, tasks_enterprise=36, combinations=2, runs=2, rules=2, judges=1
    )
    inputs, problems = load_inputs(root)
    assert not [p for p in problems + check_inputs(inputs) if p.severity == "error"]
    shared = tmp_path / "shared"
    build_site(inputs, shared, strict=True, progress=lambda _: None)
    tasks = sorted((shared / "v1.0" / "tasks").glob("*.html"))
    assert len(tasks) > NAV_CHILDREN, "the release must have more public tasks than the nav lists"
    assert all('data-md-type="navigation"' in t.read_text(encoding="utf-8") for t in tasks)

    # The same build with no page marked as sharing: each renders its own navigation.
    monkeypatch.setattr(generator.pages, "replace", lambda page, **_: page)
    alone = tmp_path / "alone"
    build_site(inputs, alone, strict=True, progress=lambda _: None)
    assert _files(shared) == _files(alone)
