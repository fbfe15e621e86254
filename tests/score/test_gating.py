"""The privacy gate over whole reports: the routes a review found by arithmetic on the
downloads are closed, and what a report publishes over held-out tasks exposes no small
group by the gate's own definition (generator/score/gating.py, §4.4, §7.2)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from contextlib import nullcontext
from typing import Any
from unittest.mock import patch

import numpy as np
from budget import examples
from builders import catalog, release, run, task, version
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score import gate as gate_module
from generator.score import gating
from generator.score import report as report_module
from generator.score.functionals import combination_of, moved, task_of
from generator.score.gate import Functional, Gate, brute_exposed
from generator.score.gating import Gated
from generator.score.report import build_report
from generator.score.results import CombinationScores, Report

MIN = 5


def _held_out(report: Report) -> CombinationScores:
    (scope,) = [s for s in report.scopes if s.scope.whole and s.scope.group == "held-out"]
    (combo,) = scope.combinations
    return combo


def _report(tasks: list[dict[str, Any]], runs: list[Any]) -> Report:
    rel = release(groups={"public": 6, "held_out": 6, "min_held_out_aggregate": MIN})
    return build_report(version(rel, catalog(tasks), {"p": runs}), "office")


def _dual_tasks(weight: float = 0.5) -> list[dict[str, Any]]:
    return [
        task(f"t{i:02}", group="held-out" if i < 6 else "public", judge=(2, 2), weight=weight)
        for i in range(12)
    ]


def _runs(tasks: list[dict[str, Any]], **change: Any) -> list[Any]:
    """Two runs per task with varied verdicts; ``change`` applies to task t00's first run."""
    out = []
    for i, t in enumerate(tasks):
        judged = bool(t["scoring"].get("judge_items"))
        for r in (1, 2):
            levels = ((i + r) % 3, (i * r) % 3) if judged else ()
            made: dict[str, Any] = {"passed": (i + r) % 3, "judge": levels}
            made |= change if (i == 0 and r == 1) else {}
            out.append(run(t["id"], r, of=2, **made))
    return out


def test_a_zeroed_run_that_keeps_its_verdicts_is_not_isolated() -> None:
    """A held-out run zeroed by its delivery threshold keeps its recorded R and J (§4.3): with
    S, R and J over the same held-out tasks, n·S − w·n·R − (1 − w)·n·J would be that run's
    would-be score, so the gate publishes two of them: S, then R, and withholds J."""
    tasks = _dual_tasks()
    held = _held_out(_report(tasks, _runs(tasks, delivery=False, passed=2, judge=(2, 2))))
    assert held.task_score is not None
    assert held.rule_score is not None  # offered before J
    assert held.judge_score is None
    assert held.withheld == ["judge_score"]


def test_at_rule_weight_1_the_rule_score_is_withheld() -> None:
    """At w = 1, S = R less the zeroed runs' residue: S and R alone would tell it, so R is
    withheld and J is published (docs/untrusted-input.md says so)."""
    tasks = _dual_tasks(weight=1.0)
    held = _held_out(_report(tasks, _runs(tasks)))
    assert held.task_score is not None
    assert held.judge_score is not None
    assert held.withheld == ["rule_score"]


def test_what_is_published_does_not_rest_on_a_zeroed_run() -> None:
    """The same release without the zeroed run publishes the same figures: which runs are
    zeroed is held-out data, so the gate decides from the declaration alone."""
    tasks = _dual_tasks()
    zeroed = _held_out(_report(tasks, _runs(tasks, delivery=False, passed=2, judge=(2, 2))))
    plain = _held_out(_report(tasks, _runs(tasks)))
    assert zeroed.withheld == plain.withheld
    assert zeroed.withheld


def test_at_varied_rule_weights_two_of_three_channels_show() -> None:
    """Rule weights 0.3, 0.5 and 0.7: n·(S − 0.3·R − 0.7·J) is a figure over the four tasks
    whose w is not 0.3 (their residues aside), so J is withheld — and S and R are published
    (the gate is not merely strict)."""
    tasks = [
        task(f"t{i:02}", group="held-out" if i < 6 else "public", judge=(2, 2), weight=w)
        for i, w in enumerate([0.3, 0.5, 0.7] * 4)
    ]
    held = _held_out(_report(tasks, _runs(tasks)))
    assert held.task_score is not None
    assert held.rule_score is not None
    assert held.withheld == ["judge_score"]


