"""One rounding rule for every figure a reader sees (pages, the Markdown report), and one
way of writing a figure with its interval (:func:`with_interval`, :func:`interval_mark`).

Two computations of one number can differ in their last binary digits: a Task Score summed
over task means and a success rate of 197 / 400 are both 0.4925, stored as 0.49250000000000005
and 0.49249999999999999, and formatting each to three decimals gave 0.493 and 0.492. So a
figure is first taken to six decimals more than it shows (what the float arithmetic leaves
below them was never measured), then rounded half away from zero at the digits shown:
0.4925 is 0.493 wherever it appears. The downloads carry six decimals, the data itself."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal

#: Decimals of every float a download or the report prints: the data itself.
DECIMALS = 6
#: Decimals beyond those shown that a computed figure keeps before it is rounded.
GUARD = 6
#: Room for any float's digits at any decimals shown (a count near 1e300 with 4 decimals).
_WIDE = Context(prec=400)


def fixed(value: float, digits: int, grouped: bool = False) -> str:
    """``value`` with ``digits`` decimals by the one rule (thousands separated when
    ``grouped``); a value that is not finite as Python writes it.

    Away from a half at the digit shown, Python's own formatting already gives the rule's
    answer (2.5 µs → 0.74 µs a figure, Python's formatting alone 0.16 µs, measured here with
    the other core busy; a task page of a large release shows a few hundred
    thousand): only a value within 1e-6 of a last-digit half (or past 1e9 units) goes through
    :func:`fixed_exact`, which ``tests/score/test_rounding.py`` compares it with."""
    if value != value or value in (_INF, -_INF):
        return f"{value}"
    scaled = abs(value) * _POWERS[digits] if digits < len(_POWERS) else _INF
    if scaled < 1e9 and abs(scaled % 1.0 - 0.5) > 10.0**-GUARD:
        text = f"{value:,.{digits}f}" if grouped else f"{value:.{digits}f}"
        return text[1:] if text[0] == "-" and not text.strip("-0.,") else text
    return fixed_exact(value, digits, grouped)


def fixed_exact(value: float, digits: int, grouped: bool = False) -> str:
    """The rule itself: the exact binary value to ``GUARD`` more decimals (half to even),
    then to ``digits`` half away from zero."""
    if value != value or value in (_INF, -_INF):
        return f"{value}"
    step = Decimal(1).scaleb(-(digits + GUARD))
    exact = Decimal(value).quantize(step, rounding=ROUND_HALF_EVEN, context=_WIDE)
    shown = exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP, context=_WIDE)
    if shown == 0:
        shown = abs(shown)  # no "-0.000"
    return f"{shown:,.{digits}f}" if grouped else f"{shown:.{digits}f}"


def with_interval(
    value: float, low: float | None, high: float | None, digits: int, space: str = " "
) -> str:
    """A figure and its interval, each to ``digits`` decimals: ``0.84 [0.72, 0.93]``, with
    ``space`` before the bracket and after the comma (a page's is non-breaking); the figure
    alone when it has no interval."""
    if low is None or high is None:
        return fixed(value, digits)
    return f"{fixed(value, digits)}{space}[{fixed(low, digits)},{space}{fixed(high, digits)}]"


#: After an estimate whose interval covers run noise only: too few tasks to resample.
RUNS = "†"
#: After an estimate that has no interval: why (a measure's run noise needs two runs of a task).
NO_INTERVAL = " (no interval: too few valid runs to show their noise)"


def interval_mark(
    value: float | None, low: float | None, high: float | None, basis: str, space: str = ""
) -> str:
    """What follows an estimate: why it has no interval when it has none, never a bare number
    that reads as exact; else :data:`RUNS` (after ``space``) when its interval covers run noise
    only."""
    if value is not None and (low is None or high is None):
        return NO_INTERVAL
    return space + RUNS if basis == "runs" else ""


_INF = float("inf")
_POWERS = tuple(10.0**d for d in range(16))
