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
from dataclasses import dataclass
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


@dataclass
class _Part:
    """Admitted functionals that share coordinates (a connected part): their coordinates,
    each one's task, and an orthonormal basis of their row space."""

    index: dict[Hashable, int]
    tasks: list[frozenset[str]]
    basis: np.ndarray


class Gate:
    """The functionals admitted so far over one combination's held-out tasks (or a pair's),
    and the test every further figure must pass (:func:`exposed`).

    Admitted functionals are kept in parts that share no coordinate: a vector of the whole
    row space is a sum of one from each part, its support the union of theirs, so the whole
    exposes a small group exactly when one part does, and a figure is tested only with the
    parts it touches. A figure that reaches ``minimum`` tasks or more on coordinates no part
    holds cannot be cancelled there, so it exposes nothing new (admitted without a search)."""

    def __init__(self, minimum: int, task_of: Callable[[Hashable], str]) -> None:
        self.minimum = minimum
        self.task_of = task_of
        self.parts: list[_Part] = []
        self.owner: dict[Hashable, int] = {}

    def _merged(self, functionals: Sequence[Functional]) -> tuple[list[int], _Part, np.ndarray]:
        """The parts the functionals touch, joined into one with the functionals' new
        coordinates, and the functionals as rows over it."""
        touched = sorted({self.owner[c] for f in functionals for c in f if c in self.owner})
        index: dict[Hashable, int] = {}
        tasks: list[frozenset[str]] = []
        blocks = []
        for i in touched:
            part = self.parts[i]
            offset = len(tasks)
            index.update({c: offset + j for c, j in part.index.items()})
            tasks.extend(part.tasks)
            blocks.append((offset, part.basis))
        for f in functionals:
            for c, v in f.items():
                if v != 0 and c not in index:
                    index[c] = len(tasks)
                    tasks.append(frozenset((self.task_of(c),)))
        basis = np.zeros((sum(len(b) for _, b in blocks), len(tasks)))
        row = 0
        for offset, b in blocks:
            basis[row : row + len(b), offset : offset + b.shape[1]] = b
            row += len(b)
        rows = np.zeros((len(functionals), len(tasks)))
        for r, f in enumerate(functionals):
            for c, v in f.items():
                if v != 0:
                    rows[r, index[c]] += v
        return touched, _Part(index, tasks, basis), rows

    def _keep(self, touched: list[int], part: _Part) -> None:
        keep = [p for i, p in enumerate(self.parts) if i not in set(touched)]
        self.parts = [*keep, part]
        self.owner = {c: i for i, p in enumerate(self.parts) for c in p.index}

    def admit(self, functionals: Sequence[Functional]) -> bool:
        """Admit one figure (its functionals: the mean and what its interval publishes)
        when, with everything admitted before, nothing exposes a small held-out group: one
        functional after another (a set exposes nothing exactly when each step adds nothing
        that does), all or none."""
        saved = (list(self.parts), dict(self.owner))
        for f in functionals:
            if any(v != 0 for v in f.values()) and not self._admit_one(f):
                self.parts, self.owner = saved
                return False
        return True

    def _admit_one(self, functional: Functional) -> bool:
        fresh = {self.task_of(c) for c, v in functional.items() if v != 0 and c not in self.owner}
        touched, part, rows = self._merged([functional])
        basis = _row_basis(np.vstack([part.basis, rows]))
        if len(basis) == len(part.basis):
            return True  # already derivable from what is admitted: it tells nothing new
        # Coordinates no admitted functional touches cannot be cancelled: every combination
        # involving the new one keeps them, and every one without it was safe before.
        if len(fresh) < self.minimum and (
            exposed_matrix(basis, list(part.tasks), self.minimum) is not None
        ):
            return False
        self._keep(touched, _Part(part.index, part.tasks, basis))
        return True

    def admit_known(self, functionals: Sequence[Functional]) -> None:
        """Take functionals already admitted elsewhere (another combination's, whose values
        are apart from this gate's own), unchecked."""
        new = [f for f in functionals if any(v != 0 for v in f.values())]
        if new:
            touched, part, rows = self._merged(new)
            self._keep(
                touched, _Part(part.index, part.tasks, _row_basis(np.vstack([part.basis, rows])))
            )

    def admits(self, functionals: Sequence[Functional]) -> bool:
        """Whether :meth:`admit` would admit the figure, admitting nothing."""
        saved = (list(self.parts), dict(self.owner))
        ok = self.admit(functionals)
        self.parts, self.owner = saved
        return ok
