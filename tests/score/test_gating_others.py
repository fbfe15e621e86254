"""The figures gated after the domain's scopes: an experiment's changes and the raters'
agreement, through the privacy gate in the domain's report."""

from __future__ import annotations

import pytest
from experimenttools import HELD_TARGETS, PUBLIC_TARGETS, experiment_release, experiment_version
from rated import rated_version

from generator.score.agreement import agreement
from generator.score.changes import with_verdicts
from generator.score.experiments import experiment_results
from generator.score.frame import build_frame
from generator.score.version import score_version


def test_few_held_out_targets_withhold_their_changes_by_the_gate() -> None:
    """Held-out targets fewer than min_held_out_aggregate: the gate refuses every change over
    the targets (its held-out part would be a figure over those few tasks); the public
    targets' per-task changes stay, as their values are public anyway."""
    data = experiment_release().model_dump(mode="json", exclude_none=True)
    data["groups"]["min_held_out_aggregate"] = len(HELD_TARGETS) + 1
    scored = score_version(experiment_version(experiment_release(groups=data["groups"])))
    (result,) = scored.reports["office"].experiments
    assert {t.task for t in result.tasks} == set(PUBLIC_TARGETS)
    assert result.tasks_withheld is not None
    changes = (*result.cells, *result.level_means)
    assert changes
    for c in changes:
        assert c.value is None
        assert c.low is None
        assert c.high is None
        assert c.withheld is not None
        assert "held-out" in c.withheld


def test_the_gate_admits_every_change_over_enough_held_out_targets() -> None:
    """Enough held-out targets: every change is published as computed (a treatment's values
    are its own, on no board: nothing published cancels them)."""
    scored = score_version(experiment_version())
    (result,) = scored.reports["office"].experiments
    assert len(HELD_TARGETS) >= experiment_release().groups.min_held_out_aggregate
    (before,) = experiment_results(experiment_version())["office"]
    assert result == with_verdicts(before.result)  # the verdicts follow the gate
    values = [c.value for c in (*result.cells, *result.level_means)]
    assert len(values) == 4 + 2  # two levels on two consumers, and each level's mean
    assert None not in values


@pytest.mark.parametrize(("held", "withheld"), [(2, True), (5, False)])
def test_few_rated_held_out_tasks_withhold_the_figures(held: int, withheld: bool) -> None:
    """The privacy gate (in the domain's report) withholds a rater's figures whose rated
    held-out tasks are too few: its verdicts are published nowhere else."""
    loaded = rated_version(public=3, held=held)
    assert loaded.release is not None
    assert loaded.catalog is not None
    minimum = loaded.release.model.groups.min_held_out_aggregate
    assert (0 < held < minimum) == withheld
    found = score_version(loaded).reports["office"].agreement
    assert (
        len(found)
        == len(
            agreement(
                build_frame(loaded, consented_only=True),
                loaded.catalog.model,
                loaded.bundles,
                "office",
            )
        )
        > 0
    )
    for a in found:
        assert a.held_out_tasks == held
        if withheld:
            assert a.withheld is not None
            assert f"fewer than {minimum} held-out tasks" in a.withheld
            assert a.spearman is None
            assert a.mae is None
            assert a.difference is None
        else:
            assert a.withheld is None
            assert a.mae is not None
            assert a.mae.low is not None
