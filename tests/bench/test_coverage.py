"""bench/coverage.py: the simulation with a known truth, and what the methodology shows of it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from generator.pages.guide import coverage_table, measured_coverage

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "coverage.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_coverage", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_coverage"] = module
    spec.loader.exec_module(module)
    return module


def test_abilities_give_the_true_task_scores(bench: ModuleType) -> None:
    for spread in (0.5, 1.0, 2.0):
        skills = bench.abilities(spread)
        got = [bench._expect(a, spread, 1) for a in skills]
        assert got == pytest.approx(list(bench.TARGETS), abs=1e-9)


def test_a_small_run_measures_every_figure(bench: ModuleType) -> None:
    found = bench.run_setting(bench.Setting(20, 3, held_out=True), 3, 1.0, 200)
    figures = found["figures"]
    assert figures["coverage: Task Score"]["trials"] == 3 * len(bench.NAMES)
    assert {f"coverage: reliability@{k}" for k in (1, 2, 3)} <= set(figures)
    assert "coverage: public − held-out gap (truth 0)" in figures
    assert all(0 <= f["rate"] <= 1 and f["mc_se"] >= 0 for f in figures.values())


def test_the_methodology_shows_what_the_bench_wrote(bench: ModuleType) -> None:
    coverage = measured_coverage()
    assert coverage is not None, "run python bench/coverage.py"
    assert [s["setting"] for s in coverage["settings"]] == [s.name for s in bench.SETTINGS]
    assert coverage["true_task_scores"] == list(bench.TARGETS)
    assert all(s["releases"] >= 300 for s in coverage["settings"])  # the floor
    table = coverage_table(coverage)
    shown = {row.cells[0].text: [c.text for c in row.cells[1:]] for row in table.rows}
    for i, setting in enumerate(coverage["settings"]):
        for name, f in setting["figures"].items():
            assert shown[name][i] == f"{f['rate']:.3f} ± {f['mc_se']:.3f}"
