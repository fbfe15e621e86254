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

The test is exact linear algebra (:func:`exposed`, written in
:mod:`generator.score.support`); :func:`brute_exposed` is the definition itself, every
task set tried, which a differential test binds to :func:`exposed` on random small systems.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from generator.score.memory import Memory, digest
from generator.score.support import TaskOf, dense, exposed_matrix, extend, rank_of, tasks_of

#: A figure's coefficients on the held-out coordinates it rests on.
Functional = Mapping[Hashable, float]


def exposed(rows: Sequence[Functional], task_of: TaskOf, minimum: int) -> frozenset[str] | None:
    """A set of 0..``minimum`` − 1 tasks on which some nonzero combination of ``rows`` is
    supported (exposed by what ``rows`` publish), or None when there is none (a coordinate
    whose ``task_of`` is None belongs to no task: a combination on such coordinates alone
    is supported on the empty set)."""
    if minimum <= 1 or not rows:
        return None
    return exposed_matrix(*dense(rows, task_of), minimum)


def brute_exposed(
    rows: Sequence[Functional], task_of: TaskOf, minimum: int
) -> frozenset[str] | None:
    """:func:`exposed` by its definition: every task set of 0..``minimum`` − 1 tasks tried
    for a drop in rank when its columns are removed (for tests; exponential)."""
    if minimum <= 1 or not rows:
        return None
    matrix, tasks = dense(rows, task_of)
    names = sorted({t for ts in tasks for t in ts})
    rank = rank_of(matrix)
    for size in range(0, min(minimum - 1, len(names)) + 1):
        for chosen in combinations(names, size):
            inside = frozenset(chosen)
            outside = [not (t <= inside) for t in tasks]
            if rank_of(matrix[:, outside]) < rank:
                return inside
    return None


@dataclass
class _Part:
    """Admitted functionals that share coordinates (a connected part): their coordinates,
    each one's task (and the number :class:`Memory` gives it), and an orthonormal basis of
    their row space."""

    index: dict[Hashable, int]
    tasks: list[frozenset[str]]
    ids: list[int]
    basis: np.ndarray


#: What undoes one admission: the parts it replaced, the number of the part it made, and
#: the owners the coordinates it moved had before (None: none).
_Undo = tuple[dict[int, _Part], int, dict[Hashable, int | None]]


