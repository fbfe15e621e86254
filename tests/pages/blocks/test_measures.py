"""How a declared metric shows in a view: its label, its scaled figures and their intervals,
checked against the metric's declaration and the report's figures."""

from __future__ import annotations

import math
import re

import pytest

from generator.models.profile import Metric, Range
from generator.pages import VersionContext
from generator.pages.blocks.measures import (
    MISSING,
    arrow,
    figure,
    figure_cell,
    label,
    scaled,
)
from generator.pages.blocks.text import NBSP, decimals, estimate, kilo, scale_text

SUPERSCRIPT = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-", strict=True))


def _power(text: str) -> float:
    """The scale a header's ``×10ⁿ`` stands for, read back."""
    match = re.fullmatch(r"×10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)", text)
    assert match, text
    return 10.0 ** int("".join(SUPERSCRIPT[c] for c in match.group(1)))


@pytest.mark.parametrize("scale", [1e4, 1e6, 0.1, 1e-3, 100.0])
def test_a_power_of_ten_reads_back_as_its_scale(scale: float) -> None:
    assert math.isclose(_power(scale_text(scale)), scale)


def test_another_scale_is_written_as_a_factor() -> None:
    assert scale_text(2.5) == "×2.5"


def _cost(scale: float | None = 1e4) -> Metric:
    return Metric(
        id="cost", title="Cost", direction="lower", unit="CNY", measured=True, scale=scale
    )


def test_a_label_says_direction_unit_and_scale() -> None:
    cost = _cost()
    assert label(cost) == f"Cost {arrow(cost)} ({scale_text(1e4)} CNY)"
    assert arrow(cost) == "↓"
    score = Metric(id="task_score", title="Task Score", direction="higher")
    assert label(score) == "Task Score ↑"
    assert label(cost, "per run").startswith("Cost per run ↓")


def _numbers(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in re.findall(r"-?[\d,]*\.?\d+", text)]


@pytest.mark.parametrize(
    ("value", "low", "high"),
    [(25905.4, 24373.8, 27437.0), (67537.5, 2429.4, 132645.6), (-1.27e6, -1.28e7, 1.5e7)],
)
def test_a_measure_shows_divided_by_its_scale_to_its_interval_s_precision(
    value: float, low: float, high: float
) -> None:
    cost = _cost()
    text = scaled(cost, value, low, high)
    shown = _numbers(text)
    d = decimals(low / 1e4, high / 1e4)
    assert len(shown) == 3
    for got, want in zip(shown, (value, low, high), strict=True):
        assert got == round(want / 1e4, d)
    assert text.count(NBSP) == 2  # the figure and its interval stay on one line


def test_a_measure_without_interval_keeps_three_significant_digits() -> None:
    assert _numbers(scaled(_cost(None), 25905.4, None, None)) == [25905.0]
    assert _numbers(scaled(_cost(), 25905.4, None, None)) == [2.59]


def test_a_score_shows_as_every_score_table_shows_it() -> None:
    score = Metric(id="task_score", title="Task Score", direction="higher")
    assert scaled(score, 0.745, 0.68, 0.8) == estimate(0.745, 0.68, 0.8)
    signed = Metric(
        id="gain", title="Gain", direction="higher", measured=True, range=Range(low=None)
    )
    assert "-" in scaled(signed, -3.5, -5.0, -2.0)


def test_tokens_show_in_thousands() -> None:
    tokens = Metric(id="total_tokens", title="Total tokens", direction="lower", unit="tokens")
    assert scaled(tokens, 29449.9, None, None) == kilo(29449.9)


def test_a_figure_is_the_report_s(enterprise: VersionContext) -> None:
    release = enterprise.release
    seen = set()
    for domain, report in enterprise.reports.items():
        outcome = release.outcome(domain)
        for c in report.scopes[0].combinations:
            assert figure(release, domain, c, outcome) == c.task_score
            for m in release.metrics:
                got = figure(release, domain, c, m)
                if m.id in c.measures and m.id != outcome.id:
                    assert got == c.measures[m.id]
                    seen.add("measure")
                if m.id == "total_tokens" and c.efficiency is not None:
                    assert got is not None
                    assert (got.value, got.low) == (c.efficiency.total_tokens, None)
                    seen.add("tokens")
            if c.status != "scored":
                assert figure_cell(outcome, c, c.task_score).text == MISSING[c.status]
                seen.add(c.status)
    assert {"measure", "tokens", "not-covered", "withheld"} <= seen