def test_equal_rule_weights_with_one_rule_only_task() -> None:
    """Every dual task at w = 0.5 and one held-out task rule-only: 2·(n·S − 0.5·n·R − m·J)
    is that task's mean, so R and J are not both published beside S."""
    tasks = _dual_tasks()
    tasks[0] = task("t00", group="held-out")
    held = _held_out(_report(tasks, _runs(tasks)))
    assert held.task_score is not None
    assert held.rule_score is None or held.judge_score is None


def test_a_measure_recorded_on_one_held_out_task_is_withheld() -> None:
    """Turns recorded on one held-out task (and every public one): their mean over the
    held-out group would be that task's turns."""
    tasks = [task(f"t{i:02}", group="held-out" if i < 6 else "public") for i in range(12)]
    runs = []
    for i, t in enumerate(tasks):
        for r in (1, 2):
            record = run(t["id"], r, passed=(i + r) % 3, turns=3 + i)
            if 0 < i < 6:
                record = record.model_copy(update={"turns": None})
            runs.append(record)
    held = _held_out(_report(tasks, runs))
    assert held.efficiency is not None
    assert held.efficiency.turns is None
    assert held.efficiency.total_tokens is not None


@st.composite
def small_releases(draw: st.DrawFn) -> tuple[list[dict[str, Any]], list[Any]]:
    """Six to nine held-out and a few public tasks, rule-only or dual at drawn weights, in two
    sub-divisions, with drawn verdicts and now and then a zeroed run."""
    n_held = draw(st.integers(6, 9))
    tasks = []
    for i in range(n_held + 4):
        dual = draw(st.booleans())
        weight = draw(st.sampled_from([0.3, 0.5, 0.7]))
        sub = draw(st.sampled_from(["a", "b"]))
        group = "held-out" if i < n_held else "public"
        tasks.append(
            task(f"t{i:02}", sub=sub, group=group, judge=(2, 4) if dual else (), weight=weight)
        )
    return tasks, _verdicts(draw, tasks)


def _verdicts(draw: st.DrawFn, tasks: list[dict[str, Any]]) -> list[Any]:
    runs = []
    for t in tasks:
        judged = bool(t["scoring"].get("judge_items"))
        for r in (1, 2):
            levels = (draw(st.integers(0, 2)), draw(st.integers(0, 4))) if judged else ()
            runs.append(
                run(
                    t["id"],
                    r,
                    passed=draw(st.integers(0, 2)),
                    judge=levels,
                    delivery=draw(st.sampled_from([True, True, True, False])),
                )
            )
    return runs


@settings(max_examples=examples(10), deadline=None)
@given(small_releases(), st.data())
def test_what_the_gate_withholds_does_not_rest_on_the_results(
    drawn: tuple[list[dict[str, Any]], list[Any]], data: st.DataObject
) -> None:
    """Every verdict drawn again (zeroed runs included; the same tasks and valid runs): the
    same figures are withheld in every scope, so the pattern of what is withheld tells a
    reader nothing about the held-out results."""
    tasks, runs = drawn
    redrawn = data.draw(st.composite(lambda draw: _verdicts(draw, tasks))())

    def pattern(report: Report) -> list[tuple[str, str, tuple[str, ...]]]:
        return [
            (s.scope.key, c.combination, tuple(c.withheld or ()))
            for s in report.scopes
            for c in s.combinations
        ]

    assert pattern(_report(tasks, runs)) == pattern(_report(tasks, redrawn))


