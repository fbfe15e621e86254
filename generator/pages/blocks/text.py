"""Safe text for pages: escaping, authored Markdown, and number formats.

Every string from an input file reaches a page through :func:`escape` (inside Markdown or
HTML) or :func:`render_markdown` (authored text: raw HTML shown as text, links and images
only inside the site, see :mod:`generator.models.freetext`).
"""

from __future__ import annotations

import html
import math

from generator.models.freetext import REFUSED_CHARACTERS, markdown_parser
from generator.score.rounding import fixed, with_interval

# Characters that Python-Markdown would read as syntax mid-line, written as entities instead.
_MD_SPECIAL = {c: f"&#{ord(c)};" for c in "\\`*_{}[]()#+!|~<>\"'&"}
# Characters validation refuses in free text (controls, bidi overrides), should one reach a
# page: shown as U+FFFD. Python-Markdown also reads \x02 and \x03 as its own placeholders.
_VISIBLE = dict.fromkeys(REFUSED_CHARACTERS, "\ufffd")
# A line break would let the next line start a Markdown block (a "---" under a title makes
# it a heading): text inside Markdown stays on its line.
_ONE_LINE = {"\n": " ", "\r": " "}


_MD_TABLE = str.maketrans(_MD_SPECIAL | _VISIBLE | _ONE_LINE)
_HTML_TABLE = str.maketrans(_VISIBLE)


def escape(text: object) -> str:
    """Text shown literally inside Markdown: every markup character as an entity, on one
    line."""
    return str(text).translate(_MD_TABLE)


def escape_html(text: object) -> str:
    """Text shown literally inside a raw HTML block (Markdown is not read there)."""
    return html.escape(str(text).translate(_HTML_TABLE), quote=True)


#: Validation refuses a link or image that leaves the site; one that reaches the pages
#: anyway is shown as its Markdown text.
_MD = markdown_parser()


# Markdown syntax left in rendered HTML, written as entities: the page is read again by
# Python-Markdown, which must find nothing to render (e.g. a link markdown-it refused).
_INERT = str.maketrans({c: f"&#{ord(c)};" for c in "\\`*_{}[]()!|~+#"})


def render_markdown(text: str) -> str:
    """Authored Markdown as HTML, raw HTML escaped and links that leave the site as text.

    The result is inert Markdown too, so it may be placed anywhere in a page.
    """
    return str(_MD.render(text.translate(_HTML_TABLE))).strip().translate(_INERT)


def missing(value: float | None) -> bool:
    """Whether there is no number to show: none, or a float that is no number (a metric the
    runs do not record)."""
    return value is None or value != value


def score(value: float | None) -> str:
    return "—" if value is None or missing(value) else fixed(value, 3)


#: A non-breaking space: a figure and its interval stay on one line.
NBSP = "\u00a0"


def decimals(low: float | None, high: float | None, least: int = 2, most: int = 4) -> int:
    """Decimals an interval supports: enough to show its width to two significant digits
    (width 0.21 → 2: ``0.84 [0.72, 0.93]``; 0.09 → 3), within ``least``..``most``. Without an
    interval, or with a point one, ``most`` − 1 (three, as the downloads' readers expect)."""
    if low is None or high is None or high <= low:
        return most - 1
    return max(least, min(most, 1 - math.floor(math.log10(high - low))))


def estimate(value: float | None, low: float | None = None, high: float | None = None) -> str:
    """A figure with its interval, to the precision the interval supports, on one line:
    ``0.84 [0.72, 0.93]``."""
    return "—" if value is None else with_interval(value, low, high, decimals(low, high), NBSP)


def kilo(value: float | None) -> str:
    """A token count in thousands: ``205k`` from 10,000 on, ``9.1k`` below, as every page
    shows tokens."""
    if value is None or missing(value):
        return "—"
    if abs(value) >= 10_000:
        return f"{value / 1000:,.0f}k"
    return f"{value / 1000:.1f}k"


def count(value: float | None) -> str:
    return "—" if value is None or missing(value) else f"{value:,.0f}"


def one_decimal(value: float | None) -> str:
    return "—" if value is None or missing(value) else f"{value:,.1f}"


def attr(text: object) -> str:
    """Text for an HTML attribute value."""
    return escape_html(text)


_WORDS = [
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


def spelled(n: int) -> str:
    """A count as prose writes it: in words up to twelve, else in figures."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else f"{n:,}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def scale_text(scale: float) -> str:
    """A display scale as read: ×10⁴ for 10000, ×0.5 for 0.5."""
    exponent = round(math.log10(scale))
    if 10.0**exponent == scale:
        return "×10" + str(exponent).translate(_SUPERSCRIPT)
    return f"×{scale:g}"


def scale_label(scale: float | None, high: float | None = None, low: float | None = 0.0) -> str:
    """How a metric's display scale reads: "0–10" for a [0, 1] figure shown ×10 (scale 0.1),
    else :func:`scale_text` ("×10⁴"); empty without a scale."""
    if not scale:
        return ""
    if scale < 1 and low == 0 and high is not None:
        return f"0–{high / scale:g}"
    return scale_text(scale)


def shown_as(label: str) -> str:
    """A scale label in a sentence: "shown on 0–10", "shown ×10⁴"; empty without one."""
    if not label:
        return ""
    return f"shown on {label}" if label.startswith("0") else f"shown {label}"
