"""Plotly charts with fixed ids and no template bloat; each page shows their data as tables.

plotly.js itself is vendored (site_src/assets) and loaded in the page head, so the inline
``Plotly.newPlot`` call finds it; nothing is fetched from another host, and the buttons that
would send a chart to a cloud service are removed.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import plotly.graph_objects as go
from markupsafe import Markup

from generator.pages.render import opaque
from generator.pages.text import attr, escape_html

# Distinct hues (Okabe–Ito, colour-blind safe) and marker shapes, assigned per combination.
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#8C564B",
    "#7F7F7F",
    "#F0E442",
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


def style_of(names: list[str]) -> dict[str, tuple[str, str]]:
    """A fixed colour and marker per name (sorted), the same on every chart of a version."""
    return {
        n: (PALETTE[i % len(PALETTE)], SYMBOLS[i % len(SYMBOLS)])
        for i, n in enumerate(sorted(names))
    }


@dataclass(frozen=True)
class Series:
    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    low: tuple[float, ...] | None = None
    high: tuple[float, ...] | None = None
    mode: str = "markers"
    dash: str | None = None
    color: str = PALETTE[0]
    symbol: str = SYMBOLS[0]


def _plain(text: str) -> str:
    """Text for plotly, which reads a subset of HTML (<a href>, <b>, ...) in every label:
    entities make it show tags literally and keep links from input out of the chart."""
    return html.escape(text, quote=False)


def _error_y(s: Series) -> dict[str, object] | None:
    if s.low is None or s.high is None:
        return None
    return {
        "type": "data",
        "symmetric": False,
        "array": [h - y for h, y in zip(s.high, s.y, strict=True)],
        "arrayminus": [y - lo for lo, y in zip(s.low, s.y, strict=True)],
        "thickness": 1.2,
        "width": 4,
    }


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
    """An HTML figure: a div with a fixed id, the script that draws into it, a caption."""
    fig = go.Figure()
    for s in series:
        fig.add_trace(
            go.Scatter(
                x=list(s.x),
                y=list(s.y),
                name=_plain(s.name),
                mode=s.mode,
                error_y=_error_y(s),
                marker={"size": 10, "color": s.color, "symbol": s.symbol},
                line={"color": s.color, "dash": s.dash or "solid"},
            )
        )
    xaxis: dict[str, object] = {
        "title": {"text": _plain(x_title)},
        "type": "log" if x_log else "linear",
        "gridcolor": "#e5e7eb",
        "zeroline": False,
    }
    if integer_x:
        xaxis["dtick"] = 1
    yaxis: dict[str, object] = {
        "title": {"text": _plain(y_title)},
        "gridcolor": "#e5e7eb",
        "zeroline": False,
    }
    if y_range:
        yaxis["range"] = list(y_range)
    fig.update_layout(
        template="none",
        title={"text": _plain(title), "x": 0},
        height=420,
        margin={"l": 60, "r": 20, "t": 50, "b": 60},
        xaxis=xaxis,
        yaxis=yaxis,
        legend={"orientation": "h", "y": -0.25},
        font={"family": "sans-serif", "size": 13},
    )
    html = fig.to_html(
        full_html=False,
        include_plotlyjs=False,
        div_id=div_id,
        default_height="420px",
        default_width="100%",
        config={
            "displaylogo": False,
            "responsive": True,
            "plotlyServerURL": "",
            "showSendToCloud": False,
            "modeBarButtonsToRemove": ["sendDataToCloud", "sendChartToCloud"],
        },
    )
    caption = escape_html(title)
    if data_table:
        caption += f' — data: <a href="#table-{attr(data_table)}">the table below</a>'
    return opaque(
        f'<figure class="lg-chart" aria-label="{attr(title)}">{html}'
        f"<figcaption>{caption}</figcaption></figure>"
    )
