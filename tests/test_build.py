"""The build as a whole: load → check → score → pages → site, from a root folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from synthetic import make_release

from generator.build import build
from generator.errors import InvalidInput

pytestmark = pytest.mark.slow  # builds the example site from the command line


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small synthetic release of two versions."""
    root = tmp_path_factory.mktemp("build") / "release"
    make_release().write_release(
        root, tasks_general=6, tasks_enterprise=6, combinations=2, runs=2, rules=2, judges=1
    )
    return root


def test_each_version_is_scored_then_paged_then_built(root: Path, tmp_path: Path) -> None:
    said: list[str] = []
    built = build(root, tmp_path / "site", progress=said.append)
    versions = sorted(v.folder for v in built.inputs.releases)
    steps = [m.split(": ", 1) for m in said if ": " in m]
    for version in versions:
        order = [step for folder, step in steps if folder == version]
        assert order[:3] == ["scoring", "writing pages", "building the site"], order
    assert (tmp_path / "site" / "index.html").is_file()
    assert {p.name for p in (tmp_path / "site").iterdir() if p.is_dir()} >= set(versions)
    assert built.reused == {}


def test_a_second_build_reuses_every_unchanged_version_and_changes_no_byte(
    root: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    first = build(root, out)
    before = _files(out)
    second = build(root, out)
    assert sorted(second.reused) == sorted(v.folder for v in first.inputs.releases)
    assert _files(out) == before


def test_bad_input_stops_the_build_before_any_page_and_leaves_the_output(
    root: Path, tmp_path: Path
) -> None:
    out = tmp_path / "site"
    build(root, out)
    before = _files(out)
    broken = tmp_path / "broken"
    make_release().write_release(
        broken, tasks_general=6, tasks_enterprise=6, combinations=2, runs=2, rules=2, judges=1
    )
    release = next(broken.glob("results/*/release.yaml"))
    release.write_text(release.read_text(encoding="utf-8") + "unknown_field: 1\n", "utf-8")
    said: list[str] = []
    with pytest.raises(InvalidInput) as raised:
        build(broken, out, progress=said.append)
    assert any("unknown_field" in str(p) for p in raised.value.problems)
    assert said == [], "nothing is scored or written once a check fails"
    assert _files(out) == before


def test_a_runs_file_linked_outside_the_root_is_refused_fresh_and_over_a_cached_build(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A runs file replaced by a link to the same bytes outside the root: a fresh build
    refuses it, and so does a build over the previous site, whose cached version no
    longer matches; the previous site stays as it was."""
    monkeypatch.delenv("LG_BENCH_NO_CACHE", raising=False)
    mine = tmp_path / "root"
    shutil.copytree(root, mine)
    out = tmp_path / "site"
    build(mine, out)
    before = _files(out)
    runs = sorted(mine.glob("results/*/bundles/*/runs.jsonl"))[0]
    outside = tmp_path / "outside.jsonl"
    shutil.copyfile(runs, outside)
    runs.unlink()
    runs.symlink_to(outside)
    rel = runs.relative_to(mine).as_posix()
    for target in (out, tmp_path / "fresh"):
        with pytest.raises(InvalidInput) as refused:
            build(mine, target)
        said = [str(p) for p in refused.value.problems]
        assert f"{rel}: is a symbolic link that leads outside the input root" in said[0], said
    assert _files(out) == before


def _threads_after_a_product(env: dict[str, str]) -> int:
    """The threads of a fresh process that imported the generator, then numpy, and
    multiplied two matrices (OpenBLAS starts its threads when it loads)."""
    code = (
        "import os, generator, numpy as np; np.ones((300, 300)) @ np.ones((300, 300)); "
        "print(len(os.listdir('/proc/self/task')))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    done = subprocess.run(
        [sys.executable, "-c", code], env=clean | env, capture_output=True, text=True, check=True
    )
    return int(done.stdout)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="threads counted in /proc")
def test_the_engine_runs_one_blas_thread_unless_told_otherwise() -> None:
    """BLAS threads only spin on the engine's small matrices (generator/__init__.py has the
    figures): one thread by default, and a caller's own setting is kept."""
    assert _threads_after_a_product({}) == 1
    if (os.cpu_count() or 1) > 1:
        assert _threads_after_a_product({"OPENBLAS_NUM_THREADS": "2"}) == 2
