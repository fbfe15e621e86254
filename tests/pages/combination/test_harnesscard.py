"""HarnessCard pages: completeness counted from the card's own fields, its users, its export."""

from __future__ import annotations

import json

from pagetools import CARD

from generator.models import HarnessCard
from generator.models.harnesscard import Withheld
from generator.pages import VersionContext
from generator.pages.blocks.text import spelled
from generator.pages.combination.harnesscard import card_page, completeness_table


def _counted(card: HarnessCard) -> dict[str, tuple[int, int]]:
    """Per layer: (disclosed, minimum) fields, counted here from the card itself."""
    out = {}
    for name, layer in card.layers.items():
        fields = list(layer.minimum_fields().values())
        out[name] = (sum(not isinstance(f, Withheld) for f in fields), len(fields))
    return out


def test_completeness_counts_the_disclosed_minimum_fields(contexts: list[VersionContext]) -> None:
    for card in [CARD, *contexts[0].cards.values()]:
        table = completeness_table(card)
        counted = _counted(card)
        *layers, total = table.rows
        assert [
            (r.record["layer"], r.record["disclosed"], r.record["minimum_fields"]) for r in layers
        ] == [(name, d, t) for name, (d, t) in counted.items()]
        disclosed = sum(d for d, _ in counted.values())
        minimum = sum(t for _, t in counted.values())
        assert (total.record["disclosed"], total.record["minimum_fields"]) == (disclosed, minimum)
        assert total.record["share"] == disclosed / minimum
        assert total.cells[0].text == f"All {spelled(len(counted))} layers"
        assert total.cells[1].text == f"{disclosed} of {minimum}"


def test_a_card_with_withheld_fields_is_less_than_complete() -> None:
    share = completeness_table(CARD).rows[-1].record["share"]
    assert 0 < share < 1
    assert any(
        isinstance(f, Withheld)
        for _, layer in CARD.layers.items()
        for f in layer.minimum_fields().values()
    )


def test_the_card_page_links_its_users_and_exports_the_card(
    contexts: list[VersionContext], small: VersionContext
) -> None:
    pages, links = 0, 0
    for ctx in [small, *contexts]:
        for card in {b.combination.harnesscard for b in ctx.frame.bundles.values()}:
            pages += 1
            page = card_page(ctx, ctx.cards[card])
            users = sorted(
                c for c, b in ctx.frame.bundles.items() if b.combination.harnesscard == card
            )
            for combo in ctx.frame.bundles:
                assert (f"(../combinations/{combo}.md)" in page.markdown) == (combo in users)
                links += combo in users
            export = json.loads(page.extra_files[f"{card}.harnesscard.json"])
            assert HarnessCard.model_validate(export) == ctx.cards[card]
            assert [t.id for t in page.tables] == [
                "completeness",
                *(f"layer-{n}" for n, _ in ctx.cards[card].layers.items()),
            ]
            assert page.path == f"cards/{card}.md"
    assert "(../combinations/hidden.md)" not in card_page(small, CARD).markdown
    assert pages >= 3  # a card page or more in each version
    assert links == 12  # each of the 12 combinations is linked from its card's page
