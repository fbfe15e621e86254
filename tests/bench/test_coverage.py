"""bench/coverage.py: the simulation with a known truth, and what the methodology shows of it."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest
from synthetic import script

from generator.pages.methodology.guide import coverage_table, measured_coverage

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "coverage.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return script(SCRIPT, "bench_coverage")


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
    checked = set()
    for i, setting in enumerate(coverage["settings"]):
        for name, f in setting["figures"].items():
            assert shown[name][i] == f"{f['rate']:.3f} ± {f['mc_se']:.3f}"
            checked.add(name)
    assert checked == set(shown)  # each row of the table checked against a setting


def test_the_readme_summary_is_the_one_printed_from_the_results(bench: ModuleType) -> None:
    root = SCRIPT.parents[1]
    document = json.loads((root / "site_src" / "coverage.json").read_text(encoding="utf-8"))
    block = bench.readme_block(document)
    readme = (root / "bench" / "README.md").read_text(encoding="utf-8")
    start, end = bench.README_MARKS
    assert readme.count(start) == 1
    assert readme[readme.index(start) : readme.index(end) + len(end)] == block


def test_the_readme_summary_follows_the_results(bench: ModuleType) -> None:
    document = {
        "true_task_scores": [0.5, 0.8],
        "settings": [
            {
                "setting": "T=20, n=3",
                "runs": 3,
                "releases": 10,
                "figures": {
                    "coverage: Task Score": {"rate": 0.9, "mc_se": 0.01, "hits": 9, "trials": 10},
                    "coverage: reliability@2": {
                        "rate": 0.8,
                        "mc_se": 0.02,
                        "hits": 8,
                        "trials": 10,
                    },
                    "false difference: tied pair called different": {
                        "rate": 0.1,
                        "mc_se": 0.03,
                        "hits": 1,
                        "trials": 10,
                    },
                },
            }
        ],
    }
    block = bench.readme_block(document)
    assert "| Task Score | 0.900 |" in block
    assert "| reliability@2 (n=3) or @3 (n=5) | 0.800 |" in block
    assert "| success rate | — |" in block
    assert "0.800–0.900" in block
    assert "1 of 10 releases, 10.0% ± 9.5%" in block  # sqrt(0.1 · 0.9 / 10)


def test_a_rerun_keeps_the_other_parts_of_the_results(bench: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "coverage.json"
    path.write_text(json.dumps({"measure": {"kept": True}, "settings": []}), encoding="utf-8")
    bench.main(["--releases", "1", "--samples", "100", "--setting", "0", "--out", str(path)])
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["measure"] == {"kept": True}
    assert [s["setting"] for s in written["settings"]] == [bench.SETTINGS[0].name]
