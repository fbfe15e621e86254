"""The rules of experiments and their treatment bundles, every problem located."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from experimenttools import (
    EXPERIMENT,
    HELD_TARGETS,
    SOURCES,
    TARGETS,
    VIEW,
    cards,
    experiment_inputs,
    experiment_release,
    experiment_version,
    make_bundle,
    runs_of,
    treatment_id,
    write_root,
)

from generator.check import check_inputs
from generator.check.experiments import check_experiments
from generator.errors import Problem
from generator.load import load_inputs
from generator.protocol.experiments import place


def _problems(experiment: dict[str, Any] | None = None, inputs: Any = None) -> list[Problem]:
    loaded = experiment_version(experiment_release(experiment), inputs)
    assert loaded.release is not None
    return list(check_experiments(loaded.release, loaded.catalog, loaded.bundles, cards()))


def test_a_well_formed_experiment_passes_every_check(tmp_path: Path) -> None:
    assert _problems() == []
    inputs, found = load_inputs(write_root(tmp_path))
    assert [p for p in found if p.severity == "error"] == []
    assert [p for p in check_inputs(inputs) if p.severity == "error"] == []


def test_overlapping_sources_and_targets_are_an_error_naming_the_overlap(
    tmp_path: Path,
) -> None:
    shared = [TARGETS[0], HELD_TARGETS[-1]]
    experiment = {**EXPERIMENT, "sources": [*SOURCES, *shared]}
    problems = [p for p in _problems(experiment) if p.field == "profile.experiments[0].targets"]
    (problem,) = problems
    assert str(sorted(shared)) in problem.message
    assert "disjoint" in problem.message
    # from the files: located on the line of the release manifest that declares the targets
    root = write_root(tmp_path, experiment_release(experiment))
    inputs, _ = load_inputs(root)
    found = [p for p in check_inputs(inputs) if p.field == "profile.experiments[0].targets"]
    assert len(found) == 1
    assert found[0].path.endswith("release.yaml")
    lines = (root / found[0].path).read_text(encoding="utf-8").splitlines()
    assert found[0].line is not None
    assert lines[found[0].line - 1].strip().startswith("targets")


def test_declarations_name_the_domain_its_tasks_and_levels_once() -> None:
    experiment = {
        **EXPERIMENT,
        "domain": "offices",
        "sources": [*SOURCES, "nowhere", "e1"],
        "levels": [*EXPERIMENT["levels"], EXPERIMENT["levels"][0]],
    }
    problems = {p.field: p.message for p in _problems(experiment)}
    assert "'offices' is not a domain" in problems["profile.experiments[0].domain"]
    assert "'nowhere'" in problems["profile.experiments[0].sources"]
    assert "repeated level ids" in problems["profile.experiments[0].levels"]
    right_domain = {**EXPERIMENT, "sources": [*SOURCES, "e1"]}
    (problem,) = _problems(right_domain)
    assert problem.field == "profile.experiments[0].sources"
    assert "['e1'] are not tasks of the domain 'office'" in problem.message


def test_a_condition_names_a_declared_experiment_and_level() -> None:
    runs, bundles = experiment_inputs()
    combo = treatment_id("gpt", "base-a")
    bundles[combo] = make_bundle(combo, "Model A", "opus")
    (problem,) = _problems(inputs=(runs, bundles))
    assert problem.field == "condition.level"
    assert "'opus'" in problem.message
    data = bundles[combo].model_dump(mode="json", exclude_none=True)
    data["condition"] = {"experiment": "skill", "level": "gpt"}
    bundles[combo] = type(bundles[combo]).model_validate(data)
    (problem,) = _problems(inputs=(runs, bundles))
    assert problem.field == "condition.experiment"
    assert "did you mean 'skills'" in problem.message


def test_a_treatment_without_its_baseline_or_with_two_is_an_error() -> None:
    runs, bundles = experiment_inputs()
    del bundles["base-b"], runs["base-b"]
    problems = _problems(inputs=(runs, bundles))
    lonely = sorted(p.path for p in problems if "no baseline bundle" in p.message)
    assert len(lonely) == 2  # both of Model B's treatments
    runs, bundles = experiment_inputs()
    runs["base-a2"] = runs["base-a"]
    bundles["base-a2"] = make_bundle("base-a2", "Model A")
    problems = _problems(inputs=(runs, bundles))
    assert sum("several baseline bundles" in p.message for p in problems) == 2


def test_a_fingerprint_mismatch_is_an_error_naming_the_fields() -> None:
    runs, bundles = experiment_inputs()
    combo = treatment_id("haiku", "base-b")
    data = bundles[combo].model_dump(mode="json", exclude_none=True)
    data["configuration"]["temperature"] = 0.7
    bundles[combo] = type(bundles[combo]).model_validate(data)
    (problem,) = _problems(inputs=(runs, bundles))
    assert problem.field == "condition"
    assert "more than the condition" in problem.message
    assert "Temperature" in problem.message
    assert "'0.7' in the treatment" in problem.message


def test_the_treatment_runs_every_target_and_the_baseline_covers_them() -> None:
    runs, bundles = experiment_inputs()
    combo = treatment_id("gpt", "base-a")
    runs[combo] = runs_of(combo, TARGETS[1:])
    runs["base-b"] = [r for r in runs["base-b"] if r.task != TARGETS[-1]]
    problems = _problems(inputs=(runs, bundles))
    missing = [p for p in problems if p.field == "task"]
    assert len(missing) == 1
    assert str([TARGETS[0]]) in missing[0].message
    uncovered = [p for p in problems if "baseline must cover" in p.message]
    assert len(uncovered) == 2  # both treatments of Model B
    assert all(str([TARGETS[-1]]) in p.message for p in uncovered)


def test_a_treatment_s_run_of_another_task_is_refused_on_its_line(tmp_path: Path) -> None:
    runs, bundles = experiment_inputs()
    combo = treatment_id("gpt", "base-a")
    runs[combo] = runs[combo] + runs_of(combo, [SOURCES[0]])
    inputs, _ = load_inputs(write_root(tmp_path, inputs=(runs, bundles)))
    found = [p for p in check_inputs(inputs) if "not a target task" in p.message]
    assert len(found) == 2  # the two runs of the source task, each on its own line
    assert all(p.path.endswith(f"{combo}/runs.jsonl") and p.line for p in found)


def test_a_treatment_shares_its_baseline_s_place_on_the_axes(tmp_path: Path) -> None:
    runs, bundles = experiment_inputs()
    axes = {"harness": "card", "model": "A"}
    for combo, b in bundles.items():
        data = b.model_dump(mode="json", exclude_none=True)
        data["combination"]["axes"] = {**axes, "model": b.combination.model.name}
        bundles[combo] = type(b).model_validate(data)
    rel = experiment_release(
        profile={
            "experiments": [EXPERIMENT],
            "axes": [{"id": "harness", "title": "Harness"}, {"id": "model", "title": "Model"}],
        }
    )
    assert place(rel, bundles["base-a"]) == place(rel, bundles[treatment_id("gpt", "base-a")])
    inputs, _ = load_inputs(write_root(tmp_path, rel, (runs, bundles)))
    assert [p for p in check_inputs(inputs) if p.severity == "error"] == []


def test_a_transfer_view_names_a_declared_experiment() -> None:
    from generator.check.profile import check_profile
    from generator.load import Loaded
    from generator.load.source import Source

    wrong = {**VIEW, "experiment": "skill"}
    rel = experiment_release(profile={"experiments": [EXPERIMENT], "views": [wrong]})
    loaded = experiment_version(rel)
    assert loaded.release is not None
    problems = list(check_experiments(loaded.release, loaded.catalog, loaded.bundles, cards()))
    (problem,) = problems
    assert problem.field == "profile.views[0].experiment"
    assert "did you mean 'skills'" in problem.message
    # the profile's own view rules leave a transfer view (it names no domain) to these
    assert list(check_profile(Loaded(experiment_release(), Source("release.yaml")))) == []


def test_two_treatments_of_one_level_at_one_place_are_an_error() -> None:
    runs, bundles = experiment_inputs()
    twin = "base-a-gpt-2"
    runs[twin] = runs[treatment_id("gpt", "base-a")]
    bundles[twin] = make_bundle(twin, "Model A", "gpt")
    (problem,) = _problems(inputs=(runs, bundles))
    assert problem.field == "condition"
    assert "one treatment per level" in problem.message
