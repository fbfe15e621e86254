"""The project's exception tree, its exit codes, and the problem record for bad input.

Every error a user can cause ends as a subclass of :class:`GeneratorError`, which click
prints as a message (never a traceback) and turns into the exit code below.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import IO, Any, Literal

import click

#: Longest quotation of a user's value inside a message.
MAX_SHOWN = 60
# C0 and C1 controls and bidirectional overrides: a hostile file must not drive the terminal.
_UNPRINTABLE = dict.fromkeys(
    [*range(0x00, 0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)


def shown(value: object) -> str:
    """A user's value quoted for a message: repr, cut to :data:`MAX_SHOWN` characters."""
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def printable(text: str) -> str:
    """``text`` with control and bidi-override characters written as escapes."""
    if not any(ord(c) in _UNPRINTABLE for c in text):
        return text
    return "".join(f"\\u{ord(c):04x}" if ord(c) in _UNPRINTABLE else c for c in text)


def did_you_mean(value: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the choice closest to a mistyped ``value``, else ``""``."""
    close = difflib.get_close_matches(value, list(choices), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


EXIT_INVALID_INPUT = 1
EXIT_USAGE = 2  # click's own code for a malformed command line
EXIT_REFUSED = 3

#: "notice" reports what the build does on purpose (e.g. a bundle left unpublished); it never
#: fails a build, not even under --strict.
Severity = Literal["error", "warning", "notice"]


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, located as precisely as the file allows."""

    path: str
    line: int | None
    field: str
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        prefix = "" if self.severity == "error" else f"{self.severity}: "
        field = f"{self.field}: " if self.field else ""
        return printable(f"{where}: {prefix}{field}{self.message}")


def github_annotation(problem: Problem, base: str = "") -> str:
    """The problem as a GitHub Actions workflow command (``::error file=…,line=…::…``), so a
    pull request shows it on its line; ``base`` is prefixed to its path (the root's folder
    in the repository). Values are escaped as the runner reads them (%, CR, LF; in the
    file and title also ``:`` and ``,``)."""

    def prop(text: str) -> str:
        return github_data(text).replace(":", "%3A").replace(",", "%2C")

    path = f"{base.rstrip('/')}/{problem.path}" if base not in ("", ".") else problem.path
    parts = [f"file={prop(path)}"]
    if problem.line is not None:
        parts.append(f"line={problem.line}")
    if problem.field:
        parts.append(f"title={prop(printable(problem.field))}")
    return f"::{problem.severity} {','.join(parts)}::{github_data(printable(problem.message))}"


def github_data(text: str) -> str:
    """Text escaped as a GitHub Actions workflow command's message (%, CR, LF)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def sort_problems(problems: Iterable[Problem]) -> list[Problem]:
    """Order problems by file, then line, then field, so output is stable."""
    return sorted(problems, key=lambda p: (p.path, p.line or 0, p.field, p.message))


def counted(problems: Iterable[Problem], errors: bool = True, more_warnings: int = 0) -> str:
    """How many problems of each severity, notices apart from warnings (they never fail a
    build): "2 error(s), 1 warning(s)", with ", 1 notice" (or "n notices") when there are any.
    Without ``errors`` the errors are not counted; ``more_warnings`` adds warnings that are
    not problems of the input (e.g. the engine's)."""
    problems = list(problems)
    warnings = sum(1 for p in problems if p.severity == "warning") + more_warnings
    notices = sum(1 for p in problems if p.severity == "notice")
    text = f"{warnings} warning(s)"
    if errors:
        text = f"{sum(1 for p in problems if p.severity == 'error')} error(s), {text}"
    if notices:
        text += f", {notices} notice" + ("" if notices == 1 else "s")
    return text


class GeneratorError(click.ClickException):
    """Base of every error the generator reports to a user."""

    exit_code = EXIT_INVALID_INPUT


class InvalidInput(GeneratorError):
    """The inputs break the data contract; carries every problem found in one pass."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sort_problems(problems)
        super().__init__(f"input is invalid: {counted(self.problems)}")

    def show(self, file: IO[Any] | None = None, render: Callable[[Problem], str] = str) -> None:
        for problem in self.problems:
            click.echo(render(problem), err=True, file=file)
        click.echo(f"Error: {self.format_message()}", err=True, file=file)


class Refused(GeneratorError):
    """A request the protocol forbids (e.g. aggregating across versions or domains)."""

    exit_code = EXIT_REFUSED