@settings(max_examples=examples(12), deadline=None)
@given(small_releases())
def test_what_a_report_publishes_exposes_no_small_group(
    drawn: tuple[list[dict[str, Any]], list[Any]],
) -> None:
    """Every figure the gate admits in a report, tested together by the definition itself
    (every group of fewer than the minimum held-out tasks tried)."""
    admitted: list[list[Functional]] = []
    original = gate_module.Gate.admit

    def recording(self: gate_module.Gate, functionals: Sequence[Functional]) -> bool:
        ok = original(self, functionals)
        if ok:
            admitted.append([dict(f) for f in functionals])
        return ok

    with patch.object(gate_module.Gate, "admit", recording):
        tasks, runs = drawn
        _report(tasks, runs)
    per_combination: dict[Hashable, list[Functional]] = {}
    for functionals in admitted:
        for f in functionals:
            owners = {_owner(c) for c in f}
            if len(owners) == 1 and owners != {"pair"}:  # each pair has a gate of its own
                per_combination.setdefault(owners.pop(), []).append(f)
    assert per_combination
    for rows in per_combination.values():
        assert brute_exposed(rows, task_of, MIN) is None


def _owner(coordinate: Hashable) -> Hashable:
    """The combination (or the pair's own gate) a coordinate belongs to."""
    assert isinstance(coordinate, tuple)
    return "pair" if coordinate[0] == "pair" else combination_of(coordinate)


def test_a_coordinate_moves_to_another_combination() -> None:
    """Every kind of coordinate names its combination where :func:`moved` puts it."""
    found = [
        ("m1", 4, 2, "rule"),
        ("spread", 4, 2, "cost"),
        ("m2", 4, (2, "rule"), (2, "judge")),
        ("m3", 4, (2, "a"), (2, "a"), (2, "b")),
    ]
    for coordinate in found:
        assert combination_of(coordinate) == 2
        there = moved(coordinate, 7)
        assert combination_of(there) == 7
        assert moved(there, 2) == coordinate
    assert len(found) == 4


def test_a_copied_part_decides_as_the_part_it_copies() -> None:
    """A gate's part copied over another combination's coordinates refuses and admits the
    same further figures there as the original does over its own."""
    gate = Gate(2, task_of)
    five = [("m1", t, 0, "score") for t in range(5)]
    assert gate.admit([dict.fromkeys(five, 1.0)])
    assert gate.admit([dict.fromkeys(five[:3], 1.0)])
    gate.copy(list(gate.parts), lambda c: moved(c, 1))
    for k in (0, 1):
        assert not gate.admits([{moved(c, k): 1.0 for c in five[:2]}])  # less the three: t2
        assert gate.admits([{moved(c, k): 1.0 for c in (five[0], five[3])}])


def _gated(tasks: list[dict[str, Any]], runs: dict[str, list[Any]], reuse: bool) -> Gated:
    """The domain's :class:`Gated`, with or without a shape's decisions reused."""
    seen: list[Gated] = []
    real = gating.gate_domain

    def spy(*args: Any) -> Gated:
        seen.append(real(*args))
        return seen[-1]

    alone = {
        "shapes": lambda coords, offers, resample: {k: k for _, k, _, _ in offers},
        "_gate_pairs": _pairs_alone,
    }
    with (
        patch.object(report_module, "gate_domain", spy),
        nullcontext() if reuse else patch.multiple(gating, **alone),
    ):
        rel = release(groups={"public": 6, "held_out": 6, "min_held_out_aggregate": MIN})
        build_report(version(rel, catalog(tasks), runs), "office")
    (gated,) = seen
    return gated


OFFERED: list[int] = []  # patterns :func:`_pairs_alone` offered, over the tests


