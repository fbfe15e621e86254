"""A memo of the privacy gate's answers for searches that rebuild one report many times.

    with memoized_gate(): ...   # every Gate built inside answers from the memo when it can

The leak search (``bench/leak_search.py``) rebuilds a domain's report once per move; on the
EnterpriseClawBench-shaped example ~10 s of each ~11 s build is the gate's exact search. A
gate's answer is a function of the sequence of figures offered to it since it was made (its
``minimum`` and ``task_of`` are the same for every gate of a build). That sequence does not
depend on the runs when the gate is data-independent, but the memo does not assume it: it
keys each answer on a hash chain of the whole sequence offered so far, and on the first
offer it has not seen, it replays the gate's sequence through a real gate and computes. The
answers are therefore the gate's own, whatever the data; only repeats are cheap.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import ClassVar

from generator.score import gate as gate_module
from generator.score import gating
from generator.score.memory import Memory
from generator.score.support import TaskOf

_Functional = Mapping[Hashable, float]


def _digest(functionals: Sequence[_Functional]) -> str:
    text = repr([sorted((repr(c), float(v)) for c, v in f.items()) for f in functionals])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class MemoGate:
    """A :class:`Gate` that answers a sequence of offers it has seen from the memo, and
    builds the real gate (replaying what was offered before) at the first one it has not."""

    #: (hash of the sequence before, hash of this offer) → the gate's answer; one per
    #: :func:`memoized_gate` block, so a gate changed between blocks is asked again
    memo: ClassVar[dict[tuple[str, str], bool]] = {}

    def __init__(self, minimum: int, task_of: TaskOf, memory: Memory | None = None):
        self._args = (minimum, task_of, memory)
        self._real: gate_module.Gate | None = None
        self._offered: list[Sequence[_Functional]] = []
        self._chain = hashlib.blake2b(repr(minimum).encode(), digest_size=16).hexdigest()

    def _gate(self) -> gate_module.Gate:
        if self._real is None:
            self._real = gate_module.Gate(*self._args)
            for functionals in self._offered:
                self._real.admit(functionals)
        return self._real

    def clone(self) -> MemoGate:
        """A gate that has been offered what this one has (:meth:`Gate.clone`)."""
        other = MemoGate(*self._args)
        other._offered, other._chain = list(self._offered), self._chain
        other._real = None if self._real is None else self._real.clone()
        return other

    def admit(self, functionals: Sequence[_Functional]) -> bool:
        key = (self._chain, _digest(functionals))
        if key not in self.memo:
            self.memo[key] = self._gate().admit(functionals)
        elif self._real is not None:
            self._real.admit(functionals)  # keep the real gate's state in step
        self._offered.append([dict(f) for f in functionals])
        self._chain = hashlib.blake2b("|".join(key).encode(), digest_size=16).hexdigest()
        return self.memo[key]


def _each_alone(
    coords: object, offers: Sequence[tuple[object, int, str, object]], resample: int
) -> dict[int, int]:
    """Every combination its own shape: each offers its figures to the memo's chain (a
    :class:`MemoGate` has no parts to copy; the decisions are the same either way,
    ``tests/score/test_gating.py``)."""
    return {k: k for _, k, _, _ in offers}


@contextmanager
def memoized_gate() -> Iterator[None]:
    """Gates built by the report inside the block are :class:`MemoGate`, and every
    combination offers its own figures (:func:`_each_alone`)."""
    saved, saved_shapes, saved_memo = gate_module.Gate, gating.shapes, MemoGate.memo
    MemoGate.memo = {}
    setattr(gating, "Gate", MemoGate)  # noqa: B010 (gating imported the name)
    setattr(gating, "shapes", _each_alone)  # noqa: B010
    try:
        yield
    finally:
        setattr(gating, "Gate", saved)  # noqa: B010
        setattr(gating, "shapes", saved_shapes)  # noqa: B010
        MemoGate.memo = saved_memo
