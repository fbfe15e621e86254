"""The board view against the reports: one table per value of its axis, a row per slice in
its own metric, a column per combination sharing the value, figures and ranks from the
row's scope, never a total; checked on the EnterpriseBench-shaped example."""

from __future__ import annotations

import html
import re

from pagetools import row_texts, shown

from generator.models.profile import Board, Slice
from generator.pages import VersionContext
from generator.pages.blocks.measures import MISSING, label
from generator.pages.blocks.outcome import outcome_of
from generator.pages.blocks.text import decimals
from generator.pages.views.boards import board_page
from generator.pages.views.parts import (
    MARK,
    NOT_EVALUATED,
    axis_values,
    combinations,
    rank_text,
    shown_scope,
)
from generator.score.rounding import fixed


def _board(ctx: VersionContext) -> Board:
    return next(v for v in ctx.release.profile.views if isinstance(v, Board))


def test_a_table_per_value_of_the_axis_with_the_combinations_sharing_it(
    enterprise: VersionContext,
) -> None:
    board = _board(enterprise)
    page = board_page(enterprise, board)
    infos = list(combinations(enterprise).values())
    values = axis_values(infos, board.per)
    assert len(values) > 1
    assert len(page.tables) == len(values)
    for value, table in zip(values, page.tables, strict=True):
        sharing = [c for c in infos if c.axes.get(board.per) == value]
        sharing.sort(key=lambda c: (c.axes[board.columns].lower(), c.axes[board.columns]))
        headers = [c.axes[board.columns] + (f" {MARK}" if c.carried_state else "") for c in sharing]
        assert list(table.columns) == ["Scope", *headers]
        assert len(table.rows) == len(board.rows)  # no total row
        assert value in table.caption


def test_no_total_row_or_column(enterprise: VersionContext) -> None:
    page = board_page(enterprise, _board(enterprise))
    assert len(page.tables) == 3  # a table per backbone
    for table in page.tables:
        words = " ".join(table.columns).lower()
        assert not re.search(r"\b(total|mean|average|overall|sum)\b", words)
        titles = [r.record["row"] for r in table.rows]
        assert titles == [r.title for r in _board(enterprise).rows]


def test_a_cell_is_its_scope_s_figure_in_the_row_s_unit(enterprise: VersionContext) -> None:
    board = _board(enterprise)
    page = board_page(enterprise, board)
    infos = combinations(enterprise)
    checked = 0
    for table in page.tables:
        combos = [k for k in table.rows[0].record if k in infos]
        for row, spec in zip(table.rows, board.rows, strict=True):
            scope = shown_scope(enterprise, spec.domain, spec.facets)
            assert scope is not None
            assert row.record["group"] == scope.scope.group
            metric = enterprise.release.outcome(spec.domain)
            assert label(metric) in html.unescape(row.cells[0].text)
            scores = {c.combination: c for c in scope.combinations}
            for combo, cell in zip(combos, row.cells[1:], strict=True):
                c = scores.get(combo)
                text = html.unescape(re.sub(r"<[^>]+>", " ", cell.text))
                carried = infos[combo].carried_state is not None
                assert (MARK in text) == carried
                if c is None:
                    assert text.startswith(NOT_EVALUATED)
                    continue
                if c.status != "scored":
                    assert text.startswith(MISSING[c.status])
                    assert row.record[combo] is None
                    continue
                e = c.task_score
                assert e is not None
                assert e.value is not None
                assert e.low is not None
                assert e.high is not None
                assert row.record[combo] == e.value  # downloads keep the value itself
                s = metric.scale or 1.0
                d = decimals(e.low / s, e.high / s)
                first = text.split("\u00a0")[0].replace(",", "")
                assert first == fixed(e.value / s, d)
                # the figure reads as the domain's own pages show it
                assert text.split(" rank")[0].strip() == outcome_of(enterprise, spec.domain).text(e)
                checked += 1
    assert checked > 50


def test_not_covered_and_scaled_rows_are_in_the_example(enterprise: VersionContext) -> None:
    """What the other tests rely on: a not-covered cell, a scaled lower-is-better row."""
    page = board_page(enterprise, _board(enterprise))
    texts = [c for t in page.tables for r in row_texts(t.to_html("x")) for c in r]
    assert any(t.startswith("not covered") for t in texts)
    assert any("×10⁴" in t and "↓" in t for t in texts)
    assert "total" not in shown(page).lower().replace("no total", "")


def test_each_cell_s_rank_is_the_report_s_for_its_row_and_table(
    enterprise: VersionContext,
) -> None:
    """The rank ranges are those the report gives the row's scope in the table (the board
    ranks nothing itself), in the cell and in the downloads."""
    board = _board(enterprise)
    page = board_page(enterprise, board)
    infos = combinations(enterprise)
    values = axis_values(infos.values(), board.per)
    checked = 0
    for value, table in zip(values, page.tables, strict=True):
        combos = [k for k in table.rows[0].record if k in infos]
        for row, spec in zip(table.rows, board.rows, strict=True):
            scope = shown_scope(enterprise, spec.domain, spec.facets)
            assert scope is not None
            (found,) = [b for b in scope.boards if (b.board, b.table) == (board.id, value)]
            ranks = {r.combination: (r.rank, r.rank_worst) for r in found.ranks}
            assert set(ranks) <= set(combos)
            for combo, cell in zip(combos, row.cells[1:], strict=True):
                got = (row.record[f"{combo}_rank"], row.record[f"{combo}_rank_worst"])
                if combo not in ranks:
                    assert got == (None, None)
                    continue
                assert got == ranks[combo]
                assert html.escape(rank_text(*ranks[combo])) in cell.text
                checked += 1
    assert checked > 10


def test_a_whole_domain_aggregated_over_cells_shows_its_mean_over_cells(
    enterprise: VersionContext,
) -> None:
    """A row of the whole of a domain that declares aggregation over cells shows the mean
    over cells (Fig. 3(c)'s overall QA score), without a rank: differences are over tasks."""
    domain = next(d for d in enterprise.release.domains if d.aggregate.over == "cells")
    board = _board(enterprise)
    wider = board.model_copy(update={"rows": (*board.rows, Slice(domain=domain.id))})
    page = board_page(enterprise, wider)
    scope = shown_scope(enterprise, domain.id, {})
    assert scope is not None
    scores = {c.combination: c for c in scope.combinations}
    checked = 0
    for table in page.tables:
        last = table.rows[-1]
        assert last.record["aggregate"] == "cells"
        assert "mean over cells" in last.cells[0].text
        assert "mean over cells" in table.note
        for combo, c in scores.items():
            if combo not in last.record or c.cell_mean is None:
                continue
            assert last.record[combo] == c.cell_mean.value
            assert last.record[f"{combo}_rank"] is None
            checked += 1
        others = table.rows[:-1]
        assert others
        assert all(r.record["aggregate"] == "tasks" for r in others)
    assert checked


PAYLOAD = '<script>alert("x")</script>'


def test_declared_titles_are_shown_literally(enterprise: VersionContext) -> None:
    """A board's and its rows' titles are the release's text: shown, never run as markup."""
    board = _board(enterprise)
    rows = tuple(r.model_copy(update={"title": f"{r.title} {PAYLOAD}"}) for r in board.rows)
    hostile = board.model_copy(update={"title": f"Board {PAYLOAD}", "rows": rows})
    page = board_page(enterprise, hostile)
    text = shown(page)
    assert "<script" not in text
    assert html.unescape(text).count(PAYLOAD) >= len(rows)  # each row's name, shown as text
