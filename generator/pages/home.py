"""The release home: what the release is, its components, factors and coverage."""

from __future__ import annotations

from collections import Counter

from markupsafe import Markup

from generator.pages.cells import (
    combo_cell,
    release_notice,
)
from generator.pages.context import VersionContext
from generator.pages.render import Page, environment, render, tables_html
from generator.pages.tables import Cell, Row, Table
from generator.pages.text import (
    render_markdown,
)


def home_page(ctx: VersionContext) -> Page:
    env = environment()
    release = ctx.release
    comp = release.components
    components = [
        ("Tasks", comp.tasks),
        ("Data", comp.data),
        ("Environment", comp.environment),
        ("Protocol", comp.protocol),
        ("Judge assets", comp.judge_assets),
    ]
    components += [(f"Scorer: {k}", v) for k, v in comp.scorer.items()]
    comp_table = Table(
        "components",
        "Component versions (§7.2)",
        ("Component", "Version"),
        tuple(Row((Cell(n), Cell(v)), {"component": n, "version": v}) for n, v in components),
    )
    counts: Counter[tuple[str, str]] = Counter((t.domain, t.group) for t in ctx.catalog.tasks)
    task_rows = []
    for d in release.domains:
        pub, held = counts[(d.id, "public")], counts[(d.id, "held-out")]
        task_rows.append(
            Row(
                (
                    Cell(d.title),
                    Cell(str(pub), pub),
                    Cell(str(held), held),
                    Cell(str(pub + held), pub + held),
                ),
                {"domain": d.id, "public": pub, "held_out": held, "total": pub + held},
            )
        )
    task_table = Table(
        "tasks",
        "Tasks by domain and group (§2.3, §4.4)",
        ("Domain", "Public", "Held-out", "Tasks"),
        tuple(task_rows),
        "The two domains are reported separately; there is no total score.",
    )
    factor_table = Table(
        "factors",
        "Controlled factors (§4.1)",
        ("Factor", "Status", "Setting"),
        tuple(
            Row((Cell(f.factor), Cell(f.status), Cell(f.setting)), f.model_dump())
            for f in release.controlled_factors
        ),
    )
    cov_rows = []
    for combo, bundle in sorted(ctx.frame.bundles.items()):
        notes = "; ".join(
            f"{n.domain}" + (f"/{n.subdivision}" if n.subdivision else "") + f": {n.reason}"
            for n in bundle.not_covered
        )
        runs = ctx.frame.runs[ctx.frame.runs["combination"] == combo]
        valid = int(runs["valid"].sum())
        cov_rows.append(
            Row(
                (
                    combo_cell(ctx, combo, 0),
                    Cell(bundle.evaluation),
                    Cell(str(valid), valid),
                    Cell(str(len(runs) - valid), len(runs) - valid),
                    Cell(notes or "—"),
                ),
                {
                    "combination": combo,
                    "evaluation": bundle.evaluation,
                    "valid_runs": valid,
                    "incomplete_runs": len(runs) - valid,
                    "not_covered": notes,
                },
            )
        )
    cov_table = Table(
        "coverage",
        "Coverage of each combination",
        ("Combination", "Evaluation", "Valid runs", "Evaluation-incomplete runs", "Not covered"),
        tuple(cov_rows),
        "'Not covered' scopes were not evaluated and are never shown as zero.",
    )
    tables = [comp_table, task_table, factor_table, cov_table]
    markdown = render(
        env,
        "home.md.j2",
        release=release,
        notice=release_notice(ctx),
        tables=tables_html(tables, "index"),
        boundaries=Markup(render_markdown(release.boundaries_of_use)),
        domains=release.domains,
    )
    return Page("index.md", "Release home", markdown, tuple(tables))
