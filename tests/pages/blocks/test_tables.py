"""Tables: accessible HTML that shows hostile text as text, and downloads that hold the records."""

from __future__ import annotations

import csv
import io
import json
from html.parser import HTMLParser

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.pages.blocks.tables import RANK, Cell, Row, Table, csv_cell
from generator.score.rounding import DECIMALS

HOSTILE = '<script>alert("x")</script> & <img src=x onerror=y>'


class _Cells(HTMLParser):
    """The elements of a table's HTML, and the text of each header and data cell."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.cells: list[tuple[str, str]] = []
        self.sort: list[str | None] = []
        self._open: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag in ("td", "th"):
            self._open = tag
            self.cells.append((tag, ""))
            self.sort.append(dict(attrs).get("data-sort"))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th"):
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open:
            tag, text = self.cells[-1]
            self.cells[-1] = (tag, text + data)


def _parsed(text: str) -> _Cells:
    parser = _Cells()
    parser.feed(text)
    parser.close()
    return parser


def _table(rows: int, inline: int = 200) -> Table:
    return Table(
        "t",
        f"Caption {HOSTILE}",
        ("Name", f"Value {HOSTILE}"),
        tuple(
            Row((Cell(f"{HOSTILE} {i}"), Cell(str(i / 3), i / 3)), {"name": f"n{i}", "v": i / 3})
            for i in range(rows)
        ),
        inline=inline,
    )


def test_hostile_text_in_headers_and_cells_stays_text() -> None:
    table = _table(3)
    parsed = _parsed(table.to_html("page"))
    assert "script" not in parsed.tags
    assert "img" not in parsed.tags
    headers = [text for tag, text in parsed.cells if tag == "th"]
    data = [text for tag, text in parsed.cells if tag == "td"]
    assert headers == list(table.columns)
    assert data == [c.text for row in table.rows for c in row.cells]
    assert parsed.sort[len(headers) :] == [
        None if c.sort is None else str(c.sort) for row in table.rows for c in row.cells
    ]


def test_a_cell_of_html_is_kept_and_others_are_escaped() -> None:
    link = '<a href="x.html">x</a>'
    rows = (Row((Cell(link, html=True), Cell(link)), {}),)
    out = Table("t", "c", ("a", "b"), rows).to_html("p")
    assert link in out
    assert [text for tag, text in _parsed(out).cells if tag == "td"] == ["x", link]


def test_the_html_links_its_downloads_beside_the_page() -> None:
    table = Table('t"1', "c", ("a",), ())
    out = table.to_html("pa<ge")
    assert 'href="pa&lt;ge.t&quot;1.csv"' in out
    assert 'href="pa&lt;ge.t&quot;1.json"' in out
    assert f'id="{table.anchor.replace(chr(34), "&quot;")}"' in out


@pytest.mark.parametrize(("rows", "inline"), [(5, 200), (5, 5), (6, 5), (7, 0)])
def test_a_long_table_shows_its_first_rows_and_loads_the_rest(rows: int, inline: int) -> None:
    table = _table(rows, inline)
    shown = _parsed(table.to_html("p"))
    assert shown.tags.count("tr") - 1 == min(rows, inline)  # the header row besides
    assert table.paged == (rows > inline)
    assert ("data-rows=" in table.to_html("p")) == table.paged
    assert ("p.t.rows.txt" in table.to_html("p")) == table.paged
    assert _parsed(table.rows_html()).tags.count("tr") == rows


def test_downloads_hold_every_record_at_six_decimals() -> None:
    table = _table(4)
    data = json.loads(table.to_json())
    assert (data["table"], data["caption"]) == (table.id, table.caption)
    assert data["rows"] == [
        {k: round(v, DECIMALS) if isinstance(v, float) else v for k, v in r.record.items()}
        for r in table.rows
    ]
    read = list(csv.DictReader(io.StringIO(table.to_csv())))
    assert [r["name"] for r in read] == [r.record["name"] for r in table.rows]
    assert [float(r["v"]) for r in read] == [round(r.record["v"], DECIMALS) for r in table.rows]


def test_csv_columns_are_every_field_in_first_seen_order() -> None:
    rows = (Row((), {"a": 1, "b": None}), Row((), {"a": 2, "c": "x"}))
    table = Table("t", "c", (), rows)
    assert table.fields() == ["a", "b", "c"]
    assert list(csv.reader(io.StringIO(table.to_csv()))) == [
        ["a", "b", "c"],
        ["1", "", ""],
        ["2", "", "x"],
    ]


def test_csv_cells_never_start_a_formula() -> None:
    values = ('=HYPERLINK("x")', "+1", "-cmd", "@SUM(A1)", "\tx", "plain", -2.5, "a=b")
    keys = tuple(f"k{i}" for i in range(len(values)))
    row = Row(tuple(Cell(str(v)) for v in values), dict(zip(keys, values, strict=True)))
    read = next(iter(csv.DictReader(io.StringIO(Table("t", "caption", keys, (row,)).to_csv()))))
    for key, value in zip(keys, values, strict=True):
        formula = isinstance(value, str) and value[:1] in "=+-@\t\r"
        assert read[key] == (f"'{value}" if formula else str(value)), value
    assert csv_cell(None) == ""
    assert csv_cell(-1) == -1  # a number is a number, sign and all


def test_a_header_says_which_order_its_first_click_sorts_in() -> None:
    table = Table("t", "T", ("Score", "Cost", "Name"), (), first=("desc", "asc", None))
    head = table.to_html("p").split("<tbody>")[0]
    assert '<th scope="col" data-sort-first="desc">Score</th>' in head
    assert '<th scope="col" data-sort-first="asc">Cost</th>' in head
    assert '<th scope="col">Name</th>' in head


def test_about_fields_lead_every_record_of_both_downloads() -> None:
    about = (("version", "v9"), ("domain", "d§—"), ("group", None))
    rows = (Row((), {"a": 1, "group": "mine"}), Row((), {"a": 2, "b": 0.5}))
    table = Table("t", "c", (), rows, about=about)
    assert table.fields() == ["version", "domain", "group", "a", "b"]
    records = json.loads(table.to_json())["rows"]
    for record, row in zip(records, rows, strict=True):
        assert list(record)[:3] == [k for k, _ in about]
        assert record == dict(about) | row.record  # a record's own value wins
    read = list(csv.DictReader(io.StringIO(table.to_csv())))
    assert [(r["version"], r["domain"], r["group"]) for r in read] == [
        ("v9", "d§—", "mine"),
        ("v9", "d§—", ""),
    ]
    assert Table("t", "c", (), (), about=about).fields() == ["version", "domain", "group"]


def test_a_list_is_one_csv_cell_of_its_items() -> None:
    assert csv_cell(["a", "b"]) == "a; b"
    assert csv_cell(()) == ""
    table = Table("t", "c", (), (Row((), {"l": ["x", "y"]}),))
    assert next(iter(csv.DictReader(io.StringIO(table.to_csv())))) == {"l": "x; y"}
    assert json.loads(table.to_json())["rows"] == [{"l": ["x", "y"]}]


def test_a_named_table_links_downloads_of_its_name() -> None:
    table = Table("t", "c", ("a",), (), name="n<1")
    assert table.base("page") == "n<1"
    assert 'href="n&lt;1.csv"' in table.to_html("page")
    assert Table("t", "c", ("a",), ()).base("page") == "page.t"


def test_a_table_that_ranks_first_keeps_its_rank_and_name_in_view() -> None:
    ranked = Table("t", "c", (RANK, "Combination", "Score"), ())
    assert 'class="lg-sortable lg-ranked"' in ranked.to_html("p")
    plain = Table("t", "c", ("Combination", RANK), ())
    assert 'class="lg-sortable"' in plain.to_html("p")


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.text(st.characters(exclude_categories=("Cs",)), max_size=8), min_size=1))
def test_no_text_adds_a_row_or_a_column_to_a_download(texts: list[str]) -> None:
    """Any text in a record (commas, quotes, line breaks, a lone carriage return) reads back
    from the CSV download as the one cell it was, a record a line."""
    rows = tuple(Row((Cell(t),), {"text": t, "n": i}) for i, t in enumerate(texts))
    read = list(csv.reader(io.StringIO(Table("t", "c", ("Text",), rows).to_csv(), newline="")))
    assert read[0] == ["text", "n"]
    assert read[1:] == [[str(csv_cell(t)), str(i)] for i, t in enumerate(texts)]
