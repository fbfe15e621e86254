"""The board view: scopes of several domains side by side, one table per value of an axis
(e.g. per backbone, as EnterpriseBench's Table 1), built from the domains' reports.

A row is one scope (a domain, or a domain cut to facet values) in its own domain's outcome
metric: its direction, unit and display scale. The columns are the combinations that share
the table's axis value, in the order of their value on the board's column axis. Each cell
has its interval and the rank range the data allows among the row's combinations (within
one comparison group), as the report gives it (the row's scope's ``boards``). A board never
totals: no row or column adds or averages domains (§4.2, §5.3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

from generator.models.profile import Board, Metric, Slice
from generator.pages.blocks.cells import groups_note, runs_note
from generator.pages.blocks.columns import Column, Field, Spec
from generator.pages.blocks.measures import MISSING, figure_text, label
from generator.pages.blocks.render import Page
from generator.pages.blocks.tables import Cell, Table
from generator.pages.blocks.text import escape, escape_html, scale_text, spelled
from generator.pages.context import VersionContext
from generator.pages.views.parts import (
    MARK,
    NOT_EVALUATED,
    axis_title,
    axis_values,
    carried_note,
    combinations,
    public_note,
    rank_text,
    shown_scope,
    slug,
    sub_line,
    view_page,
)
from generator.score.results import CombinationScores, Estimate, ScopeResult


@dataclass(frozen=True)
class BoardRow:
    """One row of a board: a slice, the scope that shows it and its figures per combination."""

    position: int
    slice: Slice
    title: str
    metric: Metric
    scope: ScopeResult | None
    scores: Mapping[str, CombinationScores]
    ranks: Mapping[str, tuple[int, int]]
    cells: bool = False  # the whole of a domain that aggregates over cells: the mean over cells

    def figure(self, c: CombinationScores) -> Estimate | None:
        """The row's figure of a combination: its domain score as the domain declares it
        (the mean over cells, or over tasks)."""
        return c.cell_mean if self.cells else c.task_score


def _title(ctx: VersionContext, row: Slice) -> str:
    if row.title:
        return row.title
    domain = ctx.release.domain(row.domain).title
    facets = {f.id: {v.id: v.title for v in f.values} for f in ctx.release.profile.facets}
    return " · ".join([domain, *(facets[f][v] for f, v in row.facets.items())])


def row_ranks(scope: ScopeResult, board: str, table: str) -> dict[str, tuple[int, int]]:
    """The rank ranges the report gives the row's scope in one table of the board (none for
    a mean over cells, whose paired differences are over tasks)."""
    found = next((b for b in scope.boards if (b.board, b.table) == (board, table)), None)
    return {} if found is None else {r.combination: (r.rank, r.rank_worst) for r in found.ranks}


def board_rows(ctx: VersionContext, board: Board, value: str) -> list[BoardRow]:
    """The board's rows for the table of its ``per`` axis' ``value``."""
    rows = []
    for i, row in enumerate(board.rows):
        metric = ctx.release.outcome(row.domain)
        scope = shown_scope(ctx, row.domain, row.facets)
        scores = {} if scope is None else {c.combination: c for c in scope.combinations}
        domain = ctx.release.domain(row.domain)
        # The whole of a domain that aggregates over cells shows its mean over cells.
        cells = domain.aggregate.over == "cells" and not row.facets
        ranks = {} if scope is None else row_ranks(scope, board.id, value)
        rows.append(BoardRow(i, row, _title(ctx, row), metric, scope, scores, ranks, cells))
    return rows


def board_cell(combo: str, carried: bool, row: BoardRow) -> Cell:
    """A combination's figure in a row, its rank range among the row's combinations and
    its carried-state mark; else why there is none. Sorted by the row's place: a board's
    rows are in different units, so a column sorts them only back and forth."""
    c = row.scores.get(combo)
    if c is None:
        text = "withheld" if row.scope is None else NOT_EVALUATED
        return Cell(text + sub_line("", carried), row.position, html=True)
    e = row.figure(c)
    if c.status != "scored" or e is None or e.value is None:
        return Cell(escape_html(MISSING[c.status]) + sub_line("", carried), row.position, True)
    rank = rank_text(*row.ranks[combo]) if combo in row.ranks else ""
    text = escape_html(figure_text(row.metric, e)) + sub_line(rank, carried)
    return Cell(text, row.position, html=True)


def _row_cell(row: BoardRow) -> Cell:
    """The row's scope over its metric (direction, unit, scale) and the tasks it rests on.
    (Not a link: a link's words may break anywhere, and a narrow screen squeezes the first
    column to its shortest; the page's lead links the domains.)"""
    title = escape_html(row.title)
    if row.scope is None:
        rests = "not published (held-out tasks too few, §4.4)"
    else:
        public = row.scope.scope.group == "public"
        rests = f"{row.scope.tasks} {'public ' if public else ''}tasks"
        rests = f"mean over cells · {rests}" if row.cells else rests
    sub = escape_html(f"{label(row.metric)} · {rests}")
    return Cell(f'{title}<br><span class="lg-sub">{sub}</span>', row.position, True)


def _combo_fields(combo: str) -> tuple[Field[BoardRow], ...]:
    def score(r: BoardRow) -> CombinationScores | None:
        return r.scores.get(combo)

    def part(name: str) -> Callable[[BoardRow], object]:
        def get(r: BoardRow) -> object:
            c = score(r)
            e = None if c is None else r.figure(c)
            return None if e is None else getattr(e, name)

        return get

    def status(r: BoardRow) -> str:
        c = score(r)
        return c.status if c is not None else ("withheld" if r.scope is None else NOT_EVALUATED)

    def rank(i: int) -> Callable[[BoardRow], int | None]:
        return lambda r: r.ranks[combo][i] if combo in r.ranks else None

    return (
        Field(combo, part("value"), "number"),
        Field(f"{combo}_low", part("low"), "number"),
        Field(f"{combo}_high", part("high"), "number"),
        Field(f"{combo}_interval", part("interval")),
        Field(f"{combo}_rank", rank(0), "integer"),
        Field(f"{combo}_rank_worst", rank(1), "integer"),
        Field(f"{combo}_status", status),
    )


def board_spec(
    board: Board, columns: Mapping[str, str], carried: Mapping[str, bool]
) -> Spec[BoardRow]:
    """A row per slice; a column per combination (``columns``: id → its column-axis value).
    Downloads keep each figure unscaled, with its metric, unit and scale."""

    def group(r: BoardRow) -> str | None:
        return None if r.scope is None else r.scope.scope.group

    return Spec(
        (
            Column("Scope", lambda r: r, _row_cell),
            *(
                Column(
                    f"{value} {MARK}" if carried[combo] else value,
                    lambda r: r,
                    partial(board_cell, combo, carried[combo]),
                )
                for combo, value in columns.items()
            ),
        ),
        (
            Field("row", lambda r: r.title),
            Field("domain", lambda r: r.slice.domain),
            Field("facets", lambda r: ",".join(f"{f}={v}" for f, v in r.slice.facets.items())),
            Field("group", group),
            Field("tasks", lambda r: None if r.scope is None else r.scope.tasks, "integer"),
            Field("metric", lambda r: r.metric.id),
            Field("aggregate", lambda r: "cells" if r.cells else "tasks"),
            Field("direction", lambda r: r.metric.direction),
            Field("unit", lambda r: r.metric.unit),
            Field("scale", lambda r: r.metric.scale, "number"),
            *(f for combo in columns for f in _combo_fields(combo)),
        ),
    )


def _note(ctx: VersionContext, rows: list[BoardRow], carried: bool) -> str:
    """What this table's marks mean (the page's lead says what every board's rows are)."""
    notes = []
    if any(r.scope is not None and r.scope.scope.group == "public" for r in rows):
        notes.append("“public tasks”: the row rests on its scope's public tasks. " + public_note())
    figures = [e for r in rows for c in r.scores.values() if (e := r.figure(c)) is not None]
    if any(e.interval == "runs" and e.low is not None for e in figures):
        notes.append(runs_note(ctx.release.statistics.min_tasks_to_resample))
    if any(r.cells for r in rows):
        notes.append(
            "“mean over cells”: the domain's score as it declares it, the equal-weight mean "
            "of its cells' means over tasks (§4.2); its interval resamples tasks, and it has "
            "no rank (paired differences are over tasks)."
        )
    if carried:
        notes.append(carried_note())
    return " ".join(notes)


def board_lead(ctx: VersionContext, board: Board, values: list[str]) -> str:
    """What every table of the board shows (safe Markdown)."""
    stats = ctx.release.statistics
    axis = axis_title(ctx, board.per)
    domains = list(dict.fromkeys(r.domain for r in board.rows))
    titles = {d.id: d.title for d in ctx.release.domains}
    links = [f"[{escape(titles[d])}](../{escape(d)}/index.md)" for d in domains]
    powers = [
        m.scale for m in (ctx.release.outcome(d) for d in domains) if m.scale and m.scale >= 1
    ]
    example = scale_text(powers[0]) if powers else ""
    units = f"; {example}: the figure times {example[1:]}" if example else ""
    return (
        f"One table per {escape(axis.lower())} ({spelled(len(values))}), its columns the "
        f"combinations that share it; {spelled(len(board.rows))} rows from "
        f"{spelled(len(domains))} domains ({', '.join(links)}), each in its own domain's "
        f"metric (↑ higher is better, ↓ lower is better{units}). No total: no number adds or "
        "averages domains (§4.2, §5.3). Rank: within a row, among its table's combinations, "
        f"as their paired differences allow (significant at {stats.confidence:.0%} over at "
        f"least {spelled(stats.min_tasks_to_order)} common tasks); a range is a tie the data "
        "cannot break."
    )


def board_table(ctx: VersionContext, board: Board, value: str) -> Table:
    """The board of the combinations whose ``board.per`` axis has ``value``."""
    infos = [c for c in combinations(ctx).values() if c.axes.get(board.per) == value]
    infos = [c for c in infos if board.columns in c.axes]
    order = axis_values(infos, board.columns)
    infos.sort(key=lambda c: (order.index(c.axes[board.columns]), c.id))
    columns = {c.id: c.axes[board.columns] for c in infos}
    carried = {c.id: c.carried_state is not None for c in infos}
    rows = board_rows(ctx, board, value)
    note = _note(ctx, rows, any(carried.values()))
    split = next((r.scope for r in rows if r.scope and _split(r.scope, list(columns))), None)
    if split is not None:
        shown = [[n for n in g if n in columns] for g in split.comparison_groups]
        note += " " + groups_note(ctx, [g for g in shown if g])
    axis = axis_title(ctx, board.per)
    caption = f"{board.title} — {axis}: {value}"
    spec = board_spec(board, columns, carried)
    return spec.table(f"{board.id}-{slug(value)}", caption, rows, note)


def _split(scope: ScopeResult, names: list[str]) -> bool:
    """Whether the scope's comparison groups split these combinations."""
    return sum(1 for g in scope.comparison_groups if set(g) & set(names)) > 1


def board_page(ctx: VersionContext, board: Board) -> Page:
    """The board's page: one table per value of its ``per`` axis."""
    values = axis_values(combinations(ctx).values(), board.per)
    tables = [board_table(ctx, board, v) for v in values]
    axis = axis_title(ctx, board.per)
    headings = [f"{axis}: {v}" for v in values]
    return view_page(ctx, board, board_lead(ctx, board, values), tables, headings)
