"""The command line: ``python -m generator <command>``.

Exit codes: 0 success; 1 invalid input (every problem is listed first); 2 a malformed
command line; 3 a request the protocol refuses.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import click

from generator import __version__
from generator.build import load_checked
from generator.disclosure.fingerprint import digest
from generator.disclosure.fingerprint import fingerprint as fingerprint_of
from generator.errors import (
    EXIT_INVALID_INPUT,
    InvalidInput,
    Problem,
    Refused,
    counted,
    github_annotation,
    github_data,
    sort_problems,
)
from generator.importers.command import import_command
from generator.load import Inputs
from generator.load.yamlfile import read_valid
from generator.models import Release
from generator.models.base import ID_PATTERN
from generator.models.schema import write_schemas
from generator.models.template import PLACEHOLDER, RUNS_HEADER, bundle_template
from generator.score.render import RENDERERS
from generator.score.report import build_report
from generator.score.results import OUTPUT_MODELS
from generator.score.scope import CROSS_DOMAIN_RULE, CROSS_VERSION_RULE
from generator.site.engines import ENGINES
from generator.skeleton import init

ROOT_HELP = "Folder holding results/ and harnesscards/ (default: the current folder)."


root_option = click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help=ROOT_HELP,
)


def _need_folder(root: Path) -> None:
    if not root.is_dir():
        raise click.BadParameter(f"{root} is not a folder", param_hint="--root")


def checked_or_exit(
    root: Path,
    strict: bool,
    cached: Collection[str] = (),
    render: Callable[[Problem], str] = str,
) -> tuple[Inputs, list[Problem]]:
    """The checked inputs and their warnings; on invalid input, list every problem (each
    as ``render`` writes it) and exit."""
    _need_folder(root)
    try:
        inputs, warnings = load_checked(root, strict, cached)
    except InvalidInput as exc:
        exc.show(render=render)
        raise SystemExit(exc.exit_code) from None
    for problem in warnings:
        click.echo(render(problem), err=True)
    return inputs, warnings


#: How ``validate`` writes each problem: one line "file:line: field: message", or a GitHub
#: Actions annotation, which a pull request shows on the file's line.
FORMATS = ("text", "github")


def _renderer(fmt: str, root: Path) -> Callable[[Problem], str]:
    if fmt == "text":
        return str
    base = os.path.relpath(root.resolve(), Path.cwd()).replace(os.sep, "/")
    return lambda p: github_annotation(p, base)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lg-bench-site")
def cli() -> None:
    """Build the lg-bench release site from result bundles and HarnessCards."""


@cli.command()
@root_option
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="How each problem is written: a line, or a GitHub Actions annotation "
    "(::error file=…,line=…::…) that a pull request shows on the file's line.",
)
def validate(root: Path, strict: bool, fmt: str) -> None:
    """Check every input file and the rules between them; list every problem."""
    inputs, warnings = checked_or_exit(root, strict, render=_renderer(fmt, root))
    for notice in full_reads(inputs):
        click.echo(notice if fmt == "text" else f"::notice::{github_data(notice)}", err=True)
    versions = len(inputs.releases)
    bundles = sum(len(r.bundles) for r in inputs.releases)
    runs = sum(len(b.runs) for r in inputs.releases for b in r.bundles)
    click.echo(
        f"valid: {versions} version(s), {bundles} bundle(s), {runs:,} run(s), "
        f"{len(inputs.cards)} HarnessCard(s); {counted(warnings, errors=False)}"
    )


#: A file at least this large that the full YAML reader read is named on its own (PyYAML
#: reads about 0.4 MB a second here, 9.4 s for the 3.7 MB reference catalog: 16 KiB costs
#: about 0.04 s); smaller ones are counted in one line.
NAMED_FULL_READ = 16 * 1024


def full_reads(inputs: Inputs) -> list[str]:
    """Notices of the files the full YAML reader read, which is slower (not warnings:
    --strict passes): one per file of :data:`NAMED_FULL_READ` bytes or more, with its
    reason, and one line counting the smaller ones."""
    loaded: list[Any] = list(inputs.cards.values())
    for release in inputs.releases:
        loaded += [part for part in (release.release, release.catalog) if part is not None]
        loaded += [bundle.bundle for bundle in release.bundles] + list(release.deep_dives)
    slow = [item.source for item in loaded if item.source.full_reader is not None]
    size = {s.path: (inputs.root / s.path).stat().st_size for s in slow}
    named = [s for s in slow if size[s.path] >= NAMED_FULL_READ]
    notices = sort_problems(
        Problem(s.path, None, "", f"read by the full YAML reader: {s.full_reader}", "notice")
        for s in named
    )
    lines = [str(n) for n in notices]
    smaller = sorted(s.path for s in slow if size[s.path] < NAMED_FULL_READ)
    if smaller:
        shown = ", ".join(smaller[:NAMED_SMALL])
        more = f" and {len(smaller) - NAMED_SMALL} more" if len(smaller) > NAMED_SMALL else ""
        lines.append(
            f"notice: {len(smaller)} file(s) under {NAMED_FULL_READ // 1024} KiB read by the "
            "full YAML reader (values YAML 1.1 and 1.2 read differently, such as unquoted "
            f"dates, or anchors and aliases): {shown}{more}"
        )
    return lines


#: The smaller files a notice names before it counts the rest.
NAMED_SMALL = 5


@cli.command()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("site_src/schemas"),
    show_default=True,
    help="Folder to write the JSON Schemas into.",
)
def schema(out: Path) -> None:
    """Write the JSON Schema of every input file, generated from the models."""
    for path in write_schemas(out, OUTPUT_MODELS):
        click.echo(str(path))


@cli.command()
@root_option
@click.option(
    "--version",
    "versions",
    multiple=True,
    required=True,
    metavar="V",
    help="The one version to report, e.g. v1.0.",
)
@click.option(
    "--domain",
    "domains",
    multiple=True,
    required=True,
    metavar="D",
    help="The one domain to report, e.g. general.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(sorted(RENDERERS)),
    default="json",
    show_default=True,
    help="Output format.",
)
def report(root: Path, versions: tuple[str, ...], domains: tuple[str, ...], fmt: str) -> None:
    """Print every aggregate the site shows for one version and one domain."""
    if len(set(versions)) > 1:
        raise Refused(
            f"refused: one version per report, got {', '.join(versions)}: {CROSS_VERSION_RULE}"
        )
    if len(set(domains)) > 1 or domains[0] == "all":
        raise Refused(
            f"refused: one domain per report, got {', '.join(domains)}: {CROSS_DOMAIN_RULE}"
        )
    inputs, _ = checked_or_exit(root, strict=False)
    by_version = {r.folder: r for r in inputs.releases}
    if versions[0] not in by_version:
        raise click.BadParameter(
            f"{versions[0]!r} is not a version under {root / 'results'}; "
            f"expected one of {sorted(by_version)}",
            param_hint="--version",
        )
    version = by_version[versions[0]]
    assert version.release is not None
    known = [d.id for d in version.release.model.domains]
    if domains[0] not in known:
        raise click.BadParameter(
            f"{domains[0]!r} is not a domain of {versions[0]}; expected one of {known}",
            param_hint="--domain",
        )
    click.echo(RENDERERS[fmt](build_report(version, domains[0])), nl=False)


@cli.command()
@root_option
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("site"),
    show_default=True,
    help="Output folder; replaced only after a fully successful build.",
)
@click.option("--strict", is_flag=True, help="Treat warnings (input and engine) as errors.")
@click.option(
    "--engine",
    type=click.Choice(ENGINES),
    default=ENGINES[0],
    show_default=True,
    help="What builds each version's pages: mkdocs, or its successor Zensical.",
)
def build(root: Path, out: Path, strict: bool, engine: str) -> None:
    """Build the release site: one mkdocs-material site per version, plus a landing page."""
    from generator.build import build as build_all

    _need_folder(root)
    terminal = sys.stderr.isatty()

    def progress(message: str) -> None:
        if terminal:
            click.echo(f"… {message}", err=True)

    try:
        built = build_all(root, out, strict, engine, progress)
    except InvalidInput as exc:
        exc.show()
        raise SystemExit(exc.exit_code) from None
    for problem in built.problems:
        click.echo(str(problem), err=True)
    for warning in built.warnings:
        click.echo(f"warning: {warning}", err=True)
    inputs = built.inputs
    versions = ", ".join(sorted(r.folder for r in inputs.releases))
    count = counted(built.problems, errors=False, more_warnings=len(built.warnings))
    reused = f"; unchanged, reused: {', '.join(sorted(built.reused))}" if built.reused else ""
    click.echo(f"built {out}: {versions}; {count}{_unpublished(inputs)}{reused}")


@cli.command()
@root_option
@click.option("--version", "versions", multiple=True, metavar="V", help="Only this version.")
@click.option("--bundle", "bundles", multiple=True, metavar="COMBO", help="Only this bundle.")
@click.argument("records", nargs=-1, type=click.Path(dir_okay=False, exists=True, path_type=Path))
def fingerprint(
    root: Path, versions: tuple[str, ...], bundles: tuple[str, ...], records: tuple[Path, ...]
) -> None:
    """Print configuration fingerprints: of the bundles under --root, or recomputed from
    exported <combination>.configuration-record.json files (exit 1 if one differs from the
    fingerprint it records)."""
    if records:
        if not all(_recomputed(path) for path in records):
            raise SystemExit(EXIT_INVALID_INPUT)
        return
    inputs, _ = checked_or_exit(root, strict=False)
    shown = 0
    for version in sorted(inputs.releases, key=lambda v: v.folder):
        if versions and version.folder not in versions:
            continue
        for loaded in version.bundles:
            if bundles and loaded.folder not in bundles:
                continue
            bundle = loaded.bundle.model
            card = inputs.cards[bundle.combination.harnesscard].model
            click.echo(f"{fingerprint_of(card, bundle)}  {version.folder}/{loaded.folder}")
            shown += 1
    if not shown:
        raise click.BadParameter(
            f"no bundle under {root / 'results'} matches --version {list(versions)} "
            f"--bundle {list(bundles)}",
            param_hint="--version/--bundle",
        )


def _recomputed(path: Path) -> bool:
    """Print the fingerprint of an exported configuration record; whether it matches the one
    the record states (a bare fingerprint document states none)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise click.BadParameter(f"{path}: not a JSON file: {exc}", param_hint="RECORDS") from None
    if not isinstance(record, dict):
        raise click.BadParameter(f"{path}: expected a JSON object", param_hint="RECORDS")
    value = digest(record.get("fingerprinted", record))
    stated = record.get("fingerprint") if "fingerprinted" in record else None
    if stated is None or stated == value:
        click.echo(f"{value}  {path}")
        return True
    click.echo(f"{value}  {path}: differs from the recorded fingerprint {stated}", err=True)
    return False


