"""bench/coverage_measure.py: the simulation of a measured outcome with a known truth, and the
bench/README.md's summary of what it measured."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from synthetic import script

from generator.models import Catalog

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "coverage_measure.py"
RESULTS = SCRIPT.parents[1] / "site_src" / "coverage.json"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return script(SCRIPT, "bench_coverage_measure")


@pytest.mark.parametrize("kind", ["cost", "earnings"])
def test_the_population_truth_is_the_mean_of_the_task_truths(bench: ModuleType, kind: str) -> None:
    setting = bench.Setting(kind, 400_000, 2)
    bases = bench.draw_bases(setting, 0.6, np.random.default_rng(1))
    drawn = bench.task_truths(setting, bases).mean(axis=1)
    truth = bench.population_truths(setting, 0.6)
    assert drawn == pytest.approx(truth, rel=0.01, abs=0.01 * bench.EARNINGS_SCALE)
    # a tie, then gaps in the metric's direction: the last combination is the best
    better = np.diff(truth) if setting.higher else -np.diff(truth)
    assert better[0] == 0
    assert (better[1:] > 0).all()


@pytest.mark.parametrize("failed", [0.0, 0.2])
def test_a_task_s_truth_is_the_mean_of_its_runs_a_failed_run_at_the_failure_value(
    bench: ModuleType, failed: float
) -> None:
    for kind in ("cost", "earnings"):
        setting = bench.Setting(kind, 3, 200_000, failed)
        rng = np.random.default_rng(2)
        bases = bench.draw_bases(setting, 0.6, rng)
        runs = bench.draw_runs(setting, bases, rng)
        assert np.isnan(runs).mean() == pytest.approx(failed, abs=0.002)
        scored = np.where(np.isnan(runs), setting.failure_value, runs)
        se = scored.std(axis=2) / np.sqrt(setting.runs)  # of each mean, over the runs drawn
        truth = bench.task_truths(setting, bases)
        assert (np.abs(scored.mean(axis=2) - truth) < 5 * se).all()


def test_over_resampled_tasks_every_figure_is_measured(bench: ModuleType) -> None:
    found = bench.run_setting(bench.Setting("cost", 6, 2), 3, 0.6, 200)
    figures = found["figures"]
    assert figures["coverage: domain mean"]["trials"] == 3 * len(bench.NAMES)
    assert figures["false difference: tied pair called different"]["trials"] == 3
    assert sum(name.startswith("power: ") for name in figures) == len(bench.GAPS)
    assert not any("run noise" in name for name in figures)
    assert all(0 <= f["rate"] <= 1 and f["mc_se"] >= 0 for f in figures.values())
    truth = bench.population_truths(bench.Setting("cost", 6, 2), 0.6)
    assert found["truth"] == {
        n: round(float(v), 1) for n, v in zip(bench.NAMES, truth, strict=True)
    }


def test_over_few_tasks_the_run_noise_interval_is_held_to_its_own_tasks(bench: ModuleType) -> None:
    found = bench.run_setting(bench.Setting("earnings", 2, 2), 3, 0.6, 200)
    figures = found["figures"]
    assert figures["coverage: run noise, mean of these tasks"]["trials"] == 3 * len(bench.NAMES)
    assert "coverage: domain mean" not in figures
    # run noise alone never orders two combinations
    assert figures["false difference: tied pair called different"]["hits"] == 0


@pytest.mark.parametrize("kind", ["cost", "earnings"])
def test_ranks_read_the_metric_s_direction(bench: ModuleType, kind: str) -> None:
    setting = bench.Setting(kind, 20, 2, failed=0.0)
    cat = bench._catalog(setting)
    parts = (
        bench._release(setting, cat, 500),
        Catalog.model_validate(cat),
        bench.cov._bundles(bench.cov.Setting(setting.tasks, setting.runs)),
    )
    report, truths = bench.simulate(setting, np.random.default_rng(3), 0.6, parts)
    scope = next(s for s in report.scopes if s.scope.subdivision is None and s.scope.group == "all")
    population = bench.population_truths(setting, 0.6)
    best = bench.NAMES[int(np.argmax(population) if setting.higher else np.argmin(population))]
    ranks = {c.combination: (c.rank, c.rank_worst) for c in scope.combinations}
    assert ranks[best] == (1, 1)
    assert all(low > 1 for name, (low, _) in ranks.items() if name != best)
    assert truths.shape == (len(bench.NAMES), setting.tasks)


def test_the_results_keep_the_rest_of_the_file(bench: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "coverage.json"
    path.write_text(json.dumps({"settings": [1], "measure": {"old": True}}), encoding="utf-8")
    bench.write(path, {"new": True})
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "settings": [1],
        "measure": {"new": True},
    }


def test_the_results_are_of_every_setting() -> None:
    section = json.loads(RESULTS.read_text(encoding="utf-8"))["measure"]
    bench = script(SCRIPT, "bench_coverage_measure")
    assert [s["setting"] for s in section["settings"]] == [s.name for s in bench.SETTINGS]
    assert all(s["releases"] >= 300 for s in section["settings"])
    figures = 0
    for s in section["settings"]:
        for f in s["figures"].values():
            assert f["rate"] == round(f["hits"] / f["trials"], 4)
            figures += 1
    assert figures >= len(section["settings"]) > 0


def test_the_readme_summary_is_the_one_printed_from_the_results(bench: ModuleType) -> None:
    section = json.loads(RESULTS.read_text(encoding="utf-8"))["measure"]
    block = bench.readme_block(section)
    readme = (SCRIPT.parent / "README.md").read_text(encoding="utf-8")
    start, end = bench.README_MARKS
    assert readme.count(start) == 1
    assert readme[readme.index(start) : readme.index(end) + len(end)] == block


def test_the_readme_summary_follows_the_results(bench: ModuleType) -> None:
    def figure(rate: float, se: float) -> dict[str, float | int]:
        return {"rate": rate, "mc_se": se, "hits": int(rate * 100), "trials": 100}

    section = {
        **bench.design(0.5, 100),
        "settings": [
            {
                "setting": "cost, T=8, n=2",
                "releases": 100,
                "figures": {"coverage: domain mean": figure(0.87, 0.01)},
            },
            {
                "setting": "cost, T=2, n=2",
                "releases": 50,
                "figures": {"coverage: run noise, mean of these tasks": figure(0.83, 0.02)},
            },
        ],
    }
    block = bench.readme_block(section)
    assert "| figure | cost, T=8, n=2 |" in block
    assert "| domain mean (population truth) | 0.870 |" in block
    assert "| tied pair called different | — |" in block
    assert "| figure | cost, T=2, n=2 |" in block
    assert "| mean of these tasks (their own truth) | 0.830 |" in block
    assert "50, 100 releases per setting" in block
    assert "±0.010–0.020" in block
    assert "log-sd 0.5" in block
