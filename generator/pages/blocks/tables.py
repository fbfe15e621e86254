"""Tables: one model rendered as an accessible HTML table and as CSV and JSON downloads.

A row carries what the reader sees (formatted cells) and a record of the full values
(six decimals, with interval bounds and counts) that the downloads hold. A table's
``about`` fields (version, domain, ...) say what its rows are of: every downloaded record
starts with them, so a file saved beside another still says where it came from; its
``name`` is the file name of its downloads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, NamedTuple

from generator.pages.blocks.text import attr
from generator.pages.blocks.text import escape_html as escape
from generator.score.rounding import DECIMALS
from generator.score.tables import csv_lines

_JSON = json.JSONEncoder(ensure_ascii=False, allow_nan=False)  # json.dumps makes one a call


#: A text cell starting with one of these would run as a formula in a spreadsheet.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


#: Written first in every CSV download: spreadsheets then read the file as UTF-8 (§, —).
BOM = "\ufeff"


def _plain(value: object) -> object:
    if type(value) is not float:
        return value
    return round(value, DECIMALS) if value == value else None


def csv_cell(value: object) -> object:
    """A CSV cell; text that a spreadsheet would read as a formula is quoted with ``'``; a
    list is its items joined by "; "."""
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        value = "; ".join(map(str, value))
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


#: The header of a rank column; a table that starts with one keeps it and the next column
#: (what is ranked) in view when it scrolls sideways.
RANK = "Rank"


class Cell(NamedTuple):
    """One shown cell (a tuple: a release has millions of them)."""

    text: str
    sort: str | float | int | None = None
    html: bool = False  # text is already safe HTML


class Row(NamedTuple):
    cells: tuple[Cell, ...]
    record: dict[str, Any]


class Prepared(NamedTuple):
    """A table's downloads (and optionally its rows' HTML) written beforehand, in bulk for a
    whole version (``generator.pages.blocks.bulk``): the same text the rows would give."""

    csv: str
    json: str
    rows_html: str = ""  # every row, when the page itself shows none of them
    size: int = 0  # how many rows rows_html holds


@dataclass(frozen=True)
class Table:
    id: str
    caption: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    note: str = ""
    inline: int = 200  # rows shown in the page; the rest load on demand
    prepared: Prepared | None = None  # its text carries the about fields already
    first: tuple[str | None, ...] = ()  # per column, the first click's order ("asc"/"desc")
    about: tuple[tuple[str, Any], ...] = ()  # (field, value) every record starts with
    name: str = ""  # the downloads' file name without extension; else "<page>.<id>"

    def base(self, stem: str) -> str:
        """The downloads' file name without extension, for a page of stem ``stem``."""
        return self.name or f"{stem}.{self.id}"

    @property
    def total(self) -> int:
        """Rows in the table, shown or loaded on demand."""
        if self.prepared is not None and self.prepared.rows_html:
            return self.prepared.size
        return len(self.rows)

    @property
    def paged(self) -> bool:
        return self.total > self.inline

    @property
    def anchor(self) -> str:
        """The table's HTML id; prefixed so it never collides with a heading's id."""
        return f"table-{self.id}"

    def to_html(self, stem: str) -> str:
        """The table, its caption, and links to its CSV and JSON beside the page."""
        first = self.first + (None,) * (len(self.columns) - len(self.first))
        head = "".join(
            f'<th scope="col"{_first(o)}>{escape(c)}</th>'
            for c, o in zip(self.columns, first, strict=True)
        )
        shown = self.rows[: self.inline]
        body = _rows(shown)
        if self.prepared is not None and self.prepared.rows_html:
            # Rows written in bulk: all of them, or (paged) none; the page shows no part.
            assert not self.paged or self.inline == 0, "bulk rows are shown whole or not at all"
            body = "" if self.paged else self.prepared.rows_html.rstrip("\n")
        note = f'<p class="lg-note">{escape(self.note)}</p>' if self.note else ""
        base = attr(self.base(stem))
        if self.paged:
            total = self.total
            note += (
                f'<p class="lg-more"><button type="button" class="md-button" '
                f'data-rows="{base}.rows.txt">Show all {total:,} rows</button> '
                f'<span role="status">{_showing(len(shown), total)}</span></p>'
            )
        # The table scrolls sideways in its own box (the caption's text stays in view, and
        # lg-tables.js marks a box that overflows: a shadow at its edge and a "scroll" cue).
        return (
            f'<div class="lg-table" id="{attr(self.anchor)}" data-search-exclude>'
            f'<div class="lg-scroll"><table class="{self.classes}"><caption>'
            f'<span class="lg-caption">{escape(self.caption)}</span></caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>{note}"
            f'<p class="lg-downloads">Download this table: <a href="{base}.csv">CSV</a> · '
            f'<a href="{base}.json">JSON</a></p></div>'
        )

    @property
    def classes(self) -> str:
        """The table's classes: sortable, and ``lg-ranked`` when a rank comes first (the
        rank and the name beside it then both stay in view on a narrow screen)."""
        return "lg-sortable lg-ranked" if self.columns[:1] == (RANK,) else "lg-sortable"

    def rows_html(self) -> str:
        """Every row, for a paged table to load on demand."""
        if self.prepared is not None and self.prepared.rows_html:
            return self.prepared.rows_html
        return _rows(self.rows) + "\n"

    @cached_property
    def _records(self) -> list[dict[str, Any]]:
        """The rows' records as downloaded: the about fields, then the record's own (which
        win over an about field of the same name); floats to DECIMALS places, a float that is
        no number (a metric the runs do not record) as null."""
        about = dict(self.about)
        return [about | {k: _plain(v) for k, v in row.record.items()} for row in self.rows]

    def fields(self) -> list[str]:
        """The downloads' field names: the about fields, then every record's in order."""
        keys: dict[str, None] = {}
        for row in self.rows:
            if len(row.record) != len(keys) or row.record.keys() != keys.keys():
                keys.update(dict.fromkeys(row.record))
        return list(dict.fromkeys(k for k, _ in self.about) | keys)

    def to_csv(self) -> str:
        if self.prepared is not None:
            return self.prepared.csv
        fields = self.fields()
        rows = ([csv_cell(record.get(k)) for k in fields] for record in self._records)
        return csv_lines([fields, *rows])

    def to_json(self) -> str:
        if self.prepared is not None:
            return self.prepared.json
        # One record a line: readable, and written by the C encoder (indent= is pure Python).
        rows = ",\n".join(map(_JSON.encode, self._records))
        head = _JSON.encode({"table": self.id, "caption": self.caption})[:-1]
        return f'{head}, "rows": [\n{rows}\n]}}\n'


def td(cell: Cell) -> str:
    """A cell as HTML: its text (escaped unless already HTML) and its sort key."""
    text, sort, is_html = cell
    content = text if is_html else escaped(text)
    key = "" if sort is None else f' data-sort="{escaped(str(sort))}"'
    return f"<td{key}>{content}</td>"


def _first(order: str | None) -> str:
    """A header's first-click order, for the sorter (lg-tables.js)."""
    return f' data-sort-first="{attr(order)}"' if order else ""


def _rows(rows: tuple[Row, ...]) -> str:
    return "".join("<tr>" + "".join(map(td, row.cells)) + "</tr>" for row in rows)


def _showing(shown: int, total: int) -> str:
    if not shown:
        return f"{total:,} rows load on demand (or download them as CSV or JSON)."
    return f"Showing the first {shown:,} of {total:,} rows; sorting applies to the rows shown."


@lru_cache(maxsize=1 << 16)
def escaped(text: str) -> str:
    """Escaped cell text, remembered: tables repeat the same ids and labels many times."""
    return escape(text)
