"""Reuse a version's pages when nothing that made them changed.

Each built version folder carries a stamp: the SHA-256 of everything its pages depend on —
the version's input files (results/<version>/), every HarnessCard, the generator's own code,
templates and theme files, the versions of the packages that render pages, the build options
and SOURCE_DATE_EPOCH. A rebuild whose stamp for a version equals the one in the previous
output takes that version's folder as it is (hard links, no copy) and skips loading, checking,
scoring and rendering it. Any other change rebuilds the version from scratch.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from importlib import metadata
from pathlib import Path

STAMP = ".inputs-sha256"
REPO = Path(__file__).resolve().parents[2]
_PACKAGES = ("mkdocs", "mkdocs-material", "zensical", "plotly", "markdown-it-py", "jinja2",
             "pandas", "numpy", "pyarrow", "pydantic", "pyyaml")  # fmt: skip
_CHUNK = 1 << 20


def _feed(digest: hashlib._Hash, folder: Path, base: Path) -> None:
    """Every file under ``folder``: its path relative to ``base``, its size, its bytes."""
    if not folder.is_dir():
        return
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if "__pycache__" in path.parts:
            continue
        rel = path.relative_to(base).as_posix().encode()
        digest.update(len(rel).to_bytes(4, "big") + rel)
        digest.update(path.stat().st_size.to_bytes(8, "big"))
        with path.open("rb") as handle:
            while chunk := handle.read(_CHUNK):
                digest.update(chunk)


@cache
def generator_digest() -> str:
    """What every page depends on besides its inputs: code, templates, theme, packages."""
    digest = hashlib.sha256()
    for part in ("generator", "site_src"):
        _feed(digest, REPO / part, REPO)
    digest.update((REPO / "mkdocs.yml").read_bytes())
    for package in _PACKAGES:
        try:
            digest.update(f"{package}={metadata.version(package)};".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package}=none;".encode())
    return digest.hexdigest()


def version_digest(root: Path, folder: str, strict: bool, engine: str = "mkdocs") -> str:
    """The stamp a build of ``results/<folder>`` under ``root`` with ``engine`` would carry."""
    digest = hashlib.sha256()
    digest.update(generator_digest().encode())
    digest.update(
        f"strict={strict};engine={engine};epoch={os.environ.get('SOURCE_DATE_EPOCH', '')};".encode()
    )
    _feed(digest, root / "results" / folder, root)
    _feed(digest, root / "harnesscards", root)
    return digest.hexdigest()


def reusable(root: Path, out: Path, strict: bool, engine: str = "mkdocs") -> dict[str, str]:
    """Versions whose previous output in ``out`` is still exact: folder -> stamp."""
    results = root / "results"
    if not out.is_dir() or not results.is_dir() or os.environ.get("LG_BENCH_NO_CACHE"):
        return {}
    stamped = [
        version
        for version in sorted(p.name for p in results.iterdir() if p.is_dir())
        if (out / version / STAMP).is_file()
    ]
    generator_digest()  # once, before the threads
    # hashlib releases the GIL on large buffers: versions are hashed side by side.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        digests = list(pool.map(lambda v: version_digest(root, v, strict, engine), stamped))
    return {
        version: digest
        for version, digest in zip(stamped, digests, strict=True)
        if (out / version / STAMP).read_text(encoding="utf-8").strip() == digest
    }


def reuse(previous: Path, staging: Path) -> None:
    """Take a version folder from the previous output: hard links, or copies across devices."""
    try:
        shutil.copytree(previous, staging, copy_function=os.link)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(previous, staging)
