"""One rounding rule for every figure a reader sees (generator/score/rounding.py)."""

from __future__ import annotations

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.pages.blocks.text import estimate, score
from generator.score.rounding import NO_INTERVAL, fixed, fixed_exact, interval_mark, with_interval


def test_two_computations_of_one_number_round_alike() -> None:
    """0.4925 as a mean of task means and as 197 / 400 differ in their last bits; each
    rounds to 0.493, on a page and in the Markdown report alike."""
    summed = sum([0.4925] * 7) / 7
    rate = 197 / 400
    assert summed != rate  # the two computations differ in their last bits
    assert fixed(summed, 3) == fixed(rate, 3) == "0.493"
    assert score(summed) == score(rate) == "0.493"
    assert estimate(rate, 0.41, 0.57) == estimate(summed, 0.41, 0.57)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(-(10**9), 10**9), st.integers(0, 4))
def test_a_decimal_half_rounds_away_from_zero(units: int, digits: int) -> None:
    """k + 0.5 units of the last digit shown rounds to k + 1 (away from zero below 0),
    whatever binary value the decimal lands on."""
    value = (units + 0.5) / 10**digits
    shown = fixed(value, digits)
    away = units + 1 if units >= 0 else units
    assert shown == f"{away / 10**digits:.{digits}f}"


def test_no_negative_zero_and_non_finite_as_written() -> None:
    assert fixed(-0.0001, 3) == "0.000"
    assert fixed(float("nan"), 3) == "nan"
    assert fixed(1234.5, 0, grouped=True) == "1,235"


@settings(max_examples=examples(2000), deadline=None)
@given(
    st.one_of(
        st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12),
        st.integers(-(10**8), 10**8).map(lambda u: (u + 0.5) / 1000),
        st.integers(-(10**8), 10**8).map(lambda u: u / 1000 + 1e-9),
        st.sampled_from([0.0, -0.0, -0.0004, 0.4925, 197 / 400, 1e-300, 5e-324]),
    ),
    st.integers(0, 6),
    st.booleans(),
)
def test_the_fast_path_is_the_rule(value: float, digits: int, grouped: bool) -> None:
    """Formatting away from a half gives the exact rule's answer; near one it defers."""
    assert fixed(value, digits, grouped) == fixed_exact(value, digits, grouped)


finite = st.floats(-1e6, 1e6, allow_nan=False)


@settings(max_examples=examples(300), deadline=None)
@given(finite, finite, finite, st.integers(0, 4), st.sampled_from([" ", "\u00a0"]))
def test_a_figure_and_its_interval_read_back_as_each_figure_shown(
    value: float, low: float, high: float, digits: int, space: str
) -> None:
    """``value [low, high]`` with ``space`` twice, each figure by the one rule."""
    text = with_interval(value, low, high, digits, space)
    figure, rest = text.split(space + "[")
    assert figure == fixed(value, digits)
    assert rest == f"{fixed(low, digits)},{space}{fixed(high, digits)}]"


def test_a_figure_without_both_ends_is_shown_alone() -> None:
    assert with_interval(0.25, None, 0.5, 2) == with_interval(0.25, 0.1, None, 2) == "0.25"


@pytest.mark.parametrize(
    ("value", "low", "high", "basis", "mark"),
    [
        (0.5, 0.4, 0.6, "tasks", ""),
        (0.5, 0.4, 0.6, "runs", "~†"),
        (0.5, None, None, "runs", NO_INTERVAL),
        (0.5, None, None, "tasks", NO_INTERVAL),
        (None, None, None, "tasks", ""),
    ],
)
def test_an_estimate_is_marked_by_its_interval_s_basis_or_its_absence(
    value: float | None, low: float | None, high: float | None, basis: str, mark: str
) -> None:
    assert interval_mark(value, low, high, basis, "~") == mark
