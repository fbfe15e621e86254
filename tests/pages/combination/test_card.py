"""Result cards against the reports: the combination in every scope that shows numbers, its
reliability@k charts, its run counts, and the configuration record its fingerprint is from."""

from __future__ import annotations

import html
import json
import re

from pagetools import plots, shown, shown_estimate

from generator.models.harnesscard import Layers
from generator.pages import VersionContext
from generator.pages.blocks.cells import display_names
from generator.pages.blocks.text import estimate, spelled
from generator.pages.combination.card import combination_page, combinations_index
from generator.pages.combination.card_tables import card_tables, placed
from generator.pages.combination.config_diffs import diff_path, related
from generator.pages.combination.harnesscard import card_page


def test_the_scores_table_has_every_scope_that_shows_the_combination(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    cards = 0
    for ctx in [small, *contexts]:
        for combo in ctx.frame.bundles:
            cards += 1
            page = combination_page(ctx, combo)
            scores = next(t for t in page.tables if t.id == "scores")
            want = [
                (domain, scope, c)
                for domain, report in ctx.reports.items()
                for scope in report.scopes
                for c in scope.combinations
                if c.combination == combo and not scope.withheld
            ]
            assert [r.cells[0].text for r in scores.rows] == [s.title for _, s, _ in want]
            for row, (domain, scope, c) in zip(scores.rows, want, strict=True):
                assert (row.record["domain"], row.record["group"]) == (domain, scope.scope.group)
                assert row.record["status"] == c.status
                if c.task_score is not None and c.task_score.value is not None:
                    assert row.cells[2].text == shown_estimate(c.task_score)
                else:
                    assert row.cells[2].text == "—"
            withheld = [s.title for r in ctx.reports.values() for s in r.scopes if s.withheld]
            assert not set(withheld) & {r.cells[0].text for r in scores.rows}
    assert cards == 12  # p, q, r and s; five combinations in v1.0, three in v1.1


def test_a_reliability_chart_per_domain_with_values(small: VersionContext) -> None:
    for combo in small.frame.bundles:
        page = combination_page(small, combo)
        charts = {p.div: p for p in plots(page.markdown)}
        want = {}
        for domain, report in small.reports.items():
            c = next(x for x in report.scopes[0].combinations if x.combination == combo)
            values = [r for r in c.reliability if r.value is not None]
            if c.status == "scored" and values:
                want[f"rel-{combo}-{domain}"] = values
        assert sorted(charts) == sorted(want)
        assert page.charts == bool(want)
        for div, values in want.items():
            (trace,) = charts[div].traces
            assert (trace["x"], trace["y"]) == ([r.k for r in values], [r.value for r in values])
            for text, r in zip(trace["text"], values, strict=True):  # hover, as tables write
                assert f"<br>reliability@{r.k} {estimate(r.value, r.low, r.high)}" in text
    # r is not covered on ERP: no chart there, and the card says why
    page = combination_page(small, "r")
    assert [p.div for p in plots(page.markdown)] == ["rel-r-office"]
    assert "no ERP access" in html.unescape(shown(page))


def test_the_card_counts_its_runs_and_carries_its_configuration_record(
    small: VersionContext,
) -> None:
    assert sorted(small.frame.bundles) == ["p", "q", "r", "s"]
    for combo, bundle in small.frame.bundles.items():
        page = combination_page(small, combo)
        loaded = next(b for b in small.loaded.bundles if b.bundle.model.combination.id == combo)
        status = loaded.runs.runs["status"]
        text = " ".join(html.unescape(shown(page)).split())
        valid = int((status == "valid").sum())
        assert valid > 0
        assert f"{valid} valid run(s), {len(status) - valid} evaluation-incomplete" in text
        record = json.loads(page.extra_files[f"{combo}.configuration-record.json"])
        assert record["combination"] == combo
        assert record["fingerprint"] == small.fingerprints[combo]
        assert record["evaluation"] == bundle.evaluation
        assert page.path == f"combinations/{combo}.md"
        assert page.title == bundle.combination.title


def test_no_card_for_a_bundle_without_consent(small: VersionContext) -> None:
    assert "hidden" in {b.bundle.model.combination.id for b in small.loaded.bundles}
    assert "hidden" not in small.frame.bundles
    index = combinations_index(small)
    assert [r.record["combination"] for r in index.tables[0].rows] == sorted(small.frame.bundles)


def test_the_index_lists_every_combination_and_counts_the_layers(
    contexts: list[VersionContext],
) -> None:
    assert [c.version for c in contexts] == ["v1.0", "v1.1"]
    for ctx in contexts:
        index = combinations_index(ctx)
        (table,) = index.tables
        assert [r.record["combination"] for r in table.rows] == sorted(ctx.frame.bundles)
        for row in table.rows:
            bundle = ctx.frame.bundles[row.record["combination"]]
            assert row.record["harnesscard"] == bundle.combination.harnesscard
            assert row.record["model"] == bundle.combination.model.name
        assert f"({spelled(len(Layers.model_fields))} layers)" in index.markdown


def test_a_card_links_the_combinations_sharing_its_harness_or_model_by_name(
    contexts: list[VersionContext],
) -> None:
    linked = 0
    for ctx in contexts:
        names = display_names(ctx)
        for combo in ctx.frame.bundles:
            text = html.unescape(shown(combination_page(ctx, combo)))
            for other, shared in related(ctx, combo):
                assert f"[{names[other]}](../{diff_path(combo, other)}) ({shared})" in text
                linked += 1
    assert linked


def _parts(text: str) -> tuple[str, dict[str, str]]:
    """The card before its first collapsed part, and each part's HTML by its id."""
    top, _, rest = text.partition('<details class="lg-detail"')
    found = re.findall(r'id="([^"]+)">(.*?)</details>', rest, re.DOTALL)
    return top, dict(found)


def _tables_in(html_text: str) -> list[str]:
    return re.findall(r'class="lg-table[^"]*" id="table-([^"]+)"', html_text)


def test_the_answer_is_on_top_and_the_detail_one_click_away(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    cards = 0
    for ctx in [small, *contexts]:
        for combo, bundle in ctx.frame.bundles.items():
            cards += 1
            page = combination_page(ctx, combo)
            top, parts = _parts(shown(page))
            card = ctx.cards[bundle.combination.harnesscard]
            layers = [t.id for t in card_tables(card)]
            # on top: the configuration summary and the scores, no other table
            assert ctx.fingerprints[combo] in top
            assert _tables_in(top) == ["scores"]
            assert "## Scores" in top
            # below, collapsed: every other table of the card, once, in its part
            want = {
                "stability": ["reliability"],
                "efficiency": ["efficiency"],
                "failure-types": ["failures"],
                "configuration-record": ["configuration"],
                "harnesscard": layers,
            }
            assert {k: _tables_in(v) for k, v in parts.items()} == want
            assert sorted(t.id for t in page.tables) == sorted(
                ["scores", *(t for ts in want.values() for t in ts)]
            )
            assert f'href="../cards/{card.id}.html"' in parts["harnesscard"]
            assert {p.div for p in plots(parts["stability"])} == {
                p.div for p in plots(page.markdown)
            }
            domains = sum(p.whole_domain for p in placed(ctx, combo))
            summaries = {k: re.search(r"<summary>(.*?)</summary>", v) for k, v in parts.items()}
            for key in ("stability", "efficiency", "failure-types"):
                found = summaries[key]
                assert found is not None
                assert f" in {domains} domain" in found.group(1)
            assert page.wide  # the scores table gets the width of the table of contents
    assert cards == 12  # p, q, r and s; five combinations in v1.0, three in v1.1


def test_a_link_from_the_card_reaches_the_harnesscard_page(contexts: list[VersionContext]) -> None:
    cards = 0
    for ctx in contexts:
        for combo, bundle in ctx.frame.bundles.items():
            cards += 1
            card = ctx.cards[bundle.combination.harnesscard]
            _, parts = _parts(shown(combination_page(ctx, combo)))
            link = re.search(r'href="\.\./(cards/[^"]+)\.html"', parts["harnesscard"])
            assert link is not None
            assert f"{link.group(1)}.md" == card_page(ctx, card).path
    assert cards == 8  # five combinations in v1.0, three in v1.1


def test_a_scope_not_covered_is_named_by_its_titles(contexts: list[VersionContext]) -> None:
    named = 0
    for ctx in contexts:
        domains = {d.id: d for d in ctx.release.domains}
        for combo, bundle in ctx.frame.bundles.items():
            text = html.unescape(shown(combination_page(ctx, combo)))
            for n in bundle.not_covered:
                domain = domains[n.domain]
                subs = {s.id: s.title for s in domain.subdivisions}
                title = domain.title + (f" — {subs[n.subdivision]}" if n.subdivision else "")
                assert f"- **{title}** — {n.reason}" in text
                named += 1
    assert named


def test_a_priced_bundle_s_card_says_its_pricing() -> None:
    """Where a bundle discloses the prices behind its money, its card says currency, source
    and date, as the bundle gives them; a card without pricing has no such row."""
    from builders import catalog, release, run, task, version
    from pagetools import CARD, bundle_with_card

    from generator.load import Loaded
    from generator.load.source import Source
    from generator.pages import version_context
    from generator.score.version import score_version

    pricing = {"currency": "CNY", "source": "provider price lists", "date": "2026-06-01"}
    bundles = {"p": bundle_with_card("p", pricing=pricing), "q": bundle_with_card("q")}
    runs = {c: [run(t, r) for t in ("t", "e") for r in (1, 2)] for c in bundles}
    tasks = [task("t"), task("e", "erp", "x")]
    loaded = version(release(groups={"public": 2, "held_out": 0}), catalog(tasks), runs, bundles)
    ctx = version_context(score_version(loaded), {CARD.id: Loaded(CARD, Source("card.yaml"))})
    priced = combination_page(ctx, "p").markdown
    assert "| Pricing | CNY, provider price lists, as of 2026-06-01 |" in priced
    assert "| Pricing |" not in combination_page(ctx, "q").markdown
