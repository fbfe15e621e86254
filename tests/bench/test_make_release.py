"""The benchmark-scale release generator (bench/make_release.py) writes valid inputs."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from synthetic import make_release

from generator.check import check_inputs
from generator.load import load_inputs

SMALL = {
    "tasks_general": 12,
    "tasks_enterprise": 15,
    "combinations": 3,
    "runs": 2,
    "rules": 8,
    "judges": 3,
}


def _module() -> ModuleType:
    return make_release()


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_small_release_loads_and_checks_clean(tmp_path: Path) -> None:
    summary = _module().write_release(tmp_path, **SMALL)
    inputs, problems = load_inputs(tmp_path)
    problems += check_inputs(inputs)
    errors = [str(p) for p in problems if p.severity == "error"]
    assert not errors, "\n".join(errors)

    (version,) = inputs.releases
    assert version.release is not None
    assert version.catalog is not None
    tasks = version.catalog.model.tasks
    assert len(tasks) == SMALL["tasks_general"] + SMALL["tasks_enterprise"]
    assert len(version.bundles) == SMALL["combinations"]
    assert len(inputs.cards) >= 2

    uncovered = 0
    for loaded in version.bundles:
        scopes = {(s.domain, s.subdivision) for s in loaded.bundle.model.not_covered}
        uncovered += sum(
            (t.domain, None) in scopes or (t.domain, t.subdivision) in scopes for t in tasks
        )
    assert uncovered > 0  # the format's "not covered" is exercised
    runs = sum(len(b.runs) for b in version.bundles)
    expected = (len(tasks) * SMALL["combinations"] - uncovered) * SMALL["runs"]
    assert runs == expected == summary["runs"]
    assert summary["uncovered_pairs"] == uncovered

    # The shape the benchmarks rely on: both domains, both groups, both scoring modes,
    # evaluation-incomplete runs and failing runs.
    for domain in ("general", "enterprise"):
        groups = {t.group for t in tasks if t.domain == domain}
        assert groups == {"public", "held-out"}
    assert {t.scoring.mode for t in tasks} == {"rule-only", "dual-channel"}
    runs_tables = [b.runs.runs for b in version.bundles]
    assert any(((t["status"] == "incomplete") & t["cause"].notna()).any() for t in runs_tables)
    assert any(t["failure_type"].notna().any() for t in runs_tables)
    assert {b.bundle.model.evaluation for b in version.bundles} == {"complete", "incomplete"}


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    make = _module().write_release
    make(tmp_path / "a", **SMALL, seed=7)
    make(tmp_path / "b", **SMALL, seed=7)
    make(tmp_path / "c", **SMALL, seed=8)
    first, second, other = (_files(tmp_path / n) for n in "abc")
    assert first == second
    assert first != other
