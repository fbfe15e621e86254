"""Charts: the points given are the points drawn, labels are text, nothing leaves the host."""

from __future__ import annotations

from pagetools import plots, shown

from generator.pages.blocks.charts import GREY, PALETTE, SYMBOLS, Series, chart, labels, style_of

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
    s = Series(HOSTILE, (1.0,), (0.5,), hover=((HOSTILE, HOSTILE),))
    markup = str(chart("c", HOSTILE, [s], HOSTILE, HOSTILE))
    (plot,) = plots(markup)
    texts = [
        plot.traces[0]["name"],
        plot.traces[0]["text"][0].removeprefix("<b>"),
        plot.layout["xaxis"]["title"]["text"],
        plot.layout["yaxis"]["title"]["text"],
    ]
    assert all("<a" not in t and "&lt;a href" in t for t in texts)
    assert "title" not in plot.layout  # the title is the caption, text of the page
    page = shown(markup)
    assert "<a href=" not in page.replace('<a href="#', "")
    assert "<b>bold" not in page


def test_hover_shows_the_lines_written_for_each_point_and_never_cuts_a_name() -> None:
    name = "A long harness name (with its mode) × A model 1.2"
    lines = ((name, "Task Score 0.500 [0.250, 0.750]", "1,234 tokens"), (name, "second"))
    s = Series(name, (1.0, 2.0), (0.5, 0.6), hover=lines)
    (plot,) = plots(str(chart("c", "t", [s, Series("frontier", (1.0,), (0.5,))], "x", "y")))
    drawn, frontier = plot.traces
    assert drawn["hovertemplate"] == "%{text}<extra></extra>"  # no trace name box, no raw x, y
    head, tail = name.split(" × ")
    assert drawn["name"] == f"{head} ×<br>{tail}"
    assert drawn["text"] == [
        f"<b>{head} ×<br>{tail}</b><br>" + "<br>".join(point[1:]) for point in lines
    ]
    assert plot.layout["hoverlabel"]["namelength"] == -1
    assert frontier["hoverinfo"] == "skip"


def test_no_toolbar_and_colours_a_script_can_follow() -> None:
    s = [Series("a", (1.0,), (0.5,))]
    page = shown(str(chart("c", "t", s, "x", "y")))
    assert '"displayModeBar": false' in page
    (plot,) = plots(page)
    assert plot.layout["legend"]["orientation"] == "h"
    assert plot.layout["legend"]["yanchor"] == "bottom"  # below the plot
    assert plot.layout["xaxis"]["automargin"]
    assert plot.layout["yaxis"]["automargin"]


def _luminance(colour: str) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i : i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_every_colour_shows_on_the_light_and_the_dark_scheme() -> None:
    """Material's default and slate backgrounds; each series also has its own marker."""
    for colour in (*PALETTE, GREY):
        assert _contrast(colour, "#ffffff") >= 2, colour
        assert _contrast(colour, "#1e2129") >= 2, colour
    assert len(set(SYMBOLS)) == len(SYMBOLS) == len(PALETTE) == len(set(PALETTE))


def test_a_legend_never_shows_one_name_twice() -> None:
    titles = {"a": "Same", "b": "Same", "c": "Other"}
    names = labels(titles)
    assert len(set(names.values())) == len(titles)
    assert names["c"] == "Other"
    assert all(names[k].startswith(titles[k]) and k in names[k] for k in ("a", "b"))


def test_a_name_keeps_its_style_whatever_the_order_of_the_names() -> None:
    names = [f"c{i}" for i in range(len(PALETTE))]
    styles = style_of(names)
    assert len(set(styles.values())) == len(names)  # distinct up to the palette's size
    assert style_of(list(reversed(names))) == styles
    assert set(style_of([*names, "zz"]).values()) <= {
        (c, s) for c, s in zip(PALETTE, SYMBOLS, strict=True)
    }


def test_a_horizontal_interval_is_drawn_only_where_given() -> None:
    bare = Series("a", (2.0,), (0.5,))
    wide = Series("b", (2.0, 4.0), (0.5, 0.6), x_low=(1.5, 3.0), x_high=(3.0, 4.5))
    (plot,) = plots(str(chart("c", "t", [bare, wide], "x", "y", x_log=True)))
    assert plot.traces[0].get("error_x") is None
    bars = plot.traces[1]["error_x"]
    assert wide.x_high is not None
    assert wide.x_low is not None
    assert [x + up for x, up in zip(wide.x, bars["array"], strict=True)] == list(wide.x_high)
    assert [x - dn for x, dn in zip(wide.x, bars["arrayminus"], strict=True)] == list(wide.x_low)
