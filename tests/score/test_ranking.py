"""Rank ranges and the Pareto frontier (§4.2(2), §5.3), against hand-worked cases."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score.figures import nanmean
from generator.score.ranking import SCORE_TOLERANCE, frontier, letters, pareto, rank_ranges
from generator.score.results import CombinationScores, Difference, Efficiency, Estimate


def _diff(a: str, b: str, low: float, high: float, tasks: int = 10) -> Difference:
    return Difference(
        a=a,
        b=b,
        value=(low + high) / 2,
        low=low,
        high=high,
        tasks=tasks,
        significant=tasks >= 5 and (low > 0 or high < 0),
        judged=tasks >= 5,
    )


def test_a_combination_not_ordered_against_another_shares_its_range() -> None:
    """c beats a, but neither a − b nor b − c is significant: the old "1 + significantly
    better" gave a rank 2 and b rank 1, an order the data does not hold."""
    diffs = [_diff("a", "b", -0.2, 0.1), _diff("a", "c", -0.3, -0.1), _diff("b", "c", -0.2, 0.05)]
    ranks = rank_ranges(["a", "b", "c"], diffs)
    assert ranks == {"a": (2, 3), "b": (1, 3), "c": (1, 2)}


def test_too_few_common_tasks_order_nothing() -> None:
    ranks = rank_ranges(["a", "b"], [_diff("a", "b", 0.2, 0.4, tasks=4)])
    assert ranks == {"a": (1, 2), "b": (1, 2)}


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=6), st.floats(0.01, 0.3))
def test_ranges_follow_a_consistent_order(values: list[float], half: float) -> None:
    """Differences read off one set of values with one half-width: a pair not significantly
    different never gets ranges that exclude each other, and a significantly better
    combination is never ranked below a worse one."""
    names = [f"c{i}" for i in range(len(values))]
    diffs = [
        _diff(names[i], names[j], values[i] - values[j] - half, values[i] - values[j] + half)
        for i, j in itertools.combinations(range(len(values)), 2)
    ]
    ranks = rank_ranges(names, diffs)
    assert len(diffs) == len(values) * (len(values) - 1) // 2  # two values or more: a pair
    for d in diffs:
        (best_a, worst_a), (best_b, worst_b) = ranks[d.a], ranks[d.b]
        if d.significant:
            better, worse = (ranks[d.a], ranks[d.b]) if d.low > 0 else (ranks[d.b], ranks[d.a])
            assert better[0] < worse[0]
            assert better[1] < worse[1]
        else:
            assert best_a <= worst_b
            assert best_b <= worst_a


def _shares(a: str, b: str, marks: dict[str, str]) -> bool:
    """Whether two combinations share a letter: single characters, or (past 52 letters)
    every name spaced."""
    spaced = any(" " in v or any(ch.isdigit() for ch in v) for v in marks.values())
    names = {m: set(v.split(" ")) if spaced else set(v) for m, v in marks.items()}
    return bool(names[a] & names[b])


def test_past_52_letters_every_name_is_spaced() -> None:
    """60 combinations all significantly different: 60 letters; a lone 'a2' is one name,
    never read as the letters a and 2."""
    names = [f"c{i:02d}" for i in range(60)]
    diffs = [_diff(a, b, 0.1, 0.3) for a, b in itertools.combinations(names, 2)]
    marks = letters(names, diffs)
    assert marks[names[0]] == "a"
    assert marks[names[26]] == "A"
    assert marks[names[52]] == "a2"
    pairs = list(itertools.combinations(names[:5] + names[50:], 2))
    assert len(pairs) == 105  # 15 names
    for a, b in pairs:
        assert not _shares(a, b, marks)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(2, 20).flatmap(lambda n: st.tuples(st.just(n), st.data())))
