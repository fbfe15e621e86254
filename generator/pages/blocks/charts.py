"""Plotly charts with fixed ids and no template bloat; each page shows their data as tables.

plotly.js itself is vendored (site_src/assets) and loaded in the page head, so the inline
``Plotly.newPlot`` call finds it; nothing is fetched from another host and no toolbar is shown.
Hover text is written here (the series' own lines, escaped), never plotly's raw numbers; the
colours follow the page's scheme through ``lg-charts.js``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import plotly.graph_objects as go
from markupsafe import Markup

from generator.pages.blocks.render import opaque
from generator.pages.blocks.text import attr, escape_html
from generator.score.rounding import DECIMALS

# Distinct hues, colour-blind safe (Okabe–Ito without its black and yellow, which vanish on
# the dark and the light scheme), each paired with its own marker shape.
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#AA4499",
    "#999933",
    "#7F7F7F",
    "#A6761D",
)
SYMBOLS = (
    "circle",
    "square",
    "diamond",
    "triangle-up",
    "x",
    "star",
    "cross",
    "triangle-down",
    "pentagon",
    "hexagon",
)
#: Lines that join points of several series (a Pareto frontier), readable on both schemes.
GREY = "#6b7280"
#: The chart's colours on the light scheme; lg-charts.js sets them from the page's scheme.
INK, GRID = "#374151", "#e5e7eb"
#: Pixels of plot area and axes above the legend (as lg-charts.js keeps them).
PLOT = 300


def style_of(names: list[str]) -> dict[str, tuple[str, str]]:
    """A fixed colour and marker per name (sorted), the same on every chart of a version."""
    return {
        n: (PALETTE[i % len(PALETTE)], SYMBOLS[i % len(SYMBOLS)])
        for i, n in enumerate(sorted(names))
    }


def labels(titles: Mapping[str, str]) -> dict[str, str]:
    """The name each combination goes by on a chart: its title, or, where two share a title,
    the title and its id (a legend never shows one name twice)."""
    seen: dict[str, int] = {}
    for title in titles.values():
        seen[title] = seen.get(title, 0) + 1
    return {k: t if seen[t] == 1 else f"{t} ({k})" for k, t in titles.items()}


@dataclass(frozen=True)
class Series:
    """One trace. ``hover`` holds, per point, the lines its hover box shows (plain text)."""

    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    low: tuple[float, ...] | None = None
    high: tuple[float, ...] | None = None
    mode: str = "markers"
    dash: str | None = None
    color: str = PALETTE[0]
    symbol: str = SYMBOLS[0]
    hover: tuple[tuple[str, ...], ...] = ()
    size: int = 10
    x_low: tuple[float, ...] | None = None  # the horizontal interval, where x has one
    x_high: tuple[float, ...] | None = None


def _plain(text: str) -> str:
    """Text for plotly, which reads a subset of HTML (<a href>, <b>, ...) in every label:
    entities make it show tags literally and keep links from input out of the chart."""
    return html.escape(text, quote=False)


def _broken(name: str) -> str:
    """A combination's name for plotly on two lines, harness above model, never cut."""
    head, sep, tail = name.partition(" × ")
    return _plain(head) + (f" ×<br>{_plain(tail)}" if sep else "")


def _hover(lines: tuple[str, ...]) -> str:
    """A point's hover box: the name in bold (on two lines), then one line each."""
    first, *rest = lines
    return "<br>".join([f"<b>{_broken(first)}</b>", *map(_plain, rest)])


def _data(values: Iterable[float]) -> list[float]:
    """A chart's numbers to the downloads' decimals (:data:`DECIMALS`): the data itself, and
    no float noise below it in the page (two computations of one figure that differ in
    their last binary digits draw the same bytes)."""
    return [round(v, DECIMALS) for v in values]


