"""The domain pages' tables against the report they are made from: every scope, every
combination, every difference, and nothing of a withheld scope (over all the domain's pages:
``generator.pages.domain.pages`` lays them out)."""

from __future__ import annotations

import html
from collections.abc import Iterator

from pagetools import shown, shown_estimate

from generator.pages import VersionContext
from generator.pages.blocks.cells import FEWER_MARK, fewer_tasks
from generator.pages.blocks.tables import Table
from generator.pages.domain.pages import domain_pages
from generator.pages.domain.results import scope_table
from generator.score.results import Report, ScopeResult


def _by_caption(ctx: VersionContext, report: Report) -> dict[str, Table]:
    """Every table of the domain's pages, by caption."""
    tables = [t for p in domain_pages(ctx, report) for t in p.page.tables]
    found = {t.caption: t for t in tables}
    assert len(found) == len(tables), "captions name tables one to one"
    return found


def _published(ctx: VersionContext) -> Iterator[tuple[ScopeResult, dict[str, Table]]]:
    """Each published (not withheld) scope of every domain, with its domain's tables."""
    for report in ctx.reports.values():
        tables = _by_caption(ctx, report)
        for scope in report.scopes:
            if not scope.withheld:
                yield scope, tables


def _text(ctx: VersionContext, report: Report) -> str:
    return "\n".join(html.unescape(shown(p.page)) for p in domain_pages(ctx, report))


def _scope_tables(page_tables: dict[str, Table], scope: ScopeResult) -> list[Table]:
    return [t for caption, t in page_tables.items() if caption.endswith(scope.title)]


def test_every_combination_of_a_scope_shows_its_task_score(ctx: VersionContext) -> None:
    titles = {d.id: d.title for d in ctx.release.domains} | {
        f"{d.id}/{s.id}": s.title for d in ctx.release.domains for s in d.subdivisions
    }
    published = list(_published(ctx))
    assert published
    named = 0
    for scope, tables in published:
        table = tables[scope.title]
        fewer = fewer_tasks(scope.combinations)
        rows = {r.record["combination"]: r for r in table.rows}
        assert sorted(rows) == sorted(c.combination for c in scope.combinations)
        score_column = next(i for i, h in enumerate(table.columns) if "Task Score" in h)
        for c in scope.combinations:
            cell = rows[c.combination].cells[score_column]
            assert rows[c.combination].record["status"] == c.status
            if c.status == "scored":
                assert c.task_score is not None
                mark = FEWER_MARK if c.combination in fewer else ""
                assert cell.text == shown_estimate(c.task_score) + mark, (scope.title, c)
                assert rows[c.combination].record["task_score"] == c.task_score.value
            else:
                assert cell.text.startswith(c.status.replace("-", " ")), cell
                if c.status == "not-covered" and c.note:
                    for part in c.note.split("; "):  # a reason may hold "; "
                        where, _, reason = part.partition(": ")
                        if where in titles:
                            assert f"{titles[where]}: {reason}" in cell.text
                            assert f" {where}: " not in cell.text
                            named += 1
                assert "task_score" not in rows[c.combination].record
    assert named > 0


def test_combinations_are_listed_best_rank_first(ctx: VersionContext) -> None:
    published = list(_published(ctx))
    assert published
    for scope, tables in published:
        records = [r.record for r in tables[scope.title].rows]
        ranked = [r["rank"] for r in records if r["status"] == "scored"]
        assert ranked == sorted(ranked)
        scored = [r["status"] == "scored" for r in records]
        assert scored == sorted(scored, reverse=True)  # the unscored come last


def test_a_withheld_scope_says_why_and_shows_no_number(ctx: VersionContext) -> None:
    withheld = 0
    for report in ctx.reports.values():
        text = _text(ctx, report)
        tables = _by_caption(ctx, report)
        for scope in report.scopes:
            if not scope.withheld:
                continue
            withheld += 1
            assert scope.withheld in text
            assert _scope_tables(tables, scope) == []
    assert withheld  # every version tested has some


def test_the_small_version_has_each_case(small: VersionContext) -> None:
    """What the tests above must meet: withheld scopes, a combination not covered, business
    views, and differences."""
    scopes = [s for r in small.reports.values() for s in r.scopes]
    combos = [c for s in scopes for c in s.combinations]
    assert any(s.withheld for s in scopes)
    assert {"scored", "not-covered"} <= {c.status for c in combos}
    assert any(c.business is not None for c in combos)
    assert any(c.failure_types for c in combos)
    assert all(s.differences for s in scopes if not s.withheld)


