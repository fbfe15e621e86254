"""One version scored: every domain reported on its own, from the published runs only."""

from __future__ import annotations

import pytest
from builders import bundle, catalog, release, run, task, version

from generator.load import LoadedRelease
from generator.score.render import to_json
from generator.score.report import build_report
from generator.score.version import ScoredVersion, score_version

TASKS = [task("t1"), task("t2", sub="b"), task("e1", domain="erp", sub="x")]


def _loaded() -> LoadedRelease:
    runs = {
        combo: [run(t["id"], i, passed=p) for t in TASKS for i in (1, 2)]
        for combo, p in (("p", 2), ("q", 1), ("hidden", 0))
    }
    return version(release(), catalog(TASKS), runs, {"hidden": bundle("hidden", consent=False)})


@pytest.fixture(scope="module")
def loaded() -> LoadedRelease:
    return _loaded()


@pytest.fixture(scope="module")
def scored(loaded: LoadedRelease) -> ScoredVersion:
    return score_version(loaded)


def test_every_domain_is_reported_in_release_order(
    loaded: LoadedRelease, scored: ScoredVersion
) -> None:
    assert list(scored.reports) == [d.id for d in scored.release.domains]
    for domain, report in scored.reports.items():
        assert (report.version, report.domain) == (loaded.folder, domain)
        assert to_json(report) == to_json(build_report(loaded, domain))  # same as on its own


def test_only_bundles_with_consent_are_scored(scored: ScoredVersion) -> None:
    assert sorted(scored.frame.bundles) == ["p", "q"]  # §7.2
    assert set(scored.scored["combination"]) == {"p", "q"}
    assert sorted(scored.reports) == ["erp", "office"]
    for report in scored.reports.values():
        assert [c.id for c in report.combinations] == ["p", "q"]


def test_each_run_is_scored_once_for_all_domains(scored: ScoredVersion) -> None:
    assert len(scored.scored) == 2 * len(TASKS) * 2  # two published combinations
    by_task = scored.scored.groupby(["combination", "task"])["score"].mean()
    assert by_task[("p", "e1")] == pytest.approx(1.0)
    assert by_task[("q", "t1")] == pytest.approx(0.5)
