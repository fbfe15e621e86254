"""Uncertainty: Wilson intervals for rates, a seeded bootstrap for macro-averages (§4.2).

The bootstrap resamples tasks with replacement and, inside each drawn task, its valid runs
with replacement (a two-stage cluster bootstrap), so both the choice of tasks and run-to-run
noise widen the interval; intervals are equal-tailed percentiles of ``B`` replicates. Every
generator is seeded from the release's seed and a task set, so the same inputs always give
the same intervals.

How it stays cheap at scale, without changing the scheme:

- Stage one (tasks): per scope, ``B`` replicates of ``T`` draws (:func:`task_draws`),
  shared by every combination of the scope (paired differences), kept as how often each
  replicate drew each task (:func:`multiplicities`).
- Stage two (runs): each draw of a task needs its own, independent resample of that task's
  runs. A *bank* per (combination, task) holds independent resampled means
  (:func:`resampled_means`); within one scope the m-th draw of a task, counted in
  replicate order, takes entry m of its bank, so no entry serves two draws of a scope and
  every scope of a domain reads the same banks (:func:`entry_bins`, :func:`bank_sums`).
  Combinations have banks of their own, so paired differences see independent run noise.
- A resample of ``c`` runs is one of ``c**c`` equally likely pick sequences. For small
  ``c`` it is drawn as one integer below ``c**c`` (the picks written in base ``c``) and read
  through its composition (how often each run was picked, :func:`compositions`); for more
  runs, as tuples of picks, each one integer read through a table of tuple sums
  (:func:`tuple_sizes`).
- reliability@k redraws each drawn task's successes as Binomial(n, c/n), a law that
  depends only on the task's success count c: the draws are banked per count
  (:func:`binomial_bank`) and read per replicate like the run banks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import lru_cache
from math import comb, sqrt
from statistics import NormalDist
from typing import Any

import numpy as np

# Bank entries drawn per seeded generator: a bank's entries do not depend on its length.
CHUNK = 256
# Binomial draws per seeded generator (reliability banks are long and cheap to draw).
BINOMIAL_CHUNK = 1 << 16
# Resamples of at most this many pick sequences (c**c, so c <= 6) go through compositions.
MAX_SEQUENCES = 50_000

# Resamples of more runs draw their picks in tuples of at most this many pick sequences,
# read through a table of every tuple's sum per row.
MAX_TUPLE = 4096
# Picks read at once when resampling many runs: temporaries small enough to stay in cache
# (rows are independent, so the block size never changes a value).
PICKS_PER_BLOCK = 1 << 18

# Rows of a chunk gathered at once when resampling few runs (temporaries that stay in cache;
# rows are independent, so the block size never changes a value).
ROWS_PER_BLOCK = 256

# Draws one chunk of resampled means from a generator into the given entries of the given
# rows of each bank.
Resampler = Callable[[np.random.Generator, Sequence[np.ndarray], np.ndarray, slice], None]


def z_value(confidence: float) -> float:
    """Two-sided normal quantile, e.g. 1.95996 for 0.95."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, trials: int, confidence: float) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion; (nan, nan) without trials."""
    if trials == 0:
        return (float("nan"), float("nan"))
    z = z_value(confidence)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At p = 0 (p = 1) the bound is exactly 0 (1); say so instead of a rounding residue.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def seed_for(*parts: object) -> int:
    """A stable 64-bit seed from the parts (not Python's salted ``hash``)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "little")


def reliability_at(successes: np.ndarray, runs: int, k: int) -> np.ndarray:
    """Per task C(c_t, k) / C(n, k); 0 when c_t < k (§4.2(3))."""
    table = np.array([comb(c, k) for c in range(runs + 1)], dtype=float) / comb(runs, k)
    values: np.ndarray = table[successes]
    return values


def task_draws(n_tasks: int, samples: int, seed: int) -> np.ndarray:
    """Which tasks each replicate draws, shared by every combination of a scope (pairing)."""
    return np.random.default_rng(seed).integers(0, n_tasks, size=(samples, n_tasks))


def multiplicities(draws: np.ndarray, n_tasks: int) -> np.ndarray:
    """``W[b, t]``: how many times replicate b drew task t."""
    samples = draws.shape[0]
    flat = (np.arange(samples)[:, None] * n_tasks + draws).ravel()
    return np.bincount(flat, minlength=samples * n_tasks).reshape(samples, n_tasks)


def entry_bins(counts: np.ndarray, cells: np.ndarray, n_cells: int, width: int) -> np.ndarray:
    """Where each bank entry goes: ``bins[t, m] = cells[t] * B + b`` for the replicate b
    whose draw of task t takes entry m (draws take entries in replicate order), and
    ``n_cells * B`` (an overflow bin) for entries no draw takes.

    Replicates 0..b take the first ``ends[b, t]`` entries of task t, so entry m goes to
    replicate ``#{b : ends[b, t] <= m}``: a running count of where replicates end.
    """
    samples, n_tasks = counts.shape
    ends = np.cumsum(np.ascontiguousarray(counts.T), axis=1)  # tasks × replicates
    marks = np.bincount(
        (ends[:, :-1] + (np.arange(n_tasks) * (width + 1))[:, None]).ravel(),
        minlength=n_tasks * (width + 1),
    ).reshape(n_tasks, width + 1)[:, :width]
    bins = np.cumsum(marks, axis=1, dtype=np.intp)
    bins += (cells.astype(np.intp) * samples)[:, None]
    bins[np.arange(width)[None, :] >= ends[:, -1:]] = n_cells * samples
    return bins


def bank_sums(bins: np.ndarray, bank: np.ndarray, n_bins: int) -> np.ndarray:
    """Per bin, the sum of the bank entries that go there (``bins`` as from
    :func:`entry_bins`, ``bank`` the matching rows of a bank), added one by one in entry
    order from 0. A complex bank holds two channels read through the same bins, summed in
    one pass: its real and imaginary parts add up exactly as two real banks would."""
    if np.iscomplexobj(bank):
        both = np.zeros(n_bins + 1, dtype=bank.dtype)
        np.add.at(both, bins.ravel(), bank.ravel())
        return both[:n_bins]
    sums: np.ndarray = np.bincount(bins.ravel(), weights=bank.ravel(), minlength=n_bins + 1)
    return sums[:n_bins]


@lru_cache(maxsize=8)
def compositions(runs: int) -> tuple[np.ndarray, np.ndarray]:
    """Of the ``runs**runs`` equally likely pick sequences of a resample (sequence q picks
    run ``(q // runs**i) % runs`` at step i): each sequence's composition, and the
    compositions as rows of pick counts per run."""
    sequences = np.arange(runs**runs)
    picks = (sequences[:, None] // runs ** np.arange(runs)) % runs
    counts = np.zeros((len(sequences), runs), dtype=np.int64)
    np.add.at(counts, (np.repeat(sequences, runs), picks.ravel()), 1)
    rows, index = np.unique(counts, axis=0, return_inverse=True)
    return index.ravel().astype(np.intp), rows


def resampled_means(
    values: Sequence[np.ndarray], counts: np.ndarray, seed: int, out: Sequence[np.ndarray]
) -> None:
    """Fill the rows with ``counts > 0`` of each bank of ``out`` (rows × entries) with
    independent resampled means of the matching ``values`` (§4.2, stage two).

    Row t's resample draws ``counts[t]`` of its first ``counts[t]`` values with
    replacement; the same draws serve every array of ``values`` (channels of the same
    runs). A complex bank takes two consecutive channels as its real and imaginary parts
    (one pass reads both; each part is what a real bank of its channel would hold). Entries
    come in seeded chunks of :data:`CHUNK`, so the first entries do not depend on how many
    there are.
    """
    widths = [2 if np.iscomplexobj(bank) else 1 for bank in out]
    if sum(widths) != len(values):
        raise ValueError(f"{len(values)} channels for banks of {sum(widths)}")
    entries = out[0].shape[1]
    for runs in np.unique(counts[counts > 0]).tolist():
        rows = np.flatnonzero(counts == runs)
        draw = _resampler(runs, [v[rows, :runs] for v in values], widths)
        for j, start in enumerate(range(0, entries, CHUNK)):
            entries_of_chunk = slice(start, min(start + CHUNK, entries))
            draw(np.random.default_rng(seed_for(seed, runs, j)), out, rows, entries_of_chunk)


def _pack(channels: Sequence[np.ndarray], widths: Sequence[int]) -> list[np.ndarray]:
    """The channels as banks' arrays: where a width is 2, two consecutive channels as the
    real and imaginary parts of one complex array (set part by part: exact)."""
    out, at = [], 0
    for width in widths:
        if width == 2:
            both = np.empty(channels[at].shape, dtype=complex)
            both.real, both.imag = channels[at], channels[at + 1]
            out.append(both)
        else:
            out.append(channels[at])
        at += width
    return out


def _resampler(runs: int, values: list[np.ndarray], widths: Sequence[int]) -> Resampler:
    """Draws chunks of resampled means of each of ``values`` (rows × runs) into banks whose
    channels are ``widths`` (see :func:`_pack`)."""
    n_rows = len(values[0])
    if runs**runs <= MAX_SEQUENCES:
        index, picked = compositions(runs)
        channels = []
        for v in values:  # every composition's mean, per row
            total = np.zeros((n_rows, len(picked)))
            for r in range(runs):
                total += v[:, r, None] * picked[None, :, r]
            channels.append((total / runs).ravel())
        means = _pack(channels, widths)
        base = (np.arange(n_rows) * len(picked))[:, None]

        def by_composition(
            rng: np.random.Generator, out: Sequence[np.ndarray], rows: np.ndarray, entries: slice
        ) -> None:
            sequence = rng.integers(0, runs**runs, size=(n_rows, CHUNK), dtype=_dtype(runs**runs))
            used = entries.stop - entries.start
            for start in range(0, n_rows, ROWS_PER_BLOCK):
                stop = min(start + ROWS_PER_BLOCK, n_rows)
                where = index.take(sequence[start:stop, :used])
                where += base[start:stop]
                for bank, m in zip(out, means, strict=True):
                    bank[rows[start:stop], entries] = m.take(where)

        return by_composition

    return _by_tuples(runs, values, widths)


def tuple_sizes(runs: int) -> list[int]:
    """How a resample of many runs draws its picks: in tuples of as many picks as keep
    ``runs**size`` within :data:`MAX_TUPLE`, the remainder last."""
    size = 1
    while runs ** (size + 1) <= MAX_TUPLE:
        size += 1
    full, rest = divmod(runs, size)
    return [size] * full + ([rest] if rest else [])


def _tuple_sums(values: np.ndarray, runs: int, size: int) -> np.ndarray:
    """Per row, the sum of the values a tuple picks, for every tuple q below ``runs**size``
    (tuple q picks run ``(q // runs**i) % runs`` at its step i), flattened."""
    picks = (np.arange(runs**size)[:, None] // runs ** np.arange(size)) % runs
    sums: np.ndarray = values[:, picks].sum(axis=2).ravel()
    return sums


def _by_tuples(runs: int, values: list[np.ndarray], widths: Sequence[int]) -> Resampler:
    """Resamples of many runs, each a row of tuples of picks read through tuple sums."""
    n_rows = len(values[0])
    sizes = tuple_sizes(runs)
    lengths = sorted(set(sizes), reverse=True)  # the full tuple size, then any remainder
    tables = {size: _pack([_tuple_sums(v, runs, size) for v in values], widths) for size in lengths}
    block = max(1, PICKS_PER_BLOCK // (CHUNK * runs))

    def by_tuples(
        rng: np.random.Generator, out: Sequence[np.ndarray], rows: np.ndarray, entries: slice
    ) -> None:
        # Per row, its tuples' draws (contiguous entries each): a row's draws read only its
        # own table, and summing its tuples adds whole vectors.
        drawn = {
            size: rng.integers(
                0, runs**size, size=(n_rows, sizes.count(size), CHUNK), dtype=_dtype(runs**size)
            )
            for size in lengths
        }
        means = [np.zeros((n_rows, CHUNK), dtype=t.dtype) for t in tables[lengths[0]]]
        for start in range(0, n_rows, block):  # bounded temporaries
            stop = min(start + block, n_rows)
            for size in lengths:
                offset = (np.arange(start, stop) * runs**size)[:, None, None]
                where = drawn[size][start:stop] + offset
                for table, total in zip(tables[size], means, strict=True):
                    total[start:stop] += table.take(where).sum(axis=1)
        used = entries.stop - entries.start
        for bank, total in zip(out, means, strict=True):
            # A complex mean divides part by part, as its two channels would.
            bank[rows, entries] = (total.view(np.float64) / runs).view(total.dtype)[:, :used]

    return by_tuples


def _dtype(bound: int) -> type[np.unsignedinteger[Any]]:
    """The narrowest unsigned integer type holding every value below ``bound`` (narrow
    integers are the cheapest to draw)."""
    return np.uint16 if bound <= 1 << 16 else np.uint32


def binomial_bank(runs: int, successes: int, entries: int, seed: int) -> np.ndarray:
    """``entries`` independent Binomial(runs, successes / runs) draws, in seeded chunks of
    :data:`BINOMIAL_CHUNK`."""
    draws = [
        np.random.default_rng(seed_for(seed, successes, j)).binomial(
            runs, successes / runs, size=BINOMIAL_CHUNK
        )
        for j in range(-(-entries // BINOMIAL_CHUNK))
    ]
    return np.concatenate(draws)[:entries] if draws else np.zeros(0, dtype=np.int64)


def percentile_interval(replicates: np.ndarray, confidence: float) -> tuple[float, float]:
    """Equal-tailed percentile interval of the finite replicates."""
    finite = replicates[np.isfinite(replicates)]
    if finite.size == 0:
        return (float("nan"), float("nan"))
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return (float(low), float(high))


def percentile_intervals(replicates: np.ndarray, confidence: float) -> np.ndarray:
    """:func:`percentile_interval` of each row (rows × 2), the finite rows at once."""
    out = np.empty((len(replicates), 2))
    finite = np.isfinite(replicates).all(axis=1)
    if finite.any():
        tail = (1 - confidence) / 2 * 100
        # A copy already (boolean rows): partitioned in place, as numpy would partition its own.
        picked = replicates[finite]
        out[finite] = np.percentile(picked, [tail, 100 - tail], axis=1, overwrite_input=True).T
    for row in np.flatnonzero(~finite):
        out[row] = percentile_interval(replicates[row], confidence)
    return out
