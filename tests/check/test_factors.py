"""The controlled-factor table enforced (§4.1), and settings that vary by design."""

from __future__ import annotations

import pytest
from builders import catalog, judged_by, release, run, task, version

from generator.check.factors import check_factors
from generator.load import Loaded
from generator.load.source import Source
from generator.models import Bundle, Release
from generator.protocol.comparison import comparison_key
from generator.score.report import build_report

EVALUATOR_VARIES = [
    {"factor": "Task set", "status": "controlled", "setting": "frozen"},
    {"factor": "Judge", "status": "variable", "setting": "two judges", "covers": ["evaluator"]},
]


def _problems(rel: Release, bundles: dict[str, Bundle]) -> list[str]:
    loaded = version(rel, catalog([task("t")]), {c: [] for c in bundles}, bundles)
    assert loaded.release is not None
    return [str(p) for p in check_factors(loaded.release, loaded.bundles)]


def test_a_departing_judge_is_an_error_naming_both_values() -> None:
    bundles = {"p": judged_by("p", "A"), "q": judged_by("q", "A"), "r": judged_by("r", "B")}
    (problem,) = _problems(release(), bundles)
    assert "evaluator.judge_model" in problem
    assert '"B" departs from "A", the setting of 2 of 3 combinations' in problem
    assert "§4.1" in problem


def test_a_tie_takes_the_first_bundle_value() -> None:
    (problem,) = _problems(release(), {"p": judged_by("p", "A"), "q": judged_by("q", "B")})
    assert '"B" departs from "A"' in problem


def test_a_setting_declared_variable_is_not_an_error() -> None:
    rel = release(controlled_factors=EVALUATOR_VARIES)
    assert _problems(rel, {"p": judged_by("p", "A"), "r": judged_by("r", "B")}) == []
    assert comparison_key(rel, judged_by("p", "A")) != comparison_key(rel, judged_by("r", "B"))


def test_a_setting_named_in_two_rows_is_refused() -> None:
    rows = [
        *EVALUATOR_VARIES,
        {"factor": "J", "status": "controlled", "setting": "s", "covers": ["evaluator"]},
    ]
    with pytest.raises(ValueError, match="more than one row"):
        release(controlled_factors=rows)


def test_combinations_are_compared_only_within_a_varying_setting() -> None:
    rel = release(controlled_factors=EVALUATOR_VARIES, statistics={"min_tasks_to_order": 2})
    tasks = [task(f"t{i}", judge=(4,)) for i in range(6)]
    good = [run(f"t{i}", r, judge=(4,)) for i in range(6) for r in (1, 2)]
    bad = [run(f"t{i}", r, passed=0, judge=(1,), failure="wrong") for i in range(6) for r in (1, 2)]
    bundles = {"p": judged_by("p", "A"), "q": judged_by("q", "A"), "r": judged_by("r", "B")}
    report = build_report(
        version(rel, catalog(tasks), {"p": good, "q": bad, "r": bad}, bundles), "office"
    )
    scope = next(s for s in report.scopes if s.scope.group == "all")
    assert scope.comparison_groups == [["p", "q"], ["r"]]
    assert [(d.a, d.b) for d in scope.differences] == [("p", "q")]
    ranks = {c.combination: (c.rank, c.rank_worst) for c in scope.combinations}
    assert ranks == {"p": (1, 1), "q": (2, 2), "r": (None, None)}  # r alone: not ranked


def test_an_evaluator_that_judged_nothing_splits_nothing() -> None:
    """Rule-only tasks are scored without the Judge: a varying evaluator does not keep their
    combinations apart (EnterpriseBench's QA beside its judged Consulting)."""
    rel = release(controlled_factors=EVALUATOR_VARIES, statistics={"min_tasks_to_order": 2})
    tasks = [task(f"t{i}") for i in range(6)]
    good = [run(f"t{i}", r) for i in range(6) for r in (1, 2)]
    bad = [run(f"t{i}", r, passed=0, failure="wrong") for i in range(6) for r in (1, 2)]
    bundles = {"p": judged_by("p", "A"), "q": judged_by("q", "B")}
    report = build_report(version(rel, catalog(tasks), {"p": good, "q": bad}, bundles), "office")
    scope = next(s for s in report.scopes if s.scope.group == "all")
    assert scope.comparison_groups == [["p", "q"]]
    assert [(d.a, d.b, d.significant) for d in scope.differences] == [("p", "q", True)]


def test_nothing_varies_by_default() -> None:
    report = build_report(
        version(release(), catalog([task("t")]), {"p": [run("t", 1), run("t", 2)]}), "office"
    )
    assert len(report.scopes) == 2
    assert all(s.comparison_groups == [] for s in report.scopes)
    assert Loaded(release(), Source("release.yaml")).model.varying() == ()


def test_a_controlled_setting_not_recorded_in_one_bundle_departs() -> None:
    p = judged_by("r", "not recorded")
    (problem,) = _problems(release(), {"p": judged_by("p", "A"), "q": judged_by("q", "A"), "r": p})
    assert '"not recorded" departs from "A"' in problem
