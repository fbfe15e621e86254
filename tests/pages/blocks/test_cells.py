"""The cells and notes result pages share: estimates, combination links, Judge and view cells."""

from __future__ import annotations

import html
from dataclasses import replace

import pytest
from pagetools import small_version

from generator.pages import VersionContext
from generator.pages.blocks.cells import (
    FEWER_MARK,
    RUNS_MARK,
    combination_link,
    combo_cell,
    display_name,
    display_names,
    elsewhere_link,
    estimate_cell,
    estimate_record,
    estimate_text,
    fewer_note,
    fewer_tasks,
    groups_note,
    harness_name,
    judge_cell,
    model_name,
    rank_note,
    release_notice,
    runs_basis,
    runs_note,
    view_cell,
)
from generator.pages.blocks.text import NBSP, decimals, render_markdown
from generator.score.results import CombinationScores, Coverage, Estimate, Rate, Reliability
from generator.score.rounding import NO_INTERVAL

TASKS = Estimate(value=0.4321, low=0.3012, high=0.5987, tasks=9)
RUNS = Estimate(value=0.75, low=0.5, high=0.875, tasks=2, interval="runs")


def _bounds(text: str) -> tuple[float, float, float]:
    """The value and bounds a cell shows; the cell stays on one line (no plain space)."""
    assert " " not in text
    value, rest = text.removesuffix(RUNS_MARK).split(NBSP, 1)
    low, high = rest.strip("[]").split("," + NBSP)
    return float(value), float(low), float(high)


def _rounding(e: Estimate | Rate | Reliability) -> float:
    """How far a shown figure may be from its value: half a unit of its last decimal."""
    return 0.5 * 10.0 ** -decimals(e.low, e.high) + 1e-12


@pytest.mark.parametrize(
    "e",
    [
        TASKS,
        RUNS,
        Rate(successes=3, trials=4, value=0.75, low=0.3, high=0.95, tasks=2),
        Reliability(k=2, value=0.5, low=0.2, high=0.8, interval="runs"),
    ],
)
def test_an_estimate_shows_its_value_and_interval_and_sorts_by_value(
    e: Estimate | Rate | Reliability,
) -> None:
    cell = estimate_cell(e)
    assert cell.sort == e.value
    assert cell.text.endswith(RUNS_MARK) == (e.interval == "runs")
    shown = _bounds(cell.text)
    assert shown == pytest.approx((e.value, e.low, e.high), abs=_rounding(e))
    record = estimate_record("x", e)
    assert record == {"x": e.value, "x_low": e.low, "x_high": e.high, "x_interval": e.interval}


def test_a_missing_estimate_is_a_dash_and_null_fields() -> None:
    none = Estimate(value=None, low=None, high=None, tasks=0)
    assert estimate_cell(None).text == estimate_cell(none).text == "—"
    assert estimate_record("x", None) == {"x": None, "x_low": None, "x_high": None}


def test_a_combination_link_escapes_its_names_and_climbs_to_the_version() -> None:
    hostile = 'a"><script>x</script>'
    link = combination_link(hostile, 2, hostile + "h", hostile + "m", "fp<1>", True)
    assert "<script>" not in link
    assert link.startswith('<a href="../../combinations/')
    assert html.unescape(link.split('"')[1]) == f"../../combinations/{hostile}.html"
    assert 'title="configuration fingerprint">fp&#60;1&#62;</span>' in link
    assert "below the disclosure floor" in link
    bare = combination_link("c", 0, "Harness", "Model")
    assert (
        bare
        == f'<a href="combinations/c.html">Harness</a><br><span class="lg-sub">×{NBSP}Model</span>'
    )


