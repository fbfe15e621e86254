"""Rules between a result bundle, its release and the HarnessCards
(generator/check/bundles.py): a good bundle passes, each break is one problem at its field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from builders import bundle, release

from generator.check.bundles import check_bundle, check_card
from generator.errors import Problem
from generator.load import Loaded, LoadedBundle
from generator.load.records import columns_from_records
from generator.load.source import Source
from generator.models import Bundle, HarnessCard, Release
from generator.models.bundle import NotCovered
from generator.models.harnesscard import Disclosed

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "harnesscard"
PATH = "results/v0.1/bundles/p/bundle.yaml"
LINES = {
    ("release",): 2,
    ("combination", "id"): 4,
    ("combination", "harnesscard"): 5,
    ("combination", "harness_mode"): 6,
    ("configuration", "runs_per_task"): 12,
    ("configuration", "pipeline_components", "data"): 15,
    ("not_covered", 0, "domain"): 30,
    ("not_covered", 1): 32,
    ("not_covered", 1, "subdivision"): 33,
    ("consent", "granted"): 40,
}


def _card(name: str = "valid-all-withheld.yaml", **update: Any) -> HarnessCard:
    card = HarnessCard.model_validate(yaml.safe_load((FIXTURES / name).read_text()))
    return card.model_copy(update=update)


CARD_ID = _card().id


def _check(
    model: Bundle,
    rel: Release | None = None,
    cards: dict[str, HarnessCard] | None = None,
    broken: frozenset[str] = frozenset(),
    folder: str = "p",
) -> list[Problem]:
    loaded = LoadedBundle(
        folder, Loaded(model, Source(PATH, LINES)), columns_from_records([], []), "runs.jsonl"
    )
    cards = {CARD_ID: _card()} if cards is None else cards
    loaded_cards = {k: Loaded(v, Source(f"harnesscards/{k}.yaml")) for k, v in cards.items()}
    rel = release() if rel is None else rel
    return list(check_bundle(Loaded(rel, Source("r.yaml")), loaded, loaded_cards, broken))


def _with(model: Bundle, part: str, **update: Any) -> Bundle:
    return model.model_copy(update={part: getattr(model, part).model_copy(update=update)})


def _errors(problems: list[Problem]) -> list[tuple[int | None, str]]:
    return [(p.line, p.field) for p in problems]


def test_a_good_bundle_passes() -> None:
    good = bundle("p")
    assert good.combination.harnesscard == CARD_ID
    assert _check(good) == []


def test_release_and_folder_must_match() -> None:
    moved = bundle("p").model_copy(update={"release": "v9"})
    assert _errors(_check(moved)) == [(2, "release")]
    assert _errors(_check(bundle("p"), folder="elsewhere")) == [(4, "combination.id")]


def test_the_card_must_exist_unless_it_failed_to_load() -> None:
    problems = _check(bundle("p"), cards={})
    assert _errors(problems) == [(5, "combination.harnesscard")]
    assert (
        "no HarnessCard harnesscards/tiny-harness-0.1.yaml (available: none)" in problems[0].message
    )
    assert _check(bundle("p"), cards={}, broken=frozenset({CARD_ID})) == []  # said elsewhere


def test_a_mode_is_chosen_exactly_when_the_card_declares_modes() -> None:
    moded = _card("valid-mixed.yaml")
    modes = [m.id for m in moded.modes]
    assert modes
    cards = {CARD_ID: moded}
    assert _errors(_check(bundle("p"), cards=cards)) == [(6, "combination.harness_mode")]
    chosen = _with(bundle("p"), "combination", harness_mode=modes[0])
    assert _check(chosen, cards=cards) == []
    wrong = _with(bundle("p"), "combination", harness_mode="turbo")
    assert _errors(_check(wrong, cards=cards)) == [(6, "combination.harness_mode")]
    assert _errors(_check(chosen)) == [(6, "combination.harness_mode")]  # card without modes


def test_a_withheld_floor_field_is_a_warning() -> None:
    rel = release(disclosure_floor=["execution.sandboxing"])
    problems = _check(bundle("p"), rel=rel)
    assert [(p.field, p.severity) for p in problems] == [("combination.harnesscard", "warning")]
    assert "does not disclose execution.sandboxing" in problems[0].message
    card = _card()
    execution = card.layers.execution.model_copy(update={"sandboxing": Disclosed(value="vm")})
    disclosed = card.model_copy(
        update={"layers": card.layers.model_copy(update={"execution": execution})}
    )
    assert _check(bundle("p"), rel=rel, cards={CARD_ID: disclosed}) == []


def test_runs_per_task_and_pipeline_components_follow_the_release() -> None:
    good = bundle("p")
    other = _with(good, "configuration", runs_per_task=good.configuration.runs_per_task + 1)
    assert _errors(_check(other)) == [(12, "configuration.runs_per_task")]
    components = good.configuration.pipeline_components.model_copy(update={"data": "9.9"})
    problems = _check(_with(good, "configuration", pipeline_components=components))
    assert _errors(problems) == [(15, "configuration.pipeline_components.data")]
    assert "(§7.2)" in problems[0].message


def test_not_covered_scopes_name_real_domains_once() -> None:
    scopes = (
        NotCovered(domain="nowhere", reason="r"),
        NotCovered(domain="office", subdivision="zz", reason="r"),
    )
    problems = _check(bundle("p").model_copy(update={"not_covered": scopes}))
    assert _errors(problems) == [(30, "not_covered[0].domain"), (33, "not_covered[1].subdivision")]
    twice = (NotCovered(domain="office", reason="a"), NotCovered(domain="office", reason="b"))
    problems = _check(bundle("p").model_copy(update={"not_covered": twice}))
    assert [(p.line, p.field, p.message) for p in problems] == [
        (32, "not_covered[1]", "repeats an earlier scope")
    ]


def test_a_bundle_without_consent_is_a_notice_not_an_error() -> None:
    problems = _check(bundle("p", consent=False))
    assert [(p.line, p.field, p.severity) for p in problems] == [(40, "consent.granted", "notice")]
    assert "not published (§7.2)" in problems[0].message


def test_a_card_is_named_by_its_file_and_its_modes_are_distinct() -> None:
    card = _card("valid-mixed.yaml")
    source = Source("harnesscards/x.yaml", {("id",): 2, ("modes",): 5})
    assert list(check_card(card.id, Loaded(card, source))) == []
    problems = list(check_card("other-name", Loaded(card, source)))
    assert [(p.line, p.field) for p in problems] == [(2, "id")]
    doubled = card.model_copy(update={"modes": (*card.modes, card.modes[0])})
    problems = list(check_card(card.id, Loaded(doubled, source)))
    assert [(p.line, p.field, p.message) for p in problems] == [
        (5, "modes", f"repeated mode ids: {[card.modes[0].id]}")
    ]
