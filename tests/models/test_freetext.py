"""What free text may hold: no control or bidi-override character, and in Markdown no link or
image that leaves the site."""

from __future__ import annotations

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from generator.models.base import Markdown, Text
from generator.models.freetext import (
    local_url,
    markdown_parser,
    markdown_text,
    plain_text,
    refused_character,
    remote_targets,
)


class Sample(BaseModel):
    text: Text = "t"
    markdown: Markdown = "m"


def _refusal(**data: str) -> str | None:
    try:
        Sample.model_validate(data)
    except ValidationError as exc:
        return str(exc.errors()[0]["msg"])
    return None


#: Written out independently of freetext.py: C0 but tab, LF and CR; DEL; C1; bidi
#: embeddings, overrides and isolates.
def _refused(char: str) -> bool:
    code = ord(char)
    return (
        (code < 0x20 and char not in "\t\n\r")
        or 0x7F <= code <= 0x9F
        or 0x202A <= code <= 0x202E
        or 0x2066 <= code <= 0x2069
    )


@settings(max_examples=examples(500), deadline=None, derandomize=True, database=None)
@given(st.text(st.characters(codec=None, exclude_categories=())))
def test_a_character_is_refused_exactly_when_it_is_a_control_or_bidi_override(
    text: str,
) -> None:
    expected = next((c for c in text if _refused(c)), None)
    problem = refused_character(text)
    assert (problem is None) == (expected is None)
    if expected is not None:
        assert problem is not None
        assert f"U+{ord(expected):04X}" in problem
        assert f"at character {text.index(expected) + 1};" in problem


@pytest.mark.parametrize("char", ["\a", "\x1b", "\x7f", "\x85", "\u202e", "\u2066"])
def test_text_and_markdown_fields_refuse_the_character_and_say_which(char: str) -> None:
    for field in ("text", "markdown"):
        problem = _refusal(**{field: f"OpenCode {char}</title><script>x()</script>"})
        assert problem is not None
        assert f"U+{ord(char):04X}" in problem
        assert "at character 10;" in problem


@pytest.mark.parametrize("text", ["tab\there", "two\nlines", "crlf\r\n", "RTL mark \u200f"])
def test_tabs_line_breaks_and_direction_marks_are_allowed(text: str) -> None:
    assert refused_character(text) is None
    assert plain_text(text) == markdown_text(text) == text


LEAVING = [
    "https://tracker.example/p.gif",
    "HTTP://x",
    "//host/p.png",
    "\\\\host/p",
    "/\\host/p",
    "mailto:someone@example.org",
    "javascript:alert(1)",
    " JavaScript:alert(1)",
    "java\tscript:alert(1)",
    "data:image/png;base64,AAAA",
    "vbscript:x",
    "a:b",
]
LOCAL = ["", "#anchor", "?q=a:b", "page.html", "../tasks/t.html#x", "/v1.0/index.html", "x/y:z"]


@pytest.mark.parametrize("url", LEAVING)
def test_a_url_with_a_scheme_or_a_host_leaves_the_site(url: str) -> None:
    assert not local_url(url)


@pytest.mark.parametrize("url", LOCAL)
def test_relative_paths_anchors_and_queries_stay_inside(url: str) -> None:
    assert local_url(url)


@pytest.mark.parametrize(
    ("markdown", "where"),
    [
        ("See ![pixel](https://tracker.example/p.gif).", (1, "an image")),
        ("one\ntwo [x](https://e.org)", (2, "a link")),
        ("a\n\n<https://e.org>", (3, "a link")),
        ("<someone@example.org>", (1, "a link")),
        ("| a |\n|---|\n| ![i](//h/p.png) |", (3, "an image")),
        ("[ref]\n\n[ref]: javascript:alert(1)", (1, "a link")),
        ("[x](java&#115;cript:alert(1))", (1, "a link")),
    ],
)
def test_markdown_names_the_line_and_kind_of_each_target_that_leaves(
    markdown: str, where: tuple[int, str]
) -> None:
    found = remote_targets(markdown)
    assert [(line, kind) for line, kind, _ in found] == [where]
    problem = _refusal(markdown=markdown)
    assert problem is not None
    assert problem.startswith(f"Value error, line {where[0]} of the text has {where[1]} to ")
    assert "outside the site" in problem


@pytest.mark.parametrize(
    "markdown",
    [
        "[a page](../tasks/t.html) and ![a chart](chart.svg) and [up](#top)",
        "An address as text: https://example.org/paper, mailto:a@b",
        "<b>raw html</b> and <script>x()</script> are text",
        "[not a link] (https://e.org) and `[x](https://e.org)` in code",
        "    [x](https://e.org) indented code",
    ],
)
def test_local_links_plain_addresses_raw_html_and_code_are_accepted(markdown: str) -> None:
    assert remote_targets(markdown) == []
    assert _refusal(markdown=markdown) is None


def test_the_renderer_and_the_check_read_the_same_links() -> None:
    """Every target the renderer would make a link of is one the check looked at."""
    text = "[a](x.html) ![b](y.png) <https://e.org> [c](https://e.org) [d](//h)"
    rendered = markdown_parser().render(text)
    assert 'href="x.html"' in rendered
    assert 'src="y.png"' in rendered
    assert "e.org" in rendered
    assert 'href="https' not in rendered
    assert 'href="//' not in rendered
    assert len(remote_targets(text)) == 3
