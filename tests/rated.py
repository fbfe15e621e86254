"""A small version whose bundles carry second raters, for the tests of rater agreement:
the office domain judged on two channels (text: two weighted items and a judged overall,
one item in a module; visual: one item), public and held-out tasks, and per-record
oracles of each run's channel score written apart from the engine."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from builders import bundle, catalog, release, run, task

from generator.load import Loaded, LoadedBundle, LoadedRelease
from generator.load.raters import LoadedRater
from generator.load.records import columns_from_records
from generator.load.source import Source
from generator.models import Bundle, Catalog, Release, RunRecord
from generator.models.bundle import Rater
from generator.models.runs import RatedRun

CHANNELS = [{"id": "text", "title": "Text"}, {"id": "visual", "title": "Visual"}]
#: (id, channel, weight, G, overall, module) of each Judge item of a rated task.
ITEMS = (
    ("J1", "text", 2.0, 4, False, "m1"),
    ("J2", "text", 1.0, 4, False, None),
    ("J3", "visual", 1.0, 10, False, None),
    ("J4", "text", 1.0, 10, True, None),
)


def rated_release() -> Release:
    """The builders' release (domains office and erp) with a text and a visual Judge
    channel."""
    return release(profile={"channels": CHANNELS})


def judged_task(tid: str, group: str = "public") -> dict[str, Any]:
    """A dual-channel task of the office domain judged by :data:`ITEMS`."""
    data = task(tid, group=group, judge=(4,))
    data["scoring"]["modules"] = [{"id": "m1", "title": "Module"}]
    data["scoring"]["judge_items"] = [
        {"id": i, "title": "j", "max_level": g, "channel": c, "weight": w, "overall": o}
        | ({"module": m} if m else {})
        for i, c, w, g, o, m in ITEMS
    ]
    return data


def judged_run(tid: str, index: int, rng: random.Random, **extra: Any) -> RunRecord:
    """A run with random levels of every item of :data:`ITEMS`."""
    record = run(tid, index, judge=tuple(rng.randint(0, g) for _, _, _, g, _, _ in ITEMS))
    return record.model_copy(update=extra) if extra else record


def rated(record: RunRecord, rng: random.Random, items: tuple[str, ...] = ()) -> RatedRun:
    """A second rater's levels of the record's run: the Judge's, moved at random (of the
    ``items`` only, when given)."""
    tops = {i: g for i, _, _, g, _, _ in ITEMS}
    levels = [
        {"id": v.id, "level": max(0, min(tops[v.id], int(v.level) + rng.randint(-2, 1)))}
        for v in record.judge
        if not items or v.id in items
    ]
    return RatedRun.model_validate({"task": record.task, "run": record.run, "judge": levels})


def rater(rid: str = "humans", kind: str = "human", title: str = "Human experts") -> Rater:
    return Rater.model_validate(
        {"id": rid, "title": title, "kind": kind, "verdicts": f"{rid}.jsonl"}
    )


def with_raters(b: Bundle, *raters: Rater) -> Bundle:
    return b.model_copy(update={"raters": raters})


def loaded_bundle(
    b: Bundle, records: list[RunRecord], raters: dict[str, list[RatedRun]] | None = None
) -> LoadedBundle:
    """The bundle as loaded, its raters' lines numbered from 2 (after the header)."""
    found = tuple(
        LoadedRater(
            r,
            f"bundles/{b.combination.id}/{r.verdicts}",
            tuple((raters or {}).get(r.id, [])),
            tuple(range(2, len((raters or {}).get(r.id, [])) + 2)),
        )
        for r in b.raters
    )
    columns = columns_from_records(records, list(range(2, len(records) + 2)))
    return LoadedBundle(
        b.combination.id,
        Loaded(b, Source(f"bundles/{b.combination.id}/bundle.yaml")),
        columns,
        f"bundles/{b.combination.id}/runs.jsonl",
        True,
        found,
    )


def loaded_version(model: Release, cat: Catalog, bundles: list[LoadedBundle]) -> LoadedRelease:
    return LoadedRelease(
        model.version,
        Loaded(model, Source("release.yaml")),
        Loaded(cat, Source("tasks.yaml")),
        tuple(bundles),
        (),
    )


def rated_version(
    public: int = 6, held: int = 0, seed: int = 3, model: Release | None = None
) -> LoadedRelease:
    """Two bundles, 'a' (rated by humans and a second judge) and 'b' (by humans), over
    ``public`` public and ``held`` held-out rated tasks, two runs each, every run rated."""
    rng = random.Random(seed)
    tasks = [judged_task(f"t{i}") for i in range(public)]
    tasks += [judged_task(f"h{i}", "held-out") for i in range(held)]
    cat = catalog(tasks)
    bundles = []
    for combo, names in (("a", ("humans", "judge2")), ("b", ("humans",))):
        records = [judged_run(t["id"], i, rng) for t in tasks for i in (1, 2)]
        raters = [
            rater("humans") if n == "humans" else rater(n, "judge", "Second judge") for n in names
        ]
        lines = {n: [rated(r, rng) for r in records] for n in names}
        bundles.append(loaded_bundle(with_raters(bundle(combo), *raters), records, lines))
    return loaded_version(model or rated_release(), cat, bundles)


def channel_score(levels: dict[str, float], channel: str, failed: bool = False) -> float | None:
    """The oracle: a run's channel score from its levels by item id, one item at a time
    (``failed``: module m1 failed, its item at 0); None without an item of the channel."""
    num = den = 0.0
    for item, c, weight, top, overall, module in ITEMS:
        if c != channel or overall or item not in levels:
            continue
        level = 0.0 if failed and module == "m1" else levels[item]
        num += weight * level / top
        den += weight
    return num / den if den else None


def replaced(loaded: LoadedRelease, **bundles: LoadedBundle) -> LoadedRelease:
    """The version with some bundles replaced, by combination id."""
    found = tuple(bundles.get(b.folder, b) for b in loaded.bundles)
    return replace(loaded, bundles=found)
