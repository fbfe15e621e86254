"""A black-box search for held-out figures derivable from published reports (§4.4, §7.2).

It does not use the privacy gate's model of figures. It edits the run records of held-out
tasks (a rule item's verdict, a Judge level, a zeroed run that keeps its verdicts, tokens,
duration, turns, a measure, a failure type), rebuilds every report of the version, and
records how every published number moved. Column j of the matrix ``M`` is the change of all
published numbers under edit j, labelled by the held-out tasks it touched. A combination of
published numbers that moves only under edits of a task set ``U`` is a figure of ``U``
alone; it exists exactly when ``rank(M) > rank(M without U's columns)``. Every task set
smaller than the release's ``groups.min_held_out_aggregate`` is tried.

Intervals are not linear in the data, so a rank drop is a candidate only: it is confirmed
by an edit of other held-out tasks (and of other combinations) that leaves the combination
unchanged while an edit inside ``U`` moves it. An edit that moves it refutes the
candidate and joins ``M`` as a further column, and the search runs again.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from generator.build import load_checked
from generator.load.records import columns_from_records
from generator.load.tree import LoadedBundle, LoadedRelease
from generator.models.runs import RunRecord
from generator.score.report import build_report

Record = dict[str, Any]
#: Relative size under which a singular value, or a change, counts as zero.
TOLERANCE = 1e-8
#: Fields that name an element of a list in a report (so that lists are matched by identity
#: and not by position, which a changed ranking would reorder).
IDENTITY = (
    "scope",
    "combination",
    "id",
    "k",
    "a",
    "b",
    "task",
    "task_set",
    "experiment",
    "treatment",
    "baseline",
    "facet",
    "view",
    "rater",
    "channel",
    "dimension",
    "metric",
    "name",
    "label",
)


# --- published numbers -------------------------------------------------------------------


def _identity(item: Mapping[str, Any], index: int) -> str:
    parts = [
        f"{k}={json.dumps(item[k], sort_keys=True)}"
        for k in IDENTITY
        if k in item and isinstance(item[k], (str, int, dict)) and not isinstance(item[k], bool)
    ]
    return ",".join(parts) if parts else str(index)


def flatten(data: Any, path: str, numbers: dict[str, float], texts: dict[str, str]) -> None:
    """Every number (bools as 0/1, null as NaN) and every text of a report's JSON, by path."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            flatten(value, f"{path}.{key}", numbers, texts)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            name = _identity(value, i) if isinstance(value, Mapping) else str(i)
            flatten(value, f"{path}[{name}]", numbers, texts)
    elif isinstance(data, (bool, int, float)):  # bools as 0/1
        numbers[path] = float(data)
    elif data is None:
        numbers[path] = float("nan")
    else:
        texts[path] = str(data)


@dataclass(frozen=True)
class Published:
    """Every number and text of the reports of the domains searched."""

    numbers: dict[str, float]
    texts: dict[str, str]


def published(version: LoadedRelease, domains: Sequence[str]) -> Published:
    numbers: dict[str, float] = {}
    texts: dict[str, str] = {}
    for domain in domains:
        report = build_report(version, domain)
        flatten(report.model_dump(mode="json"), domain, numbers, texts)
    return Published(numbers, texts)


# --- a release and its edits -------------------------------------------------------------


@dataclass
class Release:
    """One loaded version and its run records (as JSON objects), editable."""

    version: LoadedRelease
    records: dict[str, list[Record]]
    minimum: int
    held_out: dict[str, str]  # held-out task → its domain
    combos: list[str]  # the published (baseline) combinations

    def edited(self, change: Callable[[dict[str, list[Record]]], None]) -> Release:
        """This release with its records edited in place by ``change`` (a new base)."""
        records = json.loads(json.dumps(self.records))
        change(records)
        out = replace(self, records=records)
        out.version = self.with_records(records)
        return out

    def with_records(self, changed: Mapping[str, list[Record]]) -> LoadedRelease:
        bundles = []
        for b in self.version.bundles:
            if b.folder in changed:
                records = [RunRecord.model_validate(r) for r in changed[b.folder]]
                columns = columns_from_records(records, list(range(2, len(records) + 2)))
                b = replace(b, runs=columns)
            bundles.append(b)
        return replace(self.version, bundles=tuple(bundles))


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
    return Release(
        loaded, records, loaded.release.model.groups.min_held_out_aggregate, held, combos
    )


def _baseline(b: LoadedBundle) -> bool:
    return b.bundle.model.condition is None and b.bundle.model.consent.granted


# --- edits of one run ----------------------------------------------------------------------

Edit = Callable[[Record], bool]  # edits one record in place; False when it does not apply


