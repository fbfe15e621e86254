"""No held-out figure over fewer than the minimum is derivable from the reports (§4.4, §7.2),
found by a black-box search (bench/leak_search.py) that edits held-out runs and watches
every published point figure move, independently of the privacy gate's model of figures.

Here (within CI's budget): the Lingee example edited along the routes a security review took
(every general dual-channel task at rule weight 0.5; a zeroed run that keeps its verdicts;
``turns`` recorded only on one held-out task besides the public ones), combination
``lingee``; with the gate switched off, the same search must find the rule/Judge route (so
that it can fail). The unedited example's every domain and combination, and the
EnterpriseClawBench-shaped example (~11 s a report), are searched by
``bench/leak_search.py``: on 2026-12-03, with the gate deciding from the declaration
alone, Lingee v1.1 and v1.0, both domains, every combination: no set, and no edit changed
what is withheld. (Before, when the gate's model followed the numbers, enterprise/
deepseek-harness-standard exposed four tasks through reliability@3, given the zeroed runs
that the gate's own decision to publish the rule score revealed; that route is a test here.)
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import generator.score.gate as gate

pytestmark = pytest.mark.slow  # searches the example reports for derivable held-out figures

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

from leak_edits import Release, load  # noqa: E402
from leak_search import Exposure, search  # noqa: E402

COMBO = "lingee"


@pytest.fixture
def gate_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """The gate admitting everything (``Gate._admit_one`` asks ``gate.exposed_matrix``)."""
    monkeypatch.setattr(gate, "exposed_matrix", lambda *args, **kwargs: None)


def _explain(found: list[Exposure]) -> str:
    return "held-out figures over too few tasks are derivable:\n" + "\n".join(map(str, found))


# --- the edits of the reviewed routes ----------------------------------------------------


def _judged(release: Release, domain: str) -> list[str]:
    """Held-out tasks of ``domain`` with Judge items, by id."""
    assert release.version.catalog is not None
    return sorted(
        t.id
        for t in release.version.catalog.model.tasks
        if t.group == "held-out" and t.domain == domain and t.scoring.judge_items
    )


def zeroed_keeping_verdicts(release: Release, task: str, combo: str) -> Release:
    """One valid run of ``task`` with its delivery failed while every rule item passed and
    its Judge result is valid (route b)."""

    def change(records: dict[str, list[dict[str, Any]]]) -> None:
        runs = [r for r in records[combo] if r["task"] == task and r["status"] == "valid"]
        run = next((r for r in runs if r.get("judge_valid")), runs[0])
        run["delivery"] = False
        for item in (run.get("rules") or []) + (run.get("fatal") or []):
            item["pass"] = True
        run["failure_type"] = run.get("failure_type") or "missing-deliverable"

    return release.edited(change)


def turns_on_one(release: Release, keep: str) -> Release:
    """``turns`` recorded only on the public tasks and one held-out task (route c)."""

    def change(records: dict[str, list[dict[str, Any]]]) -> None:
        for runs in records.values():
            for r in runs:
                if r["task"] in release.held_out and r["task"] != keep:
                    r["turns"] = None

    return release.edited(change)


def equal_rule_weights(tmp: Path) -> Release:
    """Every general dual-channel task at rule weight 0.5 (route a)."""
    shutil.copytree(REPO / "results", tmp / "results")
    shutil.copytree(REPO / "harnesscards", tmp / "harnesscards")
    path = tmp / "results" / "v1.1" / "tasks.yaml"
    catalog = yaml.safe_load(path.read_text(encoding="utf-8"))
    for t in catalog["tasks"]:
        if t["domain"] == "general" and t["scoring"]["mode"] == "dual-channel":
            t["scoring"]["rule_weight"] = 0.5
    path.write_text(yaml.safe_dump(catalog, sort_keys=False, allow_unicode=True), "utf-8")
    return load(tmp, "v1.1")


@pytest.fixture(scope="module")
def routes(tmp_path_factory: pytest.TempPathFactory) -> Release:
    """The Lingee example with routes a, b and c at once."""
    release = equal_rule_weights(tmp_path_factory.mktemp("routes"))
    judged = _judged(release, "general")
    plain = [t for t in release.tasks("general") if t not in judged]
    release = zeroed_keeping_verdicts(release, judged[0], COMBO)
    return turns_on_one(release, plain[0])


# --- the searches --------------------------------------------------------------------------


def test_the_reviewed_routes_expose_no_small_group(routes: Release) -> None:
    result = search(routes, "general", COMBO)
    assert set(result.ranks) == set(routes.tasks("general"))  # every task's runs were edited
    assert result.reports > len(result.ranks)  # and the reports rebuilt on each edit
    assert not result.exposures, _explain(result.exposures)
    assert (result.withheld, result.shown) == (0, 0)  # no edit changed what is withheld


def test_what_is_withheld_reveals_no_zeroed_run() -> None:
    """Lingee v1.1 enterprise, deepseek-harness-standard: two held-out tasks have zeroed
    runs. A gate whose model followed them published the rule score for this combination
    alone, and with reliability@3 that exposed four tasks. Now no edit of a held-out run
    changes what is withheld, and nothing small is exposed."""
    release = load(REPO, "v1.1")
    result = search(release, "enterprise", "deepseek-harness-standard")
    assert set(result.ranks) == set(release.tasks("enterprise"))  # every task's runs edited
    assert result.reports > len(result.ranks)
    assert not result.exposures, _explain(result.exposures)
    assert (result.withheld, result.shown) == (0, 0)


def _channels(path: str) -> bool:
    """The scores and channels of the domain's whole scopes (no subdivision, which with
    the gate off would expose single tasks on their own)."""
    scores = (".task_score.", ".rule_score.", ".judge_score.")
    return '"subdivision": null' in path and any(s in path for s in scores)


@pytest.mark.usefixtures("gate_off")
def test_without_the_gate_the_search_finds_the_rule_judge_route(routes: Release) -> None:
    """The Judge score over the general held-out tasks with Judge items (three, under the
    minimum of five) is published once the gate admits everything, and the search finds it
    from the scores alone."""
    result = search(routes, "general", COMBO, only=_channels)
    judged = set(_judged(routes, "general"))
    assert result.confirmed, "the search found nothing with the gate off: it cannot fail"
    assert any(e.tasks <= judged for e in result.confirmed), _explain(result.confirmed)


def test_an_edit_reaches_treatments_and_raters_but_no_other_ordinary_bundle() -> None:
    """A figure pooled over bundles (an experiment's changes, the raters' agreement) rests
    on values a reader knows no better than this combination's: a treatment's runs and a
    second rater's verdicts of the task. A move and a dense edit reach every one of them
    and leave the other ordinary bundles, whose figures are published, as they are; a dense
    edit gives a run its Judge never scored a verdict (whether a held-out run was judged is
    held-out data: fixed, it made a task's reliability a constant and the figure's other
    tasks a false set)."""
    import random

    from leak_search import Search

    release = load(REPO / "examples" / "enterpriseclawbench", "v1.0")
    domain, combo, task = "workplace", "codex-gpt-5.5", "careers-page"
    s = Search(release, domain, combo, random.Random(0))
    treated = {f for f in release.treatments if s.ran(task, f)}
    rated = {k for k, vs in release.raters.items() if any(v["task"] == task for v in vs)}
    assert treated, "the example has treatments of the task"
    assert rated, "the example has raters of the task"
    for changed in (s.dense(task), s.move(task)):
        assert set(changed) == {combo} | treated | rated
        for key in rated:
            before = [v for v in release.raters[key] if v["task"] == task]
            after = [v for v in changed[key] if v["task"] == task]
            assert before != after, f"{key}: the rater's verdicts of {task} were edited"
    record = next(r for r in release.records[combo] if r["task"] == task)
    unjudged = {**record, "delivery": False, "judge_valid": False, "judge": []}
    s.kinds["judge"](unjudged, random.Random(0))
    assert unjudged["judge_valid"] is True
    assert sorted(i["id"] for i in unjudged["judge"]) == sorted(i["id"] for i in record["judge"]), (
        "a verdict on every declared Judge item"
    )


def test_a_dense_edit_reaches_every_failure_type() -> None:
    """A dense edit that kept a failing run's recorded type moved no other type's count, so a
    difference of two types' counts over the held-out tasks stood "confirmed" while three
    rule-only tasks outside it, failing only with other types, never moved it (Lingee v1.0
    enterprise, opencode, 2026-12-05). Drawn types reach every declared one."""
    import random

    from leak_search import Search

    release = load(REPO, "v1.0")
    s = Search(release, "enterprise", "opencode", random.Random(0))
    task = "finance-ar-41"
    seen = {
        r.get("failure_type")
        for _ in range(20)
        for r in s.dense(task)["opencode"]
        if r["task"] == task and r.get("status") == "valid"
    }
    assert set(s.types) <= seen, sorted(set(s.types) - seen)
