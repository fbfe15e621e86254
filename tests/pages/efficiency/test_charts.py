"""The efficiency page's charts (generator/pages/efficiency/charts.py): a domain's outcome against
tokens, duration and turns, and reliability@k curves, each from the report."""

from __future__ import annotations

import base64
import html
import re

from pagetools import Plot, plots, shown, small_version

from generator.models import RunRecord
from generator.pages import VersionContext
from generator.pages.blocks.charts import labels, style_of
from generator.pages.blocks.outcome import outcome_of
from generator.pages.efficiency.charts import domain_charts, token_chart_id
from generator.pages.efficiency.page import efficiency_page


def test_a_token_chart_is_named_by_its_domain_and_tokenizer() -> None:
    assert token_chart_id("qa", "o200k") == "qa-score-total_tokens-o200k"


def test_a_measured_outcome_is_charted_in_its_display(enterprise: VersionContext) -> None:
    """The Beer Game's cost is drawn divided by its scale, titled by its metric, on an axis of
    its own (not [0, 1])."""
    report = enterprise.reports["beer-game"]
    scope = report.scopes[0]
    outcome = outcome_of(enterprise, "beer-game")
    scored = [c for c in scope.combinations if c.task_score and c.task_score.value is not None]
    shown = [c.model_copy(update={"task_score": outcome.scaled(c.task_score)}) for c in scored]
    names = {c.combination: c.combination for c in scored}
    tokenizer = {k: b.combination.model.tokenizer for k, b in enterprise.frame.bundles.items()}
    title = f"{outcome.title} ({outcome.qualifier})"
    charts = domain_charts(
        "beer-game", scope, shown, tokenizer, style_of(list(names)), names, (title, None)
    )
    assert charts
    (encoded,) = re.findall(r"<!--lg-html:([A-Za-z0-9+/=]+)-->", str(charts[0]))
    html = base64.b64decode(encoded).decode("utf-8")
    assert f"{title} against total tokens" in html
    assert '"range":[0,1]' not in html
    value = shown[0].task_score.value
    assert value is not None
    assert f"{value:.4g}"[:4] in html


def _hovers(plot: Plot) -> dict[str, str]:
    return {
        html.unescape(t["name"].replace(" ×<br>", " × ")): html.unescape(t["text"][0])
        for t in plot.traces
        if t["mode"] == "markers"
    }


def test_a_count_recorded_on_some_runs_only_is_charted_with_its_coverage() -> None:
    """Turns recorded by ``p`` on every run and by ``q`` on its first runs only, by no other
    combination: the turns chart holds p and q, q's point says on how many runs its mean
    rests, and no combination is drawn at 0 turns."""

    def turns(combo: str, r: RunRecord) -> RunRecord:
        kept = combo == "p" or (combo == "q" and r.run == 1)
        return r if kept else r.model_copy(update={"turns": None})

    ctx = small_version(turns)
    charts = {p.div: p for p in plots(efficiency_page(ctx).markdown)}
    names = labels({k: b.combination.title for k, b in ctx.frame.bundles.items()})
    office = {c.combination: c for c in ctx.reports["office"].scopes[0].combinations}
    hovers = _hovers(charts["office-score-turns"])
    assert sorted(hovers) == sorted(html.unescape(names[k]) for k in ("p", "q"))
    q = office["q"]
    assert q.efficiency is not None
    assert q.coverage is not None
    recorded = q.efficiency.recorded["turns"]
    assert 0 < recorded < q.coverage.valid_runs
    assert (
        f"turns recorded on {recorded} of {q.coverage.valid_runs} valid runs"
        in hovers[html.unescape(names["q"])]
    )
    assert "recorded on" not in hovers[html.unescape(names["p"])]  # p records every run
    assert office["r"].efficiency is not None
    assert office["r"].efficiency.turns is None  # not 0


def test_a_release_without_tokens_has_no_token_chart_and_no_frontier() -> None:
    """No run records tokens (the release declares no token metric): the page has no chart
    of score against tokens, no frontier, and no combination is placed on one."""
    ctx = small_version(
        lambda _, r: r.model_copy(update={"input_tokens": None, "output_tokens": None})
    )
    page = efficiency_page(ctx)
    divs = {p.div for p in plots(page.markdown)}
    assert not [d for d in divs if "total_tokens" in d]
    assert "office-score-turns" in divs
    assert "Pareto frontier" not in shown(page)
    placed = [c.pareto for report in ctx.reports.values() for c in report.scopes[0].combinations]
    assert placed == [None] * 8  # p, q, r and s on both domains
