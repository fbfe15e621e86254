"""The command line: ``python -m generator <command>``.

Exit codes: 0 success; 1 invalid input (every problem is listed first); 2 a malformed
command line; 3 a request the protocol refuses.
"""

from __future__ import annotations

from pathlib import Path

import click

from generator import __version__
from generator.check import check_inputs
from generator.errors import InvalidInput, Problem, sort_problems
from generator.load import Inputs, load_inputs
from generator.models.schema import write_schemas

ROOT_HELP = "Folder holding results/ and harnesscards/ (default: the current folder)."


def load_checked(root: Path, strict: bool) -> tuple[Inputs, list[Problem]]:
    """Load and check every input; raise InvalidInput on errors (or warnings when strict)."""
    inputs, problems = load_inputs(root)
    problems += check_inputs(inputs)
    failing = [p for p in problems if p.severity == "error" or strict]
    if failing:
        raise InvalidInput(problems)
    return inputs, sort_problems(problems)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lg-bench-site")
def cli() -> None:
    """Build the lg-bench release site from result bundles and HarnessCards."""


@cli.command()
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help=ROOT_HELP,
)
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def validate(root: Path, strict: bool) -> None:
    """Check every input file and the rules between them; list every problem."""
    if not root.is_dir():
        raise click.BadParameter(f"{root} is not a folder", param_hint="--root")
    try:
        inputs, warnings = load_checked(root, strict)
    except InvalidInput as exc:
        exc.show()
        raise SystemExit(exc.exit_code) from None
    for problem in warnings:
        click.echo(str(problem), err=True)
    versions = len(inputs.releases)
    bundles = sum(len(r.bundles) for r in inputs.releases)
    runs = sum(len(b.runs.records) for r in inputs.releases for b in r.bundles)
    click.echo(
        f"valid: {versions} version(s), {bundles} bundle(s), {runs:,} run(s), "
        f"{len(inputs.cards)} HarnessCard(s); {len(warnings)} warning(s)"
    )


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
    for path in write_schemas(out):
        click.echo(str(path))


def main() -> None:
    """Console entry point."""
    cli(prog_name="python -m generator")