class Gate:
    """The functionals admitted so far over one combination's held-out tasks (or a pair's),
    and the test every further figure must pass (:func:`exposed`).

    Admitted functionals are kept in parts that share no coordinate: a vector of the whole
    row space is a sum of one from each part, its support the union of theirs, so the whole
    exposes a small group exactly when one part does, and a figure is tested only with the
    parts it touches. A figure that reaches ``minimum`` tasks or more on coordinates no part
    holds cannot be cancelled there, so it exposes nothing new (admitted without a search)."""

    def __init__(
        self,
        minimum: int,
        task_of: TaskOf,
        memory: Memory | None = None,
    ) -> None:
        self.minimum = minimum
        self.task_of = task_of
        #: what the searches found, shared by the gates of one domain
        self.memory = Memory() if memory is None else memory
        self.parts: dict[int, _Part] = {}  # by number (a merged part keeps its first's)
        self.owner: dict[Hashable, int] = {}
        self.made = 0

    def _merged(
        self, functionals: Sequence[Functional]
    ) -> tuple[list[int], _Part, np.ndarray, list[Hashable]]:
        """The parts the functionals touch, joined into one with the functionals' new
        coordinates (the first part's columns first, as they were), the functionals as rows
        over it, and the new coordinates."""
        touched = sorted({self.owner[c] for f in functionals for c in f if c in self.owner})
        index: dict[Hashable, int] = {}
        tasks: list[frozenset[str]] = []
        ids: list[int] = []
        blocks = []
        for i in touched:
            part = self.parts[i]
            offset = len(tasks)
            if offset:
                index.update({c: offset + j for c, j in part.index.items()})
            else:
                index = dict(part.index)
            tasks.extend(part.tasks)
            ids.extend(part.ids)
            blocks.append((offset, part.basis))
        fresh: list[Hashable] = []
        for f in functionals:
            for c, v in f.items():
                if v != 0 and c not in index:
                    index[c] = len(tasks)
                    fresh.append(c)
                    tasks.append(tasks_of(self.task_of, c))
        ids.extend(self.memory.numbers(tasks[len(ids) :]))
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
        return touched, _Part(index, tasks, ids, basis), rows, fresh

    def _keep(self, touched: list[int], part: _Part, fresh: list[Hashable]) -> _Undo:
        """Replace the touched parts by ``part``, numbered as the first of them (its
        coordinates keep their owner: only the new ones and the other parts' move); return
        what undoes it."""
        removed = {i: self.parts.pop(i) for i in touched}
        if touched:
            number = touched[0]
        else:
            self.made += 1
            number = self.made
        self.parts[number] = part
        moved = [*fresh, *(c for i in touched[1:] for c in removed[i].index)]
        before = {c: self.owner.get(c) for c in moved}
        self.owner.update(dict.fromkeys(moved, number))
        return removed, number, before

    def _undo(self, undo: _Undo) -> None:
        removed, number, before = undo
        del self.parts[number]
        self.parts.update(removed)
        for c, owner in before.items():
            if owner is None:
                del self.owner[c]
            else:
                self.owner[c] = owner

    def admit(self, functionals: Sequence[Functional]) -> bool:
        """Admit one figure (its functionals: the mean and what its interval publishes)
        when, with everything admitted before, nothing exposes a small held-out group: one
        functional after another (a set exposes nothing exactly when each step adds nothing
        that does), all or none."""
        done: list[_Undo] = []
        for f in functionals:
            if not any(v != 0 for v in f.values()):
                continue
            step = self._admit_one(f)
            if step is False:
                for undo in reversed(done):
                    self._undo(undo)
                return False
            if step is not True:
                done.append(step)
        return True

    def _admit_one(self, functional: Functional) -> _Undo | bool:
        """False when the functional would expose a group; else True when it adds nothing,
        or what undoes its admission."""
        fresh = {
            t
            for c, v in functional.items()
            if v != 0 and c not in self.owner
            for t in tasks_of(self.task_of, c)
        }
        touched, part, rows, new = self._merged([functional])
        basis = extend(part.basis, rows[0])
        if basis is None:
            return True  # already derivable from what is admitted: it tells nothing new
        # Coordinates no admitted functional touches cannot be cancelled: every combination
        # involving the new one keeps them, and every one without it was safe before.
        if len(fresh) < self.minimum and self._exposes(basis, part):
            return False
        return self._keep(touched, _Part(part.index, part.tasks, part.ids, basis), new)

    def _exposes(self, basis: np.ndarray, part: _Part) -> bool:
        """Whether the row space of ``basis`` (orthonormal rows over ``part``'s columns)
        exposes a small group: :func:`exposed_matrix`, its answer kept by a digest of the
        question (the matrix's bytes, its columns' tasks, the minimum) in the
        :class:`Memory` the domain's gates share: the answer is a function of the question
        (``bench/gate_speed.py``: the EnterpriseClawBench-shaped example's gate 12.2 s → 3.4 s
        with the memory, the reference release's 23.5 s → 9.9 s)."""
        key = digest(basis, part.ids, self.minimum)
        known = self.memory.questions.get(key)
        if known is None:
            found = exposed_matrix(basis, list(part.tasks), self.minimum, True, self.memory)
            known = self.memory.questions[key] = found is not None
        return known

    def copy(self, numbers: Iterable[int], rename: Callable[[Hashable], Hashable]) -> None:
        """Keep, as new parts, the parts ``numbers`` over renamed coordinates: what admitting
        their figures over those coordinates would have kept, since a part's basis and its
        columns' tasks rest on its functionals' coefficients, never on the coordinates'
        names (the renamed coordinates must be new to the gate). Up to the parts' numbers:
        they are numbered after every part before them, so a later figure that joins them
        with others orders its columns otherwise — the same row space, another basis."""
        for i in sorted(numbers):
            part = self.parts[i]
            index = {rename(c): j for c, j in part.index.items()}
            assert not any(c in self.owner for c in index), "renamed onto admitted coordinates"
            self.made += 1
            self.parts[self.made] = _Part(index, list(part.tasks), list(part.ids), part.basis)
            self.owner.update(dict.fromkeys(index, self.made))

    def clone(self) -> Gate:
        """A gate that has admitted what this one has (a part is replaced, never changed)."""
        other = Gate(self.minimum, self.task_of, self.memory)
        other.parts, other.owner, other.made = dict(self.parts), dict(self.owner), self.made
        return other

    def admits(self, functionals: Sequence[Functional]) -> bool:
        """Whether :meth:`admit` would admit the figure, admitting nothing."""
        return self.clone().admit(functionals)
