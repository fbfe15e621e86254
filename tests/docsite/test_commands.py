"""The command reference is generated from the command line: every command, its help and
every option with its help, and the exit codes."""

from __future__ import annotations

import click

from generator import errors
from generator.cli import cli
from generator.docsite.commands import EXIT_CODES, command_reference


def test_every_command_and_option_is_documented() -> None:
    page = command_reference()
    assert {"build", "validate", "report"} <= set(cli.commands)
    options = 0
    for name, command in cli.commands.items():
        assert f"## {name}\n" in page, name
        assert f"python -m generator {name} " in page, name
        section = page.split(f"## {name}\n", 1)[1].split("\n## ", 1)[0]
        assert " ".join((command.help or "").split()[:4]) in section, name
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("--"):
                    assert f"`{opt}`" in section, f"{name} {opt}"
                    options += 1
            if isinstance(param, click.Option) and param.help:
                assert " ".join(param.help.split()[:3]) in section, f"{name} {param.name}"
    assert "`--version`" in page.split("## ", 1)[0]  # the group's own options
    assert options > len(cli.commands)


def test_every_exit_code_is_named_with_the_command_line_s_value() -> None:
    page = command_reference()
    codes = [code for code, _ in EXIT_CODES]
    assert codes == [0, errors.EXIT_INVALID_INPUT, errors.EXIT_USAGE, errors.EXIT_REFUSED]
    assert len(EXIT_CODES) == 4
    for code, meaning in EXIT_CODES:
        assert f"| `{code}` | {meaning}" in page


def test_a_command_s_text_cannot_become_markup() -> None:
    @click.group()
    def group() -> None:
        """A group."""

    @group.command()
    @click.option("--mode", type=click.Choice(["a|b", "c"]), default="c", show_default=True)
    @click.option("--x", help="Writes <b>bold</b> | and *stars* and `code`.")
    @click.argument("files", nargs=-1)
    def tool(mode: str, x: str, files: tuple[str, ...]) -> None:
        """Reads <FILE> and [links](http://example.org)."""

    page = command_reference(group, "prog")
    assert "&lt;FILE&gt; and \\[links\\](http://example.org)" in page
    assert "&lt;b&gt;bold&lt;/b&gt; \\| and \\*stars\\* and `code`" in page
    assert "one of `a|b`, `c`" in page
    assert "| `[FILES]...` | any number |" in page
    assert "prog tool [OPTIONS] [FILES]..." in page
