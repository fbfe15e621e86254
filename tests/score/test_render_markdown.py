"""The Markdown form of a report (generator/score/render_markdown.py): every combination,
scope and public task, and no held-out task."""

from __future__ import annotations

from generator.score.render_markdown import scope_markdown, to_markdown
from generator.score.results import Report


def test_markdown_shows_every_combination_scope_and_public_task(small_report: Report) -> None:
    report = small_report
    text = to_markdown(report)
    assert text.startswith(f"# {report.domain_title}, {report.version}\n")
    assert [c.id for c in report.combinations] == ["p", "q"]
    assert len(report.scopes) == 7
    assert len(report.tasks) == 12  # p and q on the six public tasks
    for c in report.combinations:
        assert f"| {c.id} |" in text
    for s in report.scopes:
        assert s.title in text
    for t in report.tasks:
        assert f"| {t.task} | {t.combination} |" in text
    assert "h1" not in text


def test_a_scope_is_its_table_in_the_report(small_report: Report) -> None:
    text = to_markdown(small_report)
    ks = small_report.settings.reliability_k
    withheld, shown = 0, 0
    for s in small_report.scopes:
        part = scope_markdown(s, ks)
        assert "\n".join(part) in text
        if s.withheld:
            assert part[-2] == f"*{s.withheld}*"
            withheld += 1
        else:
            shown += 1
            header = next(line for line in part if line.startswith("| rank |"))
            assert header.count("|") - 1 == 10 + len(ks)  # every column has its cell
            rows = [line for line in part if line.startswith("| ") and line != header]
            assert len(rows) >= len(s.combinations)
    assert (withheld, shown) == (4, 3)


def test_a_profile_s_figures_are_a_table_of_their_own() -> None:
    """The judged overall and the judged dimensions of the example's Consulting, a column each."""
    from pathlib import Path

    from generator.load import load_inputs
    from generator.score.render_markdown import to_markdown
    from generator.score.report import build_report

    root = Path(__file__).resolve().parents[2] / "examples" / "enterprisebench"
    inputs, _ = load_inputs(root)
    report = build_report(inputs.releases[0], "consulting")
    text = to_markdown(report)
    dims = sorted(report.scopes[0].combinations[0].dimensions)
    header = "| combination | overall [CI] | " + " | ".join(f"{d} [CI]" for d in dims)
    assert header in text