def test_a_combination_is_named_by_its_harness_mode_and_model(
    contexts: list[VersionContext],
) -> None:
    named = 0
    for ctx in contexts:
        for combo, bundle in ctx.frame.bundles.items():
            named += 1
            c = bundle.combination
            card = ctx.cards[c.harnesscard]
            harness = harness_name(ctx, combo)
            assert harness.startswith(card.harness.name)
            modes = {m.id: m.title for m in card.modes}
            assert (c.harness_mode in modes) == harness.endswith(")")
            if c.harness_mode in modes:
                assert modes[c.harness_mode].lower() in harness
            assert model_name(ctx, combo) == c.model.name
            cell = combo_cell(ctx, combo, 0)
            assert cell.sort == f"{harness} × {c.model.name}"
    assert named == 8  # five combinations in v1.0, three in v1.1


def test_a_combination_cell_carries_its_fingerprint_and_floor(small: VersionContext) -> None:
    combo = sorted(small.frame.bundles)[0]
    cell = combo_cell(small, combo, 1)
    assert cell.html
    assert small.fingerprints[combo] in cell.text
    assert ("below the disclosure floor" in cell.text) == bool(small.below_floor.get(combo))
    floored = replace(small, below_floor={combo: ["some field"]})
    assert "below the disclosure floor" in combo_cell(floored, combo, 1).text


def _scores(**update: object) -> CombinationScores:
    return CombinationScores(combination="c", status="scored").model_copy(update=update)


def test_a_judge_cell_shows_its_coverage_or_why_it_is_withheld() -> None:
    shown = judge_cell(_scores(judge_score=TASKS, judge_coverage="2 of 3 tasks"))
    assert shown.html
    assert shown.sort == TASKS.value
    assert "2 of 3 tasks" in shown.text
    assert _bounds(html.unescape(shown.text.split("<br>")[0])) == pytest.approx(
        (TASKS.value, TASKS.low, TASKS.high), abs=_rounding(TASKS)
    )
    withheld = judge_cell(_scores(judge_coverage="withheld: too few tasks"))
    assert withheld.text == "withheld"
    assert judge_cell(_scores(judge_coverage=None)).text == "—"


def test_a_business_view_is_withheld_or_not_applicable() -> None:
    assert view_cell(None, "fatal_error_rate", ["fatal_error_rate"]).text == "withheld"
    assert view_cell(None, "fatal_error_rate", ["other"]).text == "not applicable"
    assert view_cell(TASKS, "fatal_error_rate", []) == estimate_cell(TASKS)


def test_runs_basis_finds_any_interval_of_run_noise() -> None:
    assert not runs_basis(_scores(task_score=TASKS, rule_score=TASKS))
    assert runs_basis(_scores(task_score=TASKS, judge_score=RUNS))
    reliability = [Reliability(k=1, value=0.5, low=0.1, high=0.9, interval="runs")]
    assert runs_basis(_scores(task_score=TASKS, reliability=reliability))


@pytest.mark.parametrize(("minimum", "confidence"), [(5, 0.95), (12, 0.9)])
def test_notes_say_the_release_s_own_figures(minimum: int, confidence: float) -> None:
    assert f"fewer than {minimum} tasks" in runs_note(minimum)
    rank = rank_note(minimum, confidence)
    assert f"at least {minimum} common tasks" in rank
    assert f"{round(confidence * 100)}% interval" in rank
    ctx = small_version()
    a, b, c = sorted(ctx.frame.bundles)[:3]
    groups = groups_note(ctx, [[a, b], [c]])
    names = [display_name(ctx, x) for x in (a, b, c)]
    assert "{" + f"{names[0]}, {names[1]}" + "} · {" + names[2] + "}" in groups
    assert f"Alone in its group, {names[2]} is compared with none and not ranked." in groups


def test_the_notice_shows_whenever_it_is_given(contexts: list[VersionContext]) -> None:
    """An illustrative release's notice under that title; any other release's notice (a
    publisher's "configurations are placeholders") under "Notice"; none without one."""
    ctx = contexts[0]
    assert ctx.release.illustrative
    assert ctx.release.notice
    notice = str(release_notice(ctx))
    assert "Illustrative release" in notice
    assert render_markdown(ctx.release.notice) in notice
    real = replace(ctx, release=ctx.release.model_copy(update={"illustrative": False}))
    shown = str(release_notice(real))
    assert ">Notice</p>" in shown
    assert "Illustrative release" not in shown
    assert render_markdown(ctx.release.notice) in shown
    none = replace(ctx, release=real.release.model_copy(update={"notice": None}))
    assert str(release_notice(none)) == ""


