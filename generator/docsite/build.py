"""Build the generator's documentation site: the pages of ``docs/``, the generated reference
pages and ``bench/README.md``, staged in a temporary folder and built by the engine that builds
the release sites (mkdocs with Material, :mod:`generator.site.engines`), strict.

Nothing generated is committed: the command and input-format references are written from the
command line and the models on every build, so they cannot drift."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import click
import yaml

from generator.docsite.commands import command_reference
from generator.docsite.inputs import input_reference
from generator.site.engines import REPO, run

DOCS = REPO / "docs"
CONFIG = DOCS / "mkdocs.yml"

#: Pages written on every build: where in the site → what writes them.
GENERATED: dict[str, Callable[[], str]] = {
    "reference/commands.md": command_reference,
    "reference/inputs.md": input_reference,
}
#: Files of the repository shown as pages of the site, unchanged: where in the site → file.
INCLUDED = {"measured.md": REPO / "bench" / "README.md"}

#: The file that marks a folder as a documentation build, which a later build may replace.
MARKER = ".lg-bench-docs"
#: The build time the engine stamps (SOURCE_DATE_EPOCH), unless the environment sets one:
#: fixed, so that two builds of the same sources are byte-identical.
EPOCH = "0"


def stage(work: Path) -> Path:
    """Lay out the site's sources in ``work`` (``docs/`` and the configuration, built into
    ``site/``) and return the configuration's path."""
    docs = work / "docs"
    shutil.copytree(DOCS, docs, ignore=shutil.ignore_patterns("mkdocs.yml"))
    for name, source in INCLUDED.items():
        shutil.copyfile(source, docs / name)
    for name, write in GENERATED.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(write(), encoding="utf-8")
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))
    config.update({"docs_dir": "docs", "site_dir": "site", "strict": True})
    path = work / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def build_docs(out: Path) -> list[str]:
    """Build the documentation site into ``out`` (replaced only after a successful build, and
    only if it is empty or an earlier documentation build); return the engine's messages."""
    if out.exists() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise click.ClickException(f"{out} is not empty and not a documentation build")
    with tempfile.TemporaryDirectory(prefix="lg-docs-") as tmp, _build_time():
        work = Path(tmp)
        messages = run(stage(work), strict=True)
        site = work / "site"
        # the sitemaps hold only build dates, and 404.html root-absolute links that work only
        # at a site's root (the release sites drop it too); nothing links to them
        for name in ("sitemap.xml", "sitemap.xml.gz", "404.html"):
            (site / name).unlink(missing_ok=True)
        (site / MARKER).write_text("built by python -m generator.docsite\n", encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(site, out)
    return messages


@contextlib.contextmanager
def _build_time() -> Iterator[None]:
    """SOURCE_DATE_EPOCH set to :data:`EPOCH` meanwhile, unless it is set already."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        yield
        return
    os.environ["SOURCE_DATE_EPOCH"] = EPOCH
    try:
        yield
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]


@click.command()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("build/docs"),
    show_default=True,
    help="Output folder; replaced only after a successful build.",
)
def main(out: Path) -> None:
    """Build the generator's documentation site (strict: any warning fails it)."""
    for message in build_docs(out):
        click.echo(f"warning: {message}", err=True)
    click.echo(f"built {out}: open {out / 'index.html'}")
