"""The privacy gate: the one rule that decides whether a figure over held-out tasks may be
published (§4.4, §7.2).

Every figure the site publishes over held-out tasks is, for one combination, a linear
functional of the tasks' own values (a mean of their Task Scores, a rate of their runs, the
second moment an interval publishes); public tasks' values are known to every reader, so
only the held-out coordinates count (:mod:`generator.score.functionals` writes them). A
figure is admitted only while **no nonzero linear combination of everything admitted is
supported on fewer than** ``minimum`` **held-out tasks**: then no arithmetic on what is
published — differences, weighted sums, the identity S = w·R + (1 − w)·J — yields a figure
over a smaller group (§7.2: "only aggregate scores ... never per-task right/wrong feedback").

The test is exact linear algebra (:func:`exposed`). A vector of the row space of the admitted
functionals ``A`` is supported inside a task set ``U`` exactly when removing ``U``'s columns
lowers the rank of ``A``. Columns that are parallel enter every such vector together, so they
are merged into classes carrying the union of their tasks; a class over ``minimum`` tasks or
more can never lie in a small support, so the space is first cut to the vectors that vanish
on those classes (repeated until none is left); what remains is searched over the unions of
the small classes. :func:`brute_exposed` is the definition itself, every task set tried,
which a differential test binds to :func:`exposed` on random small systems.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import combinations

import numpy as np

#: A figure's coefficients on the held-out coordinates it rests on.
Functional = Mapping[Hashable, float]

#: Relative size under which a singular value counts as zero.
TOLERANCE = 1e-9
#: Most task sets :func:`exposed` tests one by one; past it, it answers as if one were
#: exposed (withholding more, never less).
MOST_SETS = 20_000


def _rank(matrix: np.ndarray) -> int:
    if matrix.size == 0:
        return 0
    values = np.linalg.svd(matrix, compute_uv=False)
    return int((values > TOLERANCE * max(1.0, float(values[0]))).sum())


def _row_basis(matrix: np.ndarray) -> np.ndarray:
    """An orthonormal basis of the row space of ``matrix`` (as rows)."""
    if matrix.size == 0:
        return np.zeros((0, matrix.shape[1]))
    _, values, vt = np.linalg.svd(matrix, full_matrices=False)
    keep = values > TOLERANCE * max(1.0, float(values[0]) if len(values) else 1.0)
    out: np.ndarray = vt[keep]
    return out


def _left_null(matrix: np.ndarray) -> np.ndarray:
    """A basis of the vectors y with yᵀ·matrix = 0 (as columns)."""
    u, values, _ = np.linalg.svd(matrix, full_matrices=True)
    rank = int((values > TOLERANCE * max(1.0, float(values[0]) if len(values) else 1.0)).sum())
    out: np.ndarray = u[:, rank:]
    return out


def _dense(
    rows: Sequence[Functional], task_of: Callable[[Hashable], str]
) -> tuple[np.ndarray, list[frozenset[str]]]:
    """The rows as a matrix over the coordinates they touch, and each column's task."""
    coords = sorted({c for row in rows for c, v in row.items() if v != 0}, key=repr)
    index = {c: i for i, c in enumerate(coords)}
    matrix = np.zeros((len(rows), len(coords)))
    for r, row in enumerate(rows):
        for c, v in row.items():
            if v != 0:
                matrix[r, index[c]] += v
    return matrix, [frozenset((task_of(c),)) for c in coords]


def _merge_parallel(
    matrix: np.ndarray, tasks: list[frozenset[str]]
) -> tuple[np.ndarray, list[frozenset[str]]]:
    """Columns that are multiples of one another as one column (they are zero together in
    every vector of the row space), carrying the union of their tasks; zero columns dropped."""
    norms = np.linalg.norm(matrix, axis=0)
    scale = max(1.0, float(norms.max())) if norms.size else 1.0
    keys: dict[bytes, int] = {}
    keep: list[int] = []
    merged: list[set[str]] = []
    for j in np.flatnonzero(norms > TOLERANCE * scale):
        column = matrix[:, j] / norms[j]
        pivot = column[np.flatnonzero(np.abs(column) > TOLERANCE)[0]]
        key = np.round(column * np.sign(pivot), 9).tobytes()
        if key in keys:
            merged[keys[key]] |= tasks[j]
        else:
            keys[key] = len(keep)
            keep.append(int(j))
            merged.append(set(tasks[j]))
    return matrix[:, keep], [frozenset(m) for m in merged]


