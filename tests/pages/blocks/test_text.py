"""Safe text: escaping that loses nothing and leaves no markup, inert Markdown, number formats."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from generator.pages.blocks.text import (
    NBSP,
    attr,
    count,
    decimals,
    escape,
    escape_html,
    estimate,
    kilo,
    one_decimal,
    render_markdown,
    scale_label,
    scale_text,
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


@pytest.mark.parametrize("char", ["\a", "\x00", "\x02", "\x03", "\x1b", "\x7f", "\x85", "\u202e"])
def test_a_character_validation_refuses_shows_as_a_replacement_character(char: str) -> None:
    """Should such text reach a page (validation refuses it), it shows as U+FFFD; \\x02 and
    \\x03 would otherwise be read by Python-Markdown as its own placeholders."""
    for out in (escape(f"a{char}b"), escape_html(f"a{char}b"), attr(f"a{char}b")):
        assert out == "a\ufffdb"
    assert render_markdown(f"a{char}b") == "<p>a\ufffdb</p>"


def test_text_inside_markdown_stays_on_its_line() -> None:
    """A line break would let the next line start a block: "---" under a title makes it a
    heading, "    " code, "> " a quote."""
    out = escape("title\n---\n    code\r\n> quote\n\n- item")
    assert "\n" not in out
    assert "\r" not in out
    assert html.unescape(out) == "title ---     code  > quote  - item"  # one space a break
    assert escape_html("two\nlines") == "two\nlines"  # in HTML, a line break is a space


def test_authored_markdown_keeps_local_links_and_shows_the_others_as_text() -> None:
    """Validation refuses a link or image that leaves the site; rendered anyway, it is text."""
    out = render_markdown(
        "See [the docs](https://example.org/a), [a page](other.md), [up](#top), "
        "[bad](javascript:alert(1)), [data](data:text/html,x), [host](//evil.example/x) "
        "and ![pixel](https://tracker.example/p.gif) <https://example.org>"
        "\n\n<script>x()</script>"
    )
    parsed = _parsed(out)
    assert "script" not in parsed.tags
    assert "img" not in parsed.tags
    assert parsed.links == ["other.md", "#top"]  # the others stay text
    for text in (
        "[the docs](https://example.org/a)",
        "[bad](javascript:alert(1))",
        "![pixel](https://tracker.example/p.gif)",
        "<https://example.org>",
        "<script>x()</script>",
    ):
        assert text in parsed.text
    # Inert for a second Markdown pass: no syntax character is left as such.
    assert not set("`*_[]()!|~+#") & set(re.sub(r"&#?\w+;", "", out))


def test_authored_markdown_keeps_a_local_image() -> None:
    out = render_markdown("![a chart](chart.svg)")
    assert _parsed(out).tags == ["p", "img"]
    assert 'src="chart.svg"' in out


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
    big = value * 1e6
    assert abs(float(count(big).replace(",", "")) - big) <= 0.5
    assert abs(float(one_decimal(big).replace(",", "")) - big) <= 0.05


def test_a_missing_number_shows_a_dash_and_no_interval() -> None:
    assert score(None) == count(None) == one_decimal(None) == "—"


@pytest.mark.parametrize(
    ("low", "high"),
    [(0.72, 0.93), (0.80, 0.89), (0.0, 1.0), (0.4, 0.41), (0.5, 0.5004), (0.123, 0.9)],
)
def test_decimals_reach_the_first_significant_digit_of_the_half_width_and_one_more(
    low: float, high: float
) -> None:
    d = decimals(low, high)
    half = (high - low) / 2
    assert 2 <= d <= 4
    # one decimal fewer would not show the half-width's first significant digit and the next
    if 2 < d < 4:
        assert half < 10.0 ** -(d - 2)
    if d < 4:
        assert half >= 10.0**-d


def test_decimals_without_an_interval_or_of_a_point_are_three() -> None:
    assert decimals(None, None) == decimals(0.5, 0.5) == decimals(None, 0.3) == 3


def test_an_estimate_is_one_line_at_its_interval_s_precision() -> None:
    assert estimate(0.8412, 0.7213, 0.9301) == f"0.84{NBSP}[0.72,{NBSP}0.93]"
    assert estimate(0.8412, 0.8013, 0.8899) == f"0.841{NBSP}[0.801,{NBSP}0.890]"
    assert estimate(0.674, 0.589, 0.749) == f"0.67{NBSP}[0.59,{NBSP}0.75]"
    assert estimate(0.5) == "0.500"
    assert estimate(None) == "—"
    assert " " not in estimate(0.123456, 0.0, 1.0)


@pytest.mark.parametrize("value", [0, 999, 9_100, 9_999, 10_000, 204_515, 1_234_567])
def test_tokens_show_in_thousands_close_to_their_count(value: int) -> None:
    shown = kilo(value)
    assert shown.endswith("k")
    number = float(shown[:-1].replace(",", "")) * 1000
    assert abs(number - value) <= (500 if value >= 10_000 else 50)
    assert kilo(None) == "—"


@pytest.mark.parametrize(
    ("scale", "text"), [(1e4, "×10⁴"), (1e6, "×10⁶"), (0.1, "×10⁻¹"), (0.5, "×0.5")]
)
def test_a_scale_reads_as_a_power_of_ten(scale: float, text: str) -> None:
    assert scale_text(scale) == text


@pytest.mark.parametrize(
    ("scale", "high", "text"),
    [
        (None, 1.0, ""),
        (1e4, None, "×10⁴"),
        (0.1, 1.0, "0–10"),
        (0.01, 1.0, "0–100"),
        (0.5, None, "×0.5"),
    ],
)
def test_a_scale_label_says_a_zero_to_ten_score_as_such(
    scale: float | None, high: float | None, text: str
) -> None:
    assert scale_label(scale, high) == text


@pytest.mark.parametrize("shown", [score, kilo, count, one_decimal])
def test_a_float_that_is_no_number_shows_as_none(shown: Any) -> None:
    assert shown(float("nan")) == "—"
    assert shown(None) == "—"


@pytest.mark.parametrize(
    ("label", "text"), [("", ""), ("0–10", "shown on 0–10"), ("×10⁴", "shown ×10⁴")]
)
def test_a_scale_in_a_sentence(label: str, text: str) -> None:
    from generator.pages.blocks.text import shown_as

    assert shown_as(label) == text
