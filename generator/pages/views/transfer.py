"""The transfer view: an experiment's paired changes, treatment against baseline, as a
matrix of levels (rows) × consumers (columns) with each level's mean change, and the changes
of the public target tasks apart (a held-out task's change is never shown, §4.4)."""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup

from generator.models.profile import Experiment, Metric
from generator.models.views import Transfer
from generator.pages.blocks.cells import RUNS_MARK, release_notice, runs_note
from generator.pages.blocks.columns import Column, Field, Spec, whole
from generator.pages.blocks.downloads import described
from generator.pages.blocks.measures import label
from generator.pages.blocks.render import Page, environment, render, tables_html
from generator.pages.blocks.tables import Cell, Table
from generator.pages.blocks.text import escape, escape_html, estimate, spelled
from generator.pages.context import VersionContext
from generator.pages.views.parts import NOT_EVALUATED, slug
from generator.protocol.order import First, best_first
from generator.score.changes import Change, ExperimentResult, TaskChange
from generator.score.rounding import fixed


def signed(metric: Metric, value: float, low: float | None, high: float | None) -> str:
    """A change in the metric's display scale with its interval, its sign always written."""
    s = metric.scale or 1.0
    low, high = (None, None) if low is None or high is None else (low / s, high / s)
    text = estimate(value / s, low, high)
    return ("+" + text) if value > 0 else text


def change_cell(metric: Metric, result: ExperimentResult, change: Change | None) -> Cell:
    """A change, its interval (and † over run noise), the target tasks it rests on and
    whether it is better or worse (the report's verdict); why not, where it is withheld or
    not evaluated."""
    if change is None:
        return Cell(NOT_EVALUATED)
    if change.withheld is not None or change.value is None:
        return Cell(
            f'withheld<br><span class="lg-sub">{escape_html(change.withheld)}</span>', html=True
        )
    mark = RUNS_MARK if change.interval == "runs" else ""
    tasks = f"{spelled(change.tasks)} task{'s' if change.tasks != 1 else ''}"
    sub = ", ".join(p for p in (tasks, change.verdict or "") if p)
    text = escape_html(signed(metric, change.value, change.low, change.high) + mark)
    return Cell(f'{text}<br><span class="lg-sub">{escape_html(sub)}</span>', change.value, True)


def _change_fields(key: str, get: Callable[[str], Change | None]) -> tuple[Field[str], ...]:
    """A change's download fields (unscaled): value, interval, its basis, tasks, withheld."""

    def part(name: str) -> Callable[[str], object]:
        return lambda level: None if (c := get(level)) is None else getattr(c, name)

    return (
        Field(key, part("value"), "number"),
        Field(f"{key}_low", part("low"), "number"),
        Field(f"{key}_high", part("high"), "number"),
        Field(f"{key}_interval", part("interval")),
        Field(f"{key}_tasks", part("tasks"), "integer"),
        Field(f"{key}_withheld", part("withheld")),
    )


def _cell_fields(key: str, get: Callable[[str], Change | None]) -> tuple[Field[str], ...]:
    """A cell's download fields: its treatment combination, then its change's."""

    def treatment(level: str) -> str | None:
        found = get(level)
        return None if found is None else found.treatment

    return (Field(f"{key}_treatment", treatment), *_change_fields(key, get))


def matrix_spec(metric: Metric, result: ExperimentResult) -> Spec[str]:
    """A row per level: its change on each consumer, then its mean over the consumers."""
    cells = {(c.level, c.consumer): c for c in result.cells}
    means = {c.level: c for c in result.level_means}
    first: First = best_first(result.higher)

    def cell(consumer: str) -> Callable[[str], Change | None]:
        return lambda level: cells.get((level, consumer))

    def mean(level: str) -> Change | None:
        return means.get(level)

    def shown(get: Callable[[str], Change | None]) -> Callable[[str], Cell]:
        return lambda level: change_cell(metric, result, get(level))

    consumers = list(result.consumers.items())
    return Spec(
        (
            Column(result.factor, lambda level: result.levels[level]),
            *(Column(title, whole, shown(cell(c)), first=first) for c, title in consumers),
            Column("Mean over consumers", whole, shown(mean), first=first),
        ),
        (
            Field("level", whole),
            Field("level_title", lambda level: result.levels[level]),
            *(f for c, _ in consumers for f in _cell_fields(slug(c), cell(c))),
            *_change_fields("mean", mean),
        ),
    )


def tasks_spec(ctx: VersionContext, metric: Metric, result: ExperimentResult) -> Spec[TaskChange]:
    """A row per public target task, level and consumer: both task means and the change."""
    s = metric.scale or 1.0

    def task(t: TaskChange) -> Cell:
        folder = "deep-dives" if t.task in ctx.deep_dives else "tasks"
        link = f'<a href="../{folder}/{escape_html(t.task)}.html">{escape_html(t.title)}</a>'
        return Cell(link, t.task, html=True)

    def change(t: TaskChange) -> Cell:
        text = signed(metric, t.value, t.low, t.high) + (RUNS_MARK if t.low is not None else "")
        return Cell(text, t.value)

    return Spec(
        (
            Column("Task", whole, task),
            Column(result.factor, lambda t: result.levels.get(t.level, t.level)),
            Column("Consumer", lambda t: result.consumers.get(t.consumer, t.consumer)),
            Column("Baseline", lambda t: Cell(fixed(t.baseline / s, 3), t.baseline), lambda c: c),
            Column(
                "Treatment", lambda t: Cell(fixed(t.treatment / s, 3), t.treatment), lambda c: c
            ),
            Column("Change", whole, change, first=best_first(result.higher)),
        ),
        (
            Field("task", lambda t: t.task),
            Field("level", lambda t: t.level),
            Field("consumer", lambda t: t.consumer),
            Field("baseline", lambda t: t.baseline, "number"),
            Field("baseline_runs", lambda t: t.baseline_runs, "integer"),
            Field("treatment", lambda t: t.treatment, "number"),
            Field("treatment_runs", lambda t: t.treatment_runs, "integer"),
            Field("change", lambda t: t.value, "number"),
            Field("change_low", lambda t: t.low, "number"),
            Field("change_high", lambda t: t.high, "number"),
        ),
    )


