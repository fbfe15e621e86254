"""The published point figures of a report, a release whose run records can be edited, and
the kinds of edit of one valid run, for the leak search (bench/leak_search.py)."""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.build import load_checked  # noqa: E402
from generator.load.records import columns_from_records  # noqa: E402
from generator.load.tree import LoadedBundle, LoadedRelease  # noqa: E402
from generator.models.runs import RatedRun, RunRecord  # noqa: E402
from generator.score.frame import build_frame  # noqa: E402
from generator.score.report import build_report  # noqa: E402
from generator.score.runs import score_runs  # noqa: E402

Record = dict[str, Any]
#: Keys of numbers that are not point figures: interval ends and ranks (not linear in the
#: data), the report's settings (constants); and the raters' mean absolute error and ρ, which
#: are not linear either (|e|, ranks): small moves read |e| as linear while no error changes
#: sign, so with the mean difference it looked like a figure of the tasks whose errors lie
#: near zero (codex-sonnet-4.6: campaign-brief, job-descriptions, log-parser), a fact of the
#: data that nothing published says. The gate's case for them is in
#: generator/score/gating_others.py; the mean difference is linear and stays. The task sets'
#: view publishes each combination's rank on either set (``first_rank``, ``second_rank``) and
#: ρ of the two orders (``rho``): ranks of published figures, which say nothing the figures
#: do not, and not linear — an edit that swaps two combinations moves a rank by one, which
#: the search read as a figure of the edited tasks (deepagents-haiku-4.5: three sets, each a
#: difference of two combinations' ranks on the first set).
DROPPED = {
    "low",
    "high",
    "rank",
    "rank_low",
    "rank_high",
    "rank_worst",
    "rank_best",
    "first_rank",
    "second_rank",
    "rho",
    "mae",
    "spearman",
}
#: Numbers read as 0 when their key is absent (counts by failure type or cause); any other
#: number absent is a figure withheld (its object null).
COUNTS = re.compile(r"\.(failure_types|incomplete_causes)\.[^.\[]+$")
#: Fields that name an element of a list (lists matched by identity, not by position).
IDENTITY = ("scope", "combination", "id", "k", "a", "b", "task", "experiment", "name")


# --- published point figures -------------------------------------------------------------


def _identity(item: Mapping[str, Any], index: int) -> str:
    parts = [
        f"{k}={json.dumps(item[k], sort_keys=True)}"
        for k in IDENTITY
        if k in item and isinstance(item[k], (str, int, dict)) and not isinstance(item[k], bool)
    ]
    return ",".join(parts) if parts else str(index)


