"""An EnterpriseClawBench-shaped release built in memory, as the loader builds it: the
example's declarations (``examples/enterpriseclawbench``) are the templates, and the run
records and a second rater's verdicts come from arrays of levels and passes.

The release keeps the example's profile (Judge channels text and visual, the Lite and Full
task sets, the skill experiment, rule weight and item weights) without facets or views; its
tasks are ``t000``.. (every one public, Lite the first ``lite``, the channel of a task given
by ``channel_of``), its combinations ``c0``.. on axes of their own (the first two with a
second rater), and ``c0-skill-<level>``, ``c1-skill-<level>`` the experiment's treatments.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from generator.load import Loaded, LoadedBundle, LoadedRelease, load_inputs
from generator.load.raters import LoadedRater
from generator.load.records import columns_from_records
from generator.load.source import Source
from generator.models import Bundle, Catalog, Release, RunRecord
from generator.models.bundle import Rater
from generator.models.runs import RatedRun

TEMPLATE = Path(__file__).resolve().parents[1] / "examples" / "enterpriseclawbench"
DOMAIN = "workplace"
#: What every run record says besides its task, run and verdicts.
FIXED = {"status": "valid", "delivery": True, "judge_valid": True, "input_tokens": 1000}
FIXED |= {"output_tokens": 100, "duration_s": 60.0, "measures": [{"id": "cost_cny", "value": 1.0}]}


@dataclass(frozen=True)
class Parts:
    """The declarations of a simulated release."""

    release: Release
    catalog: Catalog
    bundles: dict[str, Bundle]  # c0.., then the treatments
    rater: Rater
    channel_of: Callable[[int], str]
    items: dict[str, tuple[list[str], list[str]]]  # per channel: rule and Judge item ids
    weights: np.ndarray  # the Judge items' weights, in item order (the same on each channel)
    pass_level: int


def _dump(model: Any) -> dict[str, Any]:
    out: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return out


def parts(
    tasks: int, lite: int, combos: int, targets: int, channel_of: Callable[[int], str], samples: int
) -> Parts:
    """The release, catalog and bundles: ``tasks`` tasks, the first ``lite`` in Lite, the
    last ``targets`` the experiment's targets, ``combos`` combinations, ``samples``
    bootstrap replicates."""
    version = load_inputs(TEMPLATE)[0].releases[0]
    assert version.release is not None
    assert version.catalog is not None
    release, catalog = _dump(version.release.model), _dump(version.catalog.model)
    template: dict[str, dict[str, Any]] = {}
    for task in catalog["tasks"]:
        template.setdefault(task["scoring"]["judge_items"][0]["channel"], task)
    rows = []
    for t in range(tasks):
        task = {k: v for k, v in template[channel_of(t)].items() if k != "facets"}
        task.update(id=f"t{t:03d}", family=f"fam-t{t:03d}", title=f"Task {t}", group="public")
        rows.append({**task, "sets": ["lite", "full"] if t < lite else ["full"]})
    catalog["tasks"] = rows
    catalog["families"] = [{"id": t["family"], "title": t["title"], "domain": DOMAIN} for t in rows]
    release["domains"][0]["facets"] = []
    release["profile"].update(facets=[], views=[])
    release["groups"] = {"public": tasks, "held_out": 0, "min_held_out_aggregate": 4}
    release["statistics"] = {**release.get("statistics", {}), "bootstrap_samples": samples}
    experiment = release["profile"]["experiments"][0]
    experiment.update(sources=["t000", "t001"], targets=[t["id"] for t in rows[-targets:]])
    by_id = {b.bundle.model.combination.id: _dump(b.bundle.model) for b in version.bundles}
    plain, treated = by_id["deepagents-haiku-4.5"], by_id["deepagents-haiku-4.5-skill-gpt-5.5"]
    rater = Rater.model_validate(plain.pop("raters")[0])
    bundles = {}
    for k in range(combos):
        axes = {"harness": f"H{k}", "model": f"M{k}"}
        combination = {**plain["combination"], "id": f"c{k}", "title": f"C{k}", "axes": axes}
        extra = {"raters": [_dump(rater)]} if k < 2 else {}
        bundles[f"c{k}"] = Bundle.model_validate({**plain, "combination": combination, **extra})
        for level in [v["id"] for v in experiment["levels"]] if k < 2 else []:
            name = f"c{k}-skill-{level}"
            condition = {"experiment": experiment["id"], "level": level}
            data = {**treated, "condition": condition}
            bundles[name] = Bundle.model_validate(
                {**data, "combination": {**combination, "id": name, "title": name}}
            )
    scoring = {c: s["scoring"] for c, s in template.items()}
    judge = scoring["text"]["judge_items"]
    return Parts(
        Release.model_validate(release),
        Catalog.model_validate(catalog),
        bundles,
        rater,
        channel_of,
        {
            c: ([i["id"] for i in v["rule_items"]], [i["id"] for i in v["judge_items"]])
            for c, v in scoring.items()
        },
        np.array([i["weight"] for i in judge], dtype=float),
        int(judge[0]["pass_level"]),
    )


def records(p: Parts, tasks: list[int], judge: np.ndarray, rules: np.ndarray) -> list[RunRecord]:
    """Run records of ``tasks``, from Judge levels and rule passes (tasks × runs × items)."""
    out = []
    for i, t in enumerate(tasks):
        rule_ids, judge_ids = p.items[p.channel_of(t)]
        for r in range(judge.shape[1]):
            passed, level = rules[i, r].tolist(), judge[i, r].tolist()
            failure = "hard-rule-failed" if not all(passed) else "below-pass-level"
            record = {
                **FIXED,
                "task": f"t{t:03d}",
                "run": r + 1,
                "seed": r + 1,
                "rules": [{"id": j, "pass": v} for j, v in zip(rule_ids, passed, strict=True)],
                "judge": [{"id": j, "level": v} for j, v in zip(judge_ids, level, strict=True)],
                "failure_type": None if all(passed) and min(level) >= p.pass_level else failure,
            }
            out.append(RunRecord.model_validate(record))
    return out


def rater(p: Parts, tasks: list[int], levels: np.ndarray) -> LoadedRater:
    """The second rater's verdicts on every run of ``tasks`` (levels: tasks × runs × items)."""
    runs = []
    for i, t in enumerate(tasks):
        ids = p.items[p.channel_of(t)][1]
        for r in range(levels.shape[1]):
            judge = [{"id": j, "level": v} for j, v in zip(ids, levels[i, r].tolist(), strict=True)]
            runs.append(
                RatedRun.model_validate({"task": f"t{t:03d}", "run": r + 1, "judge": judge})
            )
    return LoadedRater(p.rater, "second.jsonl", tuple(runs), tuple(range(2, len(runs) + 2)))


def bundle(
    p: Parts, name: str, runs: list[RunRecord], raters: tuple[LoadedRater, ...] = ()
) -> LoadedBundle:
    """A bundle with its runs (and second raters), as the loader builds it."""
    columns = columns_from_records(runs, list(range(2, len(runs) + 2)))
    loaded = Loaded(p.bundles[name], Source("bundle.yaml"))
    return LoadedBundle(name, loaded, columns, "runs.jsonl", raters=raters)


def version(p: Parts, bundles: list[LoadedBundle]) -> LoadedRelease:
    """The release with these bundles."""
    release = Loaded(p.release, Source("release.yaml"))
    return LoadedRelease(
        p.release.version, release, Loaded(p.catalog, Source("tasks.yaml")), tuple(bundles), ()
    )
