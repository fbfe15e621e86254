"""Each aggregate of a combination in a scope as a ratio of sums over tasks, and the value it
publishes (generator/score/figures.py), against a recomputation from the runs (§4.2)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from budget import examples
from builders import catalog, release, run, task, version
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.score.figures import figures, nanmean, point_values
from generator.score.frame import build_frame
from generator.score.plan import plan_combination
from generator.score.runs import score_runs
from generator.score.scope import Scope
from generator.score.table import scope_view, task_table

RULES = 4


def _figures(domain: str, passed: list[list[int]]) -> tuple[dict, dict]:
    """Figures and point values of combination 'p', task i passing passed[i][r] of its rules
    in run r."""
    sub = "a" if domain == "office" else "x"
    tasks = [task(f"t{i}", domain, sub, rules=RULES) for i in range(len(passed))]
    runs = [
        run(f"t{i}", r + 1, passed=n, of=RULES)
        for i, ns in enumerate(passed)
        for r, n in enumerate(ns)
    ]
    rel = release()
    frame = build_frame(version(rel, catalog(tasks), {"p": runs}))
    scope = Scope(version="v0.1", domain=domain)
    table = task_table(frame.tasks, score_runs(frame), sorted(frame.bundles), scope)
    view = scope_view(table, scope)
    plan = plan_combination(view, table, 0, frame.bundles["p"], rel)
    figs = figures(view, table, 0, plan, rel)
    return figs, point_values(view, table, 0, plan, figs)


runs_of_tasks = st.lists(
    st.lists(st.integers(0, RULES), min_size=2, max_size=2), min_size=1, max_size=6
)


@settings(max_examples=examples(25), deadline=None)
@given(runs_of_tasks)
def test_task_score_is_the_mean_of_task_means(passed: list[list[int]]) -> None:
    figs, values = _figures("office", passed)
    expected = sum(sum(n / RULES for n in ns) / len(ns) for ns in passed) / len(passed)
    assert math.isclose(values["score"], expected, abs_tol=1e-12)
    assert math.isclose(figs["score"].value, expected, abs_tol=1e-12)
    assert figs["score"].tasks == len(passed)


@settings(max_examples=examples(25), deadline=None)
@given(runs_of_tasks)
def test_success_rate_pools_the_runs_that_pass_every_item(passed: list[list[int]]) -> None:
    figs, _ = _figures("office", passed)
    successes = sum(n == RULES for ns in passed for n in ns)
    assert figs["success"].pooled == (successes, sum(len(ns) for ns in passed))


def test_business_views_only_where_the_domain_reports_them() -> None:
    views = {"risk", "key_process", "fatal", "boundary"}
    office, _ = _figures("office", [[RULES, 1]])
    erp, _ = _figures("erp", [[RULES, 1]])
    assert not views & set(office)
    assert views <= set(erp)
    assert {"score", "rule", "success", "reliability@1", "reliability@2"} <= set(office) & set(erp)


def test_nanmean_leaves_out_missing_values() -> None:
    values = np.array([0.25, np.nan, 0.75, np.nan])
    assert nanmean(values) == np.mean(values[~np.isnan(values)])
    assert math.isnan(nanmean(np.array([np.nan])))


def _scope(report: object, group: str, facets: tuple[tuple[str, str], ...] = ()) -> object:
    return next(
        s
        for s in report.scopes  # type: ignore[attr-defined]
        if s.scope.group == group and s.scope.facets == facets and s.scope.subdivision is None
    )


def test_a_rule_score_over_part_of_a_scope_never_isolates_a_held_out_task() -> None:
    """Five rule-only held-out tasks and one judge-only: six Task Scores less five rule scores
    would give the judge-only task's, so the rule score is withheld there (§4.4)."""
    from generator.score.report import build_report

    ruled = [task(f"h{i}", group="held-out") for i in range(5)]
    judged = task("j", group="held-out", judge=(4,))
    judged["scoring"].update(mode="judge-only", rule_weight=None, rule_items=[])
    public = [task(f"p{i}") for i in range(3)]
    runs = [run(t["id"], r) for t in ruled + public for r in (1, 2)]
    runs += [run("j", r, of=0, judge=(3,)) for r in (1, 2)]
    rel = release(groups={"public": 3, "held_out": 6})
    report = build_report(version(rel, catalog([*ruled, judged, *public]), {"p": runs}), "office")
    held = _scope(report, "held-out")
    (c,) = held.combinations  # type: ignore[attr-defined]
    assert c.task_score is not None
    assert c.rule_score is None
    (public_c,) = _scope(report, "public").combinations  # type: ignore[attr-defined]
    assert public_c.rule_score is not None  # no held-out task there: shown


