"""Safe text: escaping that loses nothing and leaves no markup, inert Markdown, number formats."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from generator.pages.text import (
    attr,
    count,
    escape,
    escape_html,
    interval,
    one_decimal,
    render_markdown,
    score,
    spelled,
)

HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "[click](javascript:alert(1)) *bold* _it_ `code` #head |a|b| ~~s~~ {x} !+ \\",
    'Tom & Jerry\'s "quote"',
]
MARKUP = set("\\`*_{}[]()#+!|~<>\"'&")


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.links: list[str | None] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.links += [v for k, v in attrs if k == "href"]

    def handle_data(self, data: str) -> None:
        self.text += data


def _parsed(text: str) -> _Tags:
    parser = _Tags()
    parser.feed(text)
    parser.close()
    return parser


@pytest.mark.parametrize("text", [*HOSTILE, "plain words 123"])
def test_escape_leaves_no_markup_and_loses_nothing(text: str) -> None:
    out = escape(text)
    assert not MARKUP & set(out.replace("&#", "").replace(";", "")), out
    assert html.unescape(out) == text
    assert (out == text) == (not MARKUP & set(text))  # plain text comes through as it is


@pytest.mark.parametrize("text", [*HOSTILE, "plain"])
def test_escape_html_and_attr_show_the_text_as_text(text: str) -> None:
    for out in (escape_html(text), attr(text)):
        parsed = _parsed(f'<p title="{out}">{out}</p>')
        assert parsed.tags == ["p"]
        assert parsed.text == text


def test_authored_markdown_keeps_safe_links_and_drops_unsafe_ones() -> None:
    out = render_markdown(
        "See [the docs](https://example.org/a), [a page](other.md), "
        "[bad](javascript:alert(1)) and [data](data:text/html,x).\n\n<script>x()</script>"
    )
    parsed = _parsed(out)
    assert "script" not in parsed.tags
    assert parsed.links == ["https://example.org/a", "other.md"]  # the others stay text
    assert "[bad](javascript:alert(1))" in parsed.text
    assert "<script>x()</script>" in parsed.text
    # Inert for a second Markdown pass: no syntax character is left as such.
    assert not set("`*_[]()!|~+#") & set(re.sub(r"&#?\w+;", "", out))


def test_authored_markdown_renders_emphasis_and_lists() -> None:
    out = render_markdown("*one*\n\n- a\n- b")
    assert _parsed(out).tags == ["p", "em", "ul", "li", "li"]


#: Written out independently of text.py.
WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
]


def test_counts_up_to_twelve_are_spelled_in_words() -> None:
    assert [spelled(n) for n in range(len(WORDS))] == WORDS


@pytest.mark.parametrize("n", [13, 20, 999, 1000, 1_234_567, -1])
def test_larger_counts_are_written_in_figures(n: int) -> None:
    out = spelled(n)
    assert out not in WORDS
    assert int(out.replace(",", "")) == n
    assert "," in out or abs(n) < 1000


@pytest.mark.parametrize("value", [0.0, 1.0, 1 / 3, 0.66666, 0.0004, 0.9995])
def test_numbers_show_at_their_precision(value: float) -> None:
    assert abs(float(score(value)) - value) <= 0.0005
    assert len(score(value).split(".")[1]) == 3
    low, high = (float(x) for x in interval(value / 2, value)[1:-1].split(", "))
    assert abs(low - value / 2) <= 0.0005
    assert abs(high - value) <= 0.0005
    big = value * 1e6
    assert abs(float(count(big).replace(",", "")) - big) <= 0.5
    assert abs(float(one_decimal(big).replace(",", "")) - big) <= 0.05


def test_a_missing_number_shows_a_dash_and_no_interval() -> None:
    assert score(None) == count(None) == one_decimal(None) == "—"
    assert interval(None, 0.5) == interval(0.5, None) == ""
