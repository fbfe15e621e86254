"""Experiments' treatment bundles and their baselines: a treatment bundle (one with a
``condition``) is compared with the ordinary bundle at the same place on the release's axes
(without axes: the same HarnessCard and model name)."""

from __future__ import annotations

from collections.abc import Sequence

from generator.models import Bundle, Release
from generator.models.profile import Experiment


def experiment_of(release: Release, bundle: Bundle) -> Experiment | None:
    """The declared experiment a treatment bundle's condition names; None for an ordinary
    bundle or an undeclared experiment."""
    if bundle.condition is None:
        return None
    wanted = bundle.condition.experiment
    return next((e for e in release.profile.experiments if e.id == wanted), None)


def treatment_targets(release: Release, bundle: Bundle) -> frozenset[str] | None:
    """The tasks a treatment bundle runs (its experiment's targets); None for any other."""
    experiment = experiment_of(release, bundle)
    return None if experiment is None else frozenset(experiment.targets)


def place(release: Release, bundle: Bundle) -> tuple[str, ...]:
    """Where a bundle sits: its values on the release's axes, or without axes its
    HarnessCard and model name. A treatment's baseline is the ordinary bundle at its place."""
    combo = bundle.combination
    if release.profile.axes:
        return tuple(combo.axes.get(a.id, "") for a in release.profile.axes)
    return (combo.harnesscard, combo.model.name)


def baselines(release: Release, bundles: Sequence[Bundle]) -> dict[str, list[Bundle]]:
    """Each treatment bundle's candidate baselines (ordinary bundles at its place), by its
    combination id; exactly one for a well-formed release."""
    ordinary: dict[tuple[str, ...], list[Bundle]] = {}
    for b in bundles:
        if b.condition is None:
            ordinary.setdefault(place(release, b), []).append(b)
    return {
        b.combination.id: ordinary.get(place(release, b), [])
        for b in bundles
        if b.condition is not None
    }
