#!/usr/bin/env python3
"""A black-box search for held-out figures derivable from published reports (§4.4, §7.2).

    python bench/leak_search.py [--root examples/enterpriseclawbench] [--version v1.0]
        [--domain workplace] [--combination NAME] [--seed 0]

Cost: per combination and domain, one report per move, about (rank per task + 2) moves per
held-out task (Lingee v1.1: 12 + 2 for each of 6 tasks, 86 reports, 17-33 s on two cores;
the EnterpriseClawBench-shaped example: 24 held-out tasks at ~11 s a report, an hour or
more per combination without the memo of the gate's answers, ``bench/gate_memo.py``, which
gives the gate's own answers and computes only offers it has not seen).

It does not use the privacy gate's model of figures. It edits the run records of held-out
tasks in one combination at a time (a combination's figures rest on its own runs only) and
rebuilds the domain's report (``build_report``). Column j of the matrix ``M`` is the change
of every published point figure under move j, labelled by the one held-out task it edited.
A combination of published numbers that moves only under edits of a task set ``U`` is a
figure of ``U`` alone; it exists exactly when ``rank(M) > rank(M without U's columns)``.
Every task set smaller than ``groups.min_held_out_aggregate`` is tried.

Only point figures are read (values, rates, counts, means, failure-type counts, ...): they
are linear in per-task statistics as long as no edit changes a run's validity, and no edit
does (``status`` is never touched). Interval ends, ranks and flags are not linear and are
left out. Each task's moves are random compound edits of its valid runs, added until two in
a row add no rank to that task's columns: its columns then span every change its runs can
make — but two idle moves can still miss a direction (a failure type the task has not yet
failed with; every type is now tried first), so a rank drop is only a candidate. A found set
is checked twice more: a further edit inside it must move the witness combination, and
edits of every other held-out task must not (one that does refutes the set; its edits join
``M`` and the search runs again, ``ROUNDS`` times at most).

The gate's decisions may rest on the data (e.g. which held-out runs are zeroed). A move that
withholds a number published in the base is not used (its change is unknown) and the number
is printed: then the moves of that task span only the data under which the base's numbers
are published, and a set found is exposed given that what is published is published (the
withheld-or-shown pattern is itself information about the held-out tasks).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gate_memo import memoized_gate
from leak_edits import (
    COUNTS,
    ROOT,
    Edit,
    Record,
    Release,
    failure_types,
    judged_if_due,
    kinds,
    levels,
    load,
    published,
    step,
)

from generator.load.tree import LoadedRelease

#: Relative size under which a singular value counts as zero.
TOLERANCE = 1e-9
#: Dense edits of each task outside a confirmed set before the set stands. A dense edit can
#: leave a direction where it was: claude-code-haiku-4.5's search kept {kpi-dashboard,
#: market-sizing, usage-dashboard} for 2·Σ(placeholders − file-type) over the held-out
#: spreadsheet tasks, as neither of two dense edits of log-parser changed its two items'
#: shares apart (each does so with probability 5/8 there); one edit of log-parser's
#: placeholders item moved it (−2 → −3). Six tries miss such a direction with probability
#: 0.375⁶ ≈ 0.3 %.
TRIES = 6
#: Searches of ``M`` at most, each after the edits that refuted a set joined it.
ROUNDS = 6

# --- the search --------------------------------------------------------------------------


def rank(matrix: np.ndarray) -> int:
    if matrix.size == 0:
        return 0
    values = np.linalg.svd(matrix, compute_uv=False)
    return int((values > TOLERANCE * max(1e-300, float(values[0]))).sum()) if values[0] else 0


@dataclass
class Exposure:
    tasks: frozenset[str]
    combination: dict[str, float]  # published number → coefficient
    confirmed: bool = False
    evidence: str = ""

    def __str__(self) -> str:
        terms = " ".join(f"{c:+.6g}·[{k}]" for k, c in self.combination.items())
        state = "confirmed" if self.confirmed else "NOT confirmed"
        return f"{state}: tasks {sorted(self.tasks)} ← {terms}\n    {self.evidence}"


@dataclass
class Search:
    """The changes of one domain's point figures under moves of one combination's runs."""

    release: Release
    domain: str
    combo: str
    rng: random.Random
    base: dict[str, float] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)  # the task each column edited
    deltas: list[dict[str, float]] = field(default_factory=list)
    withheld: int = 0  # moves not used: they withheld a number published in the base
    shown: int = 0  # moves that showed a number withheld in the base
    withheld_paths: set[str] = field(default_factory=set)  # the numbers they withheld
    reports: int = 0
    kinds: dict[str, Edit] = field(default_factory=dict)
    top: dict[tuple[str, str], int] = field(default_factory=dict)  # Judge items' top levels
    targets: dict[str, list[int]] = field(default_factory=dict)  # success counts to come
    turns: dict[str, int] = field(default_factory=dict)  # moves made per task
    failed: dict[str, int] = field(default_factory=dict)  # failures made per task
    types: list[str] = field(default_factory=list)  # the failure types a move cycles through

    only: Callable[[str], bool] = lambda path: True  # the published numbers read

    def __post_init__(self) -> None:
        self.kinds = kinds(self.release)
        self.top = levels(self.release)[0]
        self.types = failure_types(self.release)
        self.base = self._published(self.release.version)
        self.reports += 1

    def move(self, task: str) -> dict[str, list[Record]]:
        """A compound move of ``task``'s valid runs in this combination: three random edits
        of each (items, levels, tokens, duration, turns, measures), then a number of them
        made successes and the others failures (the number cycling through 0..runs, so that
        every count of successes, on which reliability@k rests, is reached)."""
        records = json.loads(json.dumps(self.release.records[self.combo]))
        runs = [r for r in records if r["task"] == task and r.get("status") == "valid"]
        if not self.targets.get(task):
            self.targets[task] = self.rng.sample(range(len(runs) + 1), len(runs) + 1)
        target = self.targets[task].pop()
        free = sorted(k for k in self.kinds if k not in ("succeed", "fail", "rated"))
        for r in runs:
            for kind in self.rng.sample(free, 3):
                self.kinds[kind](r, self.rng)
        self.turns[task] = self.turns.get(task, 0) + 1
        for i, r in enumerate(self.rng.sample(runs, len(runs))):
            self.kinds["succeed" if i < target else "fail"](r, self.rng)
            if i >= target and self.types:  # every failure type in turn, not by chance
                failed = self.failed.get(task, 0)
                self.failed[task] = failed + 1
                r["failure_type"] = self.types[failed % len(self.types)]
        for r in runs:
            judged_if_due(r, self.top, self.rng)
        self.release.consistent(self.combo, records, self.types)
        return {self.combo: records, **self.unpublished(task)}

    def unpublished(self, task: str) -> dict[str, list[Record]]:
        """``task``'s runs in every treatment bundle and its second raters' verdicts in every
        bundle, edited densely: values that enter only an experiment's or the agreement's
        figures, pooled over bundles, and that a reader knows no better than this
        combination's own. Held fixed, they made false sets (the first codex-gpt-5.5 search
        kept three: a skill-transfer cell over two targets was, with its treatment known,
        a figure of the baseline's two tasks; the agreement's mean difference, with the
        raters' verdicts known, one of the Judge's)."""
        out = {}
        for folder in sorted(self.release.treatments):
            if self.ran(task, folder):
                out[folder] = self._dense(folder, task)
        for key, verdicts in sorted(self.release.raters.items()):
            if any(v["task"] == task for v in verdicts):
                edited = json.loads(json.dumps(verdicts))
                for v in edited:
                    if v["task"] == task:
                        self.kinds["rated"](v, self.rng)
                out[key] = edited
        return out

    def delta(self, changed: Mapping[str, list[Record]]) -> dict[str, float] | None:
        """The change of every number published in the base; None when the move withheld
        one of them (its change unknown: the move is not used)."""
        after = self._published(self.release.with_records(changed))
        self.reports += 1
        out = {}
        shown = False
        for path in set(after) | set(self.base):
            absent = 0.0 if COUNTS.search(path) else np.nan  # a count absent is 0
            a, b = self.base.get(path, absent), after.get(path, absent)
            if np.isnan(a) and not np.isnan(b):
                shown = True  # not published in the base: not read
            elif not np.isnan(a) and np.isnan(b):
                self.withheld += 1
                self.withheld_paths.add(path)
                return None
            elif not np.isnan(a) and b != a:
                out[path] = b - a
        self.shown += shown
        return out

    def _published(self, version: LoadedRelease) -> dict[str, float]:
        return {p: v for p, v in published(version, self.domain).items() if self.only(p)}

    def span(self, task: str, limit: int = 60) -> int:
        """Moves of ``task`` until two in a row add no rank to its columns; the rank."""
        have, idle = 0, 0
        # at least a failure of each type first: two idle moves in a row can come before
        # a failure type that moves other numbers has been tried on the task
        floor = len(self.types) + 2
        while (idle < 2 or self.turns.get(task, 0) < floor) and limit > 0:
            limit -= 1
            d = self.delta(self.move(task))
            if d is None:
                continue
            self.labels.append(task)
            self.deltas.append(d)
            now = rank(self.matrix(task)[0])
            idle = idle + 1 if now == have else 0
            have = now
        return have

    def matrix(self, task: str | None = None) -> tuple[np.ndarray, list[str]]:
        """``M`` (or its columns of one task), each row scaled to at most 1."""
        cols = [d for d, t in zip(self.deltas, self.labels, strict=True) if task in (None, t)]
        rows = sorted({p for d in self.deltas for p in d})
        index = {p: i for i, p in enumerate(rows)}
        m = np.zeros((len(rows), len(cols)))
        for j, d in enumerate(cols):
            for p, v in d.items():
                m[index[p], j] = v
        if m.size:
            scale = np.abs(m).max(axis=1, keepdims=True)
            m = m / np.where(scale > 0, scale, 1.0)
        return m, rows

    def exposures(self) -> list[Exposure]:
        """Each minimal task set under the minimum on which a combination of published
        numbers is supported, with one such combination and its check."""
        m, rows = self.matrix()
        if not m.size:
            return []
        scale = np.abs(np.array([[self._row_max(p)] for p in rows]))
        _, s, vt = np.linalg.svd(m, full_matrices=False)
        keep = s > TOLERANCE * float(s[0])
        basis = s[keep, None] * vt[keep]  # the row space of m, r × moves
        tasks = sorted(set(self.labels))
        found: list[Exposure] = []
        for size in range(1, min(self.release.minimum - 1, len(tasks)) + 1):
            for chosen in combinations(tasks, size):
                inside = frozenset(chosen)
                if any(f.tasks <= inside for f in found):
                    continue
                outside = np.array([t not in inside for t in self.labels])
                if rank(basis[:, outside]) < basis.shape[0]:
                    y = witness(m, outside)
                    combo = {
                        rows[i]: float(y[i] / scale[i, 0]) for i in np.flatnonzero(np.abs(y) > 1e-9)
                    }
                    found.append(self.check(Exposure(inside, combo)))
        return found

    def _row_max(self, path: str) -> float:
        return max((abs(d.get(path, 0.0)) for d in self.deltas), default=1.0) or 1.0

    def refuted(self, exposure: Exposure, tries: int = TRIES) -> str | None:
        """A task outside the set whose edit moves the combination (its span had missed a
        direction: the set is not exposed), else None. Every such edit joins ``M``.

        The edits are dense (:meth:`dense`): a span's compound moves edit three kinds of one
        random item a run, so a direction can stay unmet (the ClawBench-shaped example's
        first search kept three false sets for a rule item of a fourth task its moves never
        flipped on a failed run); a dense edit meets every direction of the task at once.
        Other ordinary bundles' runs are held fixed, as in every move: a reader who knew
        them exactly would know no less (their own figures are published beside these);
        editing them made the search chase each bundle's own figures (six rounds did not
        end). Such an edit joins ``M`` on the numbers the span moved only."""
        before = sum(c * self.base.get(p, 0.0) for p, c in exposure.combination.items())
        rows = {p for d in self.deltas for p in d}
        for task in self.release.tasks(self.domain):
            if task in exposure.tasks or not self.editable(task):
                continue
            for _ in range(tries):
                d = self.delta(self.dense(task))
                if d is None:
                    continue
                d = {p: v for p, v in d.items() if p in rows}
                self.labels.append(task)
                self.deltas.append(d)
                moved = sum(c * d.get(p, 0.0) for p, c in exposure.combination.items())
                if abs(moved) > 1e-7 * max(1.0, abs(before)):
                    return task
        return None

    def editable(self, task: str) -> bool:
        """Whether any edit of :meth:`dense` applies to ``task``."""
        rated = any(v["task"] == task for vs in self.release.raters.values() for v in vs)
        return rated or any(self.ran(task, f) for f in {self.combo, *self.release.treatments})

    def ran(self, task: str, folder: str | None = None) -> bool:
        """Whether this combination (or the bundle ``folder``) has a valid run of ``task``."""
        runs = self.release.records[folder or self.combo]
        return any(r["task"] == task and r.get("status") == "valid" for r in runs)

    def dense(self, task: str) -> dict[str, list[Record]]:
        """Every item of every valid run of ``task`` flipped, its delivery flipped, a Judge
        verdict given where none was, every Judge level shifted, every measure raised and
        a declared failure type drawn, each with probability 1/2 (success follows the
        engine: a run that succeeds has no type); with :meth:`unpublished`. Without the
        drawn type a run that failed kept its recorded type and a new failure took the
        first declared one, so no dense edit moved the other types' counts: the Lingee
        v1.0 enterprise opencode set, budget-exhausted less semantic-quality over the
        held-out tasks, stood "confirmed" (2026-12-05) because the three rule-only tasks
        outside it failed only with numeric-or-state-error and missing-deliverable."""
        return {self.combo: self._dense(self.combo, task), **self.unpublished(task)}

    def _dense(self, combo: str, task: str) -> list[Record]:
        records: list[Record] = json.loads(json.dumps(self.release.records[combo]))
        for r in records:
            if r["task"] != task or r.get("status") != "valid":
                continue
            if self.rng.random() < 0.5:
                r["delivery"] = not r.get("delivery", True)
            if self.rng.random() < 0.5:
                self.kinds["judge"](r, self.rng)
            for group in ("rules", "fatal"):
                for item in r.get(group) or []:
                    if self.rng.random() < 0.5:
                        item["pass"] = not item["pass"]
            if r.get("judge_valid"):
                for item in r.get("judge") or []:
                    if self.rng.random() < 0.5:
                        item["level"] = step(item["level"], self.top[task, item["id"]], self.rng)
            for kind in ("input_tokens", "output_tokens", "duration_s", "turns", "measure"):
                if self.rng.random() < 0.5:
                    self.kinds[kind](r, self.rng)
            if self.types and self.rng.random() < 0.5:
                r["failure_type"] = self.rng.choice(self.types)
            judged_if_due(r, self.top, self.rng)
        self.release.consistent(combo, records, self.types)
        return records

    def check(self, exposure: Exposure, tries: int = 3) -> Exposure:
        """One further edit inside the set must move the combination."""
        before = sum(c * self.base.get(p, 0.0) for p, c in exposure.combination.items())
        for _ in range(tries):
            task = self.rng.choice(sorted(exposure.tasks))
            d = self.delta(self.move(task))
            if d is None:
                continue
            moved = sum(c * d.get(p, 0.0) for p, c in exposure.combination.items())
            if abs(moved) > 1e-7 * max(1.0, abs(before)):
                exposure.confirmed = True
                exposure.evidence = f"{self.domain}/{self.combo}: {task} edited, moved {moved:+.6g}"
                return exposure
        exposure.evidence = f"{self.domain}/{self.combo}: {tries} edits inside did not move it"
        return exposure


def witness(m: np.ndarray, outside: np.ndarray) -> np.ndarray:
    """Few rows y with yᵀ·m zero on the columns ``outside`` and not inside: greedily the
    heaviest rows of one such y, as few as still leave a rank drop."""
    y = _vanishing(m, outside)
    order = np.argsort(-np.abs(y))
    low, high = 1, len(order)
    while low < high:
        mid = (low + high) // 2
        sub = m[order[:mid]]
        if rank(sub) > rank(sub[:, outside]):
            high = mid
        else:
            low = mid + 1
    out = np.zeros(m.shape[0])
    z = _vanishing(m[order[:low]], outside)
    out[order[:low]] = z / np.abs(z).max()
    return out


def _vanishing(m: np.ndarray, outside: np.ndarray) -> np.ndarray:
    u, s, vt = np.linalg.svd(m, full_matrices=False)
    keep = s > TOLERANCE * float(s[0])
    u, b = u[:, keep], s[keep, None] * vt[keep]  # m = u·b
    left, sv, _ = np.linalg.svd(b[:, outside], full_matrices=True)
    r = int((sv > TOLERANCE * float(s[0])).sum()) if sv.size else 0
    null = left[:, r:]
    if not null.shape[1]:
        return np.zeros(m.shape[0])
    z = null @ np.linalg.svd(null.T @ b[:, ~outside], full_matrices=True)[0][:, 0]
    out: np.ndarray = u @ z
    return out


@dataclass
class Result:
    exposures: list[Exposure]
    reports: int
    ranks: dict[str, int]  # per task, the rank of its columns
    withheld: int  # moves not used, as they withheld a number published in the base
    shown: int  # moves that showed a number withheld in the base
    withheld_paths: set[str]
    seconds: float

    @property
    def confirmed(self) -> list[Exposure]:
        return [e for e in self.exposures if e.confirmed]


def search(
    release: Release,
    domain: str,
    combo: str,
    seed: int = 0,
    only: Callable[[str], bool] = lambda path: True,
) -> Result:
    """Every task set under the minimum that the published point figures of ``domain``
    expose through ``combo``'s runs (those of them that ``only`` keeps: a set exposed by
    some of the numbers is exposed by all of them)."""
    start = time.perf_counter()
    with memoized_gate():
        s = Search(release, domain, combo, random.Random(seed), only=only)
        ranks = {t: s.span(t) for t in release.tasks(domain)}
        for round_ in range(ROUNDS):  # a set an outside edit refutes: its edits join M, again
            found = s.exposures()
            refuted = {str(sorted(e.tasks)): s.refuted(e) for e in found if e.confirmed}
            print(f"{domain}/{combo} round {round_}: {refuted}", file=sys.stderr, flush=True)
            if not any(refuted.values()):
                break
        else:
            raise RuntimeError(f"{domain}/{combo}: sets still refuted after {ROUNDS} rounds")
    return Result(
        found, s.reports, ranks, s.withheld, s.shown, s.withheld_paths, time.perf_counter() - start
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument("--version", default="v1.1")
    parser.add_argument("--domain", action="append", help="default: every domain")
    parser.add_argument("--combination", action="append", help="default: every baseline")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    release = load(args.root, args.version)
    domains = args.domain or sorted(set(release.held_out.values()))
    total = 0
    for domain in domains:
        for combo in args.combination or release.combos:
            r = search(release, domain, combo, args.seed)
            total += len(r.confirmed)
            print(
                f"{domain}/{combo}: {r.reports} reports in {r.seconds:.1f} s, ranks per task "
                f"{sorted(r.ranks.values())}, {r.withheld} moves unused (a number withheld), "
                f"{r.shown} showing a number withheld in the base, "
                f"{len(r.exposures)} sets ({len(r.confirmed)} confirmed)"
            )
            for path in sorted(r.withheld_paths):
                print(f"  withheld by an unused move: {path}")
            for e in r.exposures:
                print(f"  {e}")
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