def test_letters_are_shared_exactly_by_pairs_not_significantly_different(
    drawn: tuple[int, st.DataObject],
) -> None:
    """Any pattern of significance over 2–20 combinations (consistent with an order or
    not, some pairs resting on too few tasks): two share a letter exactly when their
    difference is not significant, every combination has one, the first has 'a'."""
    n, data = drawn
    names = [f"c{i}" for i in range(n)]
    diffs = []
    for i, j in itertools.combinations(range(n), 2):
        kind = data.draw(st.sampled_from(["above", "below", "tie", "few"]))
        low, high = {"above": (0.1, 0.3), "below": (-0.3, -0.1)}.get(kind, (-0.1, 0.1))
        diffs.append(_diff(names[i], names[j], low, high, tasks=3 if kind == "few" else 10))
    marks = letters(names, diffs)
    assert set(marks) == set(names)
    assert all(marks.values())
    assert "a" in marks[names[0]]
    assert len(diffs) == n * (n - 1) // 2
    for d in diffs:
        assert _shares(d.a, d.b, marks) == (not d.significant), (d, marks)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=20), st.floats(0.01, 0.3))
def test_letters_of_an_order_run_in_bands(values: list[float], half: float) -> None:
    """Differences read off one order: each letter covers a run of neighbours in it (the
    usual look of a letter display), and the letters are few."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    names = [f"c{i}" for i in order]
    diffs = [
        _diff(f"c{i}", f"c{j}", values[i] - values[j] - half, values[i] - values[j] + half)
        for i, j in itertools.combinations(range(len(values)), 2)
    ]
    marks = letters(names, diffs)
    used = sorted({x for v in marks.values() for x in v})
    for x in used:
        at = [k for k, n in enumerate(names) if x in marks[n]]
        assert at == list(range(at[0], at[-1] + 1)), (x, marks)
    assert len(used) <= len(values)


def test_a_chain_of_ties_is_not_one_group() -> None:
    """a ~ b, b ~ c, a > c: one brace {a, b, c} read that a and c are not ordered; the
    letters say a (a), b (ab), c (b)."""
    diffs = [_diff("a", "b", -0.1, 0.1), _diff("b", "c", -0.1, 0.1), _diff("a", "c", 0.1, 0.3)]
    assert letters(["a", "b", "c"], diffs) == {"a": "a", "b": "ab", "c": "b"}


def _scored(name: str, score: float, tokens: float) -> CombinationScores:
    return CombinationScores(
        combination=name,
        status="scored",
        task_score=Estimate(value=score, low=None, high=None, tasks=3),
        efficiency=Efficiency(
            input_tokens=tokens, output_tokens=0, total_tokens=tokens, duration_s=1, turns=1
        ),
    )


def test_equal_scores_summed_in_another_order_are_equal_on_the_frontier() -> None:
    """v1.0 general / document-review / public: task means (2/3, 1, 1) and (5/6, 1, 5/6) both
    average 8/9, one ulp apart; the one with more tokens is dominated."""
    code = nanmean(np.array([2 / 3, 1.0, 1.0]))
    lingee = nanmean(np.array([5 / 6, 1.0, 5 / 6]))
    assert code != lingee
    assert abs(code - lingee) < SCORE_TOLERANCE
    for first, second in ((code, lingee), (lingee, code)):
        results = {
            "code": _scored("code", first, 100.0),
            "lingee": _scored("lingee", second, 150.0),
        }
        assert pareto(results, {"code": "t", "lingee": "t"}) == {"code"}


def test_frontier_keeps_a_real_trade_off_and_splits_tokenizers() -> None:
    results = {
        "cheap": _scored("cheap", 0.5, 100.0),
        "good": _scored("good", 0.7, 300.0),
        "worse": _scored("worse", 0.4, 200.0),
        "other": _scored("other", 0.1, 900.0),
    }
    tokenizers = {"cheap": "t", "good": "t", "worse": "t", "other": "u"}
    assert pareto(results, tokenizers) == {"cheap", "good", "other"}


def test_tolerance_is_far_below_a_measured_difference() -> None:
    assert SCORE_TOLERANCE < 1 / 10_000_000
    assert pytest.approx(8 / 9) == nanmean(np.array([2 / 3, 1.0, 1.0]))


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.floats(0, 1e5), min_size=2, max_size=6), st.floats(1.0, 1e4))
def test_a_lower_is_better_metric_ranks_as_its_negation(values: list[float], half: float) -> None:
    """A cost ranks exactly as its negation would rank higher-is-better: the direction is
    read, not assumed."""
    names = [f"c{i}" for i in range(len(values))]
    pairs = list(itertools.combinations(range(len(values)), 2))

    def gaps(sign: float) -> list[Difference]:
        return [
            _diff(
                names[i],
                names[j],
                *sorted(
                    (sign * (values[i] - values[j]) - half, sign * (values[i] - values[j]) + half)
                ),
            )
            for i, j in pairs
        ]

    assert rank_ranges(names, gaps(1.0), higher=False) == rank_ranges(names, gaps(-1.0))


def test_the_cheapest_is_first_when_lower_is_better() -> None:
    diffs = [_diff("cheap", "dear", -900.0, -100.0)]  # cheap − dear < 0: cheap costs less
    assert rank_ranges(["cheap", "dear"], diffs, higher=False) == {"cheap": (1, 1), "dear": (2, 2)}
    assert rank_ranges(["cheap", "dear"], diffs) == {"cheap": (2, 2), "dear": (1, 1)}


def test_the_frontier_reads_the_score_direction() -> None:
    results = {"low": _scored("low", 0.2, 100.0), "high": _scored("high", 0.8, 100.0)}
    tokenizers = {"low": "t", "high": "t"}
    assert pareto(results, tokenizers) == {"high"}
    assert pareto(results, tokenizers, higher=False) == {"low"}


def test_a_combination_alone_in_its_tokenizer_is_not_compared_for_the_frontier() -> None:
    """Two combinations of two tokenizers: neither has a frontier to be on (the efficiency
    page says "none" for each tokenizer; the table must not say "yes")."""
    from builders import bundle, catalog, release, run, task, version

    from generator.score.report import build_report

    tasks = [task(f"t{i}") for i in range(5)]
    runs = {c: [run(f"t{i}", r) for i in range(5) for r in (1, 2)] for c in ("p", "q")}
    bundles = {"p": bundle("p", tokenizer="a"), "q": bundle("q", tokenizer="b")}
    report = build_report(version(release(), catalog(tasks), runs, bundles), "office")
    scope = next(s for s in report.scopes if s.scope.whole and s.scope.group == "all")
    assert [c.pareto for c in scope.combinations] == [None, None]
    same = {"p": bundle("p", tokenizer="a"), "q": bundle("q", tokenizer="a")}
    report = build_report(version(release(), catalog(tasks), runs, same), "office")
    scope = next(s for s in report.scopes if s.scope.whole and s.scope.group == "all")
    assert {c.pareto for c in scope.combinations} <= {True, False}


def test_a_frontier_of_any_resource_reads_both_directions() -> None:
    """(score, cost) points: the tokens frontier is the case of a cost where less is better."""
    points = {"cheap": (0.5, 1.0), "good": (0.7, 3.0), "worse": (0.4, 2.0), "far": (0.1, 9.0)}
    groups = dict.fromkeys(points, "one")
    assert frontier(points, groups) == {"cheap", "good"}
    # more of the resource is better (e.g. a throughput): "good" beats the cheaper two
    assert frontier(points, groups, higher_cost=True) == {"good", "far"}
    # a lower score is better: "good" is beaten by "cheap" on both, the others trade off
    assert frontier(points, groups, higher=False) == {"cheap", "worse", "far"}
    results = {n: _scored(n, s, t) for n, (s, t) in points.items()}
    assert pareto(results, groups) == frontier(points, groups)
    split = {**groups, "far": "two"}
    assert frontier(points, split) == {"cheap", "good", "far"}