def _pairs_alone(
    coords: Any,
    scoped: Sequence[Any],
    pairs: Any,
    out: Gated,
    minimum: int,
    resample: int,
    memory: Any,
) -> None:
    """:func:`gating._gate_pairs` by its docstring: each pair a gate of its own, every
    pattern offered to it (no gate shared between pairs offered the same)."""
    gates: dict[tuple[int, int], Gate] = {}
    for view, figs, _ in scoped:
        key, held = view.scope.key, coords.held[view.rows]
        mine = out.pairs.setdefault(key, set())
        for pair in pairs.get(key, ()):
            a, b = pair.a, pair.b
            common = (pair.figure.den > 0) & held
            sides = all(out.admitted(key, k, "score") for k in (a, b))
            same = all(np.array_equal((figs[k]["score"].den > 0) & held, common) for k in (a, b))
            if not held.any():
                mine.add((a, b))
            elif not (sides and same):
                continue
            elif pair.figure.tasks < resample:
                mine.add((a, b))
            else:
                share = 1.0 / float((pair.figure.den > 0).sum())
                pattern = {("pair", int(t)): share * share for t in view.rows[common]}
                OFFERED.append(1)
                if gates.setdefault((a, b), Gate(minimum, task_of)).admit([pattern]):
                    mine.add((a, b))


def _projectors(gate: Gate) -> dict[frozenset[Hashable], np.ndarray]:
    """Each part's row space as its projector over its coordinates in a fixed order."""
    out = {}
    for part in gate.parts.values():
        order = sorted(part.index, key=repr)
        basis = part.basis[:, [part.index[c] for c in order]]
        out[frozenset(order)] = basis.T @ basis
    return out


@settings(max_examples=examples(8), deadline=None)
@given(small_releases(), st.data())
def test_a_combination_of_an_earlier_shape_is_decided_alike(
    drawn: tuple[list[dict[str, Any]], list[Any]], data: st.DataObject
) -> None:
    """Three combinations with their own verdicts, the last missing a run (another shape):
    the gate that reuses a shape's decisions (and pairs' gates offered the same) publishes
    and keeps what a gate that searches every combination (and each pair) does."""
    tasks, runs = drawn
    again = [data.draw(st.composite(lambda draw: _verdicts(draw, tasks))()) for _ in (1, 2)]
    runs_of = {"p": runs, "q": again[0], "r": again[1][1:]}
    shapes: list[dict[int, int]] = []
    real = gating.shapes

    def recorded(*args: Any) -> dict[int, int]:
        shapes.append(real(*args))
        return shapes[-1]

    with patch.object(gating, "shapes", recorded):
        reused = _gated(tasks, runs_of, True)
    alone = _gated(tasks, runs_of, False)
    assert shapes == [{0: 0, 1: 0, 2: 2}]  # q is decided as p; r, missing a run, alone
    assert (reused.figures, reused.refused, reused.pairs) == (
        alone.figures,
        alone.refused,
        alone.pairs,
    )
    mine, theirs = (_projectors(g.gate) for g in (reused, alone) if g.gate is not None)
    assert mine
    assert mine.keys() == theirs.keys()
    for key, projector in mine.items():
        assert np.allclose(projector, theirs[key], atol=1e-9)


def test_combinations_of_one_shape_are_searched_once() -> None:
    """Two combinations with the same valid runs share a shape, one missing a run does not:
    the gate searches the shared shape once (fewer admissions than offers)."""
    tasks = _dual_tasks()
    runs = _runs(tasks)
    calls: list[int] = []
    original = gate_module.Gate.admit

    def counting(self: Gate, functionals: Sequence[Functional]) -> bool:
        calls.append(1)
        return original(self, functionals)

    with patch.object(gate_module.Gate, "admit", counting):
        _gated(tasks, {"p": runs, "q": runs}, True)
        shared = len(calls)
        _gated(tasks, {"p": runs, "q": runs[1:]}, True)
        apart = len(calls) - shared
    assert 0 < shared < apart


def test_pairs_offered_the_same_patterns_decide_alike() -> None:
    """Three combinations of one shape: their three pairs are offered the same patterns,
    and the gates shared between them decide as a gate per pair."""
    tasks = [
        task(f"t{i:02}", group="held-out" if i < 12 else "public", judge=(2, 2)) for i in range(16)
    ]
    runs = _runs(tasks)
    before = len(OFFERED)
    shared = _gated(tasks, {"p": runs, "q": runs, "r": runs}, True)
    alone = _gated(tasks, {"p": runs, "q": runs, "r": runs}, False)
    assert len(OFFERED) > before  # the pairs' patterns were offered
    assert any(shared.pairs.values())
    assert shared.pairs == alone.pairs
