"""A result card's tables: the scopes it is placed in, reliability@k points, the configuration
record and the HarnessCard's layers, each against its source."""

from __future__ import annotations

from dataclasses import replace

from pagetools import CARD

from generator.load import Inputs
from generator.models.harnesscard import Withheld
from generator.pages import VersionContext
from generator.pages.combination.card_tables import (
    EFFICIENCY,
    LAYER,
    LayerField,
    card_tables,
    failures_spec,
    placed,
    reliability_points,
)


def test_placed_is_every_scope_that_shows_the_combination(small: VersionContext) -> None:
    wholes = 0
    for combo in small.frame.bundles:
        got = [(p.domain, p.scope.title) for p in placed(small, combo)]
        want = [
            (domain, scope.title)
            for domain, report in small.reports.items()
            for scope in report.scopes
            if not scope.withheld and any(c.combination == combo for c in scope.combinations)
        ]
        assert got == want
        whole = [p for p in placed(small, combo) if p.whole_domain]
        for p in whole:
            assert (p.scope.scope.subdivision, p.scope.scope.group) == (None, "all")
            assert p.scores.status == "scored"
            wholes += 1
    # r is not covered on ERP: placed there, but not as a scored whole domain
    assert [p.domain for p in placed(small, "r") if p.whole_domain] == ["office"]
    assert "erp" in {p.domain for p in placed(small, "r")}
    assert wholes == 7  # p, q and s on both domains, r on office only


def test_reliability_points_are_the_whole_domain_s(small: VersionContext) -> None:
    assert sorted(small.frame.bundles) == ["p", "q", "r", "s"]
    for combo in small.frame.bundles:
        points = reliability_points(small, combo)
        want = [
            (domain, r.k, r.value)
            for domain, report in small.reports.items()
            for c in report.scopes[0].combinations
            if c.combination == combo and not report.scopes[0].withheld
            for r in c.reliability
        ]
        assert [(p.domain, p.value.k, p.value.value) for p in points] == want
        assert [p.title for p in points] == [small.reports[p.domain].domain_title for p in points]


def test_efficiency_and_failures_rows_are_the_scores(small: VersionContext) -> None:
    rows = 0
    for combo in small.frame.bundles:
        domains = [p for p in placed(small, combo) if p.whole_domain]
        for p in domains:
            rows += 1
            row = EFFICIENCY.row(p)
            assert p.scores.efficiency is not None
            assert row.record == {"domain": p.domain, **p.scores.efficiency.model_dump()}
            failures = failures_spec(small).row(p)
            assert {k: v for k, v in failures.record.items() if k != "domain"} == dict(
                p.scores.failure_types
            )
            assert (failures.cells[1].text == "none") == (not p.scores.failure_types)
    assert rows == 7  # p, q and s on both domains, r on office only (not covered on ERP)


def test_a_table_per_layer_with_every_field_disclosed_or_withheld() -> None:
    tables = card_tables(CARD)
    assert [t.id for t in tables] == [f"layer-{name}" for name, _ in CARD.layers.items()]
    for table, (name, layer) in zip(tables, CARD.layers.items(), strict=True):
        fields = {**layer.minimum_fields(), **layer.additional}
        assert [r.record["field"] for r in table.rows] == list(fields)
        for row in table.rows:
            field = fields[row.record["field"]]
            if isinstance(field, Withheld):
                assert (row.record["status"], row.record["reason"]) == ("withheld", field.withheld)
                assert row.cells[2].text == field.withheld
            else:
                assert row.record["status"] == "disclosed"
                assert row.record["value"] == field.value
        assert {r.record["layer"] for r in table.rows} == {name}


def test_layer_rows_say_disclosed_or_withheld(inputs: Inputs) -> None:
    statuses = set()
    for loaded in inputs.cards.values():
        card = loaded.model
        for name, layer in card.layers.items():
            for key, field in layer.minimum_fields().items():
                record = LAYER.row(LayerField(name, key, key, field)).record
                assert record["status"] in ("disclosed", "withheld")
                assert (record["reason"] is None) == (record["status"] == "disclosed")
                statuses.add(record["status"])
    assert statuses == {"disclosed", "withheld"}  # the example's cards have rows of both


def test_a_card_shows_each_channel_or_says_it_is_withheld(clawbench: VersionContext) -> None:
    """Beside the score that combines the Judge channels, each channel's figure with the
    tasks it judged, or "withheld" where the scope withholds it (§4.4)."""
    from generator.pages.combination.card_tables import placed, scores_spec

    spec = scores_spec(clawbench, clawbench.release.statistics.confidence)
    columns = {
        c.id: next(x for x in spec.columns if x.header.startswith(f"{c.title} judge"))
        for c in clawbench.release.profile.channels
    }
    combo = sorted(clawbench.frame.bundles)[0]
    said = set()
    for p in placed(clawbench, combo):
        for channel, column in columns.items():
            text = column.cell(p).text
            e = p.scores.channels.get(channel)
            if e is not None:
                assert text.endswith(f" · {e.tasks}")
                said.add("shown")
            elif channel in p.scope.channels_withheld:
                assert text == "withheld (§4.4)"
                said.add("withheld")
            else:
                assert text == "—"
    assert said == {"shown", "withheld"}


def test_a_release_without_judge_items_has_no_judge_score_on_its_cards(
    contexts: list[VersionContext],
) -> None:
    """A pass/fail release (no task declares a Judge item): the card's scores table has no
    Judge score column and its download no judge_score fields; the example keeps both."""
    from generator.pages.combination.card_tables import scores_spec

    ctx = contexts[0]
    confidence = ctx.release.statistics.confidence
    spec = scores_spec(ctx, confidence)
    assert "Judge score" in [c.header for c in spec.columns]
    tasks = tuple(
        t.model_copy(update={"scoring": t.scoring.model_copy(update={"judge_items": ()})})
        for t in ctx.catalog.tasks
    )
    plain = replace(ctx, catalog=ctx.catalog.model_copy(update={"tasks": tasks}))
    spec = scores_spec(plain, confidence)
    assert "Judge score" not in [c.header for c in spec.columns]
    assert spec.fields
    assert not any(f.name.startswith("judge_score") for f in spec.fields)
