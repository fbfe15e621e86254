"""Where a value came from: the line map of a loaded file and dotted data paths."""

from __future__ import annotations

from generator.load.source import Source, dotted


def test_line_is_that_of_the_deepest_known_part() -> None:
    source = Source(
        "tasks.yaml",
        {(): 1, ("tasks",): 3, ("tasks", 0): 4, ("tasks", 0, "scoring"): 9},
    )
    assert source.line("tasks", 0, "scoring") == 9
    assert source.line("tasks", 0, "scoring", "rule_weight") == 9  # not in the map: parent
    assert source.line("tasks", 0, "title") == 4
    assert source.line("tasks", 5) == 3
    assert source.line("families") == 1
    assert source.line() == 1


def test_line_is_none_without_a_line_map() -> None:
    assert Source("runs.jsonl").line("task") is None
    assert Source("x.yaml", {("a",): 2}).line("b") is None


def test_dotted_paths_read_like_the_messages() -> None:
    assert dotted(("tasks", 7, "scoring", "rule_weight")) == "tasks[7].scoring.rule_weight"
    assert dotted((0, "id")) == "[0].id"
    assert dotted(("layers",)) == "layers"
    assert dotted(()) == ""
    assert dotted(("a", 1, 2)) == "a[1][2]"
