"""Hostile text in every free-text field comes out as text: no new elements, handlers or links.

The browser test (tests/browser/test_injection.py) shows that nothing runs; these checks say
why, file by file, against the clean build of the same example.
"""

from __future__ import annotations

import json
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

from conftest import HostileSite

#: Elements that can run script, load something, or change the page when injected.
ACTIVE = {
    "script", "style", "iframe", "frame", "object", "embed", "img", "svg", "math", "details",
    "form", "input", "textarea", "button", "base", "meta", "link", "video", "audio", "source",
}  # fmt: skip
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "srcdoc", "xlink:href", "data", "poster"}


class _Scan(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.active: Counter[str] = Counter()
        self.bad: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ACTIVE:
            self.active[tag] += 1
        for name, value in attrs:
            value = value or ""
            in_page = name == "href" and value.startswith("#")  # an anchor made from a heading
            if (
                "__pwn" in value
                and (name.startswith("on") or name in URL_ATTRIBUTES)
                and not in_page
            ):
                self.bad.append(f"<{tag} {name}={value[:60]!r}>")
            if name in URL_ATTRIBUTES and value.strip().lower().startswith(
                ("javascript:", "data:")
            ):
                self.bad.append(f"<{tag} {name}={value[:60]!r}>")


def scan(text: str) -> _Scan:
    parser = _Scan()
    parser.feed(text)
    parser.close()
    return parser


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


def test_no_page_gains_an_element_handler_or_link(site: Path, hostile_site: HostileSite) -> None:
    clean, hostile = _pages(site), _pages(hostile_site.site)
    assert clean.keys() == hostile.keys()
    for rel, text in hostile.items():
        found, expected = scan(text), scan(clean[rel])
        assert not found.bad, (rel, found.bad[:5])
        assert found.active == expected.active, (rel, found.active - expected.active)


def test_payloads_are_shown_as_text_not_dropped(hostile_site: HostileSite) -> None:
    card = (hostile_site.site / "v1.0" / "cards" / "lingee-2.3.html").read_text("utf-8")
    shown = sum(card.count(f"__pwn({n})") for n in range(1, 19))
    assert shown > 20
    assert "&lt;script&gt;__pwn(" in card or "&lt;img src=x onerror=__pwn(" in card


def test_search_index_holds_no_markup_from_input(site: Path, hostile_site: HostileSite) -> None:
    """Material shows search results as HTML, so the index must carry input as text."""
    for version in ("v1.0", "v1.1"):
        index = f"{version}/search/search_index.json"
        docs = json.loads((hostile_site.site / index).read_text("utf-8"))["docs"]
        clean = json.loads((site / index).read_text("utf-8"))["docs"]
        assert any("__pwn" in d["text"] for d in docs)
        found, expected = Counter[str](), Counter[str]()
        for doc in docs:
            result = scan(doc["title"] + doc["text"])
            assert not result.bad, (doc["location"], result.bad[:5])
            found += result.active
        for doc in clean:
            expected += scan(doc["title"] + doc["text"]).active
        assert found == expected
