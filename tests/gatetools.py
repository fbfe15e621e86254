"""Small systems of functionals for the tests of the privacy gate and its search."""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
from hypothesis import strategies as st

from generator.score.gate import Functional

#: A statistic that belongs to no task (as a zeroed runs' residue, score/functionals.py).
UNTASKED = "Z"


def task_of(coord: Hashable) -> str | None:
    assert isinstance(coord, tuple)
    return None if coord[1] == UNTASKED else str(coord[0])


def mean(tasks: list[str], stat: str = "S", weights: list[float] | None = None) -> Functional:
    """The mean of one statistic over ``tasks`` (optionally weighted)."""
    w = weights or [1.0] * len(tasks)
    return {(t, stat): wi / sum(w) for t, wi in zip(tasks, w, strict=True)}


@st.composite
def systems(draw: st.DrawFn) -> tuple[list[Functional], int]:
    """A few figures over up to nine tasks and three statistics: sums over random task sets,
    random small integer weights, sometimes a second statistic tied to the first, sometimes
    one on no task (a residue)."""
    n_tasks = draw(st.integers(2, 9))
    tasks = [f"t{i}" for i in range(n_tasks)]
    rows: list[Functional] = []
    for _ in range(draw(st.integers(1, 6))):
        chosen = draw(st.lists(st.sampled_from(tasks), min_size=1, unique=True))
        stats = draw(st.sampled_from([("S",), ("R",), ("S", "R"), ("S", UNTASKED)]))
        row: dict[Hashable, float] = {}
        for t in chosen:
            for s in stats:
                row[(t, s)] = float(draw(st.sampled_from([1, 1, 1, 2, -1, 3])))
        rows.append(row)
    return rows, draw(st.integers(2, 5))


def carries(rows: list[Functional], task_set: frozenset[str]) -> bool:
    """Whether some nonzero combination of ``rows`` lies on ``task_set`` alone: removing
    its columns (and those on no task) lowers the rank (the definition, by numpy's own
    rank)."""
    coords = sorted({c for row in rows for c in row}, key=repr)
    matrix = np.array([[row.get(c, 0.0) for c in coords] for row in rows])
    outside = [task_of(c) is not None and task_of(c) not in task_set for c in coords]
    rank = np.linalg.matrix_rank(matrix)
    return bool(np.linalg.matrix_rank(matrix[:, outside]) < rank) if any(outside) else rank > 0
