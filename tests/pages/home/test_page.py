"""The release home against its inputs: components, tasks by domain and group, controlled
factors, and each combination's valid and excluded runs."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from pagetools import INCOMPLETE, plots, shown, small_runs

from generator.pages import VersionContext
from generator.pages.blocks.text import escape_html, spelled
from generator.pages.home.leaderboard import reading
from generator.pages.home.page import boards, home_page, home_tables


def _tables(ctx: VersionContext) -> dict[str, list[dict[str, object]]]:
    return {t.id: [r.record for r in t.rows] for t in home_tables(ctx)}


def test_tasks_are_counted_by_domain_and_group(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    for ctx in [small, *contexts]:
        counts = Counter((t.domain, t.group) for t in ctx.catalog.tasks)
        assert _tables(ctx)["tasks"] == [
            {
                "domain": d.id,
                "public": counts[(d.id, "public")],
                "held_out": counts[(d.id, "held-out")],
                "total": counts[(d.id, "public")] + counts[(d.id, "held-out")],
            }
            for d in ctx.release.domains
        ]


def test_the_note_counts_the_domains_in_words(small: VersionContext) -> None:
    table = next(t for t in home_tables(small) if t.id == "tasks")
    assert (
        table.note == f"The {spelled(2)} domains are reported separately; there is no total score."
    )
    one = small.release.model_copy(update={"domains": small.release.domains[:1]})
    table = next(t for t in home_tables(replace(small, release=one)) if t.id == "tasks")
    assert table.note == "The release has one domain; there is no total score."


def test_coverage_counts_each_combination_s_runs(small: VersionContext) -> None:
    runs = small_runs()
    rows = _tables(small)["coverage"]
    assert [r["combination"] for r in rows] == sorted(small.frame.bundles)  # hidden: no consent
    for row in rows:
        records = runs[str(row["combination"])]
        excluded = sum((row["combination"], r.task, r.run) in INCOMPLETE for r in records)
        assert (row["valid_runs"], row["incomplete_runs"]) == (len(records) - excluded, excluded)
        bundle = small.frame.bundles[str(row["combination"])]
        assert bool(row["not_covered"]) == bool(bundle.not_covered)
    assert sum(int(r["incomplete_runs"]) for r in rows) == len(INCOMPLETE)  # type: ignore[call-overload]


def test_components_and_factors_are_the_release_s(contexts: list[VersionContext]) -> None:
    assert [c.version for c in contexts] == ["v1.0", "v1.1"]
    for ctx in contexts:
        tables = _tables(ctx)
        comp = ctx.release.components
        versions = {r["component"]: r["component_version"] for r in tables["components"]}
        assert versions["Tasks"] == comp.tasks
        assert versions["Protocol"] == comp.protocol
        assert {k for k in versions if str(k).startswith("Scorer: ")} == {
            f"Scorer: {k}" for k in comp.scorer
        }
        assert tables["factors"] == [f.model_dump() for f in ctx.release.controlled_factors]


def test_the_home_page_lists_the_domains_and_its_tables(contexts: list[VersionContext]) -> None:
    assert [c.version for c in contexts] == ["v1.0", "v1.1"]
    for ctx in contexts:
        page = home_page(ctx)
        assert page.path == "index.md"
        for d in ctx.release.domains:
            assert f'<a href="{d.id}/index.html">' in shown(page)
        assert [t.id for t in page.tables] == [
            *(f"{d.id}-leaderboard" for d in ctx.release.domains),
            "components",
            "tasks",
            "factors",
            "coverage",
        ]


def test_the_home_leads_with_each_domain_s_leaderboard(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    for ctx in [small, *contexts]:
        page = home_page(ctx)
        text = shown(page)
        first_component = text.index("## The release")
        leaders = boards(ctx)
        assert [b.domain for b in leaders] == [d.id for d in ctx.release.domains]
        at = 0
        for b, d in zip(leaders, ctx.release.domains, strict=True):
            report = ctx.reports[d.id]
            scope = next(
                s for s in report.scopes if s.scope.subdivision is None and s.scope.group == "all"
            )
            # Each domain's board from its own report: its rows are its scored combinations.
            scored = {c.combination for c in scope.combinations if c.status == "scored"}
            assert {r.record["combination"] for r in b.table.rows} == scored
            assert b.tasks == scope.tasks
            assert b.reading == reading(ctx, scope)
            # In the release's order of domains, before the release's other tables.
            heading = f'<h2 id="board-{d.id}">{escape_html(d.title)}</h2>'
            assert text.index(heading) > at
            at = text.index(heading)
            assert at < first_component
            assert escape_html(b.reading) in text
            assert f'href="{d.id}/index.html"' in text
        # One chart per domain with a score, in the page itself.
        drawn = [p.div for p in plots(text)]
        assert drawn == [f"leaderboard-{b.domain}" for b in leaders if b.table.rows]
        assert page.charts


def test_the_factors_heading_says_which_held_fixed_settings_the_results_do_not_record() -> None:
    from builders import release

    from generator.pages.home.page import factors_title

    rel = release()
    title = factors_title(rel, ("evaluator",))
    assert title.endswith("held fixed, as declared; the results do not record evaluator (§4.1)")
    assert factors_title(rel).endswith("is held fixed (§4.1)")
