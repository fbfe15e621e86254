"""The site stage: every version built into a staging folder, then swapped in for the output.

The previous output is replaced only after everything succeeded; any failure leaves it
exactly as it was (:class:`Staging`). A version's site is its pages written as sources and
downloads, built by the engine (:mod:`engines`), assembled (:mod:`assemble`) and moved
beside the downloads (:meth:`Staging.add`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import gc
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import cast

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from generator.errors import GeneratorError
from generator.load import Inputs, LoadedRelease
from generator.pages import Page, VersionContext
from generator.site import assemble, cache, engines, forked
from generator.site.forked import Send
from generator.site.parts import part_pages, task_parts

SITE_SRC = engines.SITE_SRC

Progress = Callable[[str], None]


class BuildFailed(GeneratorError):
    """The site could not be built; the previous output is untouched."""


def _version_key(name: str) -> tuple[object, ...]:
    """Natural order: v1.10 after v1.9."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name))


def _epoch(version: LoadedRelease) -> int:
    """SOURCE_DATE_EPOCH if set, else the version's freeze date: the build never reads the
    clock, and a version's pages do not change when another version is added."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return int(os.environ["SOURCE_DATE_EPOCH"])
    frozen = version.release.model.freeze_date if version.release else dt.date(2000, 1, 1)
    return int(dt.datetime(frozen.year, frozen.month, frozen.day, tzinfo=dt.UTC).timestamp())


@contextlib.contextmanager
def _environment(epoch: int) -> Iterator[None]:
    saved = {k: os.environ.get(k) for k in ("SOURCE_DATE_EPOCH", "NO_MKDOCS_2_WARNING")}
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


#: The parts a version's pages are rendered in (:mod:`generator.site.parts`):
#: this process renders part 0, a forked worker part 1 (see :mod:`forked`) meanwhile, each
#: making the task tables of its own tasks. Measured at reference scale (bench/run.py's
#: release, 2026-12-01): one process renders the version's pages in 11.1 s of CPU, two parts
#: take 4.4-4.9 s each side by side, so on two cores the worker takes about 6 s off the
#: build; ``bench/tricks.py`` (2026-12-01, medians of four, alternating): the pages stage
#: 5.5 s with it and 9.6 s without, the whole build 16.1 s and 21.1 s.
PARTS = 2


def _write_downloads(pages: list[Page], folder: Path) -> None:
    _write(folder, (f for page in pages for f in page.downloads().items()))


def _render_part(ctx: VersionContext, part: int, docs: Path, downloads: Path, send: Send) -> None:
    """A worker's part of the pages: write their sources, send which of them render a shared
    navigation (the engine may start), then write their downloads while the engine runs."""
    pages, _ = part_pages(ctx, part, PARTS)
    assemble.write_sources(pages, docs, _write)
    send(assemble.nav_sources(pages))
    _write_downloads(pages, downloads)


def _write(folder: Path, files: Iterable[tuple[str, str]]) -> None:
    """Write ``files`` under ``folder``, one after another. (A pool of writing threads did
    not pay: the pages stage took 7.7 s with it and 6.5 s without, then 6.1 s and 5.4 s;
    ``bench/tricks.py``, bench/results/2026-12-01-tricks.json.)"""
    made: set[Path] = set()
    for rel, text in files:
        path = folder / rel
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)
        path.write_text(text, encoding="utf-8")


#: The landing page's icon (site_src/templates), beside it at the site's root.
FAVICON = "favicon.svg"


def _landing(inputs: Inputs, site: Path, order: list[LoadedRelease]) -> None:
    env = Environment(
        loader=FileSystemLoader(str(SITE_SRC / "templates")),
        autoescape=select_autoescape(["html", "j2"]),
        undefined=StrictUndefined,
    )
    versions = []
    for i, v in enumerate(order):
        assert v.release is not None
        r = v.release.model
        versions.append(
            {
                "path": v.folder,
                "title": f"{r.benchmark.name} {r.version}",
                "latest": i == 0,
                "freeze_date": r.freeze_date.isoformat(),
                "illustrative": r.illustrative,
            }
        )
    first = order[0].release if order else None
    benchmark = first.model.benchmark.name if first is not None else "Benchmark"
    html = env.get_template("landing.html.j2").render(benchmark=benchmark, versions=versions)
    (site / "index.html").write_text(html, encoding="utf-8")
    shutil.copyfile(SITE_SRC / "templates" / FAVICON, site / FAVICON)
    entries = [
        {"version": v["path"], "title": v["path"], "aliases": ["latest"] if v["latest"] else []}
        for v in versions
    ]
    (site / "versions.json").write_text(json.dumps(entries, indent=2) + "\n", encoding="utf-8")
    if versions:
        _latest(site, str(versions[0]["path"]))


def _latest(site: Path, version: str) -> None:
    """latest/<page> redirects to the same page of the newest version, for stable links."""
    for page in sorted((site / version).rglob("*.html")):
        rel = page.relative_to(site / version)
        target = "../" * len(rel.parts) + f"{version}/{rel.as_posix()}"
        stub = site / "latest" / rel
        stub.parent.mkdir(parents=True, exist_ok=True)
        stub.write_text(
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            "<title>Redirecting to the latest release</title>"
            f'<link rel="icon" href="{"../" * len(rel.parts)}{FAVICON}" type="image/svg+xml">'
            f'<meta http-equiv="refresh" content="0; url={target}"></head>'
            f'<body><p><a href="{target}">Go to the latest release</a></p></body></html>\n',
            encoding="utf-8",
        )


SITEMAP_HOST = "http://localhost"


def _sitemap(folder: Path, version: str) -> None:
    """List every page, so the version selector can stay on the same page.

    Material's selector reads the other version's sitemap and replaces the protocol and host of
    each entry with the site's own, so a placeholder host works wherever the site is served;
    no site_url is needed (it would add canonical links to a host we do not know).
    """
    # The root entry matters: the selector takes the entries' common prefix as the site root
    # and keeps the page only when that prefix is itself listed.
    pages = ["", *sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.html"))]
    entries = "".join(f"<url><loc>{SITEMAP_HOST}/{version}/{p}</loc></url>" for p in pages)
    (folder / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>\n',
        encoding="utf-8",
    )
    (folder / "sitemap.xml.gz").unlink(missing_ok=True)


#: Marks a folder as a site this generator built, so that a rebuild may replace it.
MARKER = ".lg-bench-site"


def _swap(staging: Path, out: Path) -> None:
    """Put ``staging`` where ``out`` is; the old output is removed only after the move."""
    if out.exists():
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        out.rename(old)
        staging.rename(out)
        shutil.rmtree(old)
    else:
        staging.rename(out)


class Staging:
    """The site being built in a folder beside ``out``, swapped in for it on success.

    Use as a context manager: on leaving without an exception the landing page is written
    and the staged site replaces ``out`` (warnings fail a ``strict`` build first); on an
    exception nothing of ``out`` has changed.
    """

    def __init__(
        self, inputs: Inputs, out: Path, strict: bool, engine: str, progress: Progress
    ) -> None:
        self.inputs, self.out, self.strict = inputs, out.resolve(), strict
        self.engine, self.progress = engine, progress
        self.warnings: list[str] = []
        self._check_output()
        self.order = sorted(
            (v for v in inputs.releases if v.release is not None),
            key=lambda v: _version_key(v.folder),
            reverse=True,
        )

    def _check_output(self) -> None:
        out = self.out
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.exists() and not out.is_dir():
            raise BuildFailed(f"{out} exists and is not a folder")
        if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
            raise BuildFailed(
                f"{out} is a folder that this generator did not build (it has no {MARKER} "
                "file); refusing to replace it: choose a new or empty folder"
            )

    def __enter__(self) -> Staging:
        self._tmp = tempfile.TemporaryDirectory(
            prefix=f".{self.out.name}.build-", dir=self.out.parent
        )
        tmp = Path(self._tmp.name)
        self.site, self.work = tmp / "site", tmp / "work"
        self.site.mkdir()
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        try:
            if kind is None:
                self._finish()
        finally:
            self._tmp.cleanup()

    def reuse(self, version: LoadedRelease) -> None:
        """Take an unchanged version's pages over from the previous site."""
        self.progress(f"{version.folder}: unchanged, from the cache")
        cache.reuse(self.out / version.folder, self.site / version.folder)

    @contextlib.contextmanager
    def version(self, version: LoadedRelease) -> Iterator[None]:
        """Around one version's scoring, pages and site: its date (:func:`_epoch`) for the
        engine, and the objects made meanwhile kept out of the garbage collector's walks
        (``gc.freeze``: the reference build took 23.7 s with it, 24.7 s without; medians of
        three, ``bench/tricks.py``, bench/results/2026-12-01-tricks.json)."""
        self.progress(f"{version.folder}: scoring")
        with _environment(_epoch(version)):
            gc.freeze()
            try:
                yield
            finally:
                gc.unfreeze()
        stamp = cache.version_digest(self.inputs.root, version.folder, self.strict, self.engine)
        (self.site / version.folder / cache.STAMP).write_text(stamp + "\n", encoding="utf-8")

    def add(self, ctx: VersionContext) -> None:
        """Write a scored version's pages and build its site (:func:`_build_version`)."""
        gc.freeze()  # the scores live to the end of the version's build
        self.warnings += _build_version(
            ctx, self.site, self.work, self.strict, self.engine, self.progress
        )

    def _finish(self) -> None:
        self.progress("landing page, then the previous site replaced")
        _landing(self.inputs, self.site, self.order)
        (self.site / MARKER).write_text("Built by python -m generator build.\n", encoding="utf-8")
        if self.strict and self.warnings:
            raise BuildFailed("strict build failed on warnings: " + "; ".join(self.warnings))
        _swap(self.site, self.out)


