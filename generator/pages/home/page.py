"""The release home: what the release is, its components, factors and coverage."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from operator import attrgetter
from typing import NamedTuple

from markupsafe import Markup

from generator.models import Release
from generator.models.release import ControlledFactor
from generator.pages.blocks.cells import (
    combo_cell,
    rank_note,
    release_notice,
)
from generator.pages.blocks.columns import Column, Field, Spec, pairs, sorted_as
from generator.pages.blocks.downloads import described
from generator.pages.blocks.render import Page, environment, opaque, render, tables_html
from generator.pages.blocks.tables import Table
from generator.pages.blocks.text import attr, escape_html, render_markdown, spelled
from generator.pages.context import VersionContext
from generator.pages.home.leaderboard import headline, leaderboard_chart, leaderboard_table, reading
from generator.protocol.comparison import not_recorded_controls


def _components(ctx: VersionContext) -> list[tuple[str, str]]:
    comp = ctx.release.components
    return [
        ("Tasks", comp.tasks),
        ("Data", comp.data),
        ("Environment", comp.environment),
        ("Protocol", comp.protocol),
        ("Judge assets", comp.judge_assets),
        *[(f"Scorer: {k}", v) for k, v in comp.scorer.items()],
    ]


COMPONENTS = pairs(("Component", "component"), ("Version", "component_version"))


class Domain(NamedTuple):
    """A domain's count of public and held-out tasks."""

    domain: str
    title: str
    public: int
    held_out: int

    @property
    def total(self) -> int:
        return self.public + self.held_out


def _count(header: str, name: str) -> Column[Domain]:
    return Column(header, attrgetter(name), sorted_as(str))


def _counted(name: str, field: str | None = None) -> Field[Domain]:
    return Field(field or name, attrgetter(name), "integer")


TASKS: Spec[Domain] = Spec(
    (
        Column("Domain", attrgetter("title")),
        _count("Public", "public"),
        _count("Held-out", "held_out"),
        _count("Tasks", "total"),
    ),
    (
        Field("domain", attrgetter("domain")),
        _counted("public"),
        _counted("held_out"),
        _counted("total"),
    ),
)


def _domains(ctx: VersionContext) -> list[Domain]:
    counts: Counter[tuple[str, str]] = Counter((t.domain, t.group) for t in ctx.catalog.tasks)
    return [
        Domain(d.id, d.title, counts[(d.id, "public")], counts[(d.id, "held-out")])
        for d in ctx.release.domains
    ]


def _separately(domains: int) -> str:
    """That the release's domains are never combined (§4.2), in as many words."""
    if domains == 1:
        return "The release has one domain; there is no total score."
    return f"The {spelled(domains)} domains are reported separately; there is no total score."


FACTORS: Spec[ControlledFactor] = Spec(
    (
        Column("Factor", attrgetter("factor")),
        Column("Status", attrgetter("status")),
        Column("Setting", attrgetter("setting")),
    ),
    tuple(Field(n, attrgetter(n), "any") for n in ControlledFactor.model_fields),
)


class Covered(NamedTuple):
    """A combination's valid and evaluation-incomplete runs, and what it does not cover."""

    combination: str
    evaluation: str
    valid_runs: int
    incomplete_runs: int
    not_covered: str


def _covered(ctx: VersionContext) -> list[Covered]:
    out = []
    for combo, bundle in sorted(ctx.frame.bundles.items()):
        notes = "; ".join(
            f"{n.domain}" + (f"/{n.subdivision}" if n.subdivision else "") + f": {n.reason}"
            for n in bundle.not_covered
        )
        runs = ctx.frame.runs[ctx.frame.runs["combination"] == combo]
        valid = int(runs["valid"].sum())
        out.append(Covered(combo, bundle.evaluation, valid, len(runs) - valid, notes))
    return out