def test_a_figure_without_an_interval_says_why() -> None:
    """One task with one valid run: a measure's run noise cannot be estimated, so its
    figure has no interval, and says so instead of reading as exact."""
    bare = Estimate(value=2.5, low=None, high=None, tasks=1, interval="runs")
    assert estimate_text(bare).endswith(NO_INTERVAL)
    full = Estimate(value=2.5, low=2.0, high=3.0, tasks=1, interval="runs")
    assert estimate_text(full).endswith(RUNS_MARK)
    assert NO_INTERVAL not in estimate_text(full)


def test_a_withheld_number_links_where_it_can_be_read() -> None:
    link = elsewhere_link('public.html#table-"x"', "Public <group>")
    assert link.startswith('<a class="lg-elsewhere" href="public.html#table-&quot;x&quot;">')
    assert "Public &lt;group&gt;" in link
    judge = judge_cell(_scores(judge_coverage="withheld: too few tasks"), link)
    assert judge.html
    assert judge.text == f"withheld: {link}"
    assert judge_cell(_scores(judge_coverage=None), link).text == "—"
    view = view_cell(None, "fatal_error_rate", ["fatal_error_rate"], link)
    assert view.text == f"withheld: {link}"
    assert view_cell(None, "fatal_error_rate", [], link).text == "not applicable"


def _covering(combo: str, tasks: int, status: str = "scored") -> CombinationScores:
    coverage = Coverage(
        scope_tasks=18,
        covered_tasks=tasks,
        valid_tasks=tasks,
        complete_tasks=tasks,
        valid_runs=3 * tasks,
        expected_runs=3 * tasks,
        incomplete_runs=0,
        incomplete_causes={},
        complete=True,
        not_covered=[],
    )
    return CombinationScores(combination=combo, status=status, coverage=coverage)  # type: ignore[arg-type]


def test_a_score_over_fewer_tasks_than_its_neighbours_is_found_and_named(
    small: VersionContext,
) -> None:
    a, b = sorted(small.frame.bundles)[:2]
    combos = [_covering(a, 18), _covering(b, 16), _covering("gone", 2, "not-covered")]
    assert fewer_tasks(combos) == {b: 16}
    assert fewer_tasks(combos[:1]) == {}
    note = fewer_note(small, {b: 16}, 18, "office")
    assert note.startswith(FEWER_MARK.strip())
    assert f"{display_name(small, b)}: 16 of 18 tasks." in note  # b covers all of office
    assert fewer_note(small, {}, 18, "office") == ""
    # r's bundle does not cover erp (pagetools.small_version): the note says so
    assert f"{display_name(small, 'r')}: 1 of 3 tasks (not covered: all)" in fewer_note(
        small, {"r": 1}, 3, "erp"
    )
    assert display_name(small, "gone") == "gone"
    assert display_name(small, a) == f"{harness_name(small, a)} × {model_name(small, a)}"


def test_display_names_tell_every_combination_apart(
    small: VersionContext, contexts: list[VersionContext]
) -> None:
    for ctx in [small, *contexts]:
        names = display_names(ctx)
        assert sorted(names) == sorted(ctx.frame.bundles)
        assert len(set(names.values())) == len(names)
        plain = {k: display_name(ctx, k) for k in names}
        for combo, name in names.items():
            shared = list(plain.values()).count(plain[combo]) > 1
            assert name == (f"{plain[combo]} ({combo})" if shared else plain[combo])
    # the small version's bundles share one harness and model; the example's do not
    assert len(set(display_names(small).values())) > len(
        {display_name(small, k) for k in small.frame.bundles}
    )
