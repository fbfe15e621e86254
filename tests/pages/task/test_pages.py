"""Public task pages and the deep dives: a page per public task, none for a held-out one, and
the deep-dive index counts what it lists (§4.4, §5.2)."""

from __future__ import annotations

import html
import re
from dataclasses import replace

import pytest
import yaml
from pagetools import shown

from generator.pages import VersionContext
from generator.pages.blocks.render import tables_html
from generator.pages.blocks.text import render_markdown, spelled
from generator.pages.task.pages import (
    CARD_PARTS,
    fold_summaries,
    heading,
    index_page,
    task_entry,
    task_page,
    task_tables,
)


def test_the_index_lists_the_public_tasks_and_no_held_out_one(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    for ctx in [small, *contexts]:
        page = index_page(ctx, False)
        listed = [r.record["task"] for r in page.tables[0].rows]
        public = sorted(t.id for t in ctx.catalog.tasks if t.group == "public")
        assert listed == public
        held_out = [t for t in ctx.catalog.tasks if t.group == "held-out"]
        assert held_out
        text = shown(page)
        assert not [t.id for t in held_out if t.id in text and t.id not in public]
        assert page.path == "tasks/index.md"


def test_a_task_page_shows_its_tables_and_nothing_of_held_out_tasks(small: VersionContext) -> None:
    bulk = task_tables(small)
    held_out = {t.id: t.title for t in small.catalog.tasks if t.group == "held-out"}
    assert held_out
    tasks = small.public_tasks()
    assert [t.id for t in tasks] == ["e1", "e2", "t1", "t2", "t3", "t4"]
    for task in tasks:
        page = task_page(small, task, False, bulk)
        ids = [t.id for t in page.tables]
        assert ids[:6] == ["metadata", "scoring", "results", "reconstruction", "runs", "efficiency"]
        assert set(ids[6:]) <= {"cited", "evidence"}
        assert (page.path, page.title) == (task_entry(task, False).path, task.title)
        text = shown(page)
        assert len(page.tables) >= 6
        for t in page.tables:
            assert t.to_html(page.stem) in text
        assert not [h for h in held_out if f">{h}<" in text or f"/{h}." in text]


@pytest.mark.parametrize("keep", [1, 2, 3])
def test_the_deep_dive_count_is_computed(contexts: list[VersionContext], keep: int) -> None:
    ctx = contexts[0]
    dives = ctx.release.deep_dives[:keep]
    fewer = replace(ctx, release=ctx.release.model_copy(update={"deep_dives": dives}))
    page = index_page(fewer, True)
    assert len(page.tables[0].rows) == len(dives)
    tasks = "public task" if len(dives) == 1 else "public tasks"
    assert f"{spelled(len(dives)).capitalize()} {tasks} analysed" in page.markdown


def test_a_deep_dive_shows_what_the_analysts_wrote(contexts: list[VersionContext]) -> None:
    ctx = contexts[0]
    bulk = task_tables(ctx)
    noted = 0
    for task_id in ctx.release.deep_dives:
        dive = ctx.deep_dives[task_id]
        page = task_page(ctx, ctx.tasks[task_id], True, bulk)
        plain = task_page(ctx, ctx.tasks[task_id], False, bulk)
        assert page.path == f"deep-dives/{task_id}.md"
        assert [t.id for t in page.tables] == [t.id for t in plain.tables]
        assert render_markdown(dive.interpretation) in page.markdown
        assert render_markdown(dive.interpretation) not in plain.markdown
        for combo, note in dive.differences.items():
            assert render_markdown(note) in page.markdown
            # a combination without consent (§7.2) keeps no note
            bundles = {k: b for k, b in ctx.frame.bundles.items() if k != combo}
            without = replace(ctx, frame=replace(ctx.frame, bundles=bundles))
            again = task_page(without, ctx.tasks[task_id], True, bulk)
            assert render_markdown(note) not in again.markdown
            noted += 1
    assert noted


def test_task_page_and_deep_dive_are_told_apart_and_the_task_page_searched_first(
    contexts: list[VersionContext],
) -> None:
    ctx = contexts[-1]
    bulk = task_tables(ctx)
    dive = ctx.tasks[next(iter(ctx.release.deep_dives))]
    task, deep = task_page(ctx, dive, False, bulk), task_page(ctx, dive, True, bulk)
    assert task.title == deep.title == dive.title  # the navigation's label
    assert task.long_title == heading(dive, False)
    assert deep.long_title == heading(dive, True)
    assert task.long_title != deep.long_title
    for page in (task, deep):
        assert dive.id in page.long_title
        assert dive.title in page.long_title
        source = page.sources()[page.path]
        assert f"# {page.long_title}\n" in source
        meta = yaml.safe_load(source.split("---\n")[1])
        assert html.unescape(meta["title"]) == page.long_title
    assert task.search_boost > deep.search_boost


def _folds(markdown: str) -> list[str]:
    """The page's folded blocks, each from its opening tag to its closing one."""
    return re.findall(r"<details class=\"lg-fold\">.*?</details>", markdown, re.DOTALL)


@pytest.mark.parametrize("deep", [False, True])
def test_the_answer_is_on_top_and_every_other_table_one_click_away(
    contexts: list[VersionContext], deep: bool
) -> None:
    ctx = contexts[0]
    bulk = task_tables(ctx)
    assert len(ctx.release.deep_dives) == 6  # v1.0's deep dives
    assert [k for k, _ in CARD_PARTS] == ["input_assets", "checkpoints", "underspecification"]
    for task_id in ctx.release.deep_dives:
        task = ctx.tasks[task_id]
        page = task_page(ctx, task, deep, bulk)
        html_of = tables_html(list(page.tables), task.id)
        folds = _folds(page.markdown)
        first = min(page.markdown.index(f) for f in folds if html_of["metadata"] not in f)
        # the description and results come before the first folded table (in a deep
        # dive the task card, part 1 of §5.2, folds above them)
        assert page.markdown.index(render_markdown(task.card.description)) < first
        assert page.markdown.index(html_of["results"]) < first
        summaries = fold_summaries(task, list(page.tables))
        for table in page.tables:
            holding = [f for f in folds if html_of[table.id] in f]
            if table.id == "results":
                assert not holding
                continue
            assert len(holding) == 1, table.id
            if table.id != "metadata":  # the metadata sits in the task card's fold
                plural = "row" if table.total == 1 else "rows"
                shown_summary = re.search(r"<summary>(.*?)</summary>", holding[0])
                assert shown_summary is not None
                expected = f"{table.caption} — {table.total} {plural}"
                assert html.unescape(shown_summary.group(1)) == expected == summaries[table.id]
        card = next(f for f in folds if html_of["metadata"] in f)
        for key, name in CARD_PARTS:
            text = getattr(task.card, key)
            assert (render_markdown(text) in card) == bool(text)
            assert (name in summaries["card"]) == bool(text)
        assert len(folds) == len(page.tables) - 1  # all but results (metadata: in the card)


def test_a_deep_dive_keeps_the_six_parts_in_order_and_the_analysts_text_open(
    contexts: list[VersionContext],
) -> None:
    ctx = contexts[0]
    bulk = task_tables(ctx)
    assert len(ctx.release.deep_dives) == 6  # v1.0's deep dives
    for task_id in ctx.release.deep_dives:
        dive = ctx.deep_dives[task_id]
        page = task_page(ctx, ctx.tasks[task_id], True, bulk)
        headings = re.findall(r"^## (\d)\. ", page.markdown, re.MULTILINE)
        assert headings == [str(n) for n in range(1, 7)]
        folded = "".join(_folds(page.markdown))
        for text in (dive.trajectory_nodes, dive.interpretation):
            assert render_markdown(text) in page.markdown
            assert render_markdown(text) not in folded
