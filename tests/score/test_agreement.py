"""Rater agreement (generator/score/agreement.py) against a per-record oracle: each run's
channel score recomputed item by item from the records and the raters' lines (tests/rated.py),
the statistics from those scores, the withholding and the runs left out."""

from __future__ import annotations

import math
import random

import numpy as np
import pandas as pd
import pytest
from builders import bundle, catalog, release
from rated import (
    ITEMS,
    channel_score,
    judged_run,
    judged_task,
    loaded_bundle,
    loaded_version,
    rated,
    rated_release,
    rated_version,
    rater,
    replaced,
    with_raters,
)

from generator.load import LoadedRelease
from generator.score.agreement import agreement, channels
from generator.score.agreement_results import RaterAgreement
from generator.score.concordance import compare
from generator.score.frame import build_frame
from generator.score.stats import seed_for


def _agreement(loaded: LoadedRelease) -> list[RaterAgreement]:
    assert loaded.catalog is not None
    frame = build_frame(loaded, consented_only=True)
    return [r.result for r in agreement(frame, loaded.catalog.model, loaded.bundles, "office")]


def _oracle(loaded: LoadedRelease, rater_id: str, channel: str) -> pd.DataFrame:
    """(task, judge, second) of every run both rated, one record at a time."""
    rows = []
    for b in loaded.bundles:
        if not b.bundle.model.consent.granted:
            continue
        runs = b.runs.runs
        judge = b.runs.verdicts
        for r in b.raters:
            if r.rater.id != rater_id:
                continue
            for line in r.runs:
                at = runs.index[(runs["task"] == line.task) & (runs["run"] == line.run)]
                (row,) = at
                record = runs.loc[row]
                if record["status"] != "valid" or record["judge_valid"] != 1:
                    continue
                mine = judge[(judge["row"] == row) & (judge["kind"] == 2)]
                levels = dict(zip(mine["id"].astype(str), mine["value"], strict=True))
                failed = "m1" in set(b.runs.modules[b.runs.modules["row"] == row]["module"])
                first = channel_score(levels, channel, failed)
                second = channel_score({v.id: v.level for v in line.judge}, channel, failed)
                if first is not None and second is not None:
                    rows.append((line.task, first, second))
    return pd.DataFrame(rows, columns=["task", "judge", "second"])


def _rho(x: pd.Series, y: pd.Series) -> float:
    return float(np.corrcoef(x.rank(), y.rank())[0, 1])


def test_each_figure_is_the_oracle_s() -> None:
    loaded = rated_version(public=7)
    assert loaded.release is not None
    stats = loaded.release.model.statistics
    found = _agreement(loaded)
    assert [(a.channel, a.rater) for a in found] == [
        (c, r) for c in ("text", "visual") for r in ("humans", "judge2")
    ]
    for a in found:
        pairs = _oracle(loaded, a.rater, a.channel)
        error = pairs["second"] - pairs["judge"]
        assert (a.runs, a.tasks, a.held_out_tasks) == (len(pairs), pairs["task"].nunique(), 0)
        assert a.spearman is not None
        assert a.mae is not None
        assert a.difference is not None
        assert math.isclose(a.spearman.value or 0, _rho(pairs["judge"], pairs["second"]))
        assert math.isclose(a.mae.value or 0, float(error.abs().mean()))
        assert math.isclose(a.difference.value or 0, float(error.mean()))
        codes = pd.factorize(pairs["task"], sort=True)[0]
        seed = seed_for(stats.seed, "v0.1", "office", "agreement", a.rater, a.channel)
        expected = compare(
            pairs["judge"].to_numpy(),
            pairs["second"].to_numpy(),
            codes,
            stats.bootstrap_samples,
            seed,
            stats.confidence,
        )
        for got, want in ((a.spearman, expected.spearman), (a.mae, expected.mae)):
            assert got.low is not None
            assert got.high is not None
            assert math.isclose(got.low, want[1], abs_tol=1e-9)
            assert math.isclose(got.high, want[2], abs_tol=1e-9)
            assert got.low <= (got.value or 0) <= got.high
        assert a.interval_note is None
        assert a.withheld is None
    titles = {a.rater: (a.title, a.kind) for a in found}
    assert titles == {"humans": ("Human experts", "human"), "judge2": ("Second judge", "judge")}


def test_both_bundles_pool_and_each_rater_counts_its_own_runs() -> None:
    loaded = rated_version(public=5)
    humans = next(a for a in _agreement(loaded) if a.rater == "humans")
    judge2 = next(a for a in _agreement(loaded) if a.rater == "judge2")
    assert humans.runs == 2 * judge2.runs == 2 * 5 * 2  # two bundles, five tasks, two runs


def test_a_failed_module_puts_its_item_at_zero_on_both_sides() -> None:
    rng = random.Random(5)
    model = rated_release()
    tasks = [judged_task(f"t{i}") for i in range(5)]
    records = [
        judged_run(t["id"], i, rng, modules_failed=("m1",) if i == 1 else ())
        for t in tasks
        for i in (1, 2)
    ]
    humans = rater()
    lines = {"humans": [rated(r, rng) for r in records]}
    loaded = loaded_version(
        model, catalog(tasks), [loaded_bundle(with_raters(bundle("a"), humans), records, lines)]
    )
    text = next(a for a in _agreement(loaded) if a.channel == "text")
    pairs = _oracle(loaded, "humans", "text")
    assert text.mae is not None
    assert math.isclose(text.mae.value or 0, float((pairs["second"] - pairs["judge"]).abs().mean()))


