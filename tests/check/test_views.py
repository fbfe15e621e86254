"""Rules of the declared views (generator/check/views.py): a scatter sets a resource against an
outcome its domain reports, an effect compares two different axes of the release in the
domain's outcome; each refused reference is located at its field."""

from __future__ import annotations

from typing import Any

import pytest
from builders import profiled

from generator.check.profile import check_profile
from generator.check.views import ENGINE_OUTCOMES, check_view
from generator.load import Loaded
from generator.load.source import Source
from generator.models import Release
from generator.models.views import Effect, Scatter

SCATTER = {"kind": "scatter", "id": "s", "title": "S", "domain": "qa", "x": "calls"}
EFFECT = {
    "kind": "effect",
    "id": "e",
    "title": "E",
    "domain": "qa",
    "within": "backbone",
    "across": "method",
}


def _found(view: dict[str, Any]) -> list[tuple[str, str]]:
    release = profiled(views=[view])
    return list(check_view(release, release.profile.views[0]))


def test_good_scatters_and_effects_pass() -> None:
    release = profiled()
    resource = next(m.id for m in release.metrics if m.kind == "resource" and m.measured)
    game = next(d for d in release.domains if d.outcome != "task_score")
    views = [
        {**SCATTER, "x": resource, "log_x": True},
        {**SCATTER, "id": "t", "x": "total_tokens", "y": "judge_score"},
        {**SCATTER, "id": "g", "domain": game.id, "y": game.outcome},
        EFFECT,
        {**EFFECT, "id": "f", "within": "method", "across": "backbone", "metric": "task_score"},
        {**EFFECT, "id": "h", "domain": game.id, "metric": game.outcome},
    ]
    declared = profiled(views=views)
    assert list(check_profile(Loaded(declared, Source("r.yaml")))) == []
    kinds = {type(v) for v in declared.profile.views}
    assert kinds == {Scatter, Effect}


@pytest.mark.parametrize(
    ("view", "field", "named"),
    [
        ({**SCATTER, "x": "cost"}, "x", "'cost'"),  # an outcome, not a resource
        ({**SCATTER, "x": "nothing"}, "x", "'nothing'"),
        ({**SCATTER, "y": "calls"}, "y", "'calls'"),  # a resource, not an outcome
        ({**SCATTER, "y": "cost"}, "y", "'cost'"),  # another domain's outcome
        ({**SCATTER, "domain": "nowhere"}, "domain", "'nowhere'"),
        ({**EFFECT, "across": "backbone"}, "across", "two different axes"),
        ({**EFFECT, "within": "harness"}, "within", "'harness'"),
        ({**EFFECT, "metric": "rule_score"}, "metric", "'rule_score'"),
        ({**EFFECT, "domain": "nowhere"}, "domain", "'nowhere'"),
    ],
)
def test_a_wrong_reference_is_refused_at_its_field(
    view: dict[str, Any], field: str, named: str
) -> None:
    found = _found(view)
    assert [f for f, _ in found] == [field], found
    assert named in found[0][1]


def test_a_refused_view_is_located_in_the_release() -> None:
    release = profiled(views=[SCATTER, {**SCATTER, "id": "t", "x": "cost"}])
    problems = list(check_profile(Loaded(release, Source("r.yaml"))))
    assert [p.field for p in problems] == ["profile.views[1].x"]


def test_a_scatter_s_outcome_is_one_its_domain_reports() -> None:
    release: Release = profiled()
    declared = {m.id for m in release.metrics}
    outcomes = sorted(declared & set(ENGINE_OUTCOMES))
    assert outcomes == ["judge_score", "rule_score", "success_rate", "task_score"]
    for metric in outcomes:
        assert _found({**SCATTER, "y": metric}) == []
    resources = sorted(m.id for m in release.metrics if m.kind == "resource")
    assert resources
    for metric in resources:
        assert [f for f, _ in _found({**SCATTER, "y": metric})] == ["y"]
        assert _found({**SCATTER, "x": metric}) == []
