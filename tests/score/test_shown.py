"""Which scopes of a domain are shown and which withheld (generator/score/shown.py): task
sets published apart and never pooled, the sets after the first withheld against
subtraction like overlapping facet values."""

from __future__ import annotations

from typing import Any

import pytest
from builders import bundle, catalog, release, run, task, version

from generator.models import Bundle, Release
from generator.score.report import build_report

SETS = [{"id": "lite", "title": "Lite"}, {"id": "full", "title": "Full"}]


def _report(full_only_held: int) -> tuple[Any, list[dict[str, Any]], dict[str, list[Any]]]:
    """Office with Lite (eight tasks, six held out) and Full (Lite and ``full_only_held``
    held-out tasks more); 'p' runs Lite only, 'd' both."""
    data = release().model_dump(mode="json", exclude_none=True)
    data["domains"][0]["task_sets"] = SETS
    data["groups"] = {"public": 2, "held_out": 6 + full_only_held, "min_held_out_aggregate": 3}
    tasks = [
        task(f"l{i}", sub="ab"[i % 2], group="public" if i < 2 else "held-out")
        | {"sets": ["lite", "full"]}
        for i in range(8)
    ]
    tasks += [
        task(f"f{i}", sub="ab"[i % 2], group="held-out") | {"sets": ["full"]}
        for i in range(full_only_held)
    ]
    tasks.append(task("e", "erp", "x"))
    runs = {
        "d": [run(t["id"], r, passed=(i + r) % 3) for i, t in enumerate(tasks) for r in (1, 2)],
        "p": [
            run(t["id"], r, passed=(i * r) % 3)
            for i, t in enumerate(tasks)
            if "lite" in t.get("sets", ["lite"])
            for r in (1, 2)
        ],
    }
    left = bundle("p").model_dump(mode="json", exclude_none=True)
    left["not_covered"] = [{"domain": "office", "task_set": "full", "reason": "Lite only"}]
    bundles = {"d": bundle("d"), "p": Bundle.model_validate(left)}
    loaded = version(Release.model_validate(data), catalog(tasks), runs, bundles)
    return build_report(loaded, "office"), tasks, runs


def _mean(runs: list[Any], ids: list[str]) -> float:
    per_task = [
        sum(min(r.rules[0].passed + r.rules[1].passed, 2) / 2 for r in runs if r.task == i) / 2
        for i in ids
    ]
    return sum(per_task) / len(per_task)


def test_every_figure_lies_within_one_task_set() -> None:
    """The domain's own scopes are its first set's (Lite), the Full set a scope of its own;
    each combination's figure is the mean over that set's tasks, computed here; a combination
    that left a set out is not covered there."""
    report, tasks, runs = _report(6)
    sets = {t["id"]: t.get("sets", []) for t in tasks}
    lite = [t for t, s in sets.items() if "lite" in s]
    full = [t for t, s in sets.items() if "full" in s]
    by_key = {(s.scope.task_set, s.scope.cut, s.scope.group): s for s in report.scopes}
    head = by_key[(None, None, "all")]
    assert head.title.startswith("Office, Lite set")
    scores = {c.combination: c for c in head.combinations}
    for combo in ("d", "p"):
        e = scores[combo].task_score
        assert e is not None
        assert e.tasks == len(lite)
        assert e.value == pytest.approx(_mean(runs[combo], lite))
    whole_full = by_key[("full", "set=full", "all")]
    assert whole_full.title.startswith("Office, Full set")
    found = {c.combination: c for c in whole_full.combinations}
    assert found["p"].status == "not-covered"
    assert "Lite only" in (found["p"].note or "")
    e = found["d"].task_score
    assert e is not None
    assert e.tasks == len(full)
    assert e.value == pytest.approx(_mean(runs["d"], full))
    assert len(report.scopes) == 12
    for s in report.scopes:  # no scope pools the sets: each lies within one
        assert s.tasks <= (len(full) if s.scope.task_set == "full" else len(lite))
        if s.scope.task_set is None and not s.withheld:
            assert s.combinations
            assert all(
                c.task_score is None or c.task_score.tasks <= len(lite) for c in s.combinations
            )


def test_a_set_whose_own_held_out_tasks_are_few_is_withheld() -> None:
    """Full less Lite is the Full-only tasks: with two held-out ones (fewer than three), the
    Full set's held-out and all-tasks figures are withheld, its public group shown."""
    report, _, _ = _report(2)
    by_key = {(s.scope.task_set, s.scope.group): s for s in report.scopes}
    assert "fewer than 3 held-out tasks be derived" in (by_key[("full", "held-out")].withheld or "")
    assert by_key[("full", "all")].withheld == by_key[("full", "held-out")].withheld
    assert by_key[("full", "public")].withheld is None
    assert by_key[(None, "held-out")].withheld is None
    shown, _, _ = _report(6)
    whole_or_set = [s for s in shown.scopes if s.scope.whole or s.scope.task_set]
    assert len(whole_or_set) == 6
    assert all(s.withheld is None for s in whole_or_set)
