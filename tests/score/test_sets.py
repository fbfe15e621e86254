"""Task sets compared, never pooled (generator/score/sets.py): each combination's figure on
each set, and Spearman's ρ of the two orders with its interval, against a recomputation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from builders import bundle, catalog, release, run, task, version

from generator.models import Bundle, Release
from generator.score.report import build_report

SETS = [{"id": "lite", "title": "Lite"}, {"id": "full", "title": "Full"}]
COMBOS = ("a", "b", "c", "d")


def _ranks(x: list[float]) -> list[float]:
    """Average ranks, 1 the smallest, computed by counting."""
    return [sum(y < v for y in x) + (sum(y == v for y in x) + 1) / 2 for v in x]


def _report(left_out: tuple[str, ...] = ()) -> tuple[Any, list[dict[str, Any]], dict[str, Any]]:
    data = release().model_dump(mode="json", exclude_none=True)
    data["domains"][0]["task_sets"] = SETS
    data["groups"] = {"public": 12, "held_out": 0}
    both = {"sets": ["lite", "full"]}
    tasks = [task(f"l{i}", sub="ab"[i % 2]) | both for i in range(6)]
    tasks += [task(f"f{i}", sub="ab"[i % 2]) | {"sets": ["full"]} for i in range(6)]
    tasks.append(task("e", "erp", "x"))
    rng = np.random.default_rng(7)
    ability = dict(zip(COMBOS, (0.9, 0.7, 0.5, 0.3), strict=True))
    runs = {
        c: [
            run(t["id"], r, passed=int(rng.random() < ability[c]) + int(rng.random() < ability[c]))
            for t in tasks
            for r in (1, 2)
            if not (c in left_out and t["id"].startswith("f"))
        ]
        for c in COMBOS
    }
    bundles: dict[str, Bundle] = {}
    for c in COMBOS:
        data_b = bundle(c).model_dump(mode="json", exclude_none=True)
        if c in left_out:
            data_b["not_covered"] = [{"domain": "office", "task_set": "full", "reason": "Lite"}]
        bundles[c] = Bundle.model_validate(data_b)
    loaded = version(Release.model_validate(data), catalog(tasks), runs, bundles)
    return build_report(loaded, "office"), tasks, runs


def _mean(runs: list[Any], ids: list[str]) -> float:
    per_task = [
        sum(min(r.rules[0].passed + r.rules[1].passed, 2) / 2 for r in runs if r.task == i) / 2
        for i in ids
    ]
    return sum(per_task) / len(per_task)


def test_the_two_orders_and_their_agreement() -> None:
    report, tasks, runs = _report()
    (found,) = report.sets
    assert (found.first, found.second) == ("lite", "full")
    lite = [t["id"] for t in tasks if "lite" in t.get("sets", [])]
    full = [t["id"] for t in tasks if "full" in t.get("sets", [])]
    first = {c: _mean(runs[c], lite) for c in COMBOS}
    second = {c: _mean(runs[c], full) for c in COMBOS}
    assert len(set(first.values())) == len(set(second.values())) == len(COMBOS)  # no ties
    assert {r.combination for r in found.rows} == set(COMBOS)
    for r in found.rows:
        assert r.first.value == pytest.approx(first[r.combination])
        assert r.second.value == pytest.approx(second[r.combination])
        assert r.first_rank == 1 + sum(v > first[r.combination] for v in first.values())
    ra, rb = _ranks(list(first.values())), _ranks(list(second.values()))
    assert found.rho == pytest.approx(float(np.corrcoef(ra, rb)[0, 1]))
    assert found.low is not None
    assert found.high is not None
    assert found.low <= found.rho <= found.high
    assert found.tasks == len(full)


def test_too_few_combinations_on_both_sets_give_no_correlation() -> None:
    report, _, _ = _report(left_out=("a", "b"))
    (found,) = report.sets
    assert sorted(r.combination for r in found.rows) == ["c", "d"]
    assert found.rho is None
    assert found.withheld is None
