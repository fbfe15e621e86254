"""Refusal by construction, and which held-out groups are too small to show."""

from __future__ import annotations

import pandas as pd
import pytest
from budget import examples
from builders import catalog, release, run, task, version
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.errors import EXIT_REFUSED, Refused
from generator.score.frame import build_frame
from generator.score.runs import score_runs
from generator.score.scope import (
    CrossDomainError,
    CrossVersionError,
    Scope,
    guard,
)
from generator.score.table import task_table

SCOPE = Scope(version="v1", domain="d")


@settings(max_examples=examples(200), deadline=None)
@given(
    versions=st.lists(st.sampled_from(["v1", "v2", "v3"]), min_size=1, max_size=30),
    domains=st.lists(st.sampled_from(["d", "e"]), min_size=1, max_size=30),
)
def test_guard_refuses_whatever_the_data(versions: list[str], domains: list[str]) -> None:
    n = min(len(versions), len(domains))
    runs = pd.DataFrame({"version": versions[:n], "domain": domains[:n], "score": [0.5] * n})
    if set(runs["version"]) != {"v1"}:
        with pytest.raises(CrossVersionError, match=r"§5\.3, §7\.2"):
            guard(runs, SCOPE)
    elif set(runs["domain"]) != {"d"}:
        with pytest.raises(CrossDomainError, match=r"§4\.2, §5\.3"):
            guard(runs, SCOPE)
    else:
        guard(runs, SCOPE)


def test_refusals_are_typed_and_exit_3() -> None:
    assert issubclass(CrossVersionError, Refused)
    assert issubclass(CrossDomainError, Refused)
    assert CrossVersionError("x").exit_code == EXIT_REFUSED


def test_scope_has_room_for_one_version_and_one_domain_only() -> None:
    with pytest.raises(ValueError, match="string"):
        Scope(version=["v1", "v2"], domain="d")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="extra"):
        Scope(version="v1", domain="d", domains=["e"])  # type: ignore[call-arg]


def test_aggregating_runs_of_two_domains_is_refused() -> None:
    cat = catalog([task("o1"), task("e1", "erp", "x")])
    loaded = version(release(), cat, {"c": [run("o1", 1), run("e1", 1)]})
    frame = build_frame(loaded)
    runs = score_runs(frame)
    office = Scope(version="v0.1", domain="office")
    task_table(frame.tasks, runs, ["c"], office)  # the office runs alone are fine
    mixed = runs.assign(domain="erp")  # runs of office tasks that claim another domain
    with pytest.raises(CrossDomainError):
        task_table(frame.tasks, mixed, ["c"], office)
    other = runs.assign(version="v9")
    with pytest.raises(CrossVersionError):
        task_table(frame.tasks, pd.concat([runs, other]), ["c"], office)
