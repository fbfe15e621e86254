"""The methodology's account of a declared profile (pages/methodology/profile.py): nothing
for Lingee's release, every declaration of the EnterpriseBench-shaped example in words."""

from __future__ import annotations

from pathlib import Path

from generator.load import Inputs, load_inputs
from generator.pages import VersionContext
from generator.pages.blocks.text import spelled
from generator.pages.methodology.profile import declared_lines

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "enterprisebench"


def test_lingee_declares_nothing_new(inputs: Inputs) -> None:
    assert len(inputs.releases) == 2  # v1.0 and v1.1
    for version in inputs.releases:
        assert version.release is not None
        assert version.catalog is not None
        assert declared_lines(version.release.model, version.catalog.model.tasks) == []


def test_the_example_s_declarations_in_words() -> None:
    loaded, _ = load_inputs(EXAMPLE)
    (version,) = loaded.releases
    assert version.release is not None
    assert version.catalog is not None
    release, tasks = version.release.model, version.catalog.model.tasks
    lines = declared_lines(release, tasks)
    text = "\n".join(lines)
    others = [d for d in release.domains if release.outcome(d.id).id != "task_score"]
    assert others
    for d in others:
        outcome = release.outcome(d.id)
        assert f"**{d.title}** scores in {outcome.title} ({outcome.direction} is better" in text
    assert "shown ×10⁴" in text
    assert "can be negative" in text
    assert "shown on 0–10" in text
    measured = sum(t.scoring.mode == "measure" for t in tasks)
    judged = sum(t.scoring.mode == "judge-only" for t in tasks)
    assert judged
    assert measured
    assert f"{spelled(measured)} measure task(s): S is the run's measured value" in text
    assert f"{spelled(judged)} judge-only task(s): S = J" in text
    assert "equal-weight mean over its cells (capability × difficulty)" in text
    assert "reliability@k is withheld" in text
    assert release.profile.dimensions
    for dimension in release.profile.dimensions:
        assert dimension.title in text


def test_the_measured_coverage_is_read_from_the_bench_s_results() -> None:
    """Every rate the line gives is one the bench measured (site_src/coverage.json)."""
    import re

    from generator.pages.methodology.guide import measured_coverage
    from generator.pages.methodology.profile import measured_lines

    coverage = measured_coverage()
    assert coverage is not None
    (line,) = measured_lines(coverage)
    rates = {
        f"{f['rate']:.2f}" for s in coverage["measure"]["settings"] for f in s["figures"].values()
    }
    shown = re.findall(r"\b[01]\.\d\d\b", line)
    assert shown
    assert set(shown) <= rates
    assert measured_lines(None) == []
    assert measured_lines({"other": 1}) == []


def test_an_experiment_is_declared_in_words_with_its_counts() -> None:
    from experimenttools import EXPERIMENT, SOURCES, TARGETS, experiment_release

    from generator.pages.blocks.text import spelled

    (line,) = [x for x in declared_lines(experiment_release()) if "Experiment" in x]
    assert str(EXPERIMENT["title"]) in line
    assert f"{spelled(len(TARGETS))} target tasks" in line
    assert f"{spelled(len(SOURCES))} source tasks" in line
    assert f"{spelled(len(EXPERIMENT['levels']))} levels" in line


def test_channels_task_sets_and_overlapping_values_are_declared_in_words(
    clawbench: VersionContext,
) -> None:
    """The methodology names the Judge channels, the task sets (the first shown, never
    pooled) and the facets whose values overlap, from the declaration."""
    release = clawbench.release
    lines = declared_lines(release, clawbench.catalog.tasks)
    text = "\n".join(lines)
    domain = release.domains[0]
    assert all(s.title in text for s in domain.task_sets)
    assert f"show the {domain.task_sets[0].title} set" in text
    assert "never pooled" in text
    assert release.profile.channels
    assert all(c.title in text for c in release.profile.channels)
    (multi,) = [f for f in release.profile.facets if f.multi]
    assert any(line.startswith(f"{multi.title}: a task may hold several values") for line in lines)
