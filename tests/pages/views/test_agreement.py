"""The agreement view (generator/pages/views/agreement.py) against the report it shows: a table
per Judge channel, a row per second rater, each figure and interval as the report computes
it, withheld rows saying why, and a page that says so when no bundle has a rater."""

from __future__ import annotations

import html
import re

import pytest
from pagetools import CARD, shown
from rated import rated_release, rated_version

from generator.load import LoadedRelease
from generator.load.source import Source
from generator.load.tree import Loaded
from generator.models.views import Agreement
from generator.pages import VersionContext, version_context
from generator.pages.blocks.text import estimate
from generator.pages.views.agreement import KINDS, agreement_page, agreement_spec, method
from generator.pages.views.declared import view_page
from generator.score.version import score_version

VIEW = Agreement(kind="agreement", id="agreement", title="Rater agreement", domain="office")


def _context(loaded: LoadedRelease) -> VersionContext:
    return version_context(score_version(loaded), {CARD.id: Loaded(CARD, Source("card.yaml"))})


def _release_with_view() -> LoadedRelease:
    model = rated_release()
    profile = model.profile.model_copy(update={"views": (VIEW,)})
    return rated_version(public=6, model=model.model_copy(update={"profile": profile}))


def _text(cell_text: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", cell_text)).strip()


def test_a_table_per_channel_each_figure_as_the_report_computes_it() -> None:
    ctx = _context(_release_with_view())
    page = view_page(ctx, VIEW)
    assert page.path == "views/agreement.md"
    report = ctx.reports["office"].agreement
    channels = list(dict.fromkeys(a.channel for a in report))
    assert [t.id for t in page.tables] == [f"agreement-{c}" for c in channels]
    for table, channel in zip(page.tables, channels, strict=True):
        rows = [a for a in report if a.channel == channel]
        assert [r.record["rater"] for r in table.rows] == [a.rater for a in rows]
        for row, a in zip(table.rows, rows, strict=True):
            assert a.spearman is not None
            assert a.mae is not None
            assert a.difference is not None
            cells = [_text(c.text) for c in row.cells]
            assert cells[:2] == [a.title, KINDS[a.kind]]
            for cell, f in zip(cells[2:5], (a.spearman, a.mae, a.difference), strict=True):
                assert cell == html.unescape(estimate(f.value, f.low, f.high))
            assert cells[5:] == [str(a.runs), str(a.tasks)]
            assert row.record["mae"] == a.mae.value
            assert row.record["spearman_low"] == a.spearman.low
            assert row.record["difference_high"] == a.difference.high
            assert row.record["runs"] == a.runs
    text = shown(page)
    assert html.escape(method(ctx), quote=False) in text or method(ctx) in html.unescape(text)
    stats = ctx.release.statistics
    assert f"{stats.bootstrap_samples:,} seeded bootstrap draws" in method(ctx)
    said = method(ctx)
    assert f"Student's t ({stats.confidence:.0%}, rated tasks − 1 degrees of freedom)" in said
    assert "Two second raters against the Judge on two Judge channels" in text


def test_withheld_rows_say_why_in_the_note() -> None:
    model = rated_release()
    loaded = rated_version(public=5, held=2, model=model)
    ctx = _context(loaded)
    page = agreement_page(ctx, VIEW)
    (reason,) = {a.withheld for a in ctx.reports["office"].agreement}
    assert reason is not None
    rows = 0
    for table in page.tables:
        for row in table.rows:
            assert [_text(c.text) for c in row.cells[2:5]] == ["withheld"] * 3
            assert row.record["withheld"] == reason
            rows += 1
        assert reason in table.note
    assert rows == len(ctx.reports["office"].agreement)  # a row per rater and channel


def test_without_raters_the_page_says_so() -> None:
    loaded = rated_version(public=5)
    bare = [b.__class__(**{**b.__dict__, "raters": ()}) for b in loaded.bundles]
    ctx = _context(loaded.__class__(**{**loaded.__dict__, "bundles": tuple(bare)}))
    page = agreement_page(ctx, VIEW)
    assert page.tables == ()
    assert "carries a second rater's verdicts" in shown(page)


def test_the_spec_downloads_every_figure_and_its_interval() -> None:
    names = [f.name for f in agreement_spec().fields]
    for prefix in ("spearman", "mae", "difference"):
        assert [prefix, f"{prefix}_low", f"{prefix}_high"] == [
            n for n in names if n.split("_")[0] == prefix and n != "held_out_tasks"
        ]
    assert {"rater", "kind", "channel", "runs", "tasks", "withheld"} <= set(names)


def test_a_rater_that_scores_every_run_alike_has_no_rank_correlation() -> None:
    loaded = rated_version(public=5)
    flat = []
    for b in loaded.bundles:
        raters = tuple(
            r.__class__(
                **{
                    **r.__dict__,
                    "runs": tuple(
                        line.model_copy(
                            update={
                                "judge": tuple(
                                    v.model_copy(update={"level": 0.0}) for v in line.judge
                                )
                            }
                        )
                        for line in r.runs
                    ),
                }
            )
            for r in b.raters
        )
        flat.append(b.__class__(**{**b.__dict__, "raters": raters}))
    ctx = _context(loaded.__class__(**{**loaded.__dict__, "bundles": tuple(flat)}))
    page = agreement_page(ctx, VIEW)
    agreement = ctx.reports["office"].agreement
    assert len(agreement) == 4  # two second raters on two Judge channels
    for a in agreement:
        assert a.spearman is not None
        assert a.spearman.value is None
        assert a.mae is not None
        assert a.difference is not None
        assert a.mae.value is not None
        assert a.difference.value == pytest.approx(-a.mae.value)  # the rater never scores more
    rows = 0
    for table in page.tables:
        for row in table.rows:
            assert _text(row.cells[2].text) == "—"
            rows += 1
        assert "no rank correlation, since one of the two gives every run the same score" in (
            table.note
        )
    assert rows == len(agreement)
