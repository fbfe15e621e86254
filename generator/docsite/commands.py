"""The command reference, generated from the command line itself: every command of the click
group, its usage, its help and each of its parameters with their help, plus the exit codes."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import click

from generator import errors
from generator.cli import cli
from generator.docsite.text import code, paragraphs, prose

PROG = "python -m generator"

#: The exit codes, each with what it means (their values are the command line's own).
EXIT_CODES = (
    (0, "success"),
    (errors.EXIT_INVALID_INPUT, "invalid input: every problem is listed first"),
    (errors.EXIT_USAGE, "a malformed command line"),
    (errors.EXIT_REFUSED, "a request the protocol refuses, with the rule it breaks"),
)

#: The head of a table of parameters.
HEADER = ("| parameter | value | default | what it does |", "| --- | --- | --- | --- |")


def command_reference(group: click.Group = cli, prog: str = PROG) -> str:
    """The reference page of ``group``: a section per command, in alphabetical order."""
    root = click.Context(group, info_name=prog, **group.context_settings)
    lines = [
        "# Command reference",
        "",
        prose(
            f"Generated from the command line when this site is built: `{prog} --help` and "
            f"`{prog} COMMAND --help` print the same."
        ).replace("\\`", "`"),
        "",
        *paragraphs(inspect.cleandoc(group.help or "")),
        "",
        *HEADER,
        *(_row(param, root) for param in group.get_params(root)),
        "",
    ]
    for name in group.list_commands(root):
        command = group.get_command(root, name)
        assert command is not None
        ctx = click.Context(command, info_name=name, parent=root, **command.context_settings)
        lines += list(_command(command, ctx))
    lines += ["## Exit codes", "", "| code | meaning |", "| --- | --- |"]
    lines += [f"| `{value}` | {prose(meaning)} |" for value, meaning in EXIT_CODES]
    return "\n".join(lines) + "\n"


def _command(command: click.Command, ctx: click.Context) -> Iterator[str]:
    usage = " ".join([ctx.command_path, *command.collect_usage_pieces(ctx)])
    yield f"## {ctx.info_name}"
    yield ""
    yield "```text"
    yield usage
    yield "```"
    yield ""
    for paragraph in paragraphs(inspect.cleandoc(command.help or "")):
        yield paragraph
        yield ""
    yield from HEADER
    for param in command.get_params(ctx):
        yield _row(param, ctx)
    yield ""


def _row(param: click.Parameter, ctx: click.Context) -> str:
    """One table row: the parameter's names, the value it takes, its default and its help."""
    if isinstance(param, click.Argument):
        names = code(param.make_metavar(ctx))
        value = "any number" if param.nargs == -1 else "required" if param.required else ""
        return f"| {names} | {value} | | argument |"
    assert isinstance(param, click.Option)
    names = ", ".join(code(opt) for opt in [*param.opts, *param.secondary_opts])
    if param.is_flag:
        value = "flag"
    elif isinstance(param.type, click.Choice):
        value = "one of " + ", ".join(code(str(choice)) for choice in param.type.choices)
    else:
        value = code(param.make_metavar(ctx))
    if param.multiple:
        value += ", repeatable"
    if param.required:
        value += ", required"
    shown = param.default if param.show_default and not param.is_flag else None
    default = code(str(shown)) if shown not in (None, (), "") else ""
    return f"| {names} | {value} | {default} | {prose(param.help or '')} |"
