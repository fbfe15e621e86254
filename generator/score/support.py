"""Whether a row space holds a vector supported on few tasks: the exact test behind the
privacy gate (:mod:`generator.score.gate`), and the fast paths that keep it affordable.

A vector of the row space of a matrix is supported inside a task set ``U`` exactly when
removing ``U``'s columns lowers the rank. Columns that are parallel enter every such vector
together, so they are merged into classes carrying the union of their tasks; a class over
``minimum`` tasks or more can never lie in a small support, so the space is first cut to
the vectors that vanish on those classes (repeated until none is left); what remains is
searched over the unions of the small classes (:func:`exposed_matrix`). The search tries,
in turn, the task sets that exposed groups before, the rows of the reduced echelon form,
and every union, screened in batches (``bench/gate_speed.py``: 51.8 s → 11.4 s on the
EnterpriseClawBench-shaped example, the same decisions).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence

import numpy as np

from generator.score.memory import Memory, space_key

#: A coordinate's task; None: it belongs to no task (a residue, :mod:`.functionals`).
TaskOf = Callable[[Hashable], str | None]

#: Relative size under which a singular value counts as zero.
TOLERANCE = 1e-9
#: Most task sets :func:`exposed` tests one by one; past it, it answers as if one were
#: exposed (withholding more, never less).
MOST_SETS = 20_000
#: Under this, ``1 − σ²`` of a set's block of an orthonormal basis is not trusted to clear
#: the set (rounding of ``σ²`` is ~1e-16; a set the rank test would call exposed has
#: ``1 − σ² ≤ TOLERANCE²``), so the set is tested by the rank.
SCREEN = 1e-10


def _significant(values: np.ndarray) -> np.ndarray:
    """Which singular values (largest first) count as nonzero."""
    return values > TOLERANCE * max(1.0, float(values[0]) if len(values) else 1.0)


def rank_of(matrix: np.ndarray) -> int:
    if matrix.size == 0:
        return 0
    return int(_significant(np.linalg.svd(matrix, compute_uv=False)).sum())


def row_basis(matrix: np.ndarray) -> np.ndarray:
    """An orthonormal basis of the row space of ``matrix`` (as rows)."""
    if matrix.size == 0:
        return np.zeros((0, matrix.shape[1]))
    _, values, vt = np.linalg.svd(matrix, full_matrices=False)
    out: np.ndarray = vt[_significant(values)]
    return out


def extend(basis: np.ndarray, row: np.ndarray) -> np.ndarray | None:
    """``basis`` (orthonormal rows) with the part of ``row`` outside its span, normalised,
    as one more row; None when ``row`` lies in the span. Gram-Schmidt twice, which keeps
    the rows orthonormal to rounding (one SVD per admitted figure was the gate's main cost:
    ``bench/gate_speed.py``)."""
    residual = row.astype(float)
    for _ in range(2):
        if len(basis):
            residual = residual - (basis @ residual) @ basis
    norm = float(np.linalg.norm(residual))
    if norm <= TOLERANCE * max(1.0, float(np.linalg.norm(row))):
        return None
    return np.vstack([basis, residual / norm])


def _left_null(matrix: np.ndarray) -> np.ndarray:
    """A basis of the vectors y with yᵀ·matrix = 0 (as columns)."""
    u, values, _ = np.linalg.svd(matrix, full_matrices=True)
    out: np.ndarray = u[:, int(_significant(values).sum()) :]
    return out


def tasks_of(task_of: TaskOf, coordinate: Hashable) -> frozenset[str]:
    """The tasks a coordinate lies on: its task, or none."""
    task = task_of(coordinate)
    return frozenset() if task is None else frozenset((task,))


def dense(
    rows: Sequence[Mapping[Hashable, float]], task_of: TaskOf
) -> tuple[np.ndarray, list[frozenset[str]]]:
    """The rows as a matrix over the coordinates they touch, and each column's task."""
    coords = sorted({c for row in rows for c, v in row.items() if v != 0}, key=repr)
    index = {c: i for i, c in enumerate(coords)}
    matrix = np.zeros((len(rows), len(coords)))
    for r, row in enumerate(rows):
        for c, v in row.items():
            if v != 0:
                matrix[r, index[c]] += v
    return matrix, [tasks_of(task_of, c) for c in coords]


