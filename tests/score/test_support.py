"""The search behind the privacy gate: its fast paths give the plain search's answers."""

from __future__ import annotations

import numpy as np
from budget import examples
from gatetools import carries, systems, task_of
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score import support
from generator.score.gate import Functional, exposed
from generator.score.memory import Memory
from generator.score.support import dense, exposed_matrix


@settings(max_examples=examples(200), deadline=None)
@given(systems(), st.lists(st.sets(st.sampled_from([f"t{i}" for i in range(9)]), max_size=4)))
def test_the_fast_paths_change_no_answer(
    system: tuple[list[Functional], int], hints: list[set[str]]
) -> None:
    """Remembered task sets (hints, right or wrong) and screening in batches of three sets
    give the answer of the plain search, and a set named is a witness."""
    rows, minimum = system
    plain = exposed(rows, task_of, minimum)
    remembered = [frozenset(h) for h in hints if h]  # of any size: none is trusted
    batch = support.BATCH
    support.BATCH = 3
    try:
        fast = exposed_matrix(*dense(rows, task_of), minimum, memory=Memory(hints=remembered))
    finally:
        support.BATCH = batch
    assert (fast is None) == (plain is None)
    if fast is not None:
        assert carries(rows, fast)


def test_parallel_columns_count_together_and_a_witness_is_named() -> None:
    """Columns that are multiples of one another (either sign) enter every vector together:
    the second row lies on tasks a and b (two tasks), the second less twice the first on d."""
    matrix = np.array([[1.0, -2.0, 0.0, 1.0], [2.0, -4.0, 0.0, 0.0]])
    tasks = [frozenset({"a"}), frozenset({"b"}), frozenset({"c"}), frozenset({"d"})]
    assert exposed_matrix(matrix, tasks, 3) in (frozenset({"a", "b"}), frozenset({"d"}))
    assert exposed_matrix(matrix, tasks, 2) == frozenset({"d"})
    assert exposed_matrix(matrix[:1], tasks, 3) is None  # one row over three tasks