def coverage_spec(ctx: VersionContext) -> Spec[Covered]:
    """A row per combination: its valid and excluded runs, and what it does not cover."""
    return Spec(
        (
            Column("Combination", attrgetter("combination"), lambda k: combo_cell(ctx, k, 0)),
            Column("Evaluation", attrgetter("evaluation")),
            Column("Valid runs", attrgetter("valid_runs"), sorted_as(str)),
            Column("Evaluation-incomplete runs", attrgetter("incomplete_runs"), sorted_as(str)),
            Column("Not covered", lambda c: c.not_covered or "—"),
        ),
        (
            Field("combination", attrgetter("combination")),
            Field("evaluation", attrgetter("evaluation")),
            Field("valid_runs", attrgetter("valid_runs"), "integer"),
            Field("incomplete_runs", attrgetter("incomplete_runs"), "integer"),
            Field("not_covered", attrgetter("not_covered")),
        ),
    )


def home_tables(ctx: VersionContext) -> list[Table]:
    """Component versions, tasks by domain, controlled factors, coverage."""
    release = ctx.release
    return [
        COMPONENTS.table("components", "Component versions (§7.2)", _components(ctx)),
        TASKS.table(
            "tasks",
            "Tasks by domain and group (§2.3, §4.4)",
            _domains(ctx),
            _separately(len(release.domains)),
        ),
        FACTORS.table("factors", "Controlled factors (§4.1)", release.controlled_factors),
        coverage_spec(ctx).table(
            "coverage",
            "Coverage of each combination",
            _covered(ctx),
            "'Not covered' scopes were not evaluated and are never shown as zero.",
        ),
    ]


class Board(NamedTuple):
    """A domain's leaderboard as the home shows it: its reading, table and chart."""

    domain: str
    title: str
    tasks: int
    reading: str
    table: Table
    chart: Markup

    def html(self) -> str:
        """The domain's section: its heading, table, reading (with a link to the domain's
        page) and chart."""
        anchor = f"board-{attr(self.domain)}"
        return (
            f'<section class="lg-domain" aria-labelledby="{anchor}">'
            f'<h2 id="{anchor}">{escape_html(self.title)}</h2>'
            f"{self.table.to_html('index')}"
            f'<p class="lg-reading">{escape_html(self.reading)} '
            f'<a href="{attr(self.domain)}/index.html">All results of the '
            f"{escape_html(self.title.lower())}</a></p>{self.chart}</section>"
        )


def boards(ctx: VersionContext) -> list[Board]:
    """Every domain's leaderboard, in the release's order of domains; each on its own."""
    out = []
    for d in ctx.release.domains:
        report = ctx.reports[d.id]
        scope = headline(report)
        (table,) = described(ctx, [leaderboard_table(ctx, report)], about=(("domain", d.id),))
        chart = leaderboard_chart(ctx, report)
        out.append(Board(d.id, d.title, scope.tasks, reading(ctx, scope), table, chart))
    return out


def boards_html(leaders: list[Board]) -> Markup:
    """The domains' sections side by side where the screen is wide enough, as one block."""
    one = " lg-one" if len(leaders) == 1 else ""
    return opaque(f'<div class="lg-boards{one}">' + "".join(b.html() for b in leaders) + "</div>")


def factors_title(release: Release, unrecorded: Sequence[str] = ()) -> str:
    """The controlled factors' heading: all held fixed, or which vary by design (§4.1); and
    the controlled settings the results do not record, whose being held fixed is only
    declared."""
    varying = release.varying()
    but = f" and {', '.join(varying)} (varying by design)" if varying else ""
    title = f"Controlled factors: everything but the evaluated combination{but} is held fixed"
    if unrecorded:
        title += f", as declared; the results do not record {', '.join(unrecorded)}"
    return f"{title} (§4.1)"


def home_page(ctx: VersionContext) -> Page:
    leaders = boards(ctx)
    tables = [b.table for b in leaders] + described(ctx, home_tables(ctx), ("release",))
    stats = ctx.release.statistics
    markdown = render(
        environment(),
        "home.md.j2",
        release=ctx.release,
        notice=release_notice(ctx),
        tables=tables_html(tables, "index"),
        boundaries=Markup(render_markdown(ctx.release.boundaries_of_use)),
        domains=ctx.release.domains,
        boards=boards_html(leaders),
        ranks=rank_note(stats.min_tasks_to_order, stats.confidence),
        separately=_separately(len(ctx.release.domains)),
        factors_title=factors_title(
            ctx.release, not_recorded_controls(ctx.release, list(ctx.frame.bundles.values()))
        ),
    )
    return Page("index.md", "Release home", markdown, tuple(tables), charts=True, wide=True)
