"""An experiment's paired changes against values computed here from the run records."""

from __future__ import annotations

import pytest
from experimenttools import (
    CONSUMERS,
    EXPERIMENT,
    HELD_TARGETS,
    LEVELS,
    PUBLIC_TARGETS,
    SOURCES,
    TARGETS,
    experiment_inputs,
    experiment_release,
    experiment_version,
    runs_of,
    task_mean,
    treatment_id,
)

from generator.score.changes import ExperimentResult
from generator.score.experiments import experiment_results, pairs
from generator.score.frame import build_frame
from generator.score.version import score_version


def _result(**release: object) -> ExperimentResult:
    rel = experiment_release(**release) if release else None
    (measured,) = experiment_results(experiment_version(rel))["office"]
    result = measured.result
    return result


def _change(level: str, consumer: str, tasks: list[str]) -> float:
    treated = treatment_id(level, consumer)
    return sum(task_mean(treated, t) - task_mean(consumer, t) for t in tasks) / len(tasks)


def test_each_cell_is_the_mean_paired_change_over_the_targets() -> None:
    result = _result()
    assert [(c.level, c.consumer) for c in result.cells] == [
        (level, consumer) for level in LEVELS for consumer in sorted(CONSUMERS)
    ]
    for c in result.cells:
        assert c.treatment == treatment_id(c.level, str(c.consumer))
        assert c.value == pytest.approx(_change(c.level, str(c.consumer), TARGETS))
        assert c.tasks == len(TARGETS)
        assert c.held_out == len(HELD_TARGETS)
        assert c.interval == "tasks"  # seven targets, at least min_tasks_to_resample
        assert c.low is not None
        assert c.high is not None
        assert c.low <= c.value <= c.high
    values = {round(c.value or 0, 9) for c in result.cells}
    assert len(values) > 1  # the fixture varies: a cell cannot pass by being a constant


def test_a_level_s_mean_averages_its_consumers_on_the_same_tasks() -> None:
    result = _result()
    assert [m.level for m in result.level_means] == LEVELS
    for mean in result.level_means:
        mine = [_change(mean.level, c, TARGETS) for c in CONSUMERS]
        assert mean.value == pytest.approx(sum(mine) / len(mine))
        assert mean.consumer is None
        assert mean.low is not None
        assert mean.high is not None
        assert mean.low <= mean.value <= mean.high


def test_counts_say_what_the_experiment_rests_on() -> None:
    result = _result()
    assert (result.sources, result.targets) == (len(SOURCES), len(TARGETS))
    assert (result.public_targets, result.held_out_targets) == (
        len(PUBLIC_TARGETS),
        len(HELD_TARGETS),
    )
    assert list(result.levels) == [v["id"] for v in EXPERIMENT["levels"]]
    assert list(result.consumers) == sorted(CONSUMERS)


def test_per_task_changes_are_of_public_targets_only() -> None:
    result = _result()
    assert {t.task for t in result.tasks} == set(PUBLIC_TARGETS)
    assert not {t.task for t in result.tasks} & set(HELD_TARGETS)
    for t in result.tasks:
        treated = treatment_id(t.level, t.consumer)
        assert t.treatment == pytest.approx(task_mean(treated, t.task))
        assert t.baseline == pytest.approx(task_mean(t.consumer, t.task))
        assert t.value == pytest.approx(t.treatment - t.baseline)
    assert len(result.tasks) == len(PUBLIC_TARGETS) * len(result.cells)
    assert result.tasks_withheld is not None
    assert str(len(HELD_TARGETS)) in result.tasks_withheld