def lead(ctx: VersionContext, experiment: Experiment, result: ExperimentResult) -> str:
    """What is compared with what, on which tasks, and what a positive change means."""
    domain = ctx.release.domain(experiment.domain).title
    shared = len(set(experiment.sources) & set(experiment.targets))
    said = "disjoint" if not shared else f"not disjoint ({spelled(shared)} shared)"
    better = "positive" if result.higher else "negative"
    levels = len(result.levels)
    parts = [
        escape(experiment.description or ""),
        f"Each **treatment** runs a consumer — a combination of the [{escape(domain)}]"
        f"(../{escape(experiment.domain)}/index.md) domain — with the condition of one "
        f"{escape(result.factor.lower())} ({spelled(levels)} level{'s' if levels != 1 else ''}); "
        f"its **baseline** is the same combination with {escape(result.baseline)}: the same "
        "configuration fingerprint, checked when the site is built, so the two differ only in "
        "the condition.",
        f"A change is the mean over the target tasks of the treatment's task mean minus the "
        f"baseline's, in {escape(result.metric)}; a {better} change is better. The "
        f"{spelled(result.sources)} source tasks the condition was made from and the "
        f"{spelled(result.targets)} target tasks it is measured on are {said}. That split is "
        "the experiment's own, not the confidentiality groups: "
        f"of the targets, {spelled(result.public_targets)} "
        f"{'is' if result.public_targets == 1 else 'are'} public and "
        f"{spelled(result.held_out_targets)} held-out (§4.4).",
        "Treatment bundles appear only here: on no board, table or download of the domain.",
    ]
    return " ".join(p for p in parts if p)


def withheld_text(result: ExperimentResult) -> str:
    """What is withheld and why: the held-out targets' per-task changes, and the changes the
    privacy gate refused (each with its reason in its cell)."""
    held = result.held_out_targets
    said = []
    if held:
        said.append(
            f"The per-task changes of the {spelled(held)} held-out target "
            f"task{'s' if held > 1 else ''} are withheld: a held-out task never appears on "
            "its own (§4.4)."
        )
    if any(c.withheld for c in (*result.cells, *result.level_means)):
        said.append("A change marked withheld is not shown for the reason given in its cell.")
    return " ".join(said) or "Nothing is withheld: every target task is public."


def transfer_page(ctx: VersionContext, view: Transfer) -> Page:
    """The experiment's page: the matrix of changes, then the public tasks' changes in a
    closed fold, and what is withheld."""
    experiment = next(e for e in ctx.release.profile.experiments if e.id == view.experiment)
    report = ctx.reports.get(experiment.domain)
    found = [] if report is None else [e for e in report.experiments if e.id == experiment.id]
    metric = ctx.release.outcome(experiment.domain)
    stats = ctx.release.statistics
    tables: list[Table] = []
    text = withheld = ""
    if found and found[0].cells:
        result = found[0]
        runs = any(
            c.interval == "runs" and c.value is not None for c in result.cells + result.level_means
        )
        note = (
            f"{label(metric)}: treatment minus baseline, with its {stats.confidence:.0%} interval "
            "(target tasks resampled, the same draws for every cell); the mean over consumers "
            "averages their changes on the same tasks."
            + (" " + runs_note(stats.min_tasks_to_resample) if runs else "")
        )
        caption = f"{view.title}: change by {result.factor.lower()} and consumer"
        tables.append(
            matrix_spec(metric, result).table(
                f"{view.id}-changes", caption, list(result.levels), note
            )
        )
        if result.tasks:
            note = (
                "Task means over valid runs; the change's interval (†) is the run-to-run noise of "
                "the two sides on that task. Held-out targets have no row (§4.4)."
            )
            caption = f"{view.title}: change per public target task"
            tables.append(
                tasks_spec(ctx, metric, result).table(
                    f"{view.id}-tasks", caption, result.tasks, note
                )
            )
        text = lead(ctx, experiment, result)
        withheld = withheld_text(result)
    else:
        text = "No treatment of this experiment is published with its baseline."
    tables = described(ctx, tables, ("views",), (("view", view.id), ("domain", experiment.domain)))
    markdown = render(
        environment(),
        "transfer.md.j2",
        title=view.title,
        notice=release_notice(ctx),
        lead=Markup(text),
        matrix=tables[0].id if tables else None,
        heading=f"Change by {found[0].factor.lower()} and consumer" if tables else "",
        details=tables[1].id if len(tables) > 1 else None,
        summary=f"Change per public target task ({len(found[0].tasks) if tables else 0} rows)",
        withheld=withheld,
        tables=tables_html(tables, view.id),
    )
    return Page(f"views/{view.id}.md", view.title, markdown, tuple(tables), wide=True)