def test_runs_without_a_valid_judge_result_and_unpublished_bundles_are_left_out() -> None:
    rng = random.Random(9)
    tasks = [judged_task(f"t{i}") for i in range(5)]
    records = [judged_run(t["id"], i, rng) for t in tasks for i in (1, 2)]
    records[0] = records[0].model_copy(update={"judge_valid": False})
    records[1] = records[1].model_copy(update={"status": "incomplete", "cause": "crash"})
    lines = {"humans": [rated(r, rng) for r in records]}
    shown = loaded_bundle(with_raters(bundle("a"), rater()), records, lines)
    hidden = loaded_bundle(with_raters(bundle("b", consent=False), rater()), records, lines)
    loaded = loaded_version(rated_release(), catalog(tasks), [shown, hidden])
    found = _agreement(loaded)
    assert len(found) == 2  # the humans on each of the two Judge channels; b is unpublished
    for a in found:
        assert a.runs == len(records) - 2 == len(_oracle(loaded, "humans", a.channel))


def test_a_rater_of_one_channel_counts_on_that_channel_only() -> None:
    rng = random.Random(2)
    tasks = [judged_task(f"t{i}") for i in range(5)]
    records = [judged_run(t["id"], i, rng) for t in tasks for i in (1, 2)]
    lines = {"humans": [rated(r, rng, ("J3",)) for r in records]}
    one = loaded_bundle(with_raters(bundle("a"), rater()), records, lines)
    (visual,) = _agreement(loaded_version(rated_release(), catalog(tasks), [one]))
    assert (visual.channel, visual.runs) == ("visual", len(records))


def test_without_channels_one_judge_over_every_item_but_the_overall() -> None:
    rng = random.Random(4)
    tasks = [judged_task(f"t{i}") for i in range(5)]
    for t in tasks:
        for item in t["scoring"]["judge_items"]:
            del item["channel"]
    records = [judged_run(t["id"], i, rng) for t in tasks for i in (1, 2)]
    lines = {"humans": [rated(r, rng) for r in records]}
    one = loaded_bundle(with_raters(bundle("a"), rater()), records, lines)
    model = release()
    assert channels(model) == [("judge", "Judge")]
    (judge,) = _agreement(loaded_version(model, catalog(tasks), [one]))
    weights = {i: w for i, _, w, _, o, _ in ITEMS if not o}
    first, second = [], []
    for record, line in zip(records, lines["humans"], strict=True):
        for side, levels in (
            (first, {v.id: v.level for v in record.judge}),
            (second, {v.id: v.level for v in line.judge}),
        ):
            tops = {i: g for i, _, _, g, _, _ in ITEMS}
            side.append(
                sum(weights[i] * levels[i] / tops[i] for i in weights) / sum(weights.values())
            )
    assert (judge.channel, judge.channel_title, judge.runs) == ("judge", "Judge", len(records))
    assert judge.mae is not None
    assert math.isclose(judge.mae.value or 0, float(np.mean(np.abs(np.subtract(second, first)))))


@pytest.mark.parametrize("tasks", [2, 4])
def test_too_few_rated_tasks_give_no_interval(tasks: int) -> None:
    loaded = rated_version(public=tasks)
    assert loaded.release is not None
    needed = max(3, loaded.release.model.statistics.min_tasks_to_resample)
    assert tasks < needed
    found = _agreement(loaded)
    assert len(found) == 4  # two second raters on two Judge channels
    for a in found:
        assert a.interval_note is not None
        assert f"{tasks} task(s) rated" in a.interval_note
        for f in (a.spearman, a.mae, a.difference):
            assert f is not None
            assert f.low is None
            assert f.high is None
        assert a.mae is not None
        assert a.mae.value is not None


def test_no_rater_no_figure() -> None:
    loaded = rated_version(public=5)
    bare = [loaded_bundle(with_raters(b.bundle.model), [], {}) for b in loaded.bundles]
    assert _agreement(replaced(loaded, **{b.folder: b for b in bare})) == []


def test_figures_of_another_domain_are_not_counted() -> None:
    loaded = rated_version(public=5)
    assert loaded.catalog is not None
    frame = build_frame(loaded, consented_only=True)
    assert agreement(frame, loaded.catalog.model, loaded.bundles, "erp") == []


def test_the_judge_side_is_the_engine_s_channel_score_of_each_run() -> None:
    """Differential: the Judge's channel score of each run, as the agreement forms it, is
    the run's channel column as the engine scores it (score/runs.py), on the example with two
    channels, where the run has a valid Judge result — the one formula of a channel score,
    computed two ways."""
    from pathlib import Path

    from generator.load import load_inputs
    from generator.score.agreement import channel_items, judge_scores
    from generator.score.runs import score_runs

    root = Path(__file__).resolve().parents[2] / "examples" / "enterpriseclawbench"
    inputs, _ = load_inputs(root)
    (version,) = inputs.releases
    assert version.catalog is not None
    frame = build_frame(version, consented_only=True)
    by = channel_items(frame, version.catalog.model)
    assert len(by.items) == 2
    combos = sorted(frame.bundles)
    found = judge_scores(frame, by, combos)
    scored = score_runs(frame).loc[found.index]
    # the agreement compares runs with a valid Judge result only: a run zeroed without one
    # scores 0 on its channel in the engine (§4.3(2)), and has no Judge verdict to compare
    judged = scored["judge_valid"].to_numpy(dtype=bool)
    assert not judged.all()
    for channel in by.items:
        engine = np.where(judged, scored[f"channel:{channel}"].to_numpy(dtype=float), np.nan)
        mine = found[channel].to_numpy(dtype=float)
        assert np.array_equal(np.isnan(engine), np.isnan(mine)), channel
        assert np.allclose(engine[~np.isnan(engine)], mine[~np.isnan(mine)]), channel
        assert (~np.isnan(mine)).sum() > 0