def _merge_parallel(
    matrix: np.ndarray, tasks: list[frozenset[str]]
) -> tuple[np.ndarray, list[frozenset[str]]]:
    """Columns that are multiples of one another as one column (they are zero together in
    every vector of the row space), carrying the union of their tasks; zero columns dropped."""
    norms = np.linalg.norm(matrix, axis=0)
    scale = max(1.0, float(norms.max())) if norms.size else 1.0
    nonzero = np.flatnonzero(norms > TOLERANCE * scale)
    if not len(nonzero):
        return matrix[:, nonzero], []
    columns = matrix[:, nonzero] / norms[nonzero]
    # each column signed so that its first entry off zero is positive, then rounded: a key
    pivots = np.argmax(np.abs(columns) > TOLERANCE, axis=0)
    signs = np.sign(columns[pivots, np.arange(len(nonzero))])
    keys = np.round(columns * signs, 9) + 0.0  # + 0.0: one zero, not two (-0.0)
    # equal keys have equal projections; a projection shared by unequal keys (never seen,
    # checked) falls back to comparing the keys whole
    projected = PROJECTION[: len(keys)] @ keys if len(keys) <= len(PROJECTION) else None
    if projected is not None:
        _, first, group = np.unique(projected, return_index=True, return_inverse=True)
        if np.array_equal(keys, keys[:, first[group]]):
            return _merged(matrix, tasks, nonzero, first, group.ravel())
    found: dict[bytes, int] = {}
    firsts: list[int] = []
    groups = np.empty(len(nonzero), dtype=np.intp)
    for i in range(len(nonzero)):
        key = keys[:, i].tobytes()
        if key not in found:
            found[key] = len(firsts)
            firsts.append(i)
        groups[i] = found[key]
    return _merged(matrix, tasks, nonzero, np.array(firsts, dtype=np.intp), groups)


#: Fixed coefficients that project a column's key to one number (deterministic).
PROJECTION = np.random.default_rng(20261203).standard_normal(4096)


def _merged(
    matrix: np.ndarray,
    tasks: list[frozenset[str]],
    nonzero: np.ndarray,
    first: np.ndarray,
    group: np.ndarray,
) -> tuple[np.ndarray, list[frozenset[str]]]:
    """The classes of :func:`_merge_parallel`, in the order of their first column: each
    group's first column, and the union of its columns' tasks."""
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    merged: list[set[str]] = [set() for _ in order]
    for i, g in enumerate(rank[group].tolist()):
        merged[g] |= tasks[int(nonzero[i])]
    return matrix[:, nonzero[first[order]]], [frozenset(m) for m in merged]


def exposed_matrix(
    matrix: np.ndarray,
    tasks: list[frozenset[str]],
    minimum: int,
    orthonormal: bool = False,
    memory: Memory | None = None,
) -> frozenset[str] | None:
    """:func:`exposed` of the rows of ``matrix``, whose columns lie on ``tasks``
    (``orthonormal``: its rows are already an orthonormal basis; ``memory``: what earlier
    searches found, :class:`Memory`)."""
    if not orthonormal:
        matrix = row_basis(matrix)
    untasked = np.array([not t for t in tasks], dtype=bool)
    if untasked.any():
        # Columns on no task count in no support: a vector of the row space is exposed on
        # the empty set when it vanishes on every other column (removing them lowers the
        # rank), else its support is that of its part on the others, a vector of their
        # row space. So they leave the search (it screened them in every set: 10× slower).
        if rank_of(matrix[:, ~untasked]) < len(matrix):
            return frozenset()
        matrix = matrix[:, ~untasked]
        tasks = [t for t, u in zip(tasks, untasked.tolist(), strict=True) if not u]
    while True:
        matrix, tasks = _merge_parallel(matrix, tasks)
        if matrix.shape[1] == 0 or matrix.shape[0] == 0:
            return None
        big = [len(t) >= minimum for t in tasks]
        if not any(big):
            break
        # only vectors vanishing on every big class can have a small support
        null = _left_null(matrix[:, big])
        if null.shape[1] == 0:
            return None
        small = [not b for b in big]
        matrix = row_basis(null.T @ matrix[:, small])
        tasks = [t for t, s in zip(tasks, small, strict=True) if s]
    basis = row_basis(matrix)
    if memory is None:
        return _search(basis, tasks, minimum)
    key = space_key(basis, memory.numbers(tasks), minimum)
    if key not in memory.spaces:
        memory.spaces[key] = _search(basis, tasks, minimum, memory.hints)
    return memory.spaces[key]


