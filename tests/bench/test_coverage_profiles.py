"""bench/coverage_profiles.py: releases shaped like the EnterpriseClawBench example with a
known truth, the coverage of the Judge channel, skill-change, rater-agreement and
Lite-against-Full intervals, and the bench/README.md's summary of what it measured."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from synthetic import script

from generator.check import check_inputs
from generator.load import Inputs, load_inputs

pytestmark = pytest.mark.slow  # measures interval coverage

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "coverage_profiles.py"
RESULTS = SCRIPT.parent / "results" / "coverage_profiles.json"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return script(SCRIPT, "bench_coverage_profiles")


def _scores(bench: ModuleType, z: np.ndarray, channel: str, rng: np.random.Generator) -> Any:
    """Simulated Judge scores on the channel of runs at logits ``z`` (equal item weights)."""
    _, bias, noise, *_ = bench.CHANNELS[channel]
    return bench.levels(bench.logistic(z), bias, noise, rng).mean(axis=-1) / bench.G


@pytest.mark.parametrize("channel", ["text", "visual"])
def test_a_task_s_expected_score_is_the_mean_of_its_simulated_runs(
    bench: ModuleType, channel: str
) -> None:
    rng = np.random.default_rng(5)
    for mean, sd in ((0.4, 0.4), (-0.8, 1.2)):
        scores = _scores(bench, mean + sd * rng.standard_normal(400_000), channel, rng)
        error = scores.std() / np.sqrt(len(scores))
        assert abs(scores.mean() - bench.expect(mean, sd, channel)) < 5 * error


def test_a_skill_change_s_truth_is_the_mean_change_over_simulated_targets(
    bench: ModuleType,
) -> None:
    setting = bench.SETTINGS[0]
    truth = bench.truths(setting, np.full(5, 0.2))
    rng = np.random.default_rng(6)
    _, other = setting.abilities()
    n, sd = 200_000, float(np.sqrt(bench.SD_TASK**2 + bench.SD_PAIR**2 + bench.SD_RUN**2))
    targets = range(setting.tasks - setting.targets, setting.tasks)
    assert list(bench.SHIFT) == ["gpt-5.5", "haiku-4.5"]
    assert len(targets) == setting.targets > 0
    for level, shift in bench.SHIFT.items():
        for k in range(2):
            changes = []
            for t in targets:
                channel = bench.channel_of(t)
                base = other[k] - bench.CHANNELS[channel][0] + sd * rng.standard_normal(n)
                skill = shift[k] + bench.SD_SKILL * rng.standard_normal(n)
                changes.append(
                    _scores(bench, base + skill, channel, rng) - _scores(bench, base, channel, rng)
                )
            change = (1 - bench.RULE_WEIGHT) * np.mean(changes, axis=0)
            error = change.std() / np.sqrt(n)
            assert abs(change.mean() - truth["cells"][level][k]) < 5 * error


def test_the_set_truth_follows_the_two_orders(bench: ModuleType) -> None:
    assert {s.crossed for s in bench.SETTINGS} == {False, True}  # both orders are tried
    for setting in bench.SETTINGS:
        truth = bench.truths(setting, np.full(5, 0.2))
        lite, full = (np.argsort(truth["sets"][s]) for s in ("Lite", "Full"))
        assert (list(lite) == list(full)) == (not setting.crossed)
        assert (truth["set_rho"] == 1.0) == (not setting.crossed)
        assert -1 <= truth["set_rho"] <= 1


def test_the_rater_truth_does_not_rest_on_its_draw(bench: ModuleType) -> None:
    weights = np.array([0.3, 0.2, 0.2, 0.15, 0.15])
    first = bench.rater_truth(np.array([0.3, 0.0]), "visual", weights)
    other = bench.rater_truth(np.array([0.3, 0.0]), "visual", weights, seed=20)
    assert first["difference"] > 0  # the visual rater reads higher than the Judge (CHANNELS)
    for stat in ("spearman", "mae", "difference"):
        assert first[stat] == pytest.approx(other[stat], abs=0.005)


@pytest.mark.parametrize("index", [0, 2, 4])
def test_a_simulated_release_passes_every_check(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch, index: int
) -> None:
    setting = bench.SETTINGS[index]
    parts = bench.pr.parts(
        setting.tasks, setting.lite, setting.combos, setting.targets, bench.channel_of, 200
    )
    built: list[Any] = []
    real = bench.build_report
    monkeypatch.setattr(bench, "build_report", lambda v, d: built.append(v) or real(v, d))
    report, own, pairs = bench.simulate(setting, np.random.default_rng(1), parts)
    inputs, problems = load_inputs(bench.pr.TEMPLATE)
    assert not problems
    assert check_inputs(Inputs(bench.pr.TEMPLATE, tuple(built), inputs.cards)) == []
    # every interval the bench holds is there, resting on the tasks the setting says
    assert [s.tasks for s in report.sets] == [setting.tasks]
    (experiment,) = report.experiments
    assert {c.tasks for c in experiment.cells} == {setting.targets}
    assert {a.tasks for a in report.agreement} == {setting.rated}
    assert sorted(own) == sorted(bench.SHIFT)
    # the bench's rater pairs are the very pairs the engine compares
    for a in report.agreement:
        judge, second, task = pairs[a.channel]
        assert len(judge) == a.runs
        assert len(set(task.tolist())) == a.tasks
        assert a.mae.value == pytest.approx(np.abs(second - judge).mean(), abs=1e-12)
        assert a.difference.value == pytest.approx((second - judge).mean(), abs=1e-12)
        assert a.spearman.value == pytest.approx(bench.spearman(judge, second), abs=1e-12)


def test_a_small_run_holds_every_interval(bench: ModuleType) -> None:
    setting = bench.SETTINGS[0]
    found = bench.run_setting(setting, 2, 200)
    figures = found["figures"]
    scopes = 2 * setting.combos  # releases × combinations, per channel and set
    assert list(bench.CHANNELS) == ["text", "visual"]
    for channel in bench.CHANNELS:
        for scope in ("Lite", "Full"):
            assert figures[f"coverage: {channel} channel score, {scope}"]["trials"] == scopes
        for stat in ("ρ", "MAE", "mean difference"):
            assert figures[f"coverage: rater {stat}, {channel}"]["trials"] == 2
    assert figures[f"coverage: {bench.CHANGE}"]["trials"] == 2 * 2 * len(bench.SHIFT)
    assert figures["coverage: skill change, creator's mean"]["trials"] == 2 * len(bench.SHIFT)
    assert figures["coverage: Lite against Full, ρ"]["trials"] == 2
    assert not any("run noise" in name for name in figures)
    assert set(found["mean_width"]) == {n for n in figures if n.startswith("coverage: ")}
    assert {name for _, name in bench.README_ROWS if "run noise" not in name} <= set(figures)
    assert all(0 <= f["rate"] <= 1 and f["mc_se"] >= 0 for f in figures.values())


def test_over_few_targets_the_run_noise_interval_is_held_to_its_own_targets(
    bench: ModuleType,
) -> None:
    setting = next(s for s in bench.SETTINGS if s.targets < 5)  # min_tasks_to_resample
    figures = bench.run_setting(setting, 2, 200)["figures"]
    assert figures[f"coverage: {bench.CHANGE}, these targets (run noise)"]["trials"] == 8
    assert f"coverage: {bench.CHANGE}" not in figures
    assert {name for _, name in bench.README_ROWS if "run noise" in name} <= set(figures)


def test_quick_writes_the_results_in_the_shape_the_readme_reads(
    bench: ModuleType, tmp_path: Path
) -> None:
    path = tmp_path / "coverage_profiles.json"
    assert bench.main(["--quick", "--out", str(path)]) == 0
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["bootstrap_samples"] == 200
    (setting,) = document["settings"]
    assert setting["setting"] == bench.SETTINGS[0].name
    assert setting["releases"] == 3
    assert "coverage: Lite against Full, ρ" in setting["figures"]
    for f in setting["figures"].values():
        assert f["rate"] == round(f["hits"] / f["trials"], 4)
    block = bench.readme_block(document)
    first = bench.SETTINGS[0]
    assert f"| figure | {first.label} |" in block
    assert f"{first.label}: {first.name}, ρ {setting['truth']['set_rho']:g}" in block
    rate = setting["figures"]["coverage: Lite against Full, ρ"]["rate"]
    assert f"| Lite against Full, ρ | {rate:.3f} |" in block


def test_the_results_are_of_every_setting(bench: ModuleType) -> None:
    document = json.loads(RESULTS.read_text(encoding="utf-8"))
    assert [s["setting"] for s in document["settings"]] == [s.name for s in bench.SETTINGS]
    assert all(s["releases"] >= 200 for s in document["settings"])
    figures = 0
    for s in document["settings"]:
        for f in s["figures"].values():
            assert f["rate"] == round(f["hits"] / f["trials"], 4)
            figures += 1
    assert figures >= len(document["settings"]) > 0


def test_the_readme_summary_is_the_one_printed_from_the_results(bench: ModuleType) -> None:
    block = bench.readme_block(json.loads(RESULTS.read_text(encoding="utf-8")))
    readme = (SCRIPT.parent / "README.md").read_text(encoding="utf-8")
    start, end = bench.README_MARKS
    assert readme.count(start) == 1
    assert readme[readme.index(start) : readme.index(end) + len(end)] == block


def test_the_sets_interval_can_be_measured_as_the_raters(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--rho fisher`` swaps the sets' percentile interval for the raters' Fisher-z one,
    which never reaches a true ρ of 1 (why the sets keep the percentile interval); it
    writes nowhere the site's results are read from."""
    from generator.score import sets
    from generator.score.concordance import fisher_interval

    monkeypatch.setattr(sets, "order_interval", sets.order_interval)  # restored after
    with pytest.raises(SystemExit):
        bench.main(["--rho", "fisher", "--setting", "0"])
    assert bench.main(["--quick", "--rho", "fisher"]) == 0
    assert sets.order_interval is fisher_interval
    assert "coverage: Lite against Full, ρ: 0.000 ± 0.000 (0/3)" in capsys.readouterr().out