def _bars(
    low: Sequence[float] | None, mid: Sequence[float], high: Sequence[float] | None, color: str
) -> dict[str, object] | None:
    """An interval's error bars around ``mid``, where the series has one."""
    if low is None or high is None:
        return None
    return {
        "type": "data",
        "symmetric": False,
        "array": _data(h - m for h, m in zip(high, mid, strict=True)),
        "arrayminus": _data(m - lo for lo, m in zip(low, mid, strict=True)),
        "thickness": 1.2,
        "width": 4,
        "color": color,
    }


def _error_x(s: Series) -> dict[str, object]:
    """The horizontal interval's bars, where the series has one (else nothing is set)."""
    bars = _bars(s.x_low, s.x, s.x_high, s.color)
    return {} if bars is None else {"error_x": bars}


def _trace(s: Series) -> go.Scatter:
    hover: dict[str, object] = {"hoverinfo": "skip"}
    if s.hover:
        hover = {
            "text": [_hover(lines) for lines in s.hover],
            "hovertemplate": "%{text}<extra></extra>",
        }
    return go.Scatter(
        x=_data(s.x),
        y=_data(s.y),
        name=_broken(s.name),
        mode=s.mode,
        error_y=_bars(s.low, s.y, s.high, s.color),
        marker={"size": s.size, "color": s.color, "symbol": s.symbol},
        line={"color": s.color, "dash": s.dash or "solid"},
        **hover,
        **_error_x(s),
    )


def _axis(title: str) -> dict[str, object]:
    return {
        "title": {"text": _plain(title)},
        "gridcolor": GRID,
        "linecolor": GRID,
        "zeroline": False,
        "automargin": True,
    }


#: How every chart of the site is drawn: no toolbar, no link to a plotly server, the width of
#: its column.
CONFIG = {
    "displayModeBar": False,
    "displaylogo": False,
    "responsive": True,
    "plotlyServerURL": "",
    "showSendToCloud": False,
}


def embedded(fig: go.Figure, div_id: str, height: int) -> str:
    """A figure as a div with a fixed id and the script that draws into it (plotly.js is
    loaded once by the theme, never from another host)."""
    return str(
        fig.to_html(
            full_html=False,
            include_plotlyjs=False,
            div_id=div_id,
            default_height=f"{height}px",
            default_width="100%",
            config=CONFIG,
        )
    )


def chart(
    div_id: str,
    title: str,
    series: list[Series],
    x_title: str,
    y_title: str,
    *,
    y_range: tuple[float, float] | None = None,
    x_log: bool = False,
    integer_x: bool = False,
    data_table: str = "",
) -> Markup:
    """An HTML figure: its title as the caption above, a div with a fixed id and the script
    that draws into it; the legend below the plot, so a narrow screen keeps its width."""
    fig = go.Figure([_trace(s) for s in series])
    below = 64 + 36 * -(-len(series) // 2)  # the legend's rows; lg-charts.js measures them
    xaxis = _axis(x_title) | {"type": "log" if x_log else "linear"}
    if integer_x:
        xaxis["dtick"] = 1
    yaxis = _axis(y_title)
    if y_range:
        yaxis["range"] = list(y_range)
    fig.update_layout(
        template="none",
        height=PLOT + below,
        autosize=True,  # the width follows the page's (the height, the legend's rows)
        margin={"l": 56, "r": 16, "t": 16, "b": below},
        xaxis=xaxis,
        yaxis=yaxis,
        showlegend=True,
        legend={
            "orientation": "h",
            "x": 0,
            "xanchor": "left",
            "y": 0,
            "yanchor": "bottom",
            "yref": "container",
        },
        hoverlabel={"namelength": -1, "align": "left", "font": {"size": 12}},
        font={"family": "sans-serif", "size": 13, "color": INK},
        paper_bgcolor="#ffffff",
        plot_bgcolor="#ffffff",
    )
    drawn = embedded(fig, div_id, PLOT + below)
    caption = escape_html(title)
    if data_table:
        caption += f' — data: <a href="#table-{attr(data_table)}">the table below</a>'
    return opaque(
        f'<figure class="lg-chart" aria-label="{attr(title)}">'
        f"<figcaption>{caption}</figcaption>{drawn}</figure>"
    )
