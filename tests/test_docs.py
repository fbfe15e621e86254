"""The README documents every command and option the command line offers."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli import cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_every_command_and_option_is_documented() -> None:
    assert isinstance(cli, click.Group)
    for name, command in cli.commands.items():
        assert f"python -m generator {name}" in README, name
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("--") and opt != "--help":
                    assert opt in README, f"{name} {opt}"


def test_readme_names_every_exit_code() -> None:
    for code in ("`0`", "`1`", "`2`", "`3`"):
        assert code in README