def test_a_public_only_experiment_over_few_targets_takes_the_run_noise() -> None:
    experiment = {**EXPERIMENT, "targets": PUBLIC_TARGETS}
    runs, bundles = experiment_inputs()
    for combo, b in bundles.items():
        if b.condition is not None:
            runs[combo] = runs_of(combo, PUBLIC_TARGETS)
    loaded = experiment_version(experiment_release(experiment), (runs, bundles))
    (measured,) = experiment_results(loaded)["office"]
    result = measured.result
    assert result.tasks_withheld is None
    assert result.held_out_targets == 0
    assert len(result.cells) == len(LEVELS) * len(CONSUMERS) == 4
    for c in result.cells:
        assert c.interval == "runs"  # two tasks: fewer than min_tasks_to_resample
        assert c.value == pytest.approx(_change(c.level, str(c.consumer), PUBLIC_TARGETS))
    assert {t.task for t in result.tasks} == set(PUBLIC_TARGETS)


def test_treatments_are_on_no_board_and_in_their_experiment_only() -> None:
    scored = score_version(experiment_version())
    treatments = {treatment_id(level, c) for level in LEVELS for c in CONSUMERS}
    assert not treatments & set(scored.frame.bundles)
    scopes = 0
    for report in scored.reports.values():
        assert not treatments & {c.id for c in report.combinations}
        assert not treatments & {row.combination for row in report.tasks}
        for scope in report.scopes:
            assert not treatments & {c.combination for c in scope.combinations}
            scopes += 1
    assert scopes > len(scored.reports) == 2
    (result,) = scored.reports["office"].experiments
    assert {c.treatment for c in result.cells} == treatments
    assert scored.reports["erp"].experiments == []


def test_pairs_follow_the_declared_levels_then_the_consumers() -> None:
    loaded = experiment_version()
    frame = build_frame(loaded)
    found = pairs(frame.release, frame.bundles, frame.release.profile.experiments[0])
    assert [(p.level, p.consumer) for p in found] == [
        (level, c) for level in LEVELS for c in sorted(CONSUMERS)
    ]


def test_a_release_without_experiments_reports_none() -> None:
    runs, bundles = experiment_inputs()
    plain = {k: v for k, v in bundles.items() if v.condition is None}
    rel = experiment_release(profile={})
    loaded = experiment_version(rel, ({k: runs[k] for k in plain}, plain))
    assert experiment_results(loaded) == {}
    report = score_version(loaded).reports["office"]
    assert "experiments" not in report.model_dump(mode="json")


def test_an_interval_over_tasks_is_as_wide_as_the_tasks_spread() -> None:
    """The bootstrap's half-width against t · sd / √T of the per-task changes, computed here
    (the bootstrap's own draws differ, so within a margin)."""
    from statistics import stdev

    from generator.score.stats import t_value

    result = _result()
    confidence = experiment_release().statistics.confidence
    assert len(result.cells) == len(LEVELS) * len(CONSUMERS) == 4
    for c in result.cells:
        treated = treatment_id(c.level, str(c.consumer))
        gaps = [task_mean(treated, t) - task_mean(str(c.consumer), t) for t in TARGETS]
        half = t_value(confidence, len(gaps) - 1) * stdev(gaps) / len(gaps) ** 0.5
        assert c.low is not None
        assert c.high is not None
        assert (c.high - c.low) / 2 == pytest.approx(half, rel=0.35)


def test_a_level_whose_consumers_ran_different_targets_has_no_mean() -> None:
    runs, bundles = experiment_inputs()
    combo = treatment_id(LEVELS[0], "base-b")
    runs[combo] = runs_of(combo, TARGETS[1:])
    (measured,) = experiment_results(experiment_version(None, (runs, bundles)))["office"]
    result = measured.result
    cells = {(c.level, c.consumer): c for c in result.cells}
    assert cells[(LEVELS[0], "base-b")].tasks == len(TARGETS) - 1
    assert cells[(LEVELS[0], "base-b")].value == pytest.approx(
        _change(LEVELS[0], "base-b", TARGETS[1:])
    )
    means = {c.level: c for c in result.level_means}
    assert means[LEVELS[0]].value is None
    assert means[LEVELS[0]].withheld is not None
    assert means[LEVELS[1]].value is not None
