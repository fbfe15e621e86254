"""A small version with an experiment: two baselines (consumers), each with a treatment per
level, on public and held-out targets; the expected task means are computed here from the
run records, independently of the engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from builders import FIXTURES, catalog, release, run, task, version
from pagetools import CARD
from pydantic import BaseModel

from generator.load import Loaded, LoadedRelease
from generator.load.source import Source
from generator.models import Bundle, HarnessCard, Release, RunRecord

SOURCES = ["s1", "s2", "s3"]
PUBLIC_TARGETS = ["t1", "t2"]
HELD_TARGETS = ["h1", "h2", "h3", "h4", "h5"]
TARGETS = PUBLIC_TARGETS + HELD_TARGETS
OTHER = ["o1"]  # a task of the domain in no role of the experiment
LEVELS = ["gpt", "haiku"]
CONSUMERS = {"base-a": "Model A", "base-b": "Model B"}
EXPERIMENT = {
    "id": "skills",
    "title": "Skill transfer",
    "domain": "office",
    "factor": "Skill creator",
    "baseline": "no skill",
    "levels": [{"id": level, "title": level.upper()} for level in LEVELS],
    "sources": SOURCES,
    "targets": TARGETS,
}
VIEW = {"kind": "transfer", "id": "transfer", "title": "Skill transfer", "experiment": "skills"}


def treatment_id(level: str, consumer: str) -> str:
    return f"{consumer}-{level}"


def passed(combo: str, tid: str, index: int) -> int:
    """Rule items (of 2) the run passes: varied by combination, task and run."""
    return (sum(map(ord, combo)) * index + sum(map(ord, tid)) * (index + 1)) % 3


def experiment_release(experiment: dict[str, Any] | None = None, **extra: Any) -> Release:
    data = release(groups={"public": 7, "held_out": 5, "min_held_out_aggregate": 5}).model_dump(
        mode="json", exclude_none=True
    )
    data["profile"] = {"experiments": [experiment or EXPERIMENT], "views": [VIEW]}
    data.update(extra)
    return Release.model_validate(data)


def tasks() -> list[dict[str, Any]]:
    return [
        *(task(t) for t in (*SOURCES, *PUBLIC_TARGETS, *OTHER)),
        *(task(t, group="held-out") for t in HELD_TARGETS),
        task("e1", "erp", "x"),  # the other domain's task: every domain has one
    ]


def make_bundle(combo: str, model: str, level: str | None = None, **extra: Any) -> Bundle:
    """A bundle on :data:`pagetools.CARD` driving ``model``; a treatment at ``level``."""
    from builders import bundle

    data = bundle(combo).model_dump(mode="json", exclude_none=True)
    data["combination"]["harnesscard"] = CARD.id
    data["combination"]["harness_mode"] = "fast"
    data["combination"]["model"]["name"] = model
    data["combination"]["title"] = f"Card × {model}"
    if level is not None:
        data["condition"] = {"experiment": "skills", "level": level}
    return Bundle.model_validate({**data, **extra})


def runs_of(combo: str, tids: list[str]) -> list[RunRecord]:
    out = []
    for t in tids:
        for i in (1, 2):
            n = passed(combo, t, i)
            out.append(run(t, i, passed=n, failure=None if n == 2 else "wrong"))
    return out


def experiment_inputs() -> tuple[dict[str, list[RunRecord]], dict[str, Bundle]]:
    """Each combination's run records and bundle: baselines run every task, each treatment
    the targets only."""
    every = [t["id"] for t in tasks()]
    runs: dict[str, list[RunRecord]] = {}
    bundles: dict[str, Bundle] = {}
    for consumer, model in CONSUMERS.items():
        runs[consumer] = runs_of(consumer, every)
        bundles[consumer] = make_bundle(consumer, model)
        for level in LEVELS:
            combo = treatment_id(level, consumer)
            runs[combo] = runs_of(combo, TARGETS)
            bundles[combo] = make_bundle(combo, model, level)
    return runs, bundles


def experiment_version(
    rel: Release | None = None,
    inputs: tuple[dict[str, list[RunRecord]], dict[str, Bundle]] | None = None,
) -> LoadedRelease:
    """The version of :func:`experiment_inputs` (or of ``inputs``)."""
    runs, bundles = inputs or experiment_inputs()
    return version(rel or experiment_release(), catalog(tasks()), runs, bundles)


def task_mean(combo: str, tid: str) -> float:
    """The Task Score of a rule-only task of two items, averaged over its two runs."""
    return sum(passed(combo, tid, i) / 2 for i in (1, 2)) / 2


def expected_change(level: str, consumer: str, tids: list[str]) -> float:
    treated = treatment_id(level, consumer)
    return sum(task_mean(treated, t) - task_mean(consumer, t) for t in tids) / len(tids)


def cards() -> dict[str, Loaded[HarnessCard]]:
    return {CARD.id: Loaded(CARD, Source("card.yaml"))}


def write_root(
    root: Path,
    rel: Release | None = None,
    inputs: tuple[dict[str, list[RunRecord]], dict[str, Bundle]] | None = None,
) -> Path:
    """The version as input files under ``root`` (results/ and harnesscards/), for the
    checks' file locations, the build and the browser."""
    runs, bundles = inputs or experiment_inputs()
    rel = rel or experiment_release()
    folder = root / "results" / rel.version
    (root / "harnesscards").mkdir(parents=True, exist_ok=True)
    card = FIXTURES / "harnesscard" / "valid-mixed.yaml"
    (root / "harnesscards" / f"{CARD.id}.yaml").write_text(card.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "release.yaml").write_text(_yaml(rel), encoding="utf-8")
    (folder / "tasks.yaml").write_text(_yaml(catalog(tasks())), encoding="utf-8")
    for combo, b in bundles.items():
        where = folder / "bundles" / combo
        where.mkdir(parents=True, exist_ok=True)
        (where / "bundle.yaml").write_text(_yaml(b), encoding="utf-8")
        lines = [json.dumps({"format_version": 1})]
        lines += [json.dumps(r.model_dump(mode="json", exclude_none=True)) for r in runs[combo]]
        (where / "runs.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def _yaml(model: BaseModel) -> str:
    data = model.model_dump(mode="json", exclude_none=True, by_alias=True)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
