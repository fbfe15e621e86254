"""Reuse a version's pages when nothing that made them changed.

Each built version folder carries a stamp: the SHA-256 of everything its pages depend on —
the version's input files (results/<version>/) and where any symbolic link among them leads,
every HarnessCard, the generator's own code, templates and theme files, the versions of the
packages that render pages, the build options and SOURCE_DATE_EPOCH. A rebuild whose stamp
for a version equals the one in the previous output takes that version's folder as it is
(hard links, no copy) and skips loading, checking, scoring and rendering it. Any other
change rebuilds the version from scratch.
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


def _entries(folder: Path) -> list[Path]:
    """Every file and folder under ``folder``, symbolic links followed as the loader follows
    them (each real folder once, so a link loop ends), sorted."""
    found: list[Path] = []
    seen: set[str] = set()
    for top, folders, files in os.walk(folder, followlinks=True):
        if os.path.realpath(top) in seen:
            folders.clear()
            continue
        seen.add(os.path.realpath(top))
        folders[:] = [f for f in folders if f != "__pycache__"]
        found += [Path(top, name) for name in (*folders, *files)]
    return sorted(found)


def _feed(digest: hashlib._Hash, folder: Path, base: Path) -> None:
    """Every file and folder under ``folder``: its path relative to ``base``, where it leads
    when a symbolic link is on its way (inside ``base``, or outside it: what the loader's
    checks depend on, so that a link never takes a cached version past them), and a file's
    size and bytes."""
    if not folder.is_dir():
        return
    real_base = Path(os.path.realpath(base))
    for path in _entries(folder):
        rel = path.relative_to(base).as_posix()
        real = Path(os.path.realpath(path))
        if real != real_base / rel:
            leads = real.relative_to(real_base) if real.is_relative_to(real_base) else real
            rel += f" -> {'' if leads == real else './'}{leads.as_posix()}"
        name = rel.encode("utf-8", "surrogateescape")
        digest.update(len(name).to_bytes(4, "big") + name)
        if not path.is_file():
            continue
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