def test_ranks_and_differences_only_where_the_scope_can_be_ordered(ctx: VersionContext) -> None:
    """A scope over fewer tasks than an order needs shows scores without ranks."""
    minimum = ctx.release.statistics.min_tasks_to_order
    published = list(_published(ctx))
    assert published
    for scope, tables in published:
        ranked = scope.tasks >= minimum
        assert ("Rank" in tables[scope.title].columns) == ranked, scope.title
        if not ranked:
            assert f"fewer than the {minimum} an order needs" in tables[scope.title].note


def test_a_score_over_fewer_tasks_is_marked_and_its_tasks_named(ctx: VersionContext) -> None:
    marked = 0
    for scope, tables in _published(ctx):
        table = tables[scope.title]
        for combo, n in fewer_tasks(scope.combinations).items():
            assert f"{n} of {scope.tasks} tasks" in table.note
            row = next(r for r in table.rows if r.record["combination"] == combo)
            assert any(c.text.endswith(FEWER_MARK) for c in row.cells)
            marked += 1
    # the example's versions mark some; the small one (v0.1) scores all over every task
    assert (marked > 0) == (ctx.version != "v0.1")


def test_the_coverage_cell_counts_the_scope_s_tasks_and_names_titles(ctx: VersionContext) -> None:
    titles = {f"{d.id}/{s.id}": s.title for d in ctx.release.domains for s in d.subdivisions}
    cells, notes = 0, 0
    for scope, tables in _published(ctx):
        table = tables[scope.title]
        column = table.columns.index("Coverage")
        for c in scope.combinations:
            if c.coverage is None or c.status != "scored":
                continue
            row = next(r for r in table.rows if r.record["combination"] == c.combination)
            text = row.cells[column].text
            assert text.startswith(f"{c.coverage.valid_tasks} of {scope.tasks} tasks")
            cells += 1
            for note in c.coverage.not_covered:
                where = note.split(": ")[0]
                assert where not in text
                assert titles.get(where, "") in text
                notes += 1
    assert cells > 0
    # the example's versions name some; in the small one (v0.1) no scored cell has a note
    assert (notes > 0) == (ctx.version != "v0.1")


def test_score_columns_sort_best_first_by_the_metric_s_direction(ctx: VersionContext) -> None:
    directions = {m.id: m.direction for m in ctx.release.metrics}
    report = next(iter(ctx.reports.values()))
    tables = _by_caption(ctx, report)
    headline = next(s for s in report.scopes if not s.withheld)
    table = tables[headline.title]
    first = dict(zip(table.columns, table.first, strict=True))
    task_score = next(h for h in table.columns if h.startswith("Task Score"))
    assert first[task_score] == {"higher": "desc", "lower": "asc"}[directions["task_score"]]
    usage = tables[f"Reliability and cost — {headline.title}"]
    used = dict(zip(usage.columns, usage.first, strict=True))
    assert used["Duration\u00a0(s)"] == {"higher": "desc", "lower": "asc"}[directions["duration_s"]]
    assert 'data-sort-first="' in table.to_html("index")


def test_a_figure_the_gate_withheld_says_so_in_its_column(ctx: VersionContext) -> None:
    """A rule score or success rate the privacy gate refused reads "withheld" (its column
    stays even where every combination's is withheld), and the note says why."""
    seen = 0
    for scope, tables in _published(ctx):
        table = tables[scope.title]
        rows = {r.record["combination"]: r for r in table.rows}
        for name, header in (("rule_score", "Rule score"), ("success_rate", "Success rate")):
            gated = [c for c in scope.combinations if name in c.withheld]
            if not gated:
                continue
            column = next(i for i, h in enumerate(table.columns) if h.startswith(header))
            for c in gated:
                assert rows[c.combination].cells[column].text == "withheld"
                assert rows[c.combination].record.get(name) is None
                assert name in rows[c.combination].record["withheld"].split("; ")
                seen += 1
            assert f"{header.capitalize()} withheld" in html.unescape(table.note or "")
    if ctx.version == "v1.1":
        assert seen  # the example's whole-domain scopes withhold R (the gate's S, R, J route)


def test_a_domain_without_judge_items_has_no_judge_column(enterprise: VersionContext) -> None:
    """The EnterpriseBench-shaped QA domain declares no Judge item: its scope tables show no
    Judge score column (it read "—" on every row); consulting's, which judges, keep it."""
    seen = set()
    for domain in ("qa", "consulting"):
        report = enterprise.reports[domain]
        scope = next(s for s in report.scopes if s.scope.whole and s.scope.group == "all")
        table = scope_table(enterprise, scope, "t", 0)
        judged = any(t.domain == domain and t.scoring.judge_items for t in enterprise.catalog.tasks)
        assert ("Judge score" in table.columns) == judged, domain
        seen.add(judged)
    assert seen == {True, False}
