"""The exception tree, exit codes and the problem record users read (generator/errors.py)."""

from __future__ import annotations

import io

import click
import pytest

from generator.errors import (
    EXIT_INVALID_INPUT,
    EXIT_REFUSED,
    EXIT_USAGE,
    MAX_SHOWN,
    GeneratorError,
    InvalidInput,
    Problem,
    Refused,
    counted,
    did_you_mean,
    printable,
    shown,
    sort_problems,
)


def test_shown_quotes_and_cuts_long_values() -> None:
    assert shown("abc") == repr("abc")
    assert shown(3) == "3"
    long = "x" * (MAX_SHOWN * 2)
    cut = shown(long)
    assert len(cut) == MAX_SHOWN
    assert cut.endswith("...")
    assert repr(long).startswith(cut[:-3])
    exact = "y" * (MAX_SHOWN - 2)  # its repr is exactly MAX_SHOWN long: kept whole
    assert shown(exact) == repr(exact)


@pytest.mark.parametrize(
    ("char", "escape"),
    [("\x1b", "\\u001b"), ("\x07", "\\u0007"), ("\x9b", "\\u009b"), ("\u202e", "\\u202e")],
)
def test_printable_escapes_terminal_controls_and_bidi_overrides(char: str, escape: str) -> None:
    assert printable(f"a{char}b") == f"a{escape}b"


def test_printable_keeps_ordinary_text() -> None:
    text = "tâche « R01 » — 42 % ✓"
    assert printable(text) == text


def test_problem_reads_path_line_field_message() -> None:
    assert str(Problem("a.yaml", 3, "tasks[0].id", "bad")) == "a.yaml:3: tasks[0].id: bad"
    assert str(Problem("a.yaml", None, "", "empty")) == "a.yaml: empty"
    assert str(Problem("a.yaml", 1, "x", "odd", "warning")) == "a.yaml:1: warning: x: odd"
    assert str(Problem("a.yaml", 1, "x", "kept", "notice")) == "a.yaml:1: notice: x: kept"
    hostile = Problem("a.yaml", 2, "\x1b[31m", "\u202eevil")
    assert "\x1b" not in str(hostile)
    assert "\u202e" not in str(hostile)


def test_problems_sort_by_file_then_line_then_field() -> None:
    unsorted = [
        Problem("b.yaml", 1, "a", "m"),
        Problem("a.yaml", 10, "a", "m"),
        Problem("a.yaml", 2, "z", "m"),
        Problem("a.yaml", None, "q", "m"),
        Problem("a.yaml", 2, "b", "m"),
    ]
    got = sort_problems(unsorted)
    assert [(p.path, p.line, p.field) for p in got] == [
        ("a.yaml", None, "q"),
        ("a.yaml", 2, "b"),
        ("a.yaml", 2, "z"),
        ("a.yaml", 10, "a"),
        ("b.yaml", 1, "a"),
    ]


def test_invalid_input_counts_and_shows_every_problem_then_one_error_line() -> None:
    problems = [
        Problem("b.yaml", 1, "f", "second", "warning"),
        Problem("a.yaml", 4, "g", "first"),
        Problem("a.yaml", 5, "h", "third"),
    ]
    exc = InvalidInput(problems)
    assert exc.exit_code == EXIT_INVALID_INPUT
    assert exc.format_message() == "input is invalid: 2 error(s), 1 warning(s)"
    out = io.StringIO()
    exc.show(file=out)
    assert out.getvalue().splitlines() == [
        *(str(p) for p in sort_problems(problems)),
        "Error: input is invalid: 2 error(s), 1 warning(s)",
    ]


def test_exit_codes_are_distinct_and_every_error_is_a_click_exception() -> None:
    assert len({EXIT_INVALID_INPUT, EXIT_USAGE, EXIT_REFUSED}) == 3
    assert click.UsageError("x").exit_code == EXIT_USAGE  # click's own code, not ours
    assert issubclass(GeneratorError, click.ClickException)
    assert Refused("no").exit_code == EXIT_REFUSED
    assert GeneratorError("x").exit_code == EXIT_INVALID_INPUT
    assert isinstance(InvalidInput([]), GeneratorError)


def test_counted_keeps_notices_apart_from_warnings() -> None:
    problems = [
        Problem("a.yaml", 1, "f", "bad"),
        Problem("a.yaml", 2, "g", "odd", "warning"),
        Problem("b.yaml", 3, "consent.granted", "kept back", "notice"),
    ]
    assert counted(problems) == "1 error(s), 1 warning(s), 1 notice"
    assert counted(problems[1:], errors=False) == "1 warning(s), 1 notice"
    assert counted([*problems, problems[2]], errors=False) == "1 warning(s), 2 notices"
    assert counted(problems[:1], errors=False, more_warnings=2) == "2 warning(s)"
    assert InvalidInput(problems).format_message().endswith(", 1 notice")


def test_did_you_mean_names_the_closest_choice_or_nothing() -> None:
    choices = ["finance-fa-20", "finance-ap-33", "IMG-single"]
    assert did_you_mean("finance-fa-02", choices) == "; did you mean 'finance-fa-20'?"
    assert did_you_mean("zzz", choices) == ""
