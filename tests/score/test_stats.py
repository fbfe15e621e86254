"""Interval arithmetic checked against hand computation and textbook values, and the
bootstrap's building blocks against slow, literal reference implementations."""

from __future__ import annotations

from math import comb, factorial, prod, sqrt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score import stats
from generator.score.stats import (
    CHUNK,
    bank_sums,
    binomial_bank,
    compositions,
    entry_bins,
    multiplicities,
    percentile_interval,
    percentile_intervals,
    reliability_at,
    resampled_means,
    seed_for,
    task_draws,
    tuple_sizes,
    wilson,
    z_value,
)


def test_wilson_matches_the_formula() -> None:
    z = 1.959963984540054
    p, n = 0.8, 10
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = wilson(8, 10, 0.95)
    assert low == pytest.approx(centre - half)
    assert high == pytest.approx(centre + half)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)  # published table value


def test_wilson_edges() -> None:
    low, high = wilson(0, 20, 0.95)
    assert low == 0.0
    assert high == pytest.approx(0.1611, abs=1e-4)
    low, high = wilson(20, 20, 0.95)
    assert high == 1.0
    assert low == pytest.approx(0.8389, abs=1e-4)
    assert all(np.isnan(wilson(0, 0, 0.95)))


def test_z_value() -> None:
    assert z_value(0.95) == pytest.approx(1.959964, abs=1e-6)
    assert z_value(0.90) == pytest.approx(1.644854, abs=1e-6)


def test_reliability_at_is_binomial_ratio() -> None:
    c = np.array([0, 1, 2, 3, 4])
    # C(c,2)/C(4,2) = c(c-1)/12
    assert reliability_at(c, 4, 2).tolist() == pytest.approx([0, 0, 1 / 6, 0.5, 1])
    assert reliability_at(c, 4, 1).tolist() == pytest.approx([0, 0.25, 0.5, 0.75, 1])
    assert reliability_at(c, 4, 4).tolist() == [0, 0, 0, 0, 1]


def test_percentile_interval_ignores_missing_replicates() -> None:
    reps = np.array([np.nan, *np.arange(101.0)])
    assert percentile_interval(reps, 0.9) == pytest.approx((5.0, 95.0))
    assert all(np.isnan(percentile_interval(np.array([np.nan]), 0.95)))


def test_seed_for_is_stable_across_processes() -> None:
    assert seed_for(0, "v1.0/general/*/all", "lingee") == seed_for(
        0, "v1.0/general/*/all", "lingee"
    )
    assert seed_for(0, "a") != seed_for(1, "a")
    # sha256-based, so the value is fixed forever (Python's hash() is salted per process)
    assert seed_for("x") == int.from_bytes(
        bytes.fromhex("2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881")[:8],
        "little",
    )


def test_percentile_intervals_equal_the_interval_of_each_row() -> None:
    rng = np.random.default_rng(3)
    rows = rng.random((40, 2000)) * rng.random((40, 1))
    rows[5, 7] = np.nan
    rows[9] = np.nan
    rows[11, :1990] = np.inf
    got = percentile_intervals(rows, 0.95)
    for row, (low, high) in zip(rows, got, strict=True):
        want = percentile_interval(row, 0.95)
        assert np.array_equal([low, high], want, equal_nan=True)  # bit for bit


def test_multiplicities_count_the_draws() -> None:
    draws = task_draws(7, 50, seed=4)
    counts = multiplicities(draws, 7)
    for b in range(50):
        assert counts[b].tolist() == np.bincount(draws[b], minlength=7).tolist()


def _reference_bins(counts: np.ndarray, cells: np.ndarray, width: int) -> np.ndarray:
    """Literal: walk the replicates in order; each draw of a task takes its next entry."""
    samples, n_tasks = counts.shape
    overflow = (cells.max() + 1) * samples
    bins = np.full((n_tasks, width), overflow)
    taken = [0] * n_tasks
    for b in range(samples):
        for t in range(n_tasks):
            for _ in range(counts[b, t]):
                bins[t, taken[t]] = cells[t] * samples + b
                taken[t] += 1
    return bins


def test_each_draw_takes_its_own_bank_entry_in_replicate_order() -> None:
    counts = multiplicities(task_draws(5, 30, seed=9), 5)
    cells = np.array([0, 1, 0, 2, 1])
    width = int(counts.sum(axis=0).max()) + 2
    bins = entry_bins(counts, cells, 3, width)
    assert np.array_equal(bins, _reference_bins(counts, cells, width))
    bank = np.random.default_rng(1).random((5, width))
    sums = bank_sums(bins, bank, 3 * 30)
    want = np.zeros(3 * 30)
    for t in range(5):
        for m in range(width):
            if bins[t, m] < 3 * 30:
                want[bins[t, m]] += bank[t, m]
    assert sums == pytest.approx(want, rel=1e-12)