def flatten(data: Any, path: str, numbers: dict[str, float]) -> None:
    """Every point figure of a report's JSON by path; a withheld one (null) as NaN."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            if key not in DROPPED and key != "settings":
                flatten(value, f"{path}.{key}", numbers)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            name = _identity(value, i) if isinstance(value, Mapping) else str(i)
            flatten(value, f"{path}[{name}]", numbers)
    elif isinstance(data, bool):  # flags are not figures
        return
    elif isinstance(data, (int, float)):
        numbers[path] = float(data)
    elif data is None:
        numbers[path] = float("nan")


def published(version: LoadedRelease, domain: str) -> dict[str, float]:
    numbers: dict[str, float] = {}
    flatten(build_report(version, domain).model_dump(mode="json"), domain, numbers)
    return numbers


# --- a release and its edits -------------------------------------------------------------


@dataclass
class Release:
    """One loaded version and its run records (as JSON objects), editable."""

    version: LoadedRelease
    records: dict[str, list[Record]]
    minimum: int
    held_out: dict[str, str]  # held-out task → its domain
    combos: list[str]  # the published (baseline) combinations
    #: Second raters' verdicts (as JSON objects) by ``folder/rater`` (:func:`rater_key`).
    raters: dict[str, list[Record]] = field(default_factory=dict)
    #: Treatment bundles (a ``condition``): their runs enter an experiment's figures only.
    treatments: frozenset[str] = frozenset()

    def edited(self, change: Callable[[dict[str, list[Record]]], None]) -> Release:
        """This release with its records edited by ``change`` (a new base)."""
        records = json.loads(json.dumps(self.records))
        change(records)
        return replace(self, records=records, version=self.with_records(records))

    def with_records(self, changed: Mapping[str, list[Record]]) -> LoadedRelease:
        """The version with the run records (by folder) and raters' verdicts (by
        :func:`rater_key`) of ``changed`` in place of its own."""
        bundles = []
        for b in self.version.bundles:
            if b.folder in changed:
                records = [RunRecord.model_validate(r) for r in changed[b.folder]]
                columns = columns_from_records(records, list(range(2, len(records) + 2)))
                b = replace(b, runs=columns)
            raters = tuple(
                replace(r, runs=tuple(RatedRun.model_validate(v) for v in changed[key]))
                if (key := rater_key(b.folder, r.rater.id)) in changed
                else r
                for r in b.raters
            )
            bundles.append(replace(b, raters=raters))
        return replace(self.version, bundles=tuple(bundles))

    def consistent(self, combo: str, records: list[Record], types: Sequence[str]) -> None:
        """Give each valid run of ``records`` a failure type exactly when it did not succeed,
        success as the engine decides it (the run checks refuse anything else): an edit
        that passed every item may still leave a Judge level under its pass level, and one
        that failed a Judge item may leave it at its pass level. A failure without a type
        takes the first of ``types``."""
        version = self.with_records({combo: records})
        runs = score_runs(build_frame(version, consented_only=False, treatments=True))
        mine = runs[runs["combination"] == combo]
        succeeded = {
            (str(t), int(n)): bool(s)
            for t, n, s in zip(mine["task"], mine["run"], mine["success"], strict=True)
        }
        for r in records:
            if r.get("status") != "valid":
                continue
            if succeeded.get((str(r["task"]), int(r["run"]))):
                r["failure_type"] = None
            elif not r.get("failure_type"):
                r["failure_type"] = types[0] if types else "missing-deliverable"

    def tasks(self, domain: str) -> list[str]:
        return sorted(t for t, d in self.held_out.items() if d == domain)


def load(root: Path, version: str) -> Release:
    inputs, _ = load_checked(root, strict=False)
    loaded = next(r for r in inputs.releases if r.folder == version)
    assert loaded.release is not None
    assert loaded.catalog is not None
    records = {}
    for b in loaded.bundles:
        path = root / "results" / version / "bundles" / b.folder / "runs.jsonl"
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
        records[b.folder] = [json.loads(line) for line in lines if line.strip()]
    held = {t.id: t.domain for t in loaded.catalog.model.tasks if t.group == "held-out"}
    combos = [b.folder for b in loaded.bundles if _baseline(b)]
    minimum = loaded.release.model.groups.min_held_out_aggregate
    raters = {
        rater_key(b.folder, r.rater.id): [v.model_dump(mode="json") for v in r.runs]
        for b in loaded.bundles
        for r in b.raters
    }
    treatments = frozenset(b.folder for b in loaded.bundles if b.bundle.model.condition)
    return Release(loaded, records, minimum, held, combos, raters, treatments)


def rater_key(folder: str, rater: str) -> str:
    """The key of a bundle's rater's verdicts among a release's records (a folder name has
    no ``/``)."""
    return f"{folder}/{rater}"


def _baseline(b: LoadedBundle) -> bool:
    return b.bundle.model.condition is None and b.bundle.model.consent.granted


# --- edits of one valid run (never its status) ---------------------------------------------

Edit = Callable[[Record, random.Random], bool]  # in place; False when it does not apply


def _flip(field_name: str) -> Edit:
    def edit(r: Record, rng: random.Random) -> bool:
        items = r.get(field_name) or []
        if not items:
            return False
        item = rng.choice(items)
        item["pass"] = not item["pass"]
        return True

    return edit


def step(level: int, most: int, rng: random.Random) -> int:
    """``level`` moved one step within 0..``most``, up or down at random where both are
    possible. Moves of one direction only kept every rater error of a task on its side of
    zero, and a sum of one sign's errors then looked like a figure of the only task with
    errors of that sign (codex-sonnet-4.6's first search); a reader knows the signs no
    better than the levels."""
    if most <= 0:
        return level
    if level <= 0:
        return level + 1
    if level >= most:
        return level - 1
    return level + rng.choice((-1, 1))


def _level(top: Mapping[tuple[str, str], int]) -> Edit:
    """One Judge level of a judged run moved one step (:func:`step`)."""

    def edit(r: Record, rng: random.Random) -> bool:
        judge = r.get("judge") or []
        if not judge or not r.get("judge_valid"):
            return False
        item = rng.choice(judge)
        item["level"] = step(item["level"], top[r["task"], item["id"]], rng)
        return True

    return edit


def _succeed(top: Mapping[tuple[str, str], int]) -> Edit:
    """The run made a success: delivered, every item passed, every Judge level at its
    declared top (a success is rare under random edits, and reliability@k needs them)."""

    def edit(r: Record, rng: random.Random) -> bool:
        r["delivery"] = True
        for item in (r.get("rules") or []) + (r.get("fatal") or []):
            item["pass"] = True
        judged(r, top, rng)
        for item in r.get("judge") or []:
            item["level"] = top[r["task"], item["id"]]
        r["failure_type"] = None
        return True

    return edit


def judged(r: Record, top: Mapping[tuple[str, str], int], rng: random.Random) -> None:
    """A run its Judge did not score (a zeroed run never judged) given a Judge verdict on
    every declared item of its task, at random levels: whether a held-out run was judged is
    held-out data too, and an edit model that keeps it fixed keeps such a task's success
    (and reliability@k) fixed — a false exposure of the other tasks of a figure."""
    items = sorted(i for t, i in top if t == r["task"])
    if r.get("judge_valid") or not items:
        return
    r["judge_valid"] = True
    r["judge"] = [{"id": i, "level": rng.randrange(top[r["task"], i] + 1)} for i in items]


def judged_if_due(r: Record, top: Mapping[tuple[str, str], int], rng: random.Random) -> None:
    """A valid run of a task with Judge items that is not zeroed (delivered, no fatal item
    failed) given a Judge verdict if it has none (:func:`judged`): the run checks refuse it
    without one (evaluation-incomplete). Dense edits that delivered a zeroed run its Judge
    never scored, or passed its failed fatal item, made such runs, and an edit no valid
    release allows could refute a set (measured in bench/README, "Dense edits stay valid
    input")."""
    zeroed = not r.get("delivery", True) or any(not i["pass"] for i in r.get("fatal") or [])
    if r.get("status") == "valid" and not zeroed:
        judged(r, top, rng)


def _judge(top: Mapping[tuple[str, str], int]) -> Edit:
    """The edit :func:`judged` makes, as an :data:`Edit`."""

    def edit(r: Record, rng: random.Random) -> bool:
        judged(r, top, rng)
        return True

    return edit


def _rated(top: Mapping[tuple[str, str], int]) -> Edit:
    """A second rater's verdict (``task``, ``run``, ``judge`` levels): each level moved one
    step (:func:`step`) with probability 1/2."""

    def edit(r: Record, rng: random.Random) -> bool:
        for item in r["judge"]:
            if rng.random() < 0.5:
                item["level"] = step(item["level"], top[r["task"], item["id"]], rng)
        return True

    return edit


def _fail(passing: Mapping[tuple[str, str], int], types: Sequence[str]) -> Edit:
    """The run made a failure by one of: a rule item failed, a fatal item failed, delivery
    failed while the verdicts stay (a zeroed run), a Judge level under its pass level; then
    a random failure type."""

    def edit(r: Record, rng: random.Random) -> bool:
        ways = ["zeroed"] + [k for k in ("rules", "fatal") if r.get(k)]
        if r.get("judge_valid") and r.get("judge"):
            ways.append("judge")
        way = rng.choice(ways)
        if way == "zeroed":
            r["delivery"] = False
        elif way == "judge":
            item = rng.choice(r["judge"])
            item["level"] = rng.randrange(passing[r["task"], item["id"]])
        else:
            rng.choice(r[way])["pass"] = False
        r["failure_type"] = rng.choice(types) if types else "missing-deliverable"
        return True

    return edit


def _add(name: str, amount: float) -> Edit:
    def edit(r: Record, rng: random.Random) -> bool:
        if r.get(name) is None:
            return False
        step = rng.choice((1, 2, 3)) * amount
        r[name] = r[name] + (int(step) if isinstance(r[name], int) else step)
        return True

    return edit


def _measure(r: Record, rng: random.Random) -> bool:
    measures = r.get("measures") or []
    if not measures:
        return False
    rng.choice(measures)["value"] += rng.choice((0.25, 0.5, 1.0))
    return True


def failure_types(release: Release) -> list[str]:
    """The failure types the release declares (else those its runs record)."""
    assert release.version.release is not None
    declared = [f.id for f in release.version.release.model.enumerations.failure_types]
    recorded = {r.get("failure_type") for rs in release.records.values() for r in rs}
    return declared or sorted(t for t in recorded if t)


def levels(release: Release) -> tuple[dict[tuple[str, str], int], dict[tuple[str, str], int]]:
    """Each Judge item's top level and passing level, by (task, item)."""
    catalog = release.version.catalog
    assert catalog is not None
    top: dict[tuple[str, str], int] = {}
    passing: dict[tuple[str, str], int] = {}
    for task in catalog.model.tasks:
        for item in task.scoring.judge_items:
            top[task.id, item.id] = item.max_level
            passing[task.id, item.id] = item.passing_level
    return top, passing


def kinds(release: Release) -> dict[str, Edit]:
    """The kinds of edit tried on one run, by name."""
    types = failure_types(release)
    top, passing = levels(release)
    return {
        "judge": _judge(top),
        "rated": _rated(top),
        "succeed": _succeed(top),
        "fail": _fail(passing, types),
        "rule": _flip("rules"),
        "fatal": _flip("fatal"),
        "level": _level(top),
        "input_tokens": _add("input_tokens", 1000),
        "output_tokens": _add("output_tokens", 100),
        "duration_s": _add("duration_s", 7.5),
        "turns": _add("turns", 1),
        "measure": _measure,
    }
