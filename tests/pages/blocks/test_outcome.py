"""How a domain's outcome reads (generator/pages/blocks/outcome.py): Lingee's Task Score as it is,
a declared metric by its scale, unit and direction."""

from __future__ import annotations

import pytest

from generator.models.profile import Metric
from generator.pages.blocks.outcome import Outcome
from generator.score.results import Estimate

COST = Metric(id="cost", title="Cost", direction="lower", unit="units", measured=True, scale=10_000)


def test_the_task_score_is_shown_as_it_is() -> None:
    plain = Outcome(Metric(id="task_score", title="Task Score", direction="higher"))
    e = Estimate(value=0.75, low=0.6, high=0.87, tasks=35)
    assert plain.plain
    assert plain.header(0.95) == "Task Score [95%\u00a0CI]"
    assert plain.scaled(e) == e
    assert plain.labelled(e).text == plain.cell(e).text


def test_a_cost_is_shown_in_its_scale_and_direction() -> None:
    cost = Outcome(COST)
    e = Estimate(value=71_300.0, low=52_400.0, high=90_200.0, tasks=2, interval="runs")
    assert not cost.plain
    assert cost.header(0.95) == "Cost (units, ×10⁴, lower is better) [95%\u00a0CI]"
    shown = cost.scaled(e)
    assert (shown.value, shown.low, shown.high) == pytest.approx((7.13, 5.24, 9.02))
    cell = cost.cell(e)
    assert cell.text.startswith("7.13")
    assert cell.text.endswith("†")
    assert cell.sort == e.value
    assert cost.labelled(e).text.endswith("Cost (units, ×10⁴, lower is better)")


def test_a_unit_score_shown_on_zero_to_ten() -> None:
    judged = Outcome(
        Metric(
            id="consulting_score",
            title="Consulting score",
            direction="higher",
            of="task_score",
            scale=0.1,
        )
    )
    e = Estimate(value=0.755, low=0.704, high=0.8, tasks=6)
    assert judged.header(0.95) == "Consulting score (0–10) [95%\u00a0CI]"
    assert judged.cell(e).text.startswith("7.55")


def test_channels_stand_beside_the_score_that_combines_them() -> None:
    """Where tasks are judged on two channels, the leaderboard, the domain table and the
    result card show each channel's score with its interval and the tasks it judged, as the
    report has them; a release without channels shows no such column."""
    from builders import catalog, release, run, task, version
    from pagetools import CARD, bundle_with_card

    from generator.load import Loaded
    from generator.load.source import Source
    from generator.models import Release
    from generator.pages import version_context
    from generator.pages.combination.card_tables import scores_spec
    from generator.pages.home.leaderboard import leaderboard_spec, standings
    from generator.score.version import score_version

    def context(channels: bool):  # type: ignore[no-untyped-def]
        data = release(groups={"public": 7, "held_out": 0}).model_dump(
            mode="json", exclude_none=True
        )
        if channels:
            data["profile"] = {
                "channels": [{"id": "text", "title": "Text"}, {"id": "visual", "title": "Visual"}]
            }
        tasks = [task(f"t{i}", judge=(4, 4)) for i in range(6)] + [task("e", "erp", "x")]
        for i, t in enumerate(tasks[:6]):
            for item in t["scoring"]["judge_items"]:
                if channels:
                    item["channel"] = "text" if i < 4 else "visual"
        runs = {
            "p": [
                run(t["id"], r, judge=((i + r) % 5, 3) if t["id"] != "e" else ())
                for i, t in enumerate(tasks)
                for r in (1, 2)
            ]
        }
        b = bundle_with_card("p")
        if channels:
            judge = b.evaluator.model_dump(mode="json")
            b = bundle_with_card("p", channels={"text": judge, "visual": judge})
        loaded = version(Release.model_validate(data), catalog(tasks), runs, {"p": b})
        cards = {CARD.id: Loaded(CARD, Source("card.yaml"))}
        return version_context(score_version(loaded), cards)

    ctx = context(True)
    scope = ctx.reports["office"].scopes[0]
    (c,) = scope.combinations
    spec = leaderboard_spec(ctx, 0.95, "office")
    headers = [col.header for col in spec.columns]
    assert "Text judge [95%\u00a0CI] · tasks" in headers
    assert "Visual judge [95%\u00a0CI] · tasks" in headers
    for channel, tasks in (("text", 4), ("visual", 2)):
        e = c.channels[channel]
        assert e.tasks == tasks
        shown = Outcome(ctx.release.outcome("office")).cell(e).text
        title = channel.capitalize()
        column = next(col for col in spec.columns if col.header.startswith(title))
        (row,) = standings(ctx, scope)
        assert column.cell(row).text == f"{shown} · {tasks}"
    card_headers = [col.header for col in scores_spec(ctx, 0.95).columns]
    assert "Text judge · tasks" in card_headers
    plain = context(False)
    plain_headers = [col.header for col in leaderboard_spec(plain, 0.95, "office").columns]
    assert len(plain_headers) == len(headers) - 2  # the two channels' columns
    assert not any("judge [" in h for h in plain_headers)
    plain_card = [col.header for col in scores_spec(plain, 0.95).columns]
    assert len(plain_card) == len(card_headers) - 2
    assert not any(h.endswith("judge · tasks") for h in plain_card)
