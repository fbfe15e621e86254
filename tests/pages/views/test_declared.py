"""The views' pages: one per view the release declares, listed in a 'Views' section of the
version's nav; a release that declares none (Lingee Bench) gets neither."""

from __future__ import annotations

from dataclasses import replace

from pagetools import declaring

from generator.models.views import Effect, Scatter
from generator.pages import VersionContext, version_pages
from generator.pages.blocks.cells import CARRIED
from generator.pages.task.pages import index_spec
from generator.pages.views.declared import SECTION, view_nav, view_page, view_pages
from generator.pages.views.parts import MARK


def test_a_page_per_declared_view_in_order(enterprise: VersionContext) -> None:
    views = enterprise.release.profile.views
    pages = view_pages(enterprise)
    assert [p.path for p in pages] == [f"views/{v.id}.md" for v in views]
    assert [p.title for p in pages] == [v.title for v in views]
    assert {type(view_page(enterprise, v)).__name__ for v in views} == {"Page"}
    kinds = {v.kind for v in views}
    assert kinds == {"board", "grid", "dimensions", "resources"}
    assert all(p.tables for p in pages)  # every view's table is downloadable


def test_the_nav_lists_the_views_only_when_declared(
    enterprise: VersionContext, contexts: list[VersionContext]
) -> None:
    pages, nav = version_pages(enterprise)
    (section,) = [entry[SECTION] for entry in nav if SECTION in entry]
    assert section == view_nav(view_pages(enterprise))[0][SECTION]
    paths = {p.path for p in pages}
    assert all(p.path in paths for p in view_pages(enterprise))
    assert [c.version for c in contexts] == ["v1.0", "v1.1"]
    for ctx in contexts:  # the Lingee example declares no views
        assert not ctx.release.profile.views
        assert view_pages(ctx) == []
        assert view_nav([]) == []
        _, lingee_nav = version_pages(ctx)
        assert lingee_nav
        assert not any(SECTION in entry for entry in lingee_nav)


def test_downloads_are_named_by_the_view(enterprise: VersionContext) -> None:
    code = enterprise.release.benchmark.code
    views = enterprise.release.profile.views
    assert len(views) == 5  # the five views the example declares
    tables = 0
    for page, view in zip(view_pages(enterprise), views, strict=True):
        for table in page.tables:
            tables += 1
            assert table.name.startswith(f"{code}-{enterprise.version}-views-{view.id}")
            records = table.to_json()
            assert f'"view": "{view.id}"' in records
            assert table.to_csv().startswith("version,view,")
    assert tables == 8  # over the five views


def test_a_note_explains_the_carried_state_label_its_table_uses(
    enterprise: VersionContext,
) -> None:
    seen = set()
    for page in view_pages(enterprise):
        for table in page.tables:
            cells = " ".join(c.text for r in table.rows for c in r.cells)
            marked = MARK in cells
            assert (f"{MARK} {CARRIED}:" in table.note) == marked
            if not marked and CARRIED in cells:
                assert f"“{CARRIED}”:" in table.note
                seen.add("label")
            seen.add("mark" if marked else "none")
    assert {"mark", "label"} <= seen


def test_a_scatter_and_an_effect_get_their_pages(enterprise: VersionContext) -> None:
    """Views of the kinds the example does not declare, built on its report: each its page,
    its downloads named by the view, its carried-state label explained."""
    code = enterprise.release.benchmark.code
    resource = next(m.id for m in enterprise.release.metrics if m.measured and m.kind == "resource")
    views = [
        Scatter(kind="scatter", id="cost", title="Cost", domain="qa", x=resource, log_x=True),
        Effect(
            kind="effect", id="fx", title="Effect", domain="qa", within="backbone", across="method"
        ),
    ]
    ctx = declaring(enterprise, *views)  # the report carries what a declared view decides
    for view in views:
        page = view_page(ctx, view)
        assert (page.path, page.title) == (f"views/{view.id}.md", view.title)
        assert page.charts == isinstance(view, Scatter)
        assert page.tables
        for table in page.tables:
            assert table.name.startswith(f"{code}-{enterprise.version}-views-{view.id}")
            cells = " ".join(c.text for r in table.rows for c in r.cells)
            if MARK in cells:
                assert f"{MARK} {CARRIED}:" in table.note
            elif CARRIED in cells:
                assert f"“{CARRIED}”:" in table.note


def test_a_page_with_nothing_to_show_is_not_built(contexts: list[VersionContext]) -> None:
    """No deep dives: no deep-dive section; no held-out group: no contamination monitor —
    neither page built nor in the navigation. The example has both, and keeps both."""
    ctx = contexts[0]
    pages, nav = version_pages(ctx)
    paths = {p.path for p in pages}
    assert ctx.release.deep_dives
    assert {"deep-dives/index.md", "contamination.md"} <= paths
    bare = replace(
        ctx,
        release=ctx.release.model_copy(update={"deep_dives": ()}),
        catalog=ctx.catalog.model_copy(
            update={
                "tasks": tuple(t.model_copy(update={"group": "public"}) for t in ctx.catalog.tasks)
            }
        ),
    )
    pages, nav = version_pages(bare)
    paths = {p.path for p in pages}
    assert not any(p.startswith("deep-dives/") for p in paths)
    assert "contamination.md" not in paths
    listed = repr(nav)
    assert "deep-dives/" not in listed
    assert "contamination.md" not in listed


def test_the_task_index_shows_only_the_fields_its_tasks_give(
    contexts: list[VersionContext],
) -> None:
    """A benchmark whose tasks declare no difficulty, interaction or sub-division: the
    public-task index has no such column, and no cell or field reads "None"."""
    ctx = contexts[0]
    plain = [
        t.model_copy(update={"difficulty": None, "interaction": None, "subdivision": None})
        for t in ctx.public_tasks()
    ]
    table = index_spec(plain).table("tasks", "Public tasks", plain)
    assert "Difficulty" not in table.columns
    assert "Interaction" not in table.columns
    assert "Sub-division" not in table.columns
    assert "None" not in table.to_html("index")
    assert len(table.rows) == len(plain) > 0
    assert all(None not in row.record.values() for row in table.rows)
    full = index_spec(ctx.public_tasks()).table("tasks", "Public tasks", ctx.public_tasks())
    assert "Difficulty" in full.columns
