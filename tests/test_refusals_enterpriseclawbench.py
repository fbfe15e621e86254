"""The refusals of issue 19, each tested on the EnterpriseClawBench-shaped example root: the
Lite and Full sets never pooled, the Judge channels never combined out of sight, no per-task
figure of a held-out task (the one-task skill change included), an experiment whose sources
and targets overlap refused, and no group of fewer held-out tasks than the minimum shown or
derivable from what is shown. The refusals every benchmark shares are tested on the
EnterpriseBench-shaped example (tests/test_profile_refusals.py)."""

from __future__ import annotations

import re
import shutil
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from generator.score.results import Report, ScopeResult
from generator.score.version import ScoredVersion

pytestmark = pytest.mark.slow  # builds the ClawBench-shaped example

REPO = Path(__file__).resolve().parent.parent
ROOT = REPO / "examples" / "enterpriseclawbench"
VERSION = ROOT / "results" / "v1.0"


def _yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def report(claw_scored: ScoredVersion) -> Report:
    return claw_scored.reports["workplace"]


@pytest.fixture(scope="module")
def tasks() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = _yaml(VERSION / "tasks.yaml")["tasks"]
    return found


@pytest.fixture(scope="module")
def site(claw_site: Path) -> Path:
    return claw_site


def _values(task: dict[str, Any], facet: str) -> list[str]:
    value = task.get("facets", {}).get(facet)
    return [value] if isinstance(value, str) else list(value or [])


def _tasks_of(scope: ScopeResult, tasks: list[dict[str, Any]], first: str) -> list[dict[str, Any]]:
    """The tasks a scope's figures rest on, from the catalog: its set (the first set unless it
    names another), its group, its sub-division and its facet values."""
    s = scope.scope
    return [
        t
        for t in tasks
        if (s.task_set or first) in t.get("sets", [])
        and s.group in ("all", t["group"])
        and s.subdivision in (None, t.get("subdivision"))
        and all(v in _values(t, f) for f, v in s.facets)
    ]


def test_the_lite_and_full_sets_are_never_pooled(
    report: Report, tasks: list[dict[str, Any]]
) -> None:
    """Every scope lies within one set, and so does every figure in it: the domain's own
    scopes are Lite's, the Full set a scope of its own; a combination that ran Lite only is
    not covered there, never scored over the tasks it ran."""
    release = _yaml(VERSION / "release.yaml")
    sets = [s["id"] for s in release["domains"][0]["task_sets"]]
    first = sets[0]
    assert len(sets) == 2
    lite = {t["id"] for t in tasks if first in t["sets"]}
    assert lite < {t["id"] for t in tasks}
    scores = 0
    for scope in report.scopes:
        mine = _tasks_of(scope, tasks, first)
        assert scope.tasks == len(mine), scope.title
        if scope.scope.task_set is None:
            assert {t["id"] for t in mine} <= lite, scope.title
        for c in scope.combinations:
            if c.task_score is not None and c.task_score.value is not None:
                assert c.task_score.tasks <= len(mine)
                scores += 1
    assert scores > 0
    full = [s for s in report.scopes if s.scope.task_set == sets[1] and s.scope.group == "all"]
    (whole,) = full
    assert {c.status for c in whole.combinations} == {"scored", "not-covered"}


_TABLE = re.compile(r"<table.*?</table>", re.S)
_HEAD = re.compile(r"<th[^>]*>(.*?)</th>", re.S)


def test_the_composite_is_never_shown_without_its_channels(site: Path) -> None:
    """Every table of combinations that shows the composite (the Task Score combining the
    text and visual Judge channels) — leaderboards, domain tables, result cards — shows
    each channel beside it, with the tasks it judged."""
    release = _yaml(VERSION / "release.yaml")
    composite = next(m["title"] for m in release["metrics"] if m["id"] == "task_score")
    channels = [c["title"] for c in release["profile"]["channels"]]
    assert channels == ["Text", "Visual"]
    checked = 0
    for page in (site / "v1.0").rglob("*.html"):
        if "/views/" in str(page):
            continue  # a view shows one declared metric, as its own declaration says
        for table in _TABLE.findall(page.read_text(encoding="utf-8")):
            heads = [re.sub(r"<[^>]+>", "", h) for h in _HEAD.findall(table)]
            if not any(h.startswith(f"{composite} [") for h in heads) or "Combination" not in heads:
                continue
            checked += 1
            for channel in channels:
                assert any(h.startswith(f"{channel} judge") for h in heads), (page, heads)
    assert checked


def test_no_held_out_task_appears_one_by_one(site: Path, tasks: list[dict[str, Any]]) -> None:
    """No page or download names a held-out task, the skill change of a held-out target
    included; every public task is named."""
    held = [t["id"] for t in tasks if t["group"] == "held-out"]
    public = [t["id"] for t in tasks if t["group"] == "public"]
    experiment = _yaml(VERSION / "release.yaml")["profile"]["experiments"][0]
    assert set(experiment["targets"]) & set(held)
    files = [p for p in site.rglob("*") if p.is_file() and p.suffix in (".html", ".csv", ".json")]
    text = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in files)
    assert [t for t in held if re.search(rf"\b{re.escape(t)}\b", text)] == []
    assert public
    assert all(re.search(rf"\b{re.escape(t)}\b", text) for t in public)


