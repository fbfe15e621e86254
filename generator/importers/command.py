"""``python -m generator import FORMAT SOURCE... --root ROOT --version V``: another tool's
result files → bundles of a release root, by the importer installed for FORMAT."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from generator.errors import InvalidInput, Problem
from generator.importers.files import Options, plan, write
from generator.importers.registry import GROUP, load, registered
from generator.importers.source import SourceError
from generator.models.base import ID_PATTERN


def _fail(problems: list[Problem]) -> None:
    error = InvalidInput(problems)
    error.show()
    raise SystemExit(error.exit_code)


@click.command("import")
@click.argument("fmt", metavar="FORMAT")
@click.argument("sources", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="The root to import into (holding results/ and harnesscards/); made if missing.",
)
@click.option("--version", required=True, metavar="V", help="The release version, e.g. v1.0.")
@click.option(
    "--combination",
    default=None,
    metavar="ID",
    help="The bundle's id, when the source holds one combination (default: from the "
    "harness and model the source names).",
)
@click.option(
    "--scorer",
    default=None,
    metavar="NAME",
    help="The scorer (or reward) the outcome comes from; needed where the source has several.",
)
@click.option(
    "--consent",
    "consent_by",
    default=None,
    metavar="WHO",
    help="Who grants publication of the imported runs (§7.2); without it the bundles are "
    "written unpublished.",
)
@click.option(
    "--consent-date",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="When consent was granted (default: the date an earlier import of the bundle "
    "recorded, else today).",
)
@click.option(
    "--freeze-date",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="The day the task set was frozen, for a new release (default: the first day of the "
    "runs, the latest it can have been).",
)
@click.option("--code", default=None, help="The benchmark's code, for a new release.")
@click.option("--replace", is_flag=True, help="Replace a bundle that differs from the import.")
def import_command(
    fmt: str,
    sources: tuple[Path, ...],
    root: Path,
    version: str,
    combination: str | None,
    scorer: str | None,
    consent_by: str | None,
    consent_date: Any,
    freeze_date: Any,
    code: str | None,
    replace: bool,
) -> None:
    """Import another tool's result files as bundles of release V under --root: FORMAT is
    an installed importer (inspect: Inspect AI logs; terminal-bench: Terminal-Bench runs and
    Harbor jobs; more through the entry-point group lg_bench_site.importers). What the
    source records is written, every other setting "not recorded"; a task catalog and a
    minimal release are written when the version has none. Re-importing writes the same
    bytes; a bundle that differs is replaced only with --replace."""
    known = registered()
    if fmt not in known:
        raise click.BadParameter(
            f"{fmt!r} is no installed importer; expected one of {sorted(known)} (more "
            f"through the entry-point group {GROUP})",
            param_hint="FORMAT",
        )
    for value, hint in ((version, "--version"), (combination, "--combination")):
        if value is not None and not re.fullmatch(ID_PATTERN, value):
            raise click.BadParameter(
                f"{value!r} is not an id: letters, digits, '.', '_' and '-'", param_hint=hint
            )
    options = Options(
        root=root,
        version=version,
        fmt=fmt,
        combination=combination,
        replace=replace,
        consent_by=consent_by,
        consent_date=consent_date.date() if consent_date else None,
        freeze_date=freeze_date.date() if freeze_date else None,
        code=code,
    )
    try:
        importer = load(fmt)
        imported = importer.read(list(sources), scorer)
        files = plan(imported, options)
        states = write(files, options)
    except SourceError as exc:
        _fail([Problem(exc.where, None, "", exc.message)])
    except InvalidInput as exc:
        _fail(exc.problems)
    except TypeError as exc:
        raise click.ClickException(str(exc)) from None
    for state in states:
        click.echo(f"{state.state}: {root / state.path}")
    runs = sum(len(b.runs) for b in imported.bundles)
    click.echo(
        f"imported {runs} run(s) of {len(imported.bundles)} combination(s) into "
        f"{root / 'results' / version}; next: python -m generator validate --root {root} --strict",
        err=True,
    )
    if consent_by is None:
        click.echo(
            "notice: no --consent: the bundles are written unpublished (consent.granted false)",
            err=True,
        )