def test_a_cell_with_too_few_held_out_tasks_withholds_the_mean_over_cells() -> None:
    """The mean over cells beside the mean over tasks weighs each cell otherwise: the two give
    a cell's held-out sum, so a cell with one held-out task withholds it; the public group
    still has it."""
    from builders import profiled

    from generator.score.report import build_report

    def qa(tid: str, difficulty: str, group: str) -> dict[str, object]:
        data = task(tid, "qa", group=group)
        del data["subdivision"]
        data["facets"] = {"capability": "ie", "difficulty": difficulty}
        return data

    tasks = [qa(f"e{i}", "easy", "held-out" if i < 4 else "public") for i in range(6)]
    tasks += [qa(f"h{i}", "hard", "held-out" if i == 0 else "public") for i in range(3)]
    runs = [run(str(t["id"]), r, passed=(r + i) % 3) for i, t in enumerate(tasks) for r in (1, 2)]
    rel = profiled()
    data = rel.model_dump(mode="json", exclude_none=True)
    data["groups"] = {"public": 4, "held_out": 5}
    report = build_report(
        version(type(rel).model_validate(data), catalog(tasks), {"p": runs}), "qa"
    )
    (whole,) = _scope(report, "all").combinations  # type: ignore[attr-defined]
    assert whole.task_score is not None
    assert whole.cell_mean is None
    (public,) = _scope(report, "public").combinations  # type: ignore[attr-defined]
    assert public.cell_mean is not None
    easy = [t for t in tasks if t["group"] == "public" and t["facets"]["difficulty"] == "easy"]
    hard = [t for t in tasks if t["group"] == "public" and t["facets"]["difficulty"] == "hard"]
    assert len(easy) == 2
    assert len(hard) == 2

    def mean(cell: list[dict[str, object]]) -> float:
        ids = {t["id"] for t in cell}
        per_task = [
            sum(min(r.rules[0].passed + r.rules[1].passed, 2) / 2 for r in runs if r.task == i) / 2
            for i in ids
        ]
        return sum(per_task) / len(per_task)

    assert public.cell_mean.value == pytest.approx((mean(easy) + mean(hard)) / 2)


def test_a_rule_class_s_pass_rate_is_the_mean_over_tasks_of_its_share() -> None:
    """Two rule classes over six tasks: each class's figure is the mean over tasks of the
    share of its items each task's valid runs passed, computed here from the runs."""
    from generator.models import Release
    from generator.score.report import build_report

    data = release().model_dump(mode="json", exclude_none=True)
    data["profile"] = {
        "rule_classes": [{"id": "type", "title": "File type"}, {"id": "render", "title": "Renders"}]
    }
    rel = Release.model_validate(data)
    tasks = []
    for i in range(6):
        t = task(f"t{i}", rules=3)
        for item, cls in zip(t["scoring"]["rule_items"], ("type", "type", "render"), strict=True):
            item["rule_class"] = cls
        tasks.append(t)
    runs = [run(f"t{i}", r, passed=(i + r) % 4, of=3) for i in range(6) for r in (1, 2)]
    report = build_report(version(rel, catalog(tasks), {"p": runs}), "office")
    scope = next(s for s in report.scopes if s.scope.whole and s.scope.group == "all")
    (c,) = scope.combinations
    expected = {}
    for cls, items in (("type", ("R1", "R2")), ("render", ("R3",))):
        per_task = []
        for i in range(6):
            mine = [r for r in runs if r.task == f"t{i}"]
            passes = [sum(v.passed for v in r.rules if v.id in items) / len(items) for r in mine]
            per_task.append(sum(passes) / len(passes))
        expected[cls] = sum(per_task) / len(per_task)
    assert set(c.rule_classes) == set(expected) == {"type", "render"}
    for cls, value in expected.items():
        e = c.rule_classes[cls]
        assert e.value == pytest.approx(value)
        assert e.low is not None
        assert e.high is not None
        assert e.low <= e.value <= e.high


