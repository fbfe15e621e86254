"""Charts: the points given are the points drawn, labels are text, nothing leaves the host."""

from __future__ import annotations

from pagetools import plots, shown

from generator.pages.charts import PALETTE, SYMBOLS, Series, chart, style_of

HOSTILE = '<a href="https://evil.example">x</a><b>bold</b>'


def test_every_series_is_drawn_with_its_points_and_intervals() -> None:
    series = [
        Series("a", (1.0, 2.0), (0.25, 0.5), (0.125, 0.25), (0.5, 0.75), mode="lines+markers"),
        Series("b", (3.0,), (0.75,), color=PALETTE[1], symbol=SYMBOLS[1], dash="dot"),
    ]
    (plot,) = plots(str(chart("my-id", "Title", series, "x", "y", y_range=(0, 1))))
    assert plot.div == "my-id"
    assert [t["name"] for t in plot.traces] == ["a", "b"]
    for s, trace in zip(series, plot.traces, strict=True):
        assert (trace["x"], trace["y"], trace["mode"]) == (list(s.x), list(s.y), s.mode)
        assert (trace["marker"]["color"], trace["marker"]["symbol"]) == (s.color, s.symbol)
        assert trace["line"]["dash"] == (s.dash or "solid")
        if s.low is None or s.high is None:
            assert trace.get("error_y") is None
            continue
        bars = trace["error_y"]
        assert [y + up for y, up in zip(s.y, bars["array"], strict=True)] == list(s.high)
        assert [y - down for y, down in zip(s.y, bars["arrayminus"], strict=True)] == list(s.low)
    assert plot.layout["yaxis"]["range"] == [0, 1]


def test_axes_follow_the_options() -> None:
    s = [Series("a", (1.0,), (0.5,))]
    (log,) = plots(str(chart("c", "t", s, "x", "y", x_log=True, integer_x=True)))
    (linear,) = plots(str(chart("c", "t", s, "x", "y")))
    assert (log.layout["xaxis"]["type"], log.layout["xaxis"]["dtick"]) == ("log", 1)
    assert linear.layout["xaxis"]["type"] == "linear"
    assert "dtick" not in linear.layout["xaxis"]
    assert "range" not in linear.layout["yaxis"]


def test_labels_from_input_are_text_to_plotly_and_to_the_page() -> None:
    markup = str(chart("c", HOSTILE, [Series(HOSTILE, (1.0,), (0.5,))], HOSTILE, HOSTILE))
    (plot,) = plots(markup)
    texts = [
        plot.traces[0]["name"],
        plot.layout["title"]["text"],
        plot.layout["xaxis"]["title"]["text"],
        plot.layout["yaxis"]["title"]["text"],
    ]
    assert all("<" not in t and "&lt;a href" in t for t in texts)
    page = shown(markup)
    assert "<a href=" not in page.replace('<a href="#', "")
    assert "<b>" not in page


def test_the_chart_loads_nothing_and_links_its_data_table() -> None:
    s = [Series("a", (1.0,), (0.5,))]
    page = shown(str(chart("c", "t", s, "x", "y", data_table="my-table")))
    assert "<script src" not in page
    assert "cdn" not in page.lower()
    assert '"displaylogo": false' in page
    assert 'href="#table-my-table"' in page
    assert "#table-" not in shown(str(chart("c", "t", s, "x", "y")))


def test_a_name_keeps_its_style_whatever_the_order_of_the_names() -> None:
    names = [f"c{i}" for i in range(len(PALETTE))]
    styles = style_of(names)
    assert len(set(styles.values())) == len(names)  # distinct up to the palette's size
    assert style_of(list(reversed(names))) == styles
    assert set(style_of([*names, "zz"]).values()) <= {
        (c, s) for c, s in zip(PALETTE, SYMBOLS, strict=True)
    }
