"""The sets view (generator/pages/views/sets.py): the answer (ρ with its interval) in a sentence
from the report, a row per combination evaluated on both sets."""

from __future__ import annotations

import html

from pagetools import CARD, bundle_with_card, shown

from generator.load import Loaded
from generator.load.source import Source
from generator.models import Release
from generator.models.views import Sets
from generator.pages import version_context
from generator.pages.blocks.text import estimate
from generator.pages.views.sets import agreement_text, sets_page
from generator.score.results import SetComparison
from generator.score.version import score_version


def test_the_page_says_the_agreement_and_lists_both_sets() -> None:
    from builders import catalog, release, run, task, version

    data = release().model_dump(mode="json", exclude_none=True)
    data["domains"][0]["task_sets"] = [
        {"id": "lite", "title": "Lite"},
        {"id": "full", "title": "Full"},
    ]
    data["groups"] = {"public": 9, "held_out": 0}
    tasks = [task(f"l{i}") | {"sets": ["lite", "full"]} for i in range(5)]
    tasks += [task(f"f{i}") | {"sets": ["full"]} for i in range(3)] + [task("e", "erp", "x")]
    combos = ("p", "q", "r")
    runs = {
        c: [run(t["id"], r, passed=(i + k * r) % 3) for i, t in enumerate(tasks) for r in (1, 2)]
        for k, c in enumerate(combos)
    }
    loaded = version(
        Release.model_validate(data),
        catalog(tasks),
        runs,
        {c: bundle_with_card(c) for c in combos},
    )
    ctx = version_context(score_version(loaded), {CARD.id: Loaded(CARD, Source("card.yaml"))})
    view = Sets(kind="sets", id="lf", title="Lite against Full", domain="office")
    page = sets_page(ctx, view)
    (found,) = ctx.reports["office"].sets
    assert found.rho is not None
    text = html.unescape(shown(page))
    assert estimate(found.rho, found.low, found.high) in text
    assert agreement_text(found, ("Lite", "Full"), 0.95).split("ρ")[0] in text
    (table,) = page.tables
    assert len(table.rows) == len(found.rows) == len(combos)


def test_a_withheld_comparison_says_why() -> None:
    found = SetComparison(first="lite", second="full", rows=[], tasks=0, withheld="withheld: few")
    assert agreement_text(found, ("Lite", "Full"), 0.95) == "Not compared: withheld: few."