@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 12),
    st.integers(1, 40),
    st.integers(0, 3),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
def test_entry_bins_equal_the_literal_walk(
    tasks: int, samples: int, spare: int, seed: int, sparse: bool
) -> None:
    """Any draws, including tasks never drawn and replicates drawing nothing of a task."""
    rng = np.random.default_rng(seed)
    counts = multiplicities(task_draws(tasks, samples, seed), tasks)
    if sparse:  # some tasks lose their draws (as a task outside a scope's data would)
        counts = counts * (rng.random(tasks) < 0.5)[None, :]
    cells = rng.integers(0, 3, size=tasks)
    width = int(counts.sum(axis=0).max()) + spare
    got = entry_bins(counts, cells, 3, width)
    want = _reference_bins(counts, cells, width)  # its overflow bin: (cells.max() + 1) * B
    want[want == (cells.max() + 1) * samples] = 3 * samples
    assert got.dtype == np.intp
    assert np.array_equal(got, want)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 9), st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_a_complex_bank_sums_two_channels_as_two_real_banks(
    tasks: int, samples: int, seed: int
) -> None:
    """Bit for bit: each part adds up in the same order as its own real bank."""
    rng = np.random.default_rng(seed)
    counts = multiplicities(task_draws(tasks, samples, seed), tasks)
    cells = rng.integers(0, 2, size=tasks)
    width = int(counts.sum(axis=0).max()) + 2
    bins = entry_bins(counts, cells, 2, width)
    # Values of very different sizes, so that the order of the additions shows in the sums.
    score, rule = (
        rng.random((tasks, width)) * 10.0 ** rng.integers(-8, 8, size=(tasks, width))
        for _ in range(2)
    )
    both = bank_sums(bins, score + 1j * rule, 2 * samples)
    assert np.array_equal(both.real, bank_sums(bins, score, 2 * samples))
    assert np.array_equal(both.imag, bank_sums(bins, rule, 2 * samples))
    literal = np.zeros(2 * samples + 1)
    for t in range(tasks):
        for m in range(width):
            literal[bins[t, m]] += score[t, m]
    assert np.array_equal(both.real, literal[:-1])