def _search(
    basis: np.ndarray,
    tasks: list[frozenset[str]],
    minimum: int,
    hints: list[frozenset[str]] | None = None,
) -> frozenset[str] | None:
    """The first union of classes over fewer than ``minimum`` tasks that carries a vector
    of the row space of ``basis`` (orthonormal rows; all classes small).

    With ``Q`` an orthonormal basis of the rows, ``Q_inᵀ·Q_in + Q_outᵀ·Q_out = I`` on the
    rows' space, so removing a set's columns lowers the rank exactly when ``Q_in`` (the
    set's few columns) has a singular value of one. Those small eigenvalue problems screen
    the sets a batch at a time (from one Gram matrix, by size), and only a set they cannot
    clear is tested by the rank itself (``bench/gate_speed.py``)."""
    rank = len(basis)
    if rank == 0:
        return None
    quick = _hinted(basis, rank, tasks, [h for h in hints or [] if len(h) < minimum])
    if quick is None:
        quick = _echelon_witness(basis, tasks, minimum)
    if quick is None:
        quick = _enumerated(basis, rank, tasks, minimum)
    if quick and hints is not None and quick not in hints:
        hints.insert(0, quick)
        del hints[HINTS:]
    return quick


#: Most task sets a gate remembers as :func:`exposed_matrix`'s ``hints``.
HINTS = 16


def _hinted(
    basis: np.ndarray, rank: int, tasks: list[frozenset[str]], hints: list[frozenset[str]]
) -> frozenset[str] | None:
    """The first of ``hints`` whose classes carry a vector of the row space."""
    for hint in hints:
        inside = np.array([t <= hint for t in tasks])
        if not inside.any():
            continue
        block = basis[:, inside]
        small = block.T @ block if block.shape[1] <= block.shape[0] else block @ block.T
        if 1.0 - float(np.linalg.eigvalsh(small)[-1]) <= SCREEN and (
            rank_of(basis[:, ~inside]) < rank
        ):
            return frozenset(t for ts, i in zip(tasks, inside, strict=True) if i for t in ts)
    return None


def _enumerated(
    basis: np.ndarray, rank: int, tasks: list[frozenset[str]], minimum: int
) -> frozenset[str] | None:
    """The first union of classes, enumerated, that carries a vector of the row space."""
    names, member = _membership(tasks)
    where = {t: i for i, t in enumerate(names)}
    gram = basis.T @ basis
    sets: list[frozenset[str]] = []
    seen: set[frozenset[str]] = set()
    for task_set in _unions(tasks, minimum):
        if task_set in seen:
            continue
        if len(seen) == MOST_SETS:  # more than are tested one by one: as if one were exposed
            return frozenset(names)
        seen.add(task_set)
        sets.append(task_set)
        if len(sets) == BATCH:
            hit = _screen(basis, rank, gram, member, where, sets)
            if hit is not None:
                return hit
            sets = []
    return _screen(basis, rank, gram, member, where, sets) if sets else None


