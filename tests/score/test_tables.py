"""The table model of the report's CSV and Markdown forms (generator/score/tables.py): each
cell type written by one rule per form, the CSV by the ``csv`` module."""

from __future__ import annotations

import csv
import io

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score.results import Estimate
from generator.score.rounding import NO_INTERVAL
from generator.score.tables import (
    Cell,
    Fig,
    Table,
    bare,
    csv_cell,
    csv_line,
    csv_text,
    fig,
    head,
    markdown_cell,
    markdown_table,
)

RUNS = Estimate(value=0.75, low=0.5, high=0.875, tasks=2, interval="runs")


@pytest.mark.parametrize(
    ("cell", "csv_form", "markdown_form"),
    [
        (None, "", "—"),
        (True, "true", "True"),
        (False, "false", "False"),
        (3, "3", "3"),
        (1 / 3, "0.333333", "0.333"),
        (0.4925, "0.4925", "0.493"),
        ("a, b", "a, b", "a, b"),
    ],
)
def test_each_cell_type_has_one_form_in_each_writer(
    cell: Cell, csv_form: str, markdown_form: str
) -> None:
    assert csv_cell(cell) == csv_form
    assert markdown_cell(cell) == markdown_form


def test_a_figure_is_one_markdown_cell_and_three_csv_columns() -> None:
    assert markdown_cell(fig(RUNS)) == "0.750 [0.500, 0.875]†"
    assert markdown_cell(bare(RUNS)) == "0.750 [0.500, 0.875]"  # no mark without a basis
    assert markdown_cell(Fig(12.25, digits=1)) == "12.3"  # half away from zero
    assert markdown_cell(Fig(0.5, basis="tasks")) == "0.500" + NO_INTERVAL
    assert markdown_cell(Fig(None, basis="runs")) == markdown_cell(fig(None)) == "—"
    with pytest.raises(AssertionError):
        csv_cell(fig(RUNS))


def test_a_markdown_table_has_a_cell_under_every_column() -> None:
    table = Table(head("a | b | c"), ((1, None, "x"), (0.5, fig(RUNS), "")))
    assert markdown_table(table) == [
        "| a | b | c |",
        "|---|---|---|",
        "| 1 | — | x |",
        "| 0.500 | 0.750 [0.500, 0.875]† |  |",
    ]


text = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
cells = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), text)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.lists(cells, min_size=3, max_size=3), max_size=5))
def test_the_csv_reads_back_as_its_cells(rows: list[list[Cell]]) -> None:
    """Commas, quotes and line breaks inside a cell survive: the ``csv`` module quotes them."""
    table = Table(("a", "b", "c"), tuple(tuple(r) for r in rows))
    read = list(csv.reader(io.StringIO(csv_text(table), newline="")))
    assert read[0] == ["a", "b", "c"]
    assert read[1:] == [[csv_cell(c) for c in row] for row in rows]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(), st.floats(), text), min_size=1, max_size=4))
def test_a_line_is_the_csv_module_s_but_for_a_lone_carriage_return(values: list[object]) -> None:
    """Each line is what the ``csv`` module writes, except that a field holding a carriage
    return, and nothing else the module quotes, is quoted (the module leaves it bare, and
    the row breaks there); every line reads back as its fields."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(values)
    module = out.getvalue()[:-1]
    texts = ["" if v is None else str(v) for v in values]
    if any("\r" in t and not any(c in t for c in ',"\n') for t in texts):
        assert csv_line(values) != module
    else:
        assert csv_line(values) == module
    assert next(csv.reader(io.StringIO(csv_line(values) + "\n", newline=""))) == texts