@pytest.mark.parametrize("runs", [1, 2, 3, 4, 5])
def test_compositions_are_the_multinomial_law_of_the_picks(runs: int) -> None:
    index, picked = compositions(runs)
    assert (picked.sum(axis=1) == runs).all()
    assert len(picked) == comb(2 * runs - 1, runs)  # every way to pick runs of runs
    for q in (0, runs**runs // 3, runs**runs - 1):
        picks = [(q // runs**i) % runs for i in range(runs)]
        assert picked[index[q]].tolist() == np.bincount(picks, minlength=runs).tolist()
    # Each composition is as likely as the multinomial coefficient says.
    frequency = np.bincount(index, minlength=len(picked)) / runs**runs
    law = [factorial(runs) / prod(factorial(c) for c in row) / runs**runs for row in picked]
    assert frequency == pytest.approx(law)


def _reference_means(values: np.ndarray, counts: np.ndarray, entries: int, seed: int) -> np.ndarray:
    """Literal: the same random numbers as the bank, read as picks, and the mean of the
    picked values."""
    out = np.zeros((len(counts), entries))
    for runs in sorted(set(counts.tolist()) - {0}):
        rows = np.flatnonzero(counts == runs)
        for j, start in enumerate(range(0, entries, CHUNK)):
            rng = np.random.default_rng(seed_for(seed, runs, j))
            if runs**runs <= 50_000:
                sequence = rng.integers(0, runs**runs, size=(len(rows), CHUNK), dtype=np.uint16)
                picks = (sequence[..., None].astype(int) // runs ** np.arange(runs)) % runs
            else:  # tuples of picks, each tuple one number written in base runs
                sizes = tuple_sizes(runs)
                parts = []
                for size in sorted(set(sizes), reverse=True):
                    shape = (len(rows), sizes.count(size), CHUNK)
                    q = rng.integers(0, runs**size, size=shape, dtype=np.uint16).astype(int)
                    digits = (q[..., None] // runs ** np.arange(size)) % runs
                    parts.append(digits.transpose(0, 2, 1, 3).reshape(len(rows), CHUNK, -1))
                picks = np.concatenate(parts, axis=2)
            for i, row in enumerate(rows):
                for m in range(start, min(start + CHUNK, entries)):
                    out[row, m] = sum(values[row, p] for p in picks[i, m - start]) / runs
    return out


def test_many_runs_are_picked_in_tuples() -> None:
    assert tuple_sizes(50) == [2] * 25
    assert tuple_sizes(9) == [3, 3, 3]
    assert tuple_sizes(7) == [4, 3]
    assert tuple_sizes(5000) == [1] * 5000


@pytest.mark.parametrize("width", [5, 7, 9, 50])  # above 6 runs: tuples of picks
def test_bank_entries_are_means_of_runs_drawn_with_replacement(width: int) -> None:
    rng = np.random.default_rng(0)
    values = rng.random((6, width))
    counts = np.array([width, 0, 2, width, 1, 3])
    values[np.arange(width)[None, :] >= counts[:, None]] = np.nan
    entries = CHUNK + 40
    bank = np.full((6, entries), -1.0)
    resampled_means([values], counts, 17, [bank])
    want = _reference_means(values, counts, entries, 17)
    assert bank[counts > 0] == pytest.approx(want[counts > 0], rel=1e-12)
    assert (bank[counts == 0] == -1.0).all()  # rows without values are left alone
    assert (bank[4] == values[4, 0]).all()  # one run: every resample is that run


def test_channels_of_the_same_runs_share_the_draws() -> None:
    values = np.array([[0.0, 0.5, 1.0], [0.2, 0.4, 0.6]])
    score, doubled = np.zeros((2, 50)), np.zeros((2, 50))
    resampled_means([values, 2 * values], np.array([3, 3]), 5, [score, doubled])
    assert doubled == pytest.approx(2 * score)


@pytest.mark.parametrize("runs", [1, 2, 3, 5, 6, 7, 12, 50])
def test_a_complex_bank_holds_two_channels_as_two_real_banks(runs: int) -> None:
    """Bit for bit, on both resampling paths (compositions up to 6 runs, tuples beyond; 7
    runs end in a shorter tuple); the third channel has missing values."""
    rng = np.random.default_rng(runs)
    counts = np.array([runs, runs - 1, 0, runs, 1])
    values = [rng.random((5, runs)) * 10.0 ** rng.integers(-6, 6, size=(5, runs)) for _ in "sr"]
    values.append(np.where(rng.random((5, runs)) < 0.3, np.nan, rng.random((5, runs))))
    width = CHUNK + 40  # two chunks, the second cut short
    separate = [np.full((5, width), -1.0) for _ in range(3)]
    both, third = np.full((5, width), -1.0 - 1j), np.full((5, width), -1.0)
    resampled_means(values, counts, 11, separate)
    resampled_means(values, counts, 11, [both, third])
    assert np.array_equal(both.real, separate[0])
    assert np.array_equal(both.imag, separate[1])
    assert np.array_equal(third, separate[2], equal_nan=True)
    with pytest.raises(ValueError, match="3 channels"):
        resampled_means(values, counts, 11, [both, both])


def test_resampling_does_not_depend_on_the_block_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Few runs (compositions) and many (tuples), rows read in blocks of any size."""
    rng = np.random.default_rng(2)
    values = [rng.random((40, 50)) for _ in range(3)]
    counts = np.array([50, 49, 12, 5] * 10)
    banks = []
    for picks, rows in ((1 << 22, 1000), (CHUNK * 50, 1), (CHUNK * 50 * 7, 7)):
        monkeypatch.setattr(stats, "PICKS_PER_BLOCK", picks)
        monkeypatch.setattr(stats, "ROWS_PER_BLOCK", rows)
        out = [np.zeros((40, 300), dtype=complex), np.zeros((40, 300))]
        resampled_means(values, counts, 4, out)
        banks.append(out)
    for other in banks[1:]:
        assert all(np.array_equal(a, b) for a, b in zip(banks[0], other, strict=True))


def test_bank_entries_do_not_depend_on_the_bank_length() -> None:
    values, counts = np.array([[0.1, 0.7, 0.3]]), np.array([3])
    short, long = np.zeros((1, 300)), np.zeros((1, 3 * CHUNK))
    resampled_means([values], counts, 5, [short])
    resampled_means([values], counts, 5, [long])
    assert np.array_equal(short, long[:, :300])
    assert np.array_equal(binomial_bank(5, 2, 100, 1), binomial_bank(5, 2, 70_000, 1)[:100])


def test_binomial_bank_redraws_successes() -> None:
    draws = binomial_bank(5, 2, 20_000, 8)
    assert draws.min() >= 0
    assert draws.max() <= 5
    assert draws.mean() == pytest.approx(2, abs=0.05)
    assert (binomial_bank(5, 5, 10, 8) == 5).all()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=6), st.integers(0, 2**32))
def test_resampled_means_stay_within_the_runs(counts: list[int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.random((len(counts), 6))
    bank = np.zeros((len(counts), 40))
    resampled_means([values], np.array(counts), seed, [bank])
    for row, c in enumerate(counts):
        assert values[row, :c].min() - 1e-12 <= bank[row].min()
        assert bank[row].max() <= values[row, :c].max() + 1e-12
