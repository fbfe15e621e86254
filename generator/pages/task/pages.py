"""Public task pages and the deep dives (§5.2). Held-out tasks get no page (§4.4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from operator import attrgetter

from markupsafe import Markup

from generator.models import Task
from generator.models.catalog import TaskCard
from generator.pages.blocks.columns import Column, Field, Spec
from generator.pages.blocks.downloads import described, task_described
from generator.pages.blocks.render import Page, environment, render, tables_html
from generator.pages.blocks.tables import Cell, Table
from generator.pages.blocks.text import escape, render_markdown, spelled
from generator.pages.context import VersionContext
from generator.pages.task.card import (
    composition,
    evidence_table,
    metadata_table,
    results_table,
    scoring_table,
)
from generator.pages.task.runs import (
    RUNS_INLINE,
    TaskTables,
    breakdown_table,
    cited_table,
    efficiency_table,
    runs_table,
    task_tables,
)


def _md(text: str | None) -> Markup:
    return Markup(render_markdown(text)) if text else Markup("")


def _tables(ctx: VersionContext, task: Task, bulk: TaskTables) -> list[Table]:
    """The task's tables in page order; cited and bound evidence only when there is some."""
    tables = [
        metadata_table(ctx, task),
        scoring_table(task),
        results_table(ctx, task),
        breakdown_table(ctx, task, bulk),
        runs_table(task, bulk),
        efficiency_table(task, bulk),
    ]
    extra = (cited_table(task, bulk), evidence_table(task))
    return tables + [t for t in extra if t is not None]


def _dive_parts(ctx: VersionContext, task: Task, deep: bool) -> dict[str, object]:
    """What the analysts wrote of a deep dive, as the template shows it."""
    dive = ctx.deep_dives.get(task.id) if deep else None
    differences = []
    if dive is not None:
        differences = [
            (k, Markup(render_markdown(v)))
            for k, v in sorted(dive.differences.items())
            if k in ctx.frame.bundles  # no note on a combination without consent (§7.2)
        ]
    return {
        "deep": dive,
        "trajectory": _md(dive.trajectory_nodes) if dive else Markup(""),
        "interpretation": _md(dive.interpretation) if dive else Markup(""),
        "differences": differences,
    }


#: The task card's parts shown folded, by field: what the fold's summary names.
CARD_PARTS = (
    ("input_assets", "input assets"),
    ("checkpoints", "validation checkpoints"),
    ("underspecification", "underspecification"),
)


def fold_summaries(task: Task, tables: list[Table]) -> dict[str, str]:
    """What each folded block of a task page says while closed: a table's caption and its
    rows; for the task card, the parts it holds beyond the description."""
    rows = {t.id: f"{t.caption} — {t.total} {'row' if t.total == 1 else 'rows'}" for t in tables}
    parts = [name for key, name in CARD_PARTS if getattr(task.card, key, None)]
    parts += ["score composition", "classification"]
    return rows | {"card": "Full task card: " + ", ".join(parts[:-1]) + " and " + parts[-1]}


def task_page(ctx: VersionContext, task: Task, deep: bool, bulk: TaskTables) -> Page:
    tables = task_described(ctx, task, deep, _tables(ctx, task, bulk))
    ids = {t.id for t in tables}
    markdown = render(
        environment(),
        "deepdive.md.j2" if deep else "task.md.j2",
        task=task,
        card={k: _md(getattr(task.card, k, None)) for k in TaskCard.model_fields},
        composition=composition(task),
        tables=tables_html(tables, task.id),
        folds=fold_summaries(task, tables),
        heading=heading(task, deep),
        has_evidence="evidence" in ids,
        has_cited="cited" in ids,
        **_dive_parts(ctx, task, deep),
    )
    entry = task_entry(task, deep)
    return replace(
        entry,
        markdown=markdown,
        tables=tuple(tables),
        long_title=heading(task, deep),
        search_boost=1.0 if deep else TASK_PAGE_BOOST,
    )


#: The search weight of a public task's page: a search for a task's id finds its page
#: before its deep dive (whose title names the id too).
TASK_PAGE_BOOST = 2.0


def heading(task: Task, deep: bool) -> str:
    """A task page's (or deep dive's) heading and title in the browser and the search: the
    task's title, what the page is and the task's id, so that a search for the id finds
    the page and its result tells the two pages apart."""
    return f"{task.title} — {'deep dive' if deep else 'task'} {task.id}"


def task_entry(task: Task, deep: bool) -> Page:
    """Where the task's page (or deep dive) lives, and its title: a page without content,
    for the navigation."""
    return Page(f"{'deep-dives' if deep else 'tasks'}/{task.id}.md", task.title, "")


def _link(task_id: str) -> Cell:
    return Cell(f'<a href="{escape(task_id)}.html">{escape(task_id)}</a>', task_id, html=True)


#: The index's columns after the task id: (header, task field); a column shows only when
#: some task of the index has a value for it (a benchmark without difficulty tiers or
#: sub-divisions never reads "None" down a column).
INDEX_COLUMNS = (
    ("Title", "title"),
    ("Domain", "domain"),
    ("Sub-division", "subdivision"),
    ("Difficulty", "difficulty"),
    ("Interaction", "interaction"),
    ("Scoring", "scoring.mode"),
)


def index_spec(tasks: Sequence[Task]) -> Spec[Task]:
    """The index of the public tasks (or of the deep dives): a row per task, a column per
    field some task gives."""
    shown = [(h, n) for h, n in INDEX_COLUMNS if any(attrgetter(n)(t) is not None for t in tasks)]
    return Spec(
        (
            Column("Task", attrgetter("id"), _link),
            *(Column(header, attrgetter(name)) for header, name in shown),
        ),
        (
            Field("task", attrgetter("id")),
            *(
                Field("mode" if name == "scoring.mode" else name, attrgetter(name))
                for _, name in shown
            ),
        ),
    )


def _dives_intro(dives: int) -> str:
    tasks = "public task" + ("" if dives == 1 else "s")
    return (
        f"# Deep dives\n\n{spelled(dives).capitalize()} {tasks} analysed one by one in the six "
        "parts of §5.2: task card, per-combination overview, key trajectory nodes, scoring "
        "reconstruction, efficiency and interpretation. Cases illustrate how results "
        "are read; they are not a sample and do not rank combinations (§5.3).\n\n"
    )


TASKS_INTRO = (
    "# Public tasks\n\nOne page per public task. Held-out tasks are evaluated "
    "but never shown one by one; they count only inside group aggregates "
    "(§4.4).\n\n"
)


def index_page(ctx: VersionContext, deep: bool) -> Page:
    tasks = [ctx.tasks[t] for t in ctx.release.deep_dives] if deep else ctx.public_tasks()
    title = "Deep dives" if deep else "Public tasks"
    table = index_spec(tasks).table("tasks", "Deep-dive tasks" if deep else "Public tasks", tasks)
    (table,) = described(ctx, [table], ("deep-dive" if deep else "public",))
    intro = _dives_intro(len(tasks)) if deep else TASKS_INTRO
    folder = "deep-dives" if deep else "tasks"
    return Page(f"{folder}/index.md", title, intro + table.to_html("index") + "\n", (table,))


__all__ = [
    "CARD_PARTS",
    "RUNS_INLINE",
    "TaskTables",
    "fold_summaries",
    "index_page",
    "task_entry",
    "task_page",
    "task_tables",
]