def test_sources_and_targets_that_overlap_are_refused(tmp_path: Path, run_cli: Any) -> None:
    root = tmp_path / "ecb"
    shutil.copytree(ROOT, root)
    path = root / "results" / "v1.0" / "release.yaml"
    data = _yaml(path)
    experiment = data["profile"]["experiments"][0]
    shared = experiment["sources"][0]
    experiment["targets"] = [*experiment["targets"], shared]
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    result = run_cli("validate", "--root", str(root))
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    (said,) = [line for line in result.output.splitlines() if "both sources and targets" in line]
    assert said.startswith("results/v1.0/release.yaml:")
    assert "profile.experiments[0].targets" in said
    assert repr(shared) in said


def test_a_value_with_few_held_out_tasks_is_withheld(
    report: Report, tasks: list[dict[str, Any]]
) -> None:
    """A role class or deliverable type holding 1..min − 1 held-out tasks shows no held-out
    or all-tasks figure; its public group stays."""
    minimum = _yaml(VERSION / "release.yaml")["groups"]["min_held_out_aggregate"]
    first = _yaml(VERSION / "release.yaml")["domains"][0]["task_sets"][0]["id"]
    small = 0
    for scope in report.scopes:
        if not scope.scope.facets or scope.scope.group == "public":
            continue
        held = [t for t in _tasks_of(scope, tasks, first) if t["group"] == "held-out"]
        if 0 < len(held) < minimum:
            small += 1
            assert scope.withheld, scope.title
    assert small


def test_no_small_held_out_group_can_be_derived(
    report: Report, tasks: list[dict[str, Any]]
) -> None:
    """For each combination and each figure it shows over held-out tasks — the Task Score of
    each scope, and each Judge channel's score over the scope's tasks with that channel —
    the sets of held-out tasks it is shown over, taken together: no group of 1..min − 1
    held-out tasks is a linear combination of them (brute force, from the catalog; the
    identities that tie one task's statistics together are the privacy gate's, tested in
    tests/score/test_gating.py)."""
    release = _yaml(VERSION / "release.yaml")
    minimum = release["groups"]["min_held_out_aggregate"]
    first = release["domains"][0]["task_sets"][0]["id"]
    held = [t for t in tasks if t["group"] == "held-out"]
    index = {t["id"]: i for i, t in enumerate(held)}
    channel = {t["id"]: {j["channel"] for j in t["scoring"]["judge_items"]} for t in tasks}
    shown: dict[tuple[str, str], list[np.ndarray]] = {}
    for scope in report.scopes:
        if scope.withheld or scope.scope.group == "public":
            continue
        mine = [t["id"] for t in _tasks_of(scope, held, first)]
        for c in scope.combinations:
            if c.task_score is not None:
                on = np.isin(np.arange(len(held)), [index[t] for t in mine])
                shown.setdefault((c.combination, "score"), []).append(on)
            for k in c.channels:
                judged = [index[t] for t in mine if k in channel[t]]
                on = np.isin(np.arange(len(held)), judged)
                shown.setdefault((c.combination, k), []).append(on)
    assert len(shown) > 1
    distinct = {tuple(map(tuple, sorted(v.tolist() for v in rows))) for rows in shown.values()}
    groups = 0
    for rows in distinct:
        basis = np.array(rows, dtype=float)
        rank = np.linalg.matrix_rank(basis)
        for size in range(1, minimum):
            for chosen in combinations(range(len(held)), size):
                v = np.zeros(len(held))
                v[list(chosen)] = 1.0
                assert np.linalg.matrix_rank(np.vstack([basis, v])) > rank, [
                    held[i]["id"] for i in chosen
                ]
                groups += 1
    assert groups > 0


def test_channel_and_facet_judge_scores_isolate_no_held_out_pair(report: Report) -> None:
    """The route a review found by arithmetic: 10·J_visual − 6·J(html) − 4·J(presentation)
    over held-out tasks was the difference of two held-out tasks' Judge scores. The privacy
    gate publishes at most two of the three for each combination."""

    def held(facets: tuple[tuple[str, str], ...]) -> ScopeResult:
        (scope,) = [
            s
            for s in report.scopes
            if s.scope.group == "held-out"
            and s.scope.facets == facets
            and s.scope.task_set is None
            and s.scope.subdivision is None
        ]
        return scope

    domain = held(())
    html, presentation = held((("deliverable", "html"),)), held((("deliverable", "presentation"),))
    scored = 0
    for combo in domain.combinations:
        if combo.status != "scored":
            continue
        scored += 1
        parts = {
            s.scope.key: {c.combination: c for c in s.combinations} for s in (html, presentation)
        }
        shown = [
            "visual" in combo.channels,
            *(
                (c := parts[s.scope.key].get(combo.combination)) is not None
                and c.judge_score is not None
                for s in (html, presentation)
            ),
        ]
        assert not all(shown), combo.combination
    assert scored > 0
