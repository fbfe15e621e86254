"""What the gate's searches remember: digests that tell questions apart, and a row space
named by its projector whatever its basis."""

from __future__ import annotations

import numpy as np
from budget import examples
from gatetools import systems, task_of
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score.gate import Functional
from generator.score.memory import Memory, digest, space_key
from generator.score.support import dense, exposed_matrix, row_basis


def test_a_digest_tells_apart_the_matrix_the_tasks_and_the_minimum() -> None:
    matrix = np.array([[1.0, 0.0, 2.0]])
    memory = Memory()
    columns = memory.numbers([frozenset({"a"}), frozenset({"b"}), frozenset({"a"})])
    assert columns == [0, 1, 0]
    asked = digest(matrix, columns, 3)
    assert asked == digest(matrix.copy(), list(columns), 3)
    assert asked != digest(matrix * 2, columns, 3)
    assert asked != digest(matrix, [0, 1, 1], 3)
    assert asked != digest(matrix, columns, 4)
    assert asked != digest(matrix.reshape(3, 1), columns, 3)  # the same bytes, transposed


def test_a_space_is_named_by_its_projector() -> None:
    """Two orthonormal bases of one plane share a key; another plane does not."""
    plane = row_basis(np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]]))
    turned = row_basis(np.array([[1.0, 2.0, 1.0], [1.0, 0.0, -1.0]]))  # the same plane
    other = row_basis(np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))
    assert not np.allclose(plane, turned)
    assert space_key(plane, [0, 1, 2], 2) == space_key(turned, [0, 1, 2], 2)
    assert space_key(plane, [0, 1, 2], 2) != space_key(other, [0, 1, 2], 2)


@settings(max_examples=examples(200), deadline=None)
@given(systems(), st.integers(0, 2**32 - 1))
def test_a_row_space_searched_once_is_answered_for_any_basis_of_it(
    system: tuple[list[Functional], int], seed: int
) -> None:
    """The memory names a row space by its projector: another basis of the same space (a
    random invertible mix of the rows) is answered as the search answers it, and without a
    second search."""
    rows, minimum = system
    matrix, tasks = dense(rows, task_of)
    mixed = np.random.default_rng(seed).standard_normal((len(matrix), len(matrix)))
    mix = np.tril(mixed, -1) + np.eye(len(matrix))  # unit triangular: invertible
    memory = Memory()
    first = exposed_matrix(matrix, tasks, minimum, memory=memory)
    spaces = len(memory.spaces)
    again = exposed_matrix(mix @ matrix, tasks, minimum, memory=memory)
    assert (
        (again is None) == (first is None) == (exposed_matrix(mix @ matrix, tasks, minimum) is None)
    )
    assert len(memory.spaces) == spaces
