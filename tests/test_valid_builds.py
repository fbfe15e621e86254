"""What validate accepts, build publishes: whole releases drawn by hypothesis (the strategy
of ``bench/valid_releases.py``) are validated and built, and each one validate accepts
builds with no traceback, each one it refuses is refused with located problems, by build
too (``bench/valid_builds.py``, which runs the same property over many more releases).

A few releases here, the same on every run, and three explicit ones that validate must
accept and build publish: turns recorded on one bundle only, and a release with no token
metric, more than 4,096 distinct strings, the last date a date may be and the largest
values (each once a crash of the build); and one where every setting, card field and
seed is "not recorded" and declared counts are left out of some runs.
"""

from __future__ import annotations

import pytest
from budget import examples
from hypothesis import HealthCheck, event, given, settings
from synthetic import REPO, script

pytestmark = pytest.mark.slow  # builds drawn releases

BENCH = script(REPO / "bench" / "valid_builds.py", "bench_valid_builds")
Choices = BENCH.Choices

TURNS_ON_ONE_BUNDLE = Choices(
    base="enterprisebench", counts={"turns": "one-bundle", "duration_s": "some-runs"}
)
NO_TOKEN_METRIC_MANY_STRINGS_LAST_DAY_HUGE = Choices(
    base="synthetic",
    size={"tasks_general": 3, "tasks_enterprise": 2, "combinations": 1, "runs": 900}
    | {"rules": 2, "judges": 1, "seed": 0},
    counts={"input_tokens": "none", "output_tokens": "none"},
    undeclare_tokens=True,
    strings=True,
    dates="last",
    values="huge",
)
NOT_RECORDED_EVERYWHERE = Choices(
    base="enterprisebench",
    counts={"duration_s": "some-runs", "input_tokens": "one-bundle"},
    not_recorded="every-bundle",
)


@settings(
    max_examples=examples(3),
    deadline=None,
    derandomize=True,  # the same releases on every run: a CI failure reproduces
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(BENCH.releases())
def test_what_validate_accepts_build_publishes(choices: Choices) -> None:
    found = BENCH.outcome(choices)
    event(f"{choices.base}: {'accepted' if found.accepted else 'refused'}")
    assert found.finding is None, found.finding


@pytest.mark.parametrize(
    "choices",
    [TURNS_ON_ONE_BUNDLE, NO_TOKEN_METRIC_MANY_STRINGS_LAST_DAY_HUGE, NOT_RECORDED_EVERYWHERE],
    ids=[
        "turns-on-one-bundle",
        "no-token-metric-many-strings-last-day-huge",
        "not-recorded-everywhere",
    ],
)
def test_releases_that_once_crashed_the_build_are_published(choices: Choices) -> None:
    found = BENCH.outcome(choices)
    assert found.finding is None, found.finding
    assert found.accepted


def test_a_refusal_must_be_located() -> None:
    """The property can fail: a problem line that names no file breaks it."""
    assert BENCH.LOCATED.match("results/v1.0/release.yaml:8: freeze_date: too late")
    assert BENCH.LOCATED.match("harnesscards/a.yaml: not UTF-8 text")
    assert not BENCH.LOCATED.match("Traceback (most recent call last):")
    assert not BENCH.LOCATED.match("freeze_date: too late")