def flip_rule(index: int) -> Edit:
    def edit(r: Record) -> bool:
        rules = r.get("rules") or []
        if index >= len(rules):
            return False
        rules[index]["pass"] = not rules[index]["pass"]
        return True

    return edit


def shift_level(index: int) -> Edit:
    def edit(r: Record) -> bool:
        judge = r.get("judge") or []
        if index >= len(judge) or not r.get("judge_valid"):
            return False
        level = judge[index]["level"]
        judge[index]["level"] = level - 1 if level >= 1 else level + 1
        return True

    return edit


def both(first: Edit, second: Edit) -> Edit:
    """Two edits of the same run; applies when either does."""

    def edit(r: Record) -> bool:
        done = first(r)
        return second(r) or done

    return edit


def zero_run(r: Record) -> bool:
    """Delivery failed while the verdicts stay as recorded (§4.3: a zeroed run)."""
    if r.get("status") != "valid":
        return False
    r["delivery"] = not r["delivery"]
    if not r["delivery"] and not r.get("failure_type"):
        r["failure_type"] = "missing-deliverable"
    return True


def add(name: str, amount: float) -> Edit:
    def edit(r: Record) -> bool:
        if r.get(name) is None:
            return False
        r[name] = r[name] + (int(amount) if isinstance(r[name], int) else amount)
        return True

    return edit


def add_measure(amount: float) -> Edit:
    def edit(r: Record) -> bool:
        measures = r.get("measures") or []
        if not measures:
            return False
        measures[0]["value"] = measures[0]["value"] + amount
        return True

    return edit


def retype(types: Sequence[str]) -> Edit:
    def edit(r: Record) -> bool:
        now = r.get("failure_type")
        if now is None or len(types) < 2:
            return False
        r["failure_type"] = types[(types.index(now) + 1) % len(types)] if now in types else types[0]
        return True

    return edit


def edits(failure_types: Sequence[str], rules: int = 2, levels: int = 5) -> dict[str, Edit]:
    """The kinds of edit tried on one run, by name."""
    out: dict[str, Edit] = {f"rule{i}": flip_rule(i) for i in range(rules)}
    out.update({f"level{i}": shift_level(i) for i in range(levels)})
    out["rule0+level0"] = both(flip_rule(0), shift_level(0))
    out["zeroed"] = zero_run
    out["input_tokens"] = add("input_tokens", 1000)
    out["output_tokens"] = add("output_tokens", 100)
    out["duration_s"] = add("duration_s", 7.5)
    out["turns"] = add("turns", 1)
    out["measure"] = add_measure(0.25)
    out["failure_type"] = retype(failure_types)
    return out


@dataclass(frozen=True)
class Move:
    """One or more edits of held-out tasks' runs: what a column of ``M`` did."""

    name: str
    parts: tuple[tuple[str, str, int, str], ...]  # (combination, task, run index, edit)

    @property
    def tasks(self) -> frozenset[str]:
        return frozenset(p[1] for p in self.parts)


def apply(
    release: Release, move: Move, kinds: Mapping[str, Edit]
) -> dict[str, list[Record]] | None:
    changed: dict[str, list[Record]] = {}
    for combo, task, run, kind in move.parts:
        records = changed.setdefault(combo, json.loads(json.dumps(release.records[combo])))
        runs = [r for r in records if r["task"] == task and r.get("status") == "valid"]
        if run >= len(runs) or not kinds[kind](runs[run]):
            return None
    return changed


# --- the search --------------------------------------------------------------------------


def _rank(matrix: np.ndarray) -> int:
    if matrix.size == 0:
        return 0
    values = np.linalg.svd(matrix, compute_uv=False)
    return int((values > TOLERANCE * max(1.0, float(values[0]))).sum())


def _vanishing(m: np.ndarray, outside: np.ndarray) -> np.ndarray:
    """A combination y of the rows of ``m`` with yᵀ·m zero on the columns ``outside`` and
    nonzero elsewhere (the zero vector when there is none)."""
    u, s, vt = np.linalg.svd(m, full_matrices=False)
    keep = s > TOLERANCE * max(1.0, float(s[0]) if len(s) else 1.0)
    u, b = u[:, keep], s[keep, None] * vt[keep]  # m = u·b, u orthonormal
    # z with zᵀ·b zero outside: the left null space of b's outside columns
    left, sv, _ = np.linalg.svd(b[:, outside], full_matrices=True)
    rank = int((sv > TOLERANCE * max(1.0, float(sv[0]) if len(sv) else 1.0)).sum())
    null = left[:, rank:]
    if not null.shape[1]:
        return np.zeros(m.shape[0])
    moved = null.T @ b[:, ~outside]
    z = null @ np.linalg.svd(moved, full_matrices=True)[0][:, 0]
    out: np.ndarray = u @ z
    return out


