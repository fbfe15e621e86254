"""What the views' pages share, against the example's reports: the scope a view shows (all
tasks unless the public ones publish more combinations), the axis values in order, the ids
made of them, the sub-line of a cell with its carried-state mark."""

from __future__ import annotations

from generator.pages import VersionContext
from generator.pages.blocks.cells import CARRIED
from generator.pages.views.parts import (
    MARK,
    axis_values,
    combinations,
    rank_text,
    shown_scope,
    slug,
    sub_line,
)


def test_a_view_shows_the_group_that_publishes_more(enterprise: VersionContext) -> None:
    assert len(enterprise.reports) == 4  # the example's four domains
    for report in enterprise.reports.values():
        whole = [s for s in report.scopes if s.scope.subdivision is None and not s.scope.facets]
        chosen = shown_scope(enterprise, report.domain, {})
        assert chosen is not None
        published = {
            s.scope.group: sum(c.status != "withheld" for c in s.combinations)
            for s in whole
            if not s.withheld and s.scope.group != "held-out"
        }
        assert published[chosen.scope.group] == max(published.values())
        if chosen.scope.group == "public":
            assert published["public"] > published.get("all", -1)


def test_axis_values_are_every_value_once_in_order(enterprise: VersionContext) -> None:
    infos = list(combinations(enterprise).values())
    assert [a.id for a in enterprise.release.profile.axes] == ["method", "backbone"]
    for axis in enterprise.release.profile.axes:
        values = axis_values(infos, axis.id)
        assert sorted(set(values)) == sorted({c.axes[axis.id] for c in infos})
        assert values == sorted(values, key=str.lower)
        assert len({slug(v) for v in values}) == len(values)  # table ids stay apart


def test_a_slug_is_lower_case_words_joined() -> None:
    assert slug("GPT-4.1") == "gpt-4-1"
    assert slug("  ") == "x"


def test_a_sub_line_carries_the_mark_spelled_out_in_its_title() -> None:
    line = sub_line(rank_text(1, 3), True)
    assert "rank 1–3" in line
    assert f'title="{CARRIED}">{MARK}<' in line
    assert MARK not in sub_line(rank_text(2, 2), False)
    assert sub_line("", False) == ""
    assert rank_text(2, 2) == "rank 2"


def test_a_view_of_the_composite_says_where_its_channels_stand(clawbench: VersionContext) -> None:
    """Where a view shows the score that combines Judge channels, its note names them and
    where each stands beside it; not for another metric, nor without channels."""
    from generator.pages.views.parts import channels_note

    domain = clawbench.release.domains[0].id
    outcome = clawbench.release.outcome(domain)
    said = channels_note(clawbench, domain, outcome)
    assert [c.id for c in clawbench.release.profile.channels] == ["text", "visual"]
    for channel in clawbench.release.profile.channels:
        assert channel.title in said
    assert "leaderboard" in said
    cost = next(m for m in clawbench.release.metrics if m.currency)
    assert channels_note(clawbench, domain, cost) == ""
