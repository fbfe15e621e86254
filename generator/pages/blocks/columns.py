"""Tables as data: a table's shown columns and its download fields, declared once.

A :class:`Spec` lists what a reader sees (a :class:`Column` per shown column: header, the
value taken from a row, how it shows and sorts) and what the CSV and JSON downloads hold (a
:class:`Field` per download field: name, value, JSON type, and the rows it is present in).
The table's headers, its HTML cells and its records all come from that one declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any, Generic, Literal, TypeVar

from generator.pages.blocks.tables import Cell, Row, Table
from generator.protocol.order import First
from generator.score.results import Estimate, Rate, Reliability

R = TypeVar("R")
Show = Callable[[Any], Cell]
#: A download field's JSON type; every field may also be null.
JsonType = Literal["string", "number", "integer", "boolean", "array", "object", "any"]
#: The order a column's first click sorts in: best first for a metric (its direction).

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list, tuple),
    "object": (dict,),
}


def whole(row: R) -> R:
    """The row itself, for a column whose cell needs more than one of its values."""
    return row


def plain(value: Any) -> Cell:
    """The value as text, sorted as its text."""
    return Cell(str(value))


def sorted_as(text: Callable[[Any], str]) -> Show:
    """The value shown as ``text`` gives it, sorted by the value itself."""

    def show(value: Any) -> Cell:
        return Cell(text(value), value)

    return show


def as_html(value: Any) -> Cell:
    """A value that is already safe HTML (a link built by the page)."""
    return Cell(str(value), html=True)


@dataclass(frozen=True)
class Column(Generic[R]):
    """A shown column: its header, the value a row gives it, and how that value shows."""

    header: str
    value: Callable[[R], Any]
    show: Show = plain
    when: Callable[[R], bool] | None = None  # rows that show the value; the others...
    otherwise: Callable[[R], Cell] = lambda _: Cell("—")  # ...show this instead
    first: First | None = None  # the first click's order (else ascending)

    def cell(self, item: R) -> Cell:
        if self.when is None or self.when(item):
            return self.show(self.value(item))
        return self.otherwise(item)


@dataclass(frozen=True)
class Field(Generic[R]):
    """A download field: its name, the value a row gives it, its JSON type, and the rows
    that carry it (every row unless ``when`` says otherwise)."""

    name: str
    value: Callable[[R], Any]
    type: JsonType = "string"
    when: Callable[[R], bool] | None = None

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is of the field's type (null always is)."""
        if value is None or self.type == "any":
            return True
        if isinstance(value, bool) and self.type in ("number", "integer"):
            return False
        return isinstance(value, _TYPES[self.type])


@dataclass(frozen=True)
class Spec(Generic[R]):
    """A table declared as data: its shown columns and its download fields."""

    columns: tuple[Column[R], ...]
    fields: tuple[Field[R], ...]

    @property
    def headers(self) -> tuple[str, ...]:
        return tuple(c.header for c in self.columns)

    def row(self, item: R) -> Row:
        """One row: the cells of the columns and the record of the fields."""
        cells = tuple(
            [
                c.show(c.value(item)) if c.when is None or c.when(item) else c.otherwise(item)
                for c in self.columns
            ]
        )  # Column.cell, inlined: a release has hundreds of thousands of such rows
        record = {f.name: f.value(item) for f in self.fields if f.when is None or f.when(item)}
        return Row(cells, record)

    def table(
        self, id: str, caption: str, items: Iterable[R], note: str = "", inline: int = 200
    ) -> Table:
        """The table of ``items``, one row each."""
        rows = tuple(self.row(item) for item in items)
        first = tuple(c.first for c in self.columns)
        return Table(id, caption, self.headers, rows, note, inline, first=first)


def fields(
    names: Iterable[str], get: Callable[[R], Any], type: JsonType = "string"
) -> tuple[Field[R], ...]:
    """A field per name, each the attribute of that name of ``get(row)`` (present when that
    is not None)."""

    def attribute(name: str) -> Callable[[R], Any]:
        return lambda r: getattr(get(r), name)

    return tuple(Field(n, attribute(n), type, lambda r: get(r) is not None) for n in names)


def pairs(key: tuple[str, str], value: tuple[str, str]) -> Spec[tuple[Any, ...]]:
    """A table of (key, shown value[, downloaded value]) entries: each column's header and
    field name. An entry's last value is downloaded: the raw value behind the shown text."""
    return Spec(
        (Column(key[0], itemgetter(0)), Column(value[0], itemgetter(1))),
        (Field(key[1], itemgetter(0)), Field(value[1], itemgetter(-1), "any")),
    )


Interval = Estimate | Rate | Reliability


def estimate_fields(prefix: str, get: Callable[[R], Interval | None]) -> tuple[Field[R], ...]:
    """An estimate's download fields: value, interval bounds, and (when there is an
    estimate) what its interval resamples (§4.2)."""

    def part(name: str) -> Callable[[R], Any]:
        return lambda r: None if (e := get(r)) is None else getattr(e, name)

    return (
        Field(prefix, part("value"), "number"),
        Field(f"{prefix}_low", part("low"), "number"),
        Field(f"{prefix}_high", part("high"), "number"),
        Field(f"{prefix}_interval", part("interval"), when=lambda r: get(r) is not None),
    )


def only(when: Callable[[R], bool], declared: Iterable[Field[R]]) -> tuple[Field[R], ...]:
    """The fields, present only in rows where ``when`` holds (and their own ``when``)."""

    def both(own: Callable[[R], bool] | None) -> Callable[[R], bool]:
        return when if own is None else lambda r: when(r) and own(r)

    return tuple(replace(f, when=both(f.when)) for f in declared)
