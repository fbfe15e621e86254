"""Refusal by construction, and which held-out groups are too small to show."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
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
    withheld_scopes,
)
from generator.score.table import task_table

SCOPE = Scope(version="v1", domain="d")


@settings(max_examples=200, deadline=None)
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


def _tasks(counts: dict[str, tuple[int, int]]) -> pd.DataFrame:
    rows = []
    for sub, (public, held) in counts.items():
        rows += [{"subdivision": sub, "group": "public"}] * public
        rows += [{"subdivision": sub, "group": "held-out"}] * held
    return pd.DataFrame(rows)


def test_small_domain_held_out_group_is_withheld_with_its_all_group() -> None:
    out = withheld_scopes(_tasks({"a": (4, 2), "b": (4, 1)}), minimum=5)
    assert set(out) == {
        (None, "held-out"),
        (None, "all"),
        ("a", "held-out"),
        ("a", "all"),
        ("b", "held-out"),
        ("b", "all"),
    }
    assert out[(None, "held-out")].startswith("withheld: 3 held-out task(s), fewer than the 5")


def test_complement_is_withheld_so_no_small_group_is_derivable() -> None:
    out = withheld_scopes(_tasks({"a": (1, 6), "b": (1, 1), "c": (3, 0)}), minimum=5)
    # b alone (1) is too small; a is withheld too, else domain − a would reveal b.
    assert set(out) == {("a", "held-out"), ("a", "all"), ("b", "held-out"), ("b", "all")}
    assert "derived by subtraction" in out[("a", "held-out")]
    out = withheld_scopes(_tasks({"a": (0, 5), "b": (0, 5), "c": (0, 2)}), minimum=5)
    assert {k[0] for k in out} == {"a", "c"}  # ties broken by name; b stays shown


def test_nothing_withheld_when_groups_are_large_or_empty() -> None:
    assert withheld_scopes(_tasks({"a": (3, 5), "b": (3, 0)}), minimum=5) == {}


def _derivable(published: list[np.ndarray], size: int) -> list[tuple[int, ...]]:
    """Every set of ``size`` held-out tasks whose sum the published sums give, found by
    brute force: its indicator lies in the span of the published sets' indicators."""
    from itertools import combinations

    basis = np.array(published, dtype=float)
    rank = np.linalg.matrix_rank(basis)
    n = basis.shape[1]
    found = []
    for chosen in combinations(range(n), size):
        v = np.zeros(n)
        v[list(chosen)] = 1.0
        if np.linalg.matrix_rank(np.vstack([basis, v])) == rank:
            found.append(chosen)
    return found


@pytest.mark.parametrize("seed", range(12))
def test_a_value_is_withheld_exactly_when_a_small_held_out_group_would_derive(seed: int) -> None:
    """Random layouts of sixteen held-out tasks, a partition of them published and values
    of a facet whose values overlap: once :func:`overlap_withheld` has withheld what it
    withholds, no set of 1..minimum−1 held-out tasks lies in the span of what is shown
    (brute force over every such set), and a value is withheld only where it would let one
    be."""
    from generator.score.scope import overlap_withheld

    rng = np.random.default_rng(seed)
    n, minimum = 16, 3
    held = np.ones(n, dtype=bool)
    block = np.repeat(np.arange(5), [3, 3, 3, 3, 4])[rng.permutation(n)]
    shown = [held.copy(), block < 2, block >= 2]

    def value() -> np.ndarray:  # a union of blocks, now and then one task more or less
        out = np.isin(block, rng.choice(5, size=int(rng.integers(1, 4)), replace=False))
        if rng.random() < 0.4:
            out[rng.integers(n)] ^= True
        return out

    candidates = {f"v{i}": value() for i in range(5)}
    withheld = overlap_withheld(held, shown, candidates, minimum)
    published = list(shown)
    for v, m in candidates.items():  # in order: kept exactly when nothing small derives
        small = [d for size in range(1, minimum) for d in _derivable([*published, m], size)]
        if (v, "held-out") in withheld:
            assert small, v
            assert withheld[(v, "all")] == withheld[(v, "held-out")]
        else:
            assert small == [], (v, small)
            published.append(m)


def test_a_value_is_kept_when_its_atoms_are_large_and_withheld_when_one_is_small() -> None:
    from generator.score.scope import overlap_withheld

    held = np.ones(10, dtype=bool)
    domain = [held.copy()]
    first = np.arange(10) < 5
    one_off = np.arange(10) < 6  # differs from `first` by one task
    withheld = overlap_withheld(held, domain, {"a": first, "b": one_off}, 3)
    assert _derivable([*domain, first, one_off], 1) == [(5,)]  # why b is withheld
    assert ("a", "held-out") not in withheld
    assert withheld[("b", "held-out")].startswith("withheld: this value's held-out tasks overlap")
    assert withheld[("b", "all")] == withheld[("b", "held-out")]
    assert overlap_withheld(held, [], {"a": first}, 3)[("a", "held-out")]


def test_channel_splits_are_checked_first_and_a_value_shown_without_them() -> None:
    """A channel's tasks cut every shown set: checked first against the domain, then each
    value with and without its cut; a value whose cut alone would expose a small group is
    shown without its channels' figures."""
    from generator.score.scope import derivable, overlap_withheld

    held = np.ones(12, dtype=bool)
    domain = [held.copy()]
    text = np.arange(12) < 6
    value = np.isin(np.arange(12), [0, 1, 6, 7, 8, 9])  # two text tasks: its text cut is small
    found = overlap_withheld(held, domain, {"v": value}, 3, {"channels=text": text})
    assert ("channels=text", "held-out") not in found
    assert found[("v", "splits")].startswith("withheld: over this scope's held-out tasks")
    assert ("v", "held-out") not in found
    assert derivable([*domain, text, value, value & text], 3)
    assert not derivable([*domain, text, value], 3)
    tiny = np.arange(12) < 2
    assert ("channels=text", "held-out") in overlap_withheld(
        held, domain, {}, 3, {"channels=text": tiny}
    )
