"""Plotly charts with fixed ids and no template bloat; each page shows their data as tables.

plotly.js itself is vendored (site_src/assets) and loaded in the page head, so the inline
``Plotly.newPlot`` call finds it; nothing is fetched from another host.
"""

from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go
from markupsafe import Markup

PALETTE = (
    "#1f5fa8",
    "#c2410c",
    "#15803d",
    "#7e22ce",
    "#b45309",
    "#0f766e",
    "#be123c",
    "#4d7c0f",
    "#1d4ed8",
    "#a21caf",
)


@dataclass(frozen=True)
class Series:
    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    low: tuple[float, ...] | None = None
    high: tuple[float, ...] | None = None
    mode: str = "markers"
    dash: str | None = None


def chart(
    div_id: str,
    title: str,
    series: list[Series],
    x_title: str,
    y_title: str,
    *,
    y_range: tuple[float, float] | None = None,
    x_log: bool = False,
) -> Markup:
    """An HTML fragment: a div with a fixed id and the script that draws into it."""
    fig = go.Figure()
    for i, s in enumerate(series):
        error_y = None
        if s.low is not None and s.high is not None:
            error_y = {
                "type": "data",
                "symmetric": False,
                "array": [h - y for h, y in zip(s.high, s.y, strict=True)],
                "arrayminus": [y - lo for lo, y in zip(s.low, s.y, strict=True)],
                "thickness": 1.2,
                "width": 4,
            }
        fig.add_trace(
            go.Scatter(
                x=list(s.x),
                y=list(s.y),
                name=s.name,
                mode=s.mode,
                error_y=error_y,
                marker={"size": 10, "color": PALETTE[i % len(PALETTE)]},
                line={"color": PALETTE[i % len(PALETTE)], "dash": s.dash or "solid"},
            )
        )
    fig.update_layout(
        template="none",
        title={"text": title, "x": 0},
        height=420,
        margin={"l": 60, "r": 20, "t": 50, "b": 60},
        xaxis={
            "title": {"text": x_title},
            "type": "log" if x_log else "linear",
            "gridcolor": "#e5e7eb",
            "zeroline": False,
        },
        yaxis={
            "title": {"text": y_title},
            "gridcolor": "#e5e7eb",
            "zeroline": False,
            **({"range": list(y_range)} if y_range else {}),
        },
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
            "modeBarButtonsToRemove": ["sendDataToCloud"],
        },
    )
    return Markup(f'<figure class="lg-chart" aria-label="{title}">{html}</figure>')
