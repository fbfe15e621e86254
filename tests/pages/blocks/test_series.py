"""Chart series and wording the efficiency page, result cards and scatter views share
(generator/pages/blocks/series.py)."""

from __future__ import annotations

from generator.pages.blocks.series import frontier_text, reliability_series
from generator.score.results import CombinationScores, Coverage, Efficiency, Reliability


def test_a_reliability_curve_holds_its_figures_and_intervals() -> None:
    rel = [
        Reliability(k=1, value=0.8, low=0.7, high=0.9),
        Reliability(k=2, value=0.6, low=0.45, high=0.72, interval="runs"),
    ]
    series = reliability_series("c", rel, ("#000", "circle"))
    assert series.x == (1.0, 2.0)
    assert series.y == (0.8, 0.6)
    assert series.low == (0.7, 0.45)
    assert series.high == (0.9, 0.72)
    assert any("run-to-run noise only" in line for line in series.hover[1])


def test_the_frontier_words_say_why_a_combination_was_not_compared() -> None:
    """On or off the frontier, else the first reason it was not compared: a tokenizer not
    recorded, a coverage that differs, a count not recorded on every run, or no peer."""
    whole = Coverage(
        scope_tasks=4,
        covered_tasks=4,
        valid_tasks=4,
        complete_tasks=4,
        valid_runs=12,
        expected_runs=12,
        incomplete_runs=0,
        incomplete_causes={},
        complete=True,
        not_covered=[],
    )
    eff = Efficiency(
        input_tokens=1.0, output_tokens=1.0, total_tokens=2.0, duration_s=None, turns=None
    )
    c = CombinationScores(combination="c", status="scored", coverage=whole, efficiency=eff)
    assert frontier_text(True, c) == "yes"
    assert frontier_text(False, c) == "no"
    assert (
        frontier_text(None, c, tokenizer="not recorded") == "not compared: tokenizer not recorded"
    )
    part = c.model_copy(update={"coverage": whole.model_copy(update={"complete": False})})
    assert frontier_text(None, part) == "not compared: coverage differs"
    partial = eff.model_copy(update={"recorded": {"total_tokens": 5}})
    some = c.model_copy(update={"efficiency": partial})
    assert frontier_text(None, some) == "not compared: not recorded on every run"
    assert frontier_text(None, c, "duration_s") == "not compared: not recorded on every run"
    assert frontier_text(None, c) == "not compared: no other combination measured alike"