@dataclass
class Exposure:
    tasks: frozenset[str]
    combination: dict[str, float]  # published number → coefficient
    confirmed: bool = False
    evidence: str = ""

    def __str__(self) -> str:
        terms = " ".join(f"{c:+.6g}·[{k}]" for k, c in self.combination.items())
        state = "CONFIRMED" if self.confirmed else "unconfirmed"
        return f"{state}: tasks {sorted(self.tasks)} ← {terms}\n    {self.evidence}"


@dataclass
class Search:
    """The matrix of changes of published numbers and the moves behind its columns."""

    release: Release
    domains: list[str]
    kinds: Mapping[str, Edit]
    base: Published
    moves: list[Move] = field(default_factory=list)
    deltas: list[dict[str, float]] = field(default_factory=list)
    text_changes: dict[str, set[str]] = field(default_factory=dict)  # path → moves
    reports: int = 0

    @classmethod
    def start(cls, release: Release, domains: Sequence[str]) -> Search:
        types = sorted(
            {
                r["failure_type"]
                for rs in release.records.values()
                for r in rs
                if r.get("failure_type")
            }
        )
        base = published(release.version, domains)
        return cls(release, list(domains), edits(types), base, reports=1)

    def delta(self, move: Move) -> dict[str, float] | None:
        after = self._after(move)
        if after is None:
            return None
        for path in set(after.texts) | set(self.base.texts):
            if after.texts.get(path) != self.base.texts.get(path):
                self.text_changes.setdefault(path, set()).add(move.name)
        out = {}
        for path in set(after.numbers) | set(self.base.numbers):
            a, b = self.base.numbers.get(path, np.nan), after.numbers.get(path, np.nan)
            if np.isnan(a) and np.isnan(b):
                continue
            if np.isnan(a) != np.isnan(b):
                self.text_changes.setdefault(path, set()).add(move.name)  # shown ↔ withheld
                continue
            if b != a:
                out[path] = b - a
        return out

    def add(self, move: Move) -> bool:
        d = self.delta(move)
        if d is None:
            return False
        self.moves.append(move)
        self.deltas.append(d)
        return True

    def matrix(self) -> tuple[np.ndarray, list[str]]:
        rows = sorted({p for d in self.deltas for p in d})
        index = {p: i for i, p in enumerate(rows)}
        m = np.zeros((len(rows), len(self.deltas)))
        for j, d in enumerate(self.deltas):
            for p, v in d.items():
                m[index[p], j] = v
        return m, rows

    def candidates(self) -> list[Exposure]:
        """Each minimal task set under the minimum on which a combination of published
        numbers is supported, with one such combination (few numbers)."""
        m, rows = self.matrix()
        if not m.size:
            return []
        scale = np.abs(m).max(axis=1, keepdims=True)
        m = m / np.where(scale > 0, scale, 1.0)
        m = m / np.maximum(np.abs(m).max(axis=0, keepdims=True), 1e-300)
        _, s, vt = np.linalg.svd(m, full_matrices=False)
        keep = s > TOLERANCE * max(1.0, float(s[0]))
        basis = s[keep, None] * vt[keep]  # the row space of m, r × moves
        labels = [mv.tasks for mv in self.moves]
        tasks = sorted(set().union(*labels))
        found: list[frozenset[str]] = []
        for size in range(1, min(self.release.minimum - 1, len(tasks)) + 1):
            for chosen in combinations(tasks, size):
                inside = frozenset(chosen)
                if any(f <= inside for f in found):
                    continue
                outside = [not (lab <= inside) for lab in labels]
                if _rank(basis[:, outside]) < basis.shape[0]:
                    found.append(inside)
        out = []
        for inside in found:
            outside = np.array([not (lab <= inside) for lab in labels])
            out.append(Exposure(inside, self._witness(m, scale[:, 0], rows, outside)))
        return out

    @staticmethod
    def _witness(
        m: np.ndarray, scale: np.ndarray, rows: list[str], outside: np.ndarray
    ) -> dict[str, float]:
        """A combination of few published numbers that vanishes on the moves outside."""
        y = _vanishing(m, outside)
        # fewest rows: the heaviest rows of y, as few as still expose the set on their own
        order = np.argsort(-np.abs(y))
        low, high = 1, len(order)
        while low < high:
            mid = (low + high) // 2
            sub = m[order[:mid]]
            if _rank(sub) > _rank(sub[:, outside]):
                high = mid
            else:
                low = mid + 1
        part = order[:low]
        z = _vanishing(m[part], outside)
        z = z / np.abs(z).max()
        return {
            rows[int(i)]: float(c / scale[int(i)])
            for i, c in zip(part, z, strict=True)
            if abs(c) > 1e-9
        }

    def value(self, numbers: Mapping[str, float], combination: Mapping[str, float]) -> float:
        return float(sum(c * numbers.get(p, np.nan) for p, c in combination.items()))

    def confirm(self, exposure: Exposure, rng: random.Random, tries: int = 3) -> Move | None:
        """Confirm an exposure: edits outside its tasks leave its combination unchanged, an
        edit inside moves it. Returns the refuting move (outside, moving it), if any."""
        base = self.value(self.base.numbers, exposure.combination)
        size = max(abs(c * self.base.numbers.get(p, 0.0)) for p, c in exposure.combination.items())
        tol = 1e-9 * max(1.0, size)
        others = [
            t for t in self.release.held_out if t not in exposure.tasks and self._domain_ok(t)
        ]
        for _ in range(tries):
            move = self.random_move(rng, others, f"check-out-{sorted(exposure.tasks)}")
            if move is None:
                continue
            after = self._after(move)
            if after is None:
                continue
            if abs(self.value(after.numbers, exposure.combination) - base) > tol:
                return move
        for _ in range(tries * 3):
            move = self.random_move(
                rng, sorted(exposure.tasks), f"check-in-{sorted(exposure.tasks)}"
            )
            after = None if move is None else self._after(move)
            if after is None:
                continue
            moved = self.value(after.numbers, exposure.combination) - base
            if abs(moved) > tol:
                exposure.confirmed = True
                exposure.evidence = (
                    f"unchanged ({tries} edits of other held-out tasks in every combination); "
                    f"moved by {moved:+.6g} under {move.parts}"
                )
                return None
        exposure.evidence = "no edit inside its tasks moved it"
        return None

    def _domain_ok(self, task: str) -> bool:
        return self.release.held_out[task] in self.domains

    def _after(self, move: Move) -> Published | None:
        """The published numbers after ``move``: the reports of the domains it touches
        rebuilt, the others as before (a domain's report rests on its own tasks only)."""
        changed = apply(self.release, move, self.kinds)
        if changed is None:
            return None
        touched = [d for d in self.domains if d in {self.release.held_out[t] for t in move.tasks}]
        self.reports += len(touched)
        after = published(self.release.with_records(changed), touched)
        numbers = {p: v for p, v in self.base.numbers.items() if p.split(".", 1)[0] not in touched}
        texts = {p: v for p, v in self.base.texts.items() if p.split(".", 1)[0] not in touched}
        numbers.update(after.numbers)
        texts.update(after.texts)
        return Published(numbers, texts)

    def random_move(self, rng: random.Random, tasks: Sequence[str], name: str) -> Move | None:
        """Several edits at once, over the given tasks and every combination."""
        if not tasks:
            return None
        parts = []
        for combo in self.release.combos:
            for task in tasks:  # every task given, several kinds of edit each
                for kind in rng.sample(sorted(self.kinds), 4):
                    parts.append((combo, task, rng.randrange(2), kind))
        for k in range(len(parts), 0, -1):  # drop edits that do not apply
            trial = Move(name, tuple(parts[:k]))
            if apply(self.release, trial, self.kinds) is not None:
                return trial
        # keep those that apply, one by one
        kept: list[tuple[str, str, int, str]] = []
        for p in parts:
            if apply(self.release, Move(name, (*kept, p)), self.kinds) is not None:
                kept.append(p)
        return Move(name, tuple(kept)) if kept else None