def _membership(tasks: list[frozenset[str]]) -> tuple[list[str], np.ndarray]:
    """The tasks by name, and which of them each class holds (classes × tasks, 0 or 1)."""
    names = sorted({t for ts in tasks for t in ts})
    where = {t: i for i, t in enumerate(names)}
    member = np.zeros((len(tasks), len(names)))
    for c, ts in enumerate(tasks):
        member[c, [where[t] for t in ts]] = 1.0
    return names, member


def _echelon_witness(
    basis: np.ndarray, tasks: list[frozenset[str]], minimum: int
) -> frozenset[str] | None:
    """A small support read off the reduced row echelon form of ``basis``, its columns in
    task order: each of its rows is a vector of the row space on its pivot and the free
    columns only, so a group is often exposed by one of them without a search. None when
    no row is that small (the search then decides)."""
    order = sorted(range(len(tasks)), key=lambda c: sorted(tasks[c]))
    rows = basis[:, order].copy()
    scale = max(1.0, float(np.abs(rows).max()))
    pivot_row = 0
    for column in range(rows.shape[1]):
        if pivot_row == len(rows):
            break
        best = pivot_row + int(np.argmax(np.abs(rows[pivot_row:, column])))
        if abs(rows[best, column]) <= TOLERANCE * scale:
            continue
        rows[[pivot_row, best]] = rows[[best, pivot_row]]
        rows[pivot_row] /= rows[pivot_row, column]
        others = np.arange(len(rows)) != pivot_row
        rows[others] -= np.outer(rows[others, column], rows[pivot_row])
        pivot_row += 1
    names, member = _membership(tasks)
    supports = (np.abs(rows[:pivot_row]) > TOLERANCE * scale) @ member[order] > 0  # rows x tasks
    for row in np.flatnonzero(supports.sum(axis=1) < minimum):
        return frozenset(n for n, on in zip(names, supports[row], strict=True) if on)
    return None


#: Sets screened together by :func:`_search` (the first exposed one is found in order).
BATCH = 256


def _screen(
    basis: np.ndarray,
    rank: int,
    gram: np.ndarray,
    member: np.ndarray,
    where: Mapping[str, int],
    sets: list[frozenset[str]],
) -> frozenset[str] | None:
    """The first of ``sets`` whose columns (the classes inside it) carry a vector of the
    row space of ``basis``; see :func:`_search`."""
    outside_tasks = np.ones((len(where), len(sets)))
    for i, task_set in enumerate(sets):
        outside_tasks[[where[t] for t in task_set], i] = 0.0
    inside = (member @ outside_tasks) == 0  # classes x sets
    columns = [np.flatnonzero(inside[:, i]) for i in range(len(sets))]
    screened = np.ones(len(sets), dtype=bool)
    for size in sorted({len(c) for c in columns}):
        which = [i for i, c in enumerate(columns) if len(c) == size]
        if size == 0:
            screened[which] = False
            continue
        index = np.array([columns[i] for i in which])
        blocks = gram[index[:, :, None], index[:, None, :]]
        # below SCREEN, every vector on such a set keeps a part outside it: cleared
        screened[which] = 1.0 - np.linalg.eigvalsh(blocks)[:, -1] <= SCREEN
    for hit in np.flatnonzero(screened):
        if rank_of(basis[:, ~inside[:, hit]]) < rank:
            return sets[hit]
    return None


def _unions(tasks: list[frozenset[str]], minimum: int) -> Iterable[frozenset[str]]:
    """Every union of the classes' task sets with fewer than ``minimum`` tasks that no
    further class can join, found depth first (a maximal union holds every smaller one's
    vectors, so only those are tested)."""
    distinct = sorted(set(tasks), key=lambda t: (len(t), sorted(t)))

    def grow(start: int, union: frozenset[str]) -> Iterable[frozenset[str]]:
        extended = False
        for i in range(start, len(distinct)):
            bigger = union | distinct[i]
            if bigger != union and len(bigger) < minimum:
                extended = True
                yield from grow(i + 1, bigger)
        if not extended and union:
            yield union

    yield from grow(0, frozenset())