def _build_version(
    ctx: VersionContext, staging: Path, work: Path, strict: bool, engine: str, progress: Progress
) -> list[str]:
    """Write a version's pages and build them into ``staging/<version>``; return the engine's
    warnings. The task pages of parts 1.. are rendered by forked workers, and every download
    is written into the site by one while the engine builds into a folder of its own (it
    empties its folder first), whose files are assembled (:mod:`assemble`) and moved beside
    the downloads afterwards."""
    folder = ctx.loaded.folder
    progress(f"{folder}: writing pages")
    site, built, docs = staging / folder, work / folder / "site", work / folder / "docs"
    site.mkdir(parents=True)
    shares = task_parts(ctx.public_tasks(), PARTS)
    with contextlib.ExitStack() as workers:
        parts = [  # a part without task pages needs no worker
            workers.enter_context(forked.start(functools.partial(_render_part, ctx, n, docs, site)))
            for n in range(1, PARTS)
            if shares[n]
        ]
        pages, nav = part_pages(ctx, 0, PARTS)
        assemble.write_sources(pages, docs, _write)
        shutil.copytree(SITE_SRC / "assets", docs / "assets")
        nav_sources = assemble.nav_sources(pages)
        for worker in parts:  # its sources are written
            for key, path in cast(dict[str, str], worker.receive()).items():
                nav_sources.setdefault(key, path)
        gc.freeze()  # the pages too: kept for the downloads
        config = engines.configure(ctx.loaded, work / folder, nav, nav_sources, strict)
        # The downloads of part 0 (1.9 s of CPU at reference scale) are written by a worker
        # while the engine builds: the full build took 116 s with it, 130 s without (bench,
        # shared machine, 2026-12-01).
        writer = workers.enter_context(forked.start(lambda _: _write_downloads(pages, site)))
        progress(f"{folder}: building the site")
        warnings = [f"{folder}: {w}" for w in engines.run(config, strict, engine)]
        progress(f"{folder}: putting blocks and navigation into the pages")
        assemble.assemble(built, docs, nav_sources)
        progress(f"{folder}: writing downloads")
        for worker in [*parts, writer]:
            worker.result()
    # mkdocs writes 404.html with root-absolute links that only work at a site root.
    (built / "404.html").unlink(missing_ok=True)
    _move_into(built, site)
    _sitemap(site, folder)
    return warnings


def _move_into(source: Path, target: Path) -> None:
    """Move the files under ``source`` to the same places under ``target`` (a folder at a
    time where ``target`` has none of that name)."""
    for entry in sorted(source.iterdir()) if source.is_dir() else []:
        into = target / entry.name
        if entry.is_dir() and into.is_dir():
            _move_into(entry, into)
        elif not into.exists():
            entry.rename(into)
        else:
            raise BuildFailed(f"a download has the name of a file of the site: {into}")
