"""A treatment bundle's targets and its baseline: the ordinary bundle at its place."""

from __future__ import annotations

from experimenttools import TARGETS, experiment_inputs, experiment_release

from generator.protocol.experiments import baselines, treatment_targets


def test_treatment_targets_and_baselines_follow_the_conditions() -> None:
    _, bundles = experiment_inputs()
    rel = experiment_release()
    assert treatment_targets(rel, bundles["base-a"]) is None
    assert treatment_targets(rel, bundles["base-a-gpt"]) == frozenset(TARGETS)
    found = baselines(rel, list(bundles.values()))
    assert {k: [b.combination.id for b in v] for k, v in found.items()} == {
        c: [c.rsplit("-", 1)[0]] for c in bundles if bundles[c].condition is not None
    }
