"""A combination's efficiency: means of task means of its counts, and for a count some valid
runs leave out, the runs its mean rests on (never a 0 for what was not recorded)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from builders import catalog, release, run, task, version

from generator.models import RunRecord
from generator.score.report import build_report
from generator.score.results import CombinationScores, Efficiency

TASKS = [task(f"t{i}") for i in range(1, 6)]


def _office(change: Callable[[str, RunRecord], RunRecord]) -> dict[str, CombinationScores]:
    """Combinations p and q on five tasks, two runs each (``turns`` = the run's index,
    ``duration`` = 10 × the task's number), each record passed through ``change``."""
    runs = {
        c: [
            change(c, run(t["id"], i, duration=10.0 * n, turns=i))
            for n, t in enumerate(TASKS, 1)
            for i in (1, 2)
        ]
        for c in ("p", "q")
    }
    report = build_report(version(release(), catalog(TASKS), runs), "office")
    return {c.combination: c for c in report.scopes[0].combinations}


def _efficiency(c: CombinationScores) -> Efficiency:
    assert c.efficiency is not None
    return c.efficiency


def test_every_count_on_every_run_needs_no_coverage_said() -> None:
    office = _office(lambda _, r: r)
    p = _efficiency(office["p"])
    assert p.recorded == {}
    assert p.turns == pytest.approx(1.5)
    assert p.duration_s == pytest.approx(30.0)
    assert (p.input_tokens, p.output_tokens) == (100.0, 10.0)
    assert p.total_tokens == pytest.approx(110.0)
    assert "recorded" not in p.model_dump(exclude_none=True)  # the JSON as before


def test_a_count_left_out_by_some_runs_is_a_mean_over_those_that_record_it() -> None:
    """q records turns on its first runs only and output tokens on task 1 only; p records
    everything. q's turns are the mean over its first runs (1, never pulled towards 0), on
    5 of 10 valid runs; its total tokens rest on the 2 runs that record both kinds."""

    def change(combo: str, r: RunRecord) -> RunRecord:
        if combo != "q":
            return r
        update: dict[str, object] = {} if r.run == 1 else {"turns": None}
        if r.task != "t1":
            update["output_tokens"] = None
        return r.model_copy(update=update)

    office = _office(change)
    q = _efficiency(office["q"])
    assert q.turns == pytest.approx(1.0)
    assert q.recorded == {"turns": 5, "output_tokens": 2, "total_tokens": 2}
    assert _efficiency(office["p"]).recorded == {}


def test_a_count_no_run_records_is_none_and_no_coverage() -> None:
    office = _office(lambda _, r: r.model_copy(update={"turns": None}))
    assert sorted(office) == ["p", "q"]
    for c in office.values():
        assert _efficiency(c).turns is None
        assert _efficiency(c).recorded == {}


def test_tokens_left_out_by_some_runs_keep_a_combination_off_the_frontier() -> None:
    """The frontier compares only combinations whose tokens every valid run records."""
    office = _office(
        lambda c, r: r.model_copy(update={"input_tokens": None}) if (c, r.run) == ("q", 2) else r
    )
    assert office["q"].pareto is None
    assert office["p"].pareto is None  # alone in its tokenizer: not compared
    whole = _office(lambda _, r: r)
    assert {whole["p"].pareto, whole["q"].pareto} <= {True, False}


def test_total_tokens_are_the_mean_over_the_runs_that_record_both_kinds() -> None:
    """q's second runs use twice the input tokens and leave output out: its total is 110 (the
    first runs, which record both), not the mean input 150 plus the mean output 10; its input
    mean rests on every run."""

    def change(combo: str, r: RunRecord) -> RunRecord:
        if combo != "q" or r.run == 1:
            return r
        return r.model_copy(update={"input_tokens": 200, "output_tokens": None})

    q = _efficiency(_office(change)["q"])
    assert q.input_tokens == pytest.approx(150.0)
    assert q.output_tokens == pytest.approx(10.0)
    assert q.total_tokens == pytest.approx(110.0)
    assert q.recorded == {"output_tokens": 5, "total_tokens": 5}
