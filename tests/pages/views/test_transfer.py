"""The transfer view against the report: the matrix of changes, the public targets' fold,
the counts of its text, and no held-out task anywhere on the page or in its downloads."""

from __future__ import annotations

import re

from experimenttools import (
    CONSUMERS,
    EXPERIMENT,
    HELD_TARGETS,
    LEVELS,
    PUBLIC_TARGETS,
    SOURCES,
    TARGETS,
    VIEW,
    cards,
    experiment_release,
    experiment_version,
    treatment_id,
)
from pagetools import row_texts, shown

from generator.models.views import Transfer
from generator.pages import VersionContext, version_context
from generator.pages.blocks.render import Page
from generator.pages.blocks.text import spelled
from generator.pages.views.declared import view_page
from generator.pages.views.transfer import signed, transfer_page
from generator.score.changes import ExperimentResult
from generator.score.version import score_version


def _context(**release: object) -> VersionContext:
    rel = experiment_release(**release) if release else None
    return version_context(score_version(experiment_version(rel)), cards())


def _page(ctx: VersionContext) -> tuple[Page, ExperimentResult]:
    (result,) = ctx.reports["office"].experiments
    return transfer_page(ctx, Transfer.model_validate(VIEW)), result


def test_the_matrix_shows_each_level_s_change_on_each_consumer_and_its_mean() -> None:
    ctx = _context()
    page, result = _page(ctx)
    metric = ctx.release.outcome("office")
    matrix = page.tables[0]
    assert matrix.columns == (
        EXPERIMENT["factor"],
        *result.consumers.values(),
        "Mean over consumers",
    )
    cells = {(c.level, c.consumer): c for c in (*result.cells, *result.level_means)}
    for row, level in zip(matrix.rows, LEVELS, strict=True):
        for cell, consumer in zip(row.cells[1:], [*sorted(CONSUMERS), None], strict=True):
            change = cells[(level, consumer)]
            assert change.value is not None
            assert cell.text.startswith(signed(metric, change.value, change.low, change.high))
            assert f"{spelled(change.tasks)} tasks" in cell.text
            assert cell.sort == change.value
        record = row.record
        for consumer in CONSUMERS:
            assert record[f"{consumer}_treatment"] == treatment_id(level, consumer)
            assert record[consumer] == cells[(level, consumer)].value
        assert record["mean"] == cells[(level, None)].value


def test_a_change_is_signed_and_called_better_as_the_report_reads_it() -> None:
    ctx = _context()
    page, result = _page(ctx)
    metric = ctx.release.outcome("office")
    assert signed(metric, 0.25, 0.1, 0.4).startswith("+0.25")
    assert signed(metric, -0.25, -0.4, -0.1).startswith("-0.25")
    cells = {(c.level, c.consumer): c for c in (*result.cells, *result.level_means)}
    verdicts = set()
    for row, level in zip(page.tables[0].rows, LEVELS, strict=True):
        for cell, consumer in zip(row.cells[1:], [*sorted(CONSUMERS), None], strict=True):
            change = cells[(level, consumer)]
            said = cell.text.split('<span class="lg-sub">')[1]
            verdicts.add(change.verdict)
            assert ("better" in said) == (change.verdict == "better")
            assert ("worse" in said) == (change.verdict == "worse")
    assert len(verdicts) > 1


def test_the_public_targets_changes_are_in_a_closed_fold_and_no_held_out_task_anywhere() -> None:
    ctx = _context()
    page, result = _page(ctx)
    text = shown(page)
    fold = text[text.index("<details") : text.index("</details>")]
    assert "<details" in fold
    assert " open" not in fold.split(">")[0]
    rows = row_texts(fold)
    assert len(rows) == len(result.tasks) == len(PUBLIC_TARGETS) * len(result.cells)
    titles = {t.title for t in result.tasks}
    assert {r[0] for r in rows} == titles
    files = "".join(page.files().values())
    for held in HELD_TARGETS:
        assert not re.search(rf"\b{held}\b", files), held


def test_the_text_counts_the_sources_and_targets_and_says_what_is_withheld() -> None:
    ctx = _context()
    page, _ = _page(ctx)
    text = shown(page)
    assert f"{spelled(len(SOURCES))} source tasks" in text
    assert f"{spelled(len(TARGETS))} target tasks" in text
    assert "are disjoint" in text
    assert f"{spelled(len(HELD_TARGETS))} held-out target tasks are withheld" in text
    assert "no skill" in text


def test_few_held_out_targets_leave_cells_withheld_and_the_public_tasks_shown() -> None:
    """The gate refuses every change over too few held-out targets; the public targets'
    per-task changes stay (their values are public), the held-out ones have no row."""
    groups = {"public": 7, "held_out": 5, "min_held_out_aggregate": len(HELD_TARGETS) + 1}
    ctx = _context(groups=groups)
    page, result = _page(ctx)
    assert len(page.tables) == 2
    rows = page.tables[0].rows
    assert rows
    for row in rows:
        changes = row.cells[1:]
        assert changes
        assert all(cell.text.startswith("withheld") for cell in changes)
    assert {t.task for t in result.tasks} == set(PUBLIC_TARGETS)
    assert "marked withheld is not shown" in shown(page)


def test_the_declared_view_s_page_is_the_transfer_page() -> None:
    ctx = _context()
    page = view_page(ctx, Transfer.model_validate(VIEW))
    assert page.path == f"views/{VIEW['id']}.md"
    assert page.markdown == transfer_page(ctx, Transfer.model_validate(VIEW)).markdown


def test_without_a_published_treatment_the_page_says_so_and_shows_no_table() -> None:
    from experimenttools import experiment_inputs

    runs, bundles = experiment_inputs()
    plain = {k: b for k, b in bundles.items() if b.condition is None}
    loaded = experiment_version(None, ({k: runs[k] for k in plain}, plain))
    ctx = version_context(score_version(loaded), cards())
    page = transfer_page(ctx, Transfer.model_validate(VIEW))
    assert page.tables == ()
    assert "No treatment of this experiment is published" in page.markdown
