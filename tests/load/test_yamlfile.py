"""Reading YAML safely, with the line of every value."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import Problem
from generator.load.source import Source, dotted
from generator.load.yamlfile import read_yaml


def _read(tmp_path: Path, text: str | bytes) -> tuple[object, Source] | Problem:
    path = tmp_path / "f.yaml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return read_yaml(path, "f.yaml")


def test_lines_of_nested_values(tmp_path: Path) -> None:
    result = _read(tmp_path, "a: 1\nb:\n  - x: 2\n    y: 3\n  - x: 4\n")
    assert not isinstance(result, Problem)
    data, source = result
    assert data == {"a": 1, "b": [{"x": 2, "y": 3}, {"x": 4}]}
    assert source.line("a") == 1
    assert source.line("b", 0, "y") == 4
    assert source.line("b", 1, "x") == 5
    assert source.line("b", 1, "missing") == 5  # falls back to the nearest known parent
    assert source.line() == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "f.yaml: file is empty"),
        ("a: 1\na: 2\n", "f.yaml:2: a: duplicate key"),
        ("a: [1, 2\n", "f.yaml:2: invalid YAML"),
        ("a: 1\n---\nb: 2\n", "f.yaml:2: invalid YAML: expected a single document"),
        ("? [1, 2]\n: x\n", "f.yaml:1: key [1, 2] is not text"),
        ("base: &b {x: 1}\nother:\n  <<: *b\n", "f.yaml:3: other: merge keys"),
        ("d: 2026-02-30\n", "f.yaml:1: d: '2026-02-30' is not valid: day is out of range"),
        (b"a: \xff\n", "f.yaml:1: not UTF-8 text"),
        (b'a: 1\nb: "caf\xe9"\n', "f.yaml:2: not UTF-8 text"),
        (
            "a: !!python/object:os.system x\n",
            "f.yaml:1: invalid YAML: could not determine a constructor",
        ),
    ],
)
def test_bad_yaml_is_a_located_problem(tmp_path: Path, text: str | bytes, expected: str) -> None:
    result = _read(tmp_path, text)
    assert isinstance(result, Problem)
    assert str(result).startswith(expected), str(result)


def test_alias_expansion_is_bounded(tmp_path: Path) -> None:
    levels = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        levels.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]")
    result = _read(tmp_path, "\n".join(levels) + "\n")
    assert isinstance(result, Problem)
    assert "an alias expanding too far" in result.message


def test_dotted_paths() -> None:
    assert dotted(("tasks", 7, "scoring", "rule_weight")) == "tasks[7].scoring.rule_weight"
    assert dotted((3, "a")) == "[3].a"
    assert dotted(()) == ""


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ("a: 1\n\tb: 2\n", 2, "line 2 has a tab character in its indentation: YAML indents"),
        ("a:\n\tb: 2\n", 2, "line 2 has a tab character in its indentation"),
        (
            "a:\n  b: 1\n c: 2\n",
            3,
            "check the indentation: line 3 is indented by 1 space(s), the line above by 2",
        ),
        (
            "a:\n  b: 1\n   c: 2\n",
            3,
            "check the indentation: line 3 is indented by 3 space(s), the line above by 2",
        ),
    ],
)
def test_a_tab_or_a_bad_indent_is_named(tmp_path: Path, text: str, line: int, says: str) -> None:
    path = tmp_path / "f.yaml"
    path.write_text(text)
    problem = read_yaml(path, "f.yaml")
    assert isinstance(problem, Problem)
    assert (problem.path, problem.line) == ("f.yaml", line)
    assert problem.message.startswith("invalid YAML: ")
    assert says in problem.message


def test_a_colon_inside_a_value_is_not_called_an_indentation_problem(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_text("a: b: c\n")
    problem = read_yaml(path, "f.yaml")
    assert isinstance(problem, Problem)
    assert "indentation" not in problem.message
    assert "tab" not in problem.message
