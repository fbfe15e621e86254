"""Reusing a version's pages: the stamp changes with anything the pages depend on, and only
a version whose stamp matches the previous output's is reused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.site.cache import STAMP, reusable, reuse, version_digest


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.delenv("LG_BENCH_NO_CACHE", raising=False)
    base = tmp_path / "root"
    for version in ("v1", "v2"):
        folder = base / "results" / version
        folder.mkdir(parents=True)
        (folder / "release.yaml").write_text(f"version: {version}\n", encoding="utf-8")
    (base / "harnesscards").mkdir()
    (base / "harnesscards" / "a.yaml").write_text("id: a\n", encoding="utf-8")
    return base


def test_the_stamp_follows_inputs_options_and_build_date(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = version_digest(root, "v1", strict=False)
    assert version_digest(root, "v1", strict=False) == base  # deterministic
    assert version_digest(root, "v1", strict=True) != base
    assert version_digest(root, "v2", strict=False) != base
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert version_digest(root, "v1", strict=False) != base
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    (root / "harnesscards" / "a.yaml").write_text("id: b\n", encoding="utf-8")
    assert version_digest(root, "v1", strict=False) != base


def test_a_file_s_name_counts_not_only_its_bytes(root: Path) -> None:
    base = version_digest(root, "v1", strict=False)
    folder = root / "results" / "v1"
    (folder / "release.yaml").rename(folder / "renamed.yaml")
    assert version_digest(root, "v1", strict=False) != base
    (folder / "renamed.yaml").rename(folder / "release.yaml")
    assert version_digest(root, "v1", strict=False) == base


def _stamp(out: Path, version: str, text: str) -> None:
    (out / version).mkdir(parents=True, exist_ok=True)
    (out / version / STAMP).write_text(text + "\n", encoding="utf-8")


def test_only_versions_whose_stamp_matches_are_reusable(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "site"
    assert reusable(root, out, strict=False) == {}  # no previous output
    v1 = version_digest(root, "v1", strict=False)
    _stamp(out, "v1", v1)
    _stamp(out, "v2", "0" * 64)  # made from other inputs
    assert reusable(root, out, strict=False) == {"v1": v1}
    assert reusable(root, out, strict=True) == {}  # other options, other pages
    monkeypatch.setenv("LG_BENCH_NO_CACHE", "1")
    assert reusable(root, out, strict=False) == {}


def test_reuse_links_the_previous_files(tmp_path: Path) -> None:
    previous = tmp_path / "old" / "v1"
    (previous / "sub").mkdir(parents=True)
    (previous / "sub" / "page.html").write_text("<p>page</p>", encoding="utf-8")
    staging = tmp_path / "new" / "v1"
    reuse(previous, staging)
    copied = staging / "sub" / "page.html"
    assert copied.read_text(encoding="utf-8") == "<p>page</p>"
    assert os.stat(copied).st_ino == os.stat(previous / "sub" / "page.html").st_ino  # no copy


def test_the_stamp_says_where_a_link_leads(root: Path, tmp_path: Path) -> None:
    """A file replaced by a link to the same bytes changes the stamp (the loader refuses a
    link out of the root: a cached version must not pass it), so does a link's target
    moving, and a link loop ends the walk."""
    base = version_digest(root, "v1", strict=False)
    release = root / "results" / "v1" / "release.yaml"
    outside = tmp_path / "outside.yaml"
    outside.write_bytes(release.read_bytes())
    release.unlink()
    release.symlink_to(outside)
    linked_out = version_digest(root, "v1", strict=False)
    assert linked_out != base
    inside = root / "results" / "v1" / "copy.yaml"
    inside.write_bytes(outside.read_bytes())
    release.unlink()
    release.symlink_to(inside)
    assert version_digest(root, "v1", strict=False) not in {base, linked_out}
    release.unlink()
    release.write_bytes(inside.read_bytes())
    inside.unlink()
    assert version_digest(root, "v1", strict=False) == base
    (root / "results" / "v1" / "loop").symlink_to(root / "results" / "v1")
    assert version_digest(root, "v1", strict=False) != base