def test_a_channel_s_score_is_the_weighted_judge_mean_over_the_tasks_it_judges() -> None:
    """Two Judge channels over six tasks (text on four, visual on two), items weighted: each
    channel's figure is the mean over its tasks of the weighted mean g/G of the task's items on
    it, its task count the channel's coverage; a weighted dimension alike. Computed here from
    the runs."""
    from generator.models import Release
    from generator.score.report import build_report

    data = release().model_dump(mode="json", exclude_none=True)
    data["profile"] = {
        "channels": [{"id": "text", "title": "Text"}, {"id": "visual", "title": "Visual"}],
        "dimensions": [{"id": "acc", "title": "Accuracy"}, {"id": "form", "title": "Form"}],
    }
    rel = Release.model_validate(data)
    weights, dims = (3.0, 1.0, 2.0), ("acc", "acc", "form")
    channel_of = {f"t{i}": "text" if i < 4 else "visual" for i in range(6)}
    tasks = []
    for tid, channel in channel_of.items():
        t = task(tid, judge=(4, 4, 10))
        for item, w, d in zip(t["scoring"]["judge_items"], weights, dims, strict=True):
            item |= {"weight": w, "channel": channel, "dimension": d}
        tasks.append(t)
    runs = [
        run(tid, r, judge=((i + r) % 5, (2 * i + r) % 5, (3 * i + r) % 11))
        for i, tid in enumerate(channel_of)
        for r in (1, 2)
    ]
    report = build_report(version(rel, catalog(tasks), {"p": runs}), "office")
    scope = next(s for s in report.scopes if s.scope.whole and s.scope.group == "all")
    (c,) = scope.combinations

    def task_mean(tid: str, keep: tuple[bool, ...]) -> float:
        per_run = []
        for r in (x for x in runs if x.task == tid):
            g = [v.level / m for v, m in zip(r.judge, (4, 4, 10), strict=True)]
            mass = sum(w for w, k in zip(weights, keep, strict=True) if k)
            per_run.append(sum(w * x for w, x, k in zip(weights, g, keep, strict=True) if k) / mass)
        return sum(per_run) / len(per_run)

    for channel in ("text", "visual"):
        mine = [t for t, ch in channel_of.items() if ch == channel]
        e = c.channels[channel]
        assert e.tasks == len(mine)
        assert e.value == pytest.approx(sum(task_mean(t, (True,) * 3) for t in mine) / len(mine))
        assert e.low is not None
        assert e.high is not None
        assert e.low <= e.value <= e.high
    acc = [task_mean(t, (True, True, False)) for t in channel_of]
    assert c.dimensions["acc"].value == pytest.approx(sum(acc) / len(acc))
    assert c.judge_score is not None
    all_j = [task_mean(t, (True,) * 3) for t in channel_of]
    assert c.judge_score.value == pytest.approx(sum(all_j) / len(all_j))


def test_a_figure_that_relates_otherwise_to_one_held_out_task_is_withheld() -> None:
    """Six held-out tasks, one of them without the 'render' rule class: beside the rule score
    over all six, the two classes' pass rates would give that task's rule score
    (6·R − 4·type − 5/3·render = type of the one task), so the privacy gate admits the first
    class and withholds the second over the held-out group; over the public group both
    show."""
    from generator.models import Release
    from generator.score.report import build_report

    data = release(groups={"public": 6, "held_out": 6, "min_held_out_aggregate": 3}).model_dump(
        mode="json", exclude_none=True
    )
    data["profile"] = {
        "rule_classes": [{"id": "type", "title": "File type"}, {"id": "render", "title": "Renders"}]
    }
    rel = Release.model_validate(data)
    tasks = []
    for i in range(12):
        odd = i == 0  # held-out, and without the render class
        t = task(f"t{i:02}", group="held-out" if i < 6 else "public", rules=2 if odd else 3)
        for item, cls in zip(t["scoring"]["rule_items"], ("type", "type", "render"), strict=False):
            item["rule_class"] = cls
        tasks.append(t)
    runs = [
        run(t["id"], r, passed=(i + r) % 3, of=len(t["scoring"]["rule_items"]))
        for i, t in enumerate(tasks)
        for r in (1, 2)
    ]
    report = build_report(version(rel, catalog(tasks), {"p": runs}), "office")
    by_group = {s.scope.group: s for s in report.scopes if s.scope.whole}
    (held,) = by_group["held-out"].combinations
    (public,) = by_group["public"].combinations
    assert set(held.rule_classes) == {"render"}  # 'type' beside it isolates the one task
    assert set(public.rule_classes) == {"type", "render"}
