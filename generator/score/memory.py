"""What the privacy gate's searches remember within one domain (:mod:`generator.score.gate`,
:mod:`generator.score.support`), and the digests that name their questions.

The same questions come again and again — the same figures of another combination with the
same coverage, or of another statistic of one value per task over the same scopes. On bench's
reference release (``bench/gate_speed.py``) the gate asked 4,572 questions of which 754 were
distinct, and those came to 36 distinct row spaces once cut to their small classes (the
EnterpriseClawBench-shaped example: 6,038, 815 and 302). An answer is a function of its
question, so the gate's decisions are the same with the memory or without it
(``tests/score/test_gate.py``, ``tests/score/test_memory.py``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

#: Decimals of the projector that name a row space in :func:`space_key`: two spaces whose
#: projectors agree to them differ by less than the search's own tolerance tells apart.
SPACE_DECIMALS = 12


@dataclass
class Memory:
    """What the searches of one domain's gates remember.

    ``hints``: task sets that exposed groups lately, tried first, most recent first.
    ``spaces``: the search's answer by the row space it searched (:func:`space_key`).
    ``questions``: the gate's answer by its question (:func:`digest` of the matrix it asks
    about), and ``ids`` the number standing for each task set in the digests."""

    hints: list[frozenset[str]] = field(default_factory=list)
    spaces: dict[bytes, frozenset[str] | None] = field(default_factory=dict)
    questions: dict[bytes, bool] = field(default_factory=dict)
    ids: dict[frozenset[str], int] = field(default_factory=dict)

    def numbers(self, tasks: Iterable[frozenset[str]]) -> list[int]:
        """The number standing for each task set, given in order of first appearance."""
        ids = self.ids
        return [ids.setdefault(t, len(ids)) for t in tasks]


def digest(matrix: np.ndarray, columns: Iterable[int], minimum: int) -> bytes:
    """A digest of a question: the matrix's bytes, the number of each column's task set
    (:meth:`Memory.numbers`) and the minimum."""
    out = hashlib.blake2b(matrix.tobytes(), digest_size=20)
    out.update(np.array(list(columns), np.int64).tobytes())
    out.update(np.array([*matrix.shape, minimum], np.int64).tobytes())
    return out.digest()


def space_key(basis: np.ndarray, columns: Iterable[int], minimum: int) -> bytes:
    """A digest of the row space of ``basis`` (orthonormal rows): its orthogonal projector
    QᵀQ, which every orthonormal basis of the space shares, rounded to
    :data:`SPACE_DECIMALS`, with its columns' task sets and ``minimum``."""
    projector = np.round(basis.T @ basis, SPACE_DECIMALS) + 0.0  # one zero, not two
    return digest(projector, columns, minimum)
