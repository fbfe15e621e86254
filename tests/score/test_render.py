"""The text forms of a report by format name (generator/score/render.py)."""

from __future__ import annotations

from generator.score.render import RENDERERS
from generator.score.render_csv import to_csv
from generator.score.render_json import to_json
from generator.score.render_markdown import to_markdown
from generator.score.results import Report


def test_every_format_has_a_renderer() -> None:
    assert {"json": to_json, "csv": to_csv, "markdown": to_markdown} == RENDERERS


def test_each_renderer_writes_text_ending_in_a_newline(small_report: Report) -> None:
    assert sorted(RENDERERS) == ["csv", "json", "markdown"]
    for render in RENDERERS.values():
        text = render(small_report)
        assert text.endswith("\n")
        assert text.strip()