@cli.command("new-bundle")
@root_option
@click.option("--version", required=True, metavar="V", help="The release version, e.g. v1.1.")
@click.argument("combination")
def new_bundle(root: Path, version: str, combination: str) -> None:
    """Write a commented bundle template: results/V/bundles/COMBINATION/bundle.yaml, every
    field described, and runs.jsonl with its header line."""
    _need_folder(root)
    for value, hint in ((combination, "COMBINATION"), (version, "--version")):
        if not re.fullmatch(ID_PATTERN, value):
            raise click.BadParameter(
                f"{value!r} is not an id: letters, digits, '.', '_' and '-'", param_hint=hint
            )
    if not (root / "results" / version).is_dir():
        known = sorted(p.name for p in (root / "results").glob("*/") if p.is_dir())
        raise click.BadParameter(
            f"{version!r} is not a version folder under {root / 'results'}; expected one of "
            f"{known}",
            param_hint="--version",
        )
    folder = root / "results" / version / "bundles" / combination
    if folder.exists():
        raise click.BadParameter(f"{folder} exists; a template never overwrites a bundle")
    release = read_valid(Release, root / "results" / version / "release.yaml", root)
    if release is None:
        click.echo(
            f"notice: {root / 'results' / version / 'release.yaml'} could not be read: "
            "runs_per_task and pipeline_components are left to fill in",
            err=True,
        )
    folder.mkdir(parents=True)
    (folder / "bundle.yaml").write_text(
        bundle_template(version, combination, release), encoding="utf-8"
    )
    (folder / "runs.jsonl").write_text(RUNS_HEADER, encoding="utf-8")
    click.echo(f"{folder / 'bundle.yaml'}\n{folder / 'runs.jsonl'}")
    click.echo(
        f"fill in every {PLACEHOLDER!r}, add the runs, then: python -m generator validate "
        f"--root {root}",
        err=True,
    )


def _unpublished(inputs: Inputs) -> str:
    """How many bundles were left out for lack of publication consent (§7.2)."""
    held = sorted(
        f"{v.folder}/{b.folder}"
        for v in inputs.releases
        for b in v.bundles
        if not b.bundle.model.consent.granted
    )
    return f"; not published (no consent): {', '.join(held)}" if held else ""


cli.add_command(init)
cli.add_command(import_command)


def main() -> None:
    """Console entry point."""
    cli(prog_name="python -m generator")
