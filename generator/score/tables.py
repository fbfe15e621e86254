"""The report's CSV and Markdown forms as tables of typed cells, and their two writers.

:mod:`generator.score.render_csv` and :mod:`generator.score.render_markdown` turn the report's
figures into :class:`Table` rows once; a cell's type decides how each form writes it:

=============  =================================  ===========================================
cell           CSV (:func:`csv_text`)             Markdown (:func:`markdown_table`)
=============  =================================  ===========================================
``None``       empty                              ``—``
``bool``       ``true`` / ``false``               (not shown)
``int``        its digits                         its digits
``float``      :data:`DECIMALS` decimals, repr    three decimals by the one rounding rule
:class:`Fig`   value, low, high: a column each    ``0.840 [0.720, 0.930]``, and its mark
``str``        itself                             itself
=============  =================================  ===========================================
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from generator.score.results import Estimate, Rate, Reliability
from generator.score.rounding import DECIMALS, fixed, interval_mark, with_interval


@dataclass(frozen=True)
class Fig:
    """A figure and its interval. ``basis`` is an estimate's (``tasks`` or ``runs``), which
    the Markdown marks after it (:func:`~generator.score.rounding.interval_mark`); ``None``
    for a figure shown without a mark."""

    value: float | None
    low: float | None = None
    high: float | None = None
    basis: str | None = None
    digits: int = 3


Cell = Fig | str | int | float | None


@dataclass(frozen=True)
class Table:
    """A header and rows of typed cells, as many as the header has columns."""

    head: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


def fig(e: Estimate | Rate | Reliability | None) -> Fig | None:
    """An estimate as a cell, marked by its basis."""
    return None if e is None else Fig(e.value, e.low, e.high, e.interval)


class Bounded(Protocol):
    """Whatever the report gives with an interval."""

    @property
    def value(self) -> float | None: ...
    @property
    def low(self) -> float | None: ...
    @property
    def high(self) -> float | None: ...


def bare(f: Bounded | None) -> Fig | None:
    """A figure and its interval without a mark (a paired difference, a rater's agreement;
    every figure of the CSV, which says what its interval covers in a note)."""
    return None if f is None else Fig(f.value, f.low, f.high)


def head(text: str) -> tuple[str, ...]:
    """A header as Markdown writes it: ``"a | b | c"``."""
    return tuple(text.split(" | "))


def csv_cell(cell: Cell) -> str:
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, float):
        return repr(round(cell, DECIMALS))
    assert not isinstance(cell, Fig), "a figure spans the CSV's value, low and high"
    return str(cell)


def csv_field(value: object) -> str:
    """One CSV field (RFC 4180) as the ``csv`` module writes it: ``str`` of the value, in
    quotes with its quotes doubled when it holds a comma, a quote or a line break. Unlike
    the module, a lone carriage return is quoted too: with lines ending in ``\n`` the module
    leaves it bare, and every reader then ends the row there (``"\r"`` read back as ``""``,
    found by ``tests/score/test_tables.py``)."""
    text = "" if value is None else str(value)
    if any(c in text for c in _QUOTED):
        return '"' + text.replace('"', '""') + '"'
    return text


_QUOTED = frozenset(',"\r\n')


def csv_line(values: Iterable[object]) -> str:
    """One CSV line (no line end): its fields (:func:`csv_field`) joined by commas; a line
    of one empty field is ``""``, as the ``csv`` module writes it (else it reads as no field)."""
    fields = [csv_field(v) for v in values]
    return '""' if fields == [""] else ",".join(fields)


def csv_lines(rows: Iterable[Iterable[object]]) -> str:
    """Rows as CSV text, each a :func:`csv_line` ended by ``\n``."""
    return "".join(csv_line(row) + "\n" for row in rows)


def csv_text(table: Table) -> str:
    """The table as CSV: a header, a line per row."""
    return csv_lines([table.head, *([csv_cell(c) for c in row] for row in table.rows)])


def markdown_cell(cell: Cell) -> str:
    if cell is None:
        return "—"
    if isinstance(cell, float):
        return fixed(cell, 3)
    if not isinstance(cell, Fig):
        return str(cell)
    if cell.value is None:
        return "—"
    text = with_interval(cell.value, cell.low, cell.high, cell.digits)
    if cell.basis is None:
        return text
    return text + interval_mark(cell.value, cell.low, cell.high, cell.basis)


def markdown_table(table: Table) -> list[str]:
    """A Markdown table: its header, the rule under it, a line per row."""
    return [
        _line(table.head),
        "|" + "---|" * len(table.head),
        *(_line(markdown_cell(c) for c in row) for row in table.rows),
    ]


def _line(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"
