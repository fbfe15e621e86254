"""Business views and failure types on the domain pages, against the report."""

from __future__ import annotations

from generator.pages import VersionContext
from generator.pages.blocks.tables import Table
from generator.pages.domain.business import business_spec
from generator.pages.domain.pages import domain_pages
from generator.score.results import CombinationScores, Report


def _tables(ctx: VersionContext, report: Report) -> dict[str, Table]:
    return {t.caption: t for p in domain_pages(ctx, report) for t in p.page.tables}


FAILURE_KEYS = ("combination", "valid_runs")


def _views(c: CombinationScores) -> bool:
    return c.business is not None


def test_business_views_and_failures_appear_where_the_report_has_them(
    ctx: VersionContext,
) -> None:
    withheld, rows = 0, 0
    for report in ctx.reports.values():
        tables = _tables(ctx, report)
        for scope in report.scopes:
            business = tables.get(f"Business views — {scope.title}")
            failures = tables.get(f"Failure types — {scope.title}")
            if scope.withheld:
                assert business is None
                assert failures is None
                withheld += 1
                continue
            with_views = [c.combination for c in scope.combinations if _views(c)]
            assert (business is not None) == bool(with_views)
            if business is not None:
                assert [r.record["combination"] for r in business.rows] == with_views
            scored = [c for c in scope.combinations if c.status == "scored"]
            assert failures is not None
            for c, row in zip(scored, failures.rows, strict=True):
                assert row.record["combination"] == c.combination
                counted = {k: v for k, v in row.record.items() if k in c.failure_types}
                assert counted == c.failure_types
                listed = {k: v for k, v in row.record.items() if k not in FAILURE_KEYS}
                assert sum(listed.values()) == sum(c.failure_types.values())
                rows += 1
    assert withheld > 0
    assert rows > 0


def test_a_withheld_view_links_where_it_can_be_read(ctx: VersionContext) -> None:
    combos = [
        c
        for r in ctx.reports.values()
        for s in r.scopes
        for c in s.combinations
        if c.business is not None and c.business.withheld
    ]
    # the example's versions withhold some business views; the small one (v0.1) none
    assert bool(combos) == (ctx.version != "v0.1")
    for c in combos:
        row = business_spec(ctx, '<a href="public.html#x">see Public group</a>').row(c)
        linked = [cell for cell in row.cells if "public.html#x" in cell.text]
        assert c.business is not None
        assert c.business.withheld
        assert len(linked) == len(c.business.withheld)


def test_a_scope_s_rule_classes_are_a_table_of_their_pass_rates() -> None:
    """Where the release declares rule classes, the domain's detail tables hold one with each
    class's pass rate and interval as the report has them; none where it declares none."""
    from builders import catalog, release, run, task, version
    from pagetools import CARD, bundle_with_card

    from generator.load import Loaded
    from generator.load.source import Source
    from generator.models import Release
    from generator.pages import version_context
    from generator.pages.blocks.text import estimate
    from generator.pages.domain.business import rule_class_table
    from generator.score.version import score_version

    data = release(groups={"public": 7, "held_out": 0}).model_dump(mode="json", exclude_none=True)
    data["profile"] = {"rule_classes": [{"id": "type", "title": "File type"}]}
    tasks = [task(f"t{i}") for i in range(6)] + [task("e", "erp", "x")]
    for t in tasks:
        t["scoring"]["rule_items"][0]["rule_class"] = "type"
    runs = {"p": [run(t["id"], r, passed=r - 1) for t in tasks for r in (1, 2)]}
    loaded = version(
        Release.model_validate(data), catalog(tasks), runs, {"p": bundle_with_card("p")}
    )
    ctx = version_context(score_version(loaded), {CARD.id: Loaded(CARD, Source("card.yaml"))})
    scope = ctx.reports["office"].scopes[0]
    table = rule_class_table(ctx, scope, "office-rule-classes")
    assert table is not None
    (row,) = table.rows
    e = scope.combinations[0].rule_classes["type"]
    assert row.cells[1].text.startswith(estimate(e.value, e.low, e.high))
    assert table.columns[1] == "File type passed"
