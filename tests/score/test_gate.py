"""The privacy gate's exact test against its definition, and the shapes of leak it closes."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pytest
from budget import examples
from gatetools import carries, mean, systems, task_of
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score import gate as gate_module
from generator.score import support
from generator.score.gate import Functional, Gate, brute_exposed, exposed
from generator.score.memory import Memory


@settings(max_examples=examples(400), deadline=None)
@given(systems())
def test_exposed_agrees_with_its_definition(system: tuple[list[Functional], int]) -> None:
    rows, minimum = system
    fast, brute = exposed(rows, task_of, minimum), brute_exposed(rows, task_of, minimum)
    assert (fast is None) == (brute is None), (rows, minimum, fast, brute)
    if fast is not None:
        assert len(fast) < minimum
        assert carries(rows, fast)  # the set it names is a witness, not a guess


@settings(max_examples=examples(200), deadline=None)
@given(systems())
def test_the_gate_never_admits_an_exposing_set(system: tuple[list[Functional], int]) -> None:
    rows, minimum = system
    gate, admitted = Gate(minimum, task_of), []
    for row in rows:
        if gate.admit([row]):
            admitted.append(row)
    assert brute_exposed(admitted, task_of, minimum) is None
    assert rows  # systems() draws one to six figures
    # and what it refused would have exposed a group, with what it had admitted before it
    for row in rows:
        if row not in admitted:
            assert brute_exposed([*admitted, row], task_of, minimum) is not None


TASKS = [f"h{i}" for i in range(8)]


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(systems(), min_size=2, max_size=4))
def test_answers_kept_for_one_gate_are_the_search_s_for_every_other(
    drawn: list[tuple[list[Functional], int]],
) -> None:
    """Gates sharing their answers (as the gates of one domain do) decide as gates that
    search every question themselves."""
    shared = Memory()
    decided = 0
    for rows, minimum in drawn:
        alone, sharing = Gate(minimum, task_of), Gate(minimum, task_of, shared)
        assert [sharing.admit([r]) for r in rows] == [alone.admit([r]) for r in rows]
        decided += len(rows)
    assert decided >= len(drawn) >= 2


def test_a_question_asked_again_is_not_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same figures of another statistic (other coordinates, the same matrix and tasks)
    are decided from the answers kept, with no search."""
    searched: list[int] = []
    plain = support.exposed_matrix

    def counted(*args: Any) -> frozenset[str] | None:
        searched.append(1)
        return plain(*args)

    monkeypatch.setattr(gate_module, "exposed_matrix", counted)
    figures = [mean(TASKS), mean(TASKS[:4]), mean(TASKS[:6]), mean(TASKS[2:])]
    shared = Memory()
    first = Gate(4, task_of, shared)
    decided = [first.admit([f]) for f in figures]
    asked = len(searched)
    assert asked >= 2
    assert decided == [True, True, False, False]
    second = Gate(4, task_of, shared)
    renamed: list[Functional] = [{(c[0], "R"): v for c, v in f.items()} for f in figures]
    assert [second.admit([f]) for f in renamed] == decided
    assert len(searched) == asked


def test_a_difference_of_two_sets_is_caught() -> None:
    gate = Gate(4, task_of)
    assert gate.admit([mean(TASKS)])
    assert gate.admit([mean(TASKS[:4])])
    assert not gate.admit([mean(TASKS[:6])])  # less the first four: two tasks
    assert gate.admit([mean(TASKS[4:])])  # the rest: four tasks, derivable anyway


def test_a_weighted_combination_is_caught() -> None:
    """The EnterpriseClawBench example's route: 10·J(V) − 6·J(H) − 4·J(P) = x₉ − x₅, the
    difference of two tasks, where no 0/1 sum of a small group is derivable."""
    ten = [f"h{i}" for i in range(10)]
    v, h, p = ten, ten[:6], ten[5:9]
    gate = Gate(4, task_of)
    assert gate.admit([mean(v)])
    assert gate.admit([mean(h)])
    assert not gate.admit([mean(p)])
    assert exposed([mean(v), mean(h), mean(p)], task_of, 4) == frozenset({"h5", "h9"})


def test_the_identity_of_the_task_score_is_caught() -> None:
    """S = w·R + (1 − w)·J per task: S and R over the same held-out tasks give
    Σ(1 − w)(J − R) over the dual-channel tasks alone (the unedited example's route)."""
    gate = Gate(4, task_of)
    dual, rule_only = TASKS[:3], TASKS[3:]
    score: dict[Hashable, float] = {}
    for t in dual:
        score[(t, "R")] = 0.5 / len(TASKS)
        score[(t, "J")] = 0.5 / len(TASKS)
    for t in rule_only:
        score[(t, "R")] = 1 / len(TASKS)
    assert gate.admit([score])
    assert not gate.admit([mean(TASKS, "R")])


def test_a_combination_on_residues_alone_is_supported_on_no_task() -> None:
    """S = R − Z per rule-only task, Z (the zeroed runs' residue) on no task: S and R over
    every task leave Σ Z alone, which a reader must not learn (score/functionals.py), while
    S and the residue-free R of one more statistic pass."""
    gate = Gate(4, task_of)
    score = {**mean(TASKS, "R"), **{(t, "Z"): -1 / len(TASKS) for t in TASKS}}
    assert gate.admit([score])
    assert gate.admit([mean(TASKS, "success")])
    assert not gate.admits([mean(TASKS, "R")])
    assert exposed([score, mean(TASKS, "R")], task_of, 4) == frozenset()
    assert brute_exposed([score, mean(TASKS, "R")], task_of, 4) == frozenset()


def test_an_interval_publishes_a_second_moment() -> None:
    """Two weighted means whose points isolate no group of four, but whose intervals (their
    squared weights on the tasks' squares) isolate two tasks' squares."""
    gate = Gate(5, task_of)
    weights = [1.0, 1.0, 1.0, -1.0, -1.0, -1.0, 2.0, 3.0]
    square = {(t, "S²"): 1.0 for t in TASKS}
    assert gate.admit([mean(TASKS), square])
    assert gate.admit([{(t, "S"): w for t, w in zip(TASKS, weights, strict=True)}])
    squared = {(t, "S²"): w * w for t, w in zip(TASKS, weights, strict=True)}
    assert not gate.admit([squared])


def test_the_point_of_a_small_complement_is_refused() -> None:
    gate = Gate(4, task_of)
    assert gate.admit([mean(TASKS)])
    assert not gate.admit([mean(TASKS[:5])])


def test_rows_already_in_the_span_are_admitted() -> None:
    gate = Gate(4, task_of)
    assert gate.admit([mean(TASKS)])
    assert gate.admit([{k: 2 * v for k, v in mean(TASKS).items()}])
    assert gate.admits([mean(TASKS)])
    assert not gate.admits([mean(TASKS[:1])])
    assert gate.admit([mean(TASKS[:4])])


def test_a_single_task_is_exposed_and_no_row_is_safe() -> None:
    assert exposed([mean(["a"])], task_of, 2) == frozenset({"a"})
    assert exposed([], task_of, 4) is None
    assert exposed([mean(["a"])], task_of, 1) is None
    rng = np.random.default_rng(1)
    dense = [{(t, "S"): float(rng.normal()) for t in TASKS} for _ in range(3)]
    assert exposed(dense, task_of, 4) is None  # three generic rows over eight tasks
    assert exposed(dense, task_of, 7) is not None  # 8 − 3 … any five tasks can be isolated