def exposed(
    rows: Sequence[Functional], task_of: Callable[[Hashable], str], minimum: int
) -> frozenset[str] | None:
    """A set of 1..``minimum`` − 1 tasks on which some nonzero combination of ``rows`` is
    supported (exposed by what ``rows`` publish), or None when there is none."""
    if minimum <= 1 or not rows:
        return None
    return exposed_matrix(*_dense(rows, task_of), minimum)


def exposed_matrix(
    matrix: np.ndarray, tasks: list[frozenset[str]], minimum: int
) -> frozenset[str] | None:
    """:func:`exposed` of the rows of ``matrix``, whose columns lie on ``tasks``."""
    matrix = _row_basis(matrix)
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
        matrix = _row_basis(null.T @ matrix[:, small])
        tasks = [t for t, s in zip(tasks, small, strict=True) if s]
    return _search(matrix, tasks, minimum)


def _search(matrix: np.ndarray, tasks: list[frozenset[str]], minimum: int) -> frozenset[str] | None:
    """The first union of classes over fewer than ``minimum`` tasks that carries a vector
    of the row space of ``matrix`` (all classes small)."""
    rank = _rank(matrix)
    if rank == 0:
        return None
    found: set[frozenset[str]] = set()
    for task_set in _unions(tasks, minimum):
        if task_set in found:
            continue
        found.add(task_set)
        if len(found) > MOST_SETS:
            return frozenset(t for ts in tasks for t in ts)
        outside = [not (t <= task_set) for t in tasks]
        if _rank(matrix[:, outside]) < rank:
            return task_set
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


def brute_exposed(
    rows: Sequence[Functional], task_of: Callable[[Hashable], str], minimum: int
) -> frozenset[str] | None:
    """:func:`exposed` by its definition: every task set of 1..``minimum`` − 1 tasks tried
    for a drop in rank when its columns are removed (for tests; exponential)."""
    if minimum <= 1 or not rows:
        return None
    matrix, tasks = _dense(rows, task_of)
    names = sorted({t for ts in tasks for t in ts})
    rank = _rank(matrix)
    for size in range(1, min(minimum - 1, len(names)) + 1):
        for chosen in combinations(names, size):
            inside = frozenset(chosen)
            outside = [not (t <= inside) for t in tasks]
            if _rank(matrix[:, outside]) < rank:
                return inside
    return None


class Gate:
    """The functionals admitted so far over one combination's held-out tasks (or a pair's),
    kept as an orthonormal basis of their row space, and the test every further figure must
    pass (:func:`exposed`)."""

    def __init__(self, minimum: int, task_of: Callable[[Hashable], str]) -> None:
        self.minimum = minimum
        self.task_of = task_of
        self.index: dict[Hashable, int] = {}
        self.tasks: list[frozenset[str]] = []
        self.basis = np.zeros((0, 0))

    def _rows(self, functionals: Sequence[Functional]) -> np.ndarray:
        """The functionals over the gate's coordinates (new coordinates added)."""
        for f in functionals:
            for c, v in f.items():
                if v != 0 and c not in self.index:
                    self.index[c] = len(self.tasks)
                    self.tasks.append(frozenset((self.task_of(c),)))
        width = len(self.tasks)
        self.basis = np.pad(self.basis, ((0, 0), (0, width - self.basis.shape[1])))
        out = np.zeros((len(functionals), width))
        for r, f in enumerate(functionals):
            for c, v in f.items():
                if v != 0:
                    out[r, self.index[c]] += v
        return out

    def admit(self, functionals: Sequence[Functional]) -> bool:
        """Admit one figure (its functionals: the mean and what its interval publishes)
        when, with everything admitted before, nothing exposes a small held-out group."""
        new = [f for f in functionals if any(v != 0 for v in f.values())]
        if not new:
            return True
        rows = self._rows(new)
        stacked = np.vstack([self.basis, rows])
        basis = _row_basis(stacked)
        if len(basis) == len(self.basis):
            return True  # already derivable from what is admitted: it tells nothing new
        if exposed_matrix(basis, list(self.tasks), self.minimum) is not None:
            return False
        self.basis = basis
        return True

    def admit_known(self, functionals: Sequence[Functional]) -> None:
        """Take functionals already admitted elsewhere (another combination's, whose values
        are apart from this gate's own), unchecked."""
        rows = self._rows([f for f in functionals if any(v != 0 for v in f.values())])
        self.basis = _row_basis(np.vstack([self.basis, rows]))

    def admits(self, functionals: Sequence[Functional]) -> bool:
        """Whether :meth:`admit` would admit the figure, admitting nothing."""
        saved = (dict(self.index), list(self.tasks), self.basis)
        ok = self.admit(functionals)
        self.index, self.tasks, self.basis = saved
        return ok