def single_moves(
    release: Release,
    tasks: Iterable[str],
    combos: Iterable[str],
    kinds: Iterable[str],
    runs: Iterable[int] = (0,),
) -> Iterator[Move]:
    for combo in combos:
        for task in tasks:
            for run in runs:
                for kind in kinds:
                    yield Move(f"{combo}/{task}/run{run}/{kind}", ((combo, task, run, kind),))


def search(
    release: Release,
    domains: Sequence[str],
    moves: Iterable[Move],
    seed: int = 0,
    rounds: int = 4,
) -> tuple[Search, list[Exposure]]:
    """Every confirmed exposure (and the unconfirmed candidates left after ``rounds``)."""
    s = Search.start(release, domains)
    for move in moves:
        s.add(move)
    rng = random.Random(seed)
    confirmed: list[Exposure] = []
    left: list[Exposure] = []
    for _ in range(rounds):
        left = []
        refuted = False
        for exposure in s.candidates():
            if any(exposure.tasks == c.tasks for c in confirmed):
                continue
            move = s.confirm(exposure, rng)
            if move is not None:
                s.add(move)
                refuted = True
            elif exposure.confirmed:
                confirmed.append(exposure)
            else:
                left.append(exposure)
        if not refuted:
            break
    return s, confirmed + [e for e in left if not e.confirmed]
