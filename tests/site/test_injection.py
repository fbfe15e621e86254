"""Hostile text in every free-text field comes out as text: no new elements, handlers or links,
nothing from another host.

The browser test (tests/browser/test_injection.py) shows that nothing runs; these checks say
why, file by file, against the clean build of the same example.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from conftest import EXAMPLES, HostileSite
from hostile import INPUT_MODELS, MARK, REFUSED, Poisoner, free_text_fields, poison, scan

from generator.load import load_inputs

pytestmark = pytest.mark.slow  # builds a site with hostile text in every free-text field


def _pages(site: Path) -> dict[str, str]:
    return {
        p.relative_to(site).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(site.rglob("*.html"))
    }


def test_every_kind_of_free_text_carries_a_payload(hostile_site: HostileSite) -> None:
    must = {
        "Disclosed.value", "Withheld.withheld", "HarnessCard.notes", "Combination.title",
        "Model.name", "Consent.by", "NotCovered.reason", "Release.title", "Release.notice",
        "Domain.title", "Task.title", "TaskCard.description", "Evidence.excerpt",
        "RuleItem.title", "JudgeItem.title", "DeepDive.trajectory_nodes",
        "DeepDive.interpretation", "DeepDive.differences", "JudgeVerdict.rationale",
    }  # fmt: skip
    assert must <= hostile_site.fields, must - hostile_site.fields
    assert hostile_site.payloads > 1000


#: Free-text fields that none of the three examples fills, so no hostile build reaches them.
UNFILLED = {"Family.description", "RiskLevel.description", "Subdivision.description"}


def test_the_three_examples_fill_every_free_text_field_of_the_models(tmp_path: Path) -> None:
    """Between them the examples hold text in every free-text field the models have, so their
    hostile builds (tests/browser/test_injection.py) reach each one. A field added to a model
    is found here, and fails this test until an example fills it."""
    reached: set[str] = set()
    for name, source in EXAMPLES.items():
        root = tmp_path / name
        for part in ("results", "harnesscards"):
            shutil.copytree(source / part, root / part, ignore=shutil.ignore_patterns("*.py"))
        loaded, _ = load_inputs(root)
        in_models = Poisoner(REFUSED, fit=False)
        in_models.walk_inputs(loaded)
        reached |= in_models.fields | poison(root).fields
    every = free_text_fields(INPUT_MODELS)
    assert len(every) > 80
    assert reached <= every
    assert every - reached == UNFILLED


def test_no_page_gains_an_element_handler_or_link(site: Path, hostile_site: HostileSite) -> None:
    clean, hostile = _pages(site), _pages(hostile_site.site)
    assert clean.keys() == hostile.keys()
    for rel, text in hostile.items():
        found, expected = scan(text), scan(clean[rel])
        assert not found.bad, (rel, found.bad[:5])
        assert not found.remote, (rel, found.remote[:5])
        assert found.active == expected.active, (rel, found.active - expected.active)


def test_payloads_are_shown_as_text_not_dropped(hostile_site: HostileSite) -> None:
    card = (hostile_site.site / "v1.0" / "cards" / "lingee-2.3.html").read_text("utf-8")
    shown = sum(card.count(f"{MARK}({n})") for n in range(1, 25))
    assert shown > 20
    assert "&lt;script&gt;__pwn(" in card or "&lt;img src=x onerror=__pwn(" in card


def test_a_title_that_closes_the_title_element_stays_in_it(hostile_site: HostileSite) -> None:
    """Every combination's title ends in a control character and "</title><script>": it is
    the page's one <title>, as text, with the control character shown as U+FFFD."""
    pages = sorted((hostile_site.site / "v1.0" / "combinations").glob("*.html"))
    pages = [p for p in pages if p.name != "index.html"]
    assert len(pages) == 5
    for page in pages:
        (title,) = scan(page.read_text("utf-8")).titles
        assert "\ufffd </title><script>alert(document.domain);__pwn(20)</script> - " in title
        assert "\a" not in title


def test_search_index_holds_no_markup_from_input(site: Path, hostile_site: HostileSite) -> None:
    """Material shows search results as HTML, so the index must carry input as text."""
    for version in ("v1.0", "v1.1"):
        index = f"{version}/search/search_index.json"
        docs = json.loads((hostile_site.site / index).read_text("utf-8"))["docs"]
        clean = json.loads((site / index).read_text("utf-8"))["docs"]
        assert any(MARK in d["text"] for d in docs)
        found, expected = Counter[str](), Counter[str]()
        for doc in docs:
            result = scan(doc["title"] + doc["text"])
            assert not result.bad, (doc["location"], result.bad[:5])
            assert not result.remote, (doc["location"], result.remote[:5])
            found += result.active
        for doc in clean:
            expected += scan(doc["title"] + doc["text"]).active
        assert found == expected
