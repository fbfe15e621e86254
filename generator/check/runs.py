"""Rules between run records, the task catalog and the bundle (§4.2–4.3), on whole columns.

The rules are checked for all records of a bundle at once; only records that break one get a
message written for them. Each record is judged in this order, as a reader would fix it:

1. the task is known, the (task, run) pair is new, and the task lies in a covered scope;
2. the record's own fields: run index, cause, failure type, Judge result of the task's mode;
   a dual-channel run without a valid Judge result stops here (§4.3(3));
3. its item verdicts: modules, item ids per list, repeats, failed modules, missing verdicts,
   Judge levels and evidence;
4. for a clean valid record, whether its failure type agrees with its outcome (§4.2(3)).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from generator.errors import Problem
from generator.load import LoadedBundle
from generator.load.items import ItemIndex, item_index
from generator.load.runcolumns import KIND_NAMES, LISTS, item_table
from generator.memory import release_unused_memory
from generator.models import Catalog, Release

_SHOWN = 10
_KIND_TEXT = {0: "an ordinary rule item", 1: "a fatal rule item", 2: "a judge item"}
_JUDGE = LISTS["judge"]
_FATAL = LISTS["fatal"]
_RULES = LISTS["rules"]


class _Found:
    """Problems by row (position in the runs table), with the row's line."""

    def __init__(self, lines: np.ndarray) -> None:
        self.lines = lines
        self.by_row: dict[int, list[tuple[str, str]]] = defaultdict(list)
        self.item_rows: set[int] = set()  # rows with an item-level problem

    def item(self, row: int, field: str, message: str) -> None:
        """An item-level problem: reported, and the row's outcome is not checked."""
        self.by_row[row].append((field, message))
        self.item_rows.add(row)

    def add(self, rows: np.ndarray, field: str, message: str | Callable[[int], str]) -> None:
        for row in rows.tolist():
            text = message(row) if callable(message) else message
            self.by_row[row].append((field, text))


@dataclass(frozen=True)
class _Derived:
    """What the checks derive from a catalog's index, once per index (not per bundle)."""

    dual: np.ndarray  # per task: dual-channel
    module: np.ndarray  # per item: code of its module in ``modules`` (0: none)
    modules: dict[str, int]  # module id -> code (from 1)
    per_module: dict[tuple[int, int, int], int]  # (task code, module code, kind) -> items
    designates: np.ndarray  # per item: designates evidence
    local: np.ndarray  # per item: its rank among its task's items
    width: int  # more than any rank


_DERIVED: dict[int, tuple[ItemIndex, _Derived]] = {}


def _derived(catalog: Catalog, decl: ItemIndex) -> _Derived:
    cached = _DERIVED.get(id(decl))
    if cached is not None and cached[0] is decl:
        return cached[1]
    codes, names = pd.factorize(decl.module)
    blank = [k for k, m in enumerate(names) if m == ""]
    module = codes.astype(np.int64) + 1
    modules = {str(m): k + 1 for k, m in enumerate(names) if m != ""}
    if blank:
        module[codes == blank[0]] = 0
    per_module: dict[tuple[int, int, int], int] = defaultdict(int)
    for t, m, k in zip(decl.task.tolist(), module.tolist(), decl.kind.tolist(), strict=True):
        if m:
            per_module[(t, m, k)] += 1
    order = np.argsort(decl.task, kind="stable")
    starts = np.searchsorted(decl.task[order], decl.task[order])
    local = np.empty(len(order), np.int64)
    local[order] = np.arange(len(order)) - starts
    derived = _Derived(
        dual=np.array([t.scoring.mode == "dual-channel" for t in catalog.tasks], bool),
        module=module,
        modules=modules,
        per_module=dict(per_module),
        designates=np.array([bool(e) for e in decl.evidence], dtype=bool),
        local=local,
        width=int(local.max(initial=0)) + 1,
    )
    _DERIVED.clear()
    _DERIVED[id(decl)] = (decl, derived)
    return derived


class _Labels:
    """The strings of a categorical column, looked up per row only for a message."""

    def __init__(self, column: pd.Series) -> None:
        self.codes = column.cat.codes.to_numpy()
        self.names: list[str] = column.cat.categories.tolist()

    def __getitem__(self, row: int) -> str | None:
        code = int(self.codes[row])
        return self.names[code] if code >= 0 else None

    def present(self) -> np.ndarray:
        return self.codes >= 0

    def among(self, allowed: list[str]) -> np.ndarray:
        """Per row: the value is one of ``allowed`` (False when missing)."""
        inside = np.array([n in set(allowed) for n in self.names] + [False], dtype=bool)
        return inside[self.codes]  # code -1 (missing) reads the last entry


def check_runs(release: Release, catalog: Catalog, loaded: LoadedBundle) -> Iterator[Problem]:
    """Problems of each record, then the bundle's completeness against its declaration."""
    release_unused_memory()  # what the previous bundle's checks left behind (at 10x ~300 MB)
    bundle = loaded.bundle.model
    path = loaded.runs_path
    runs = loaded.runs.runs
    n = len(runs)
    lines = runs["line"].to_numpy()
    found = _Found(lines)
    excluded = {(s.domain, s.subdivision) for s in bundle.not_covered}
    decl = item_index(catalog)
    derived = _derived(catalog, decl)
    tcode = decl.task_codes(runs["task"])
    task = _Labels(runs["task"])
    run = runs["run"].to_numpy()

    def per_task(values: np.ndarray) -> np.ndarray:
        out: np.ndarray = np.where(tcode >= 0, values[np.maximum(tcode, 0)], values.dtype.type(0))
        return out

    # 1. known task, new (task, run), covered scope
    known = tcode >= 0
    found.add(
        np.flatnonzero(~known), "task", lambda r: f"{task[r]!r} is not a task of {release.version}"
    )
    # a known task's code stands for its id: group (code, run), rows in order within a group
    order = np.lexsort((run, tcode))
    sorted_t, sorted_r = tcode[order], run[order]
    starts = np.ones(n, dtype=bool)
    starts[1:] = (sorted_t[1:] != sorted_t[:-1]) | (sorted_r[1:] != sorted_r[:-1])
    group_start = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    nth = np.empty(n, np.int64)
    nth[order] = np.arange(n) - group_start
    first_of = np.empty(n, np.int64)
    first_of[order] = order[group_start]
    dup = known & (nth > 0)
    found.add(
        np.flatnonzero(dup),
        "run",
        lambda r: (
            f"duplicate record for task {task[r]!r} run {run[r]} "
            f"(first on line {lines[first_of[r]]}); one record per (combination, task, run)"
        ),
    )
    is_uncovered = np.array(
        [
            (t.domain, None) in excluded or (t.domain, t.subdivision) in excluded
            for t in catalog.tasks
        ],
        dtype=bool,
    )
    uncovered = known & ~dup & per_task(is_uncovered)
    found.add(
        np.flatnonzero(uncovered),
        "task",
        lambda r: (
            f"{task[r]!r} lies in a scope the bundle declares not covered; remove the "
            "run or the declaration"
        ),
    )
    open_ = known & ~dup & ~uncovered

    # 2. the record's own fields
    enums = release.enumerations
    causes = sorted(c.id for c in enums.incomplete_causes)
    failure_types = sorted(f.id for f in enums.failure_types)
    valid = (runs["status"] == "valid").to_numpy()
    cause = _Labels(runs["cause"])
    has_cause = cause.present()
    failure = _Labels(runs["failure_type"])
    has_failure = failure.present()
    judge_valid = runs["judge_valid"].to_numpy(dtype=np.float64, na_value=np.nan)
    dual = per_task(derived.dual)
    found.add(
        np.flatnonzero(open_ & (run > release.runs_per_task)),
        "run",
        lambda r: (
            f"{run[r]} exceeds the prescribed {release.runs_per_task} runs per task; "
            "expected 1..runs_per_task (retries are not extra runs)"
        ),
    )
    found.add(
        np.flatnonzero(open_ & ~valid & ~has_cause),
        "cause",
        f"an incomplete run needs a cause; expected one of {causes}",
    )
    bad_cause = open_ & ~valid & has_cause & ~cause.among(causes)
    found.add(
        np.flatnonzero(bad_cause),
        "cause",
        lambda r: f"{cause[r]!r} is not a declared cause; expected one of {causes}",
    )
    found.add(
        np.flatnonzero(open_ & valid & has_cause),
        "cause",
        "a valid run has no cause; set status 'incomplete' or remove cause",
    )
    bad_failure = open_ & has_failure & ~failure.among(failure_types)
    found.add(
        np.flatnonzero(bad_failure),
        "failure_type",
        lambda r: f"{failure[r]!r} is not a declared failure type; expected one of {failure_types}",
    )
    verdicts = loaded.runs.verdicts
    v_row = verdicts["row"].to_numpy()
    v_kind = verdicts["kind"].to_numpy()
    v_pos = verdicts["pos"].to_numpy()
    v_value = verdicts["value"].to_numpy()
    has_judge = np.bincount(v_row[v_kind == _JUDGE], minlength=n) > 0
    rule_only_with_judge = open_ & ~dual & (has_judge | ~np.isnan(judge_valid))
    found.add(
        np.flatnonzero(rule_only_with_judge),
        "judge",
        lambda r: f"{task[r]} is rule-only; a run records no judge result (judge_valid null)",
    )
    fatal_failed_recorded = np.bincount(v_row[(v_kind == _FATAL) & (v_value == 0)], minlength=n) > 0
    zeroed = ~runs["delivery"].to_numpy(dtype=bool) | fatal_failed_recorded
    no_judge = open_ & dual & valid & (judge_valid != 1) & ~zeroed
    found.add(
        np.flatnonzero(no_judge),
        "judge_valid",
        "a dual-channel run without a valid Judge result is evaluation-incomplete, not "
        "rule-only (§4.3(3)); expected status 'incomplete' with a cause (only a run already "
        "zeroed by D or a fatal item may lack its Judge result)",
    )
    items_open = open_ & ~no_judge

    # 3. item verdicts
    modules = loaded.runs.modules
    failed_pairs: set[tuple[int, str]] = set()
    if len(modules):
        m_row = modules["row"].to_numpy()
        m_name = _Labels(modules["module"])
        m_pos = modules["pos"].to_numpy()
        for i in np.flatnonzero(items_open[m_row]).tolist():
            row, name = int(m_row[i]), str(m_name[i])
            failed_pairs.add((row, name))
            allowed_modules = decl.modules.get(str(task[row]), [])
            if name not in allowed_modules:
                found.item(
                    row,
                    f"modules_failed[{m_pos[i]}]",
                    f"{name!r} is not a module of {task[row]}; expected one of "
                    f"{allowed_modules or 'none declared'}",
                )
    ids = _Labels(verdicts["id"])
    d = item_table(decl, runs["task"], verdicts["id"])[task.codes[v_row], ids.codes]
    d_kind = np.where(d >= 0, decl.kind[np.maximum(d, 0)], -1)
    in_open = items_open[v_row] if len(v_row) else np.zeros(0, bool)
    allowed = (d >= 0) & (d_kind == v_kind)
    for i in np.flatnonzero(in_open & ~allowed).tolist():
        row, kind, item = int(v_row[i]), int(v_kind[i]), ids[i]
        other_kind = decl.kind[d[i]] if d[i] >= 0 else -1
        other = (
            " (it is a fatal item: list it under 'fatal')"
            if other_kind == _FATAL
            else " (it is an ordinary item: list it under 'rules')"
            if other_kind == _RULES
            else ""
        )
        expected = decl.allowed.get((str(task[row]), kind)) or "none"
        found.item(
            row,
            f"{KIND_NAMES[kind]}[{v_pos[i]}].id",
            f"{item!r} is not {_KIND_TEXT[kind]} of {task[row]}{other}; expected one of {expected}",
        )
    # repeats of an allowed item count within one list of one record: (row, item), as an
    # allowed item's list is its kind
    counts = np.zeros(len(v_row), np.int64)
    checked = np.flatnonzero(in_open & allowed)
    if len(checked):
        # an item's rank among its task's items stands for it within one run
        key = v_row[checked].astype(np.int64) * derived.width + derived.local[d[checked]]
        counts[checked] = repeat_counts(key, n * derived.width)
    repeated = counts > 1
    for i in np.flatnonzero(repeated).tolist():
        found.item(
            int(v_row[i]),
            f"{KIND_NAMES[int(v_kind[i])]}[{v_pos[i]}].id",
            f"{ids[i]!r} appears {counts[i]} times",
        )
    in_failed = _in_failed(v_row, d, derived, failed_pairs)
    scoring_in_failed = in_open & allowed & ~repeated & in_failed & (v_value > 0)
    for i in np.flatnonzero(scoring_in_failed).tolist():
        found.item(
            int(v_row[i]),
            f"{KIND_NAMES[int(v_kind[i])]}[{v_pos[i]}]",
            f"{ids[i]!r} belongs to failed module {decl.module[d[i]]!r} but is recorded as "
            "passing; items of a failed module score 0 (§4.2)",
        )
    repeated_rows = np.zeros(n, bool)
    repeated_rows[v_row[repeated]] = True
    _missing(tcode, task, items_open & valid, dual, judge_valid, v_row, v_kind, d, allowed,
             repeated_rows, in_failed, decl, derived, failed_pairs, found)  # fmt: skip
    judge_known = in_open & (v_kind == _JUDGE) & (d_kind == _JUDGE)
    too_high = judge_known & (v_value > np.where(d >= 0, decl.max_level[np.maximum(d, 0)], 0))
    for i in np.flatnonzero(too_high).tolist():
        top = decl.max_level[d[i]]
        found.item(
            int(v_row[i]),
            f"judge[{v_pos[i]}].level",
            f"{v_value[i]} is above {ids[i]}'s maximum; expected 0..{top}",
        )
    _evidence(loaded, judge_known, v_row, v_pos, d, ids, decl, derived, found)

    # 4. outcome of clean valid records against their failure type
    item_problem = np.zeros(n, dtype=bool)
    item_problem[list(found.item_rows)] = True
    clean_valid = items_open & valid & ~item_problem
    if clean_valid.any():
        success = _success(runs, tcode, dual, judge_valid, v_row, v_kind, v_value, d, decl,
                           in_failed, n)  # fmt: skip
        found.add(
            np.flatnonzero(clean_valid & ~success & ~has_failure),
            "failure_type",
            f"the run did not succeed, so it needs a failure type; expected one of {failure_types}",
        )
        found.add(
            np.flatnonzero(clean_valid & success & has_failure),
            "failure_type",
            lambda r: (
                f"{failure[r]!r}, but the run succeeded; a successful run has no failure type"
            ),
        )
    for row, problems in found.by_row.items():
        for field, message in problems:
            yield Problem(path, int(lines[row]), field, message)

    # completeness against the bundle's declaration
    if found.by_row or not loaded.runs_clean:
        return  # counts would be wrong; the problems above say why
    # every task is known here (an unknown one is a problem above)
    per_code = np.bincount(tcode[valid & known], minlength=len(decl.tasks))
    covered = [t for t, out in zip(catalog.tasks, is_uncovered, strict=True) if not out]
    valid_counts = {t.id: int(per_code[decl.task_code[t.id]]) for t in covered}
    short = [
        (t.id, valid_counts[t.id]) for t in covered if valid_counts[t.id] < release.runs_per_task
    ]
    bsrc = loaded.bundle.source
    eval_line = bsrc.line("evaluation")
    if bundle.evaluation == "complete" and short:
        shown = ", ".join(f"{tid} ({k} valid)" for tid, k in short[:_SHOWN])
        more = f" and {len(short) - _SHOWN} more" if len(short) > _SHOWN else ""
        yield Problem(
            bsrc.path,
            eval_line,
            "evaluation",
            f"marked complete, but {len(short)} of {len(covered)} covered tasks lack "
            f"the prescribed {release.runs_per_task} valid runs: {shown}{more}; "
            "expected evaluation: incomplete (coverage is then disclosed, §4.2)",
        )
    if bundle.evaluation == "incomplete" and not short and covered:
        yield Problem(
            bsrc.path,
            eval_line,
            "evaluation",
            f"marked incomplete, but every covered task has {release.runs_per_task} valid runs",
            "warning",
        )


def repeat_counts(keys: np.ndarray, bound: int) -> np.ndarray:
    """How often each of ``keys`` (integers in 0..``bound``) occurs among them: counted in
    place when the range is not much larger than the keys, else by hashing."""
    if bound <= 8 * len(keys) + (1 << 20):
        counts: np.ndarray = np.bincount(keys, minlength=bound)[keys]
        return counts
    codes, _ = pd.factorize(keys)
    return np.bincount(codes)[codes]


def _in_failed(
    rows: np.ndarray, d: np.ndarray, derived: _Derived, failed_pairs: set[tuple[int, str]]
) -> np.ndarray:
    """Whether each verdict (run row, declared item ``d`` or -1) is of an item whose module
    its run names as failed. Only the verdicts of runs that name one are looked at."""
    out = np.zeros(len(rows), bool)
    if not failed_pairs or not len(rows):
        return out
    width = len(derived.modules) + 1
    naming = np.zeros(int(rows.max()) + 1, bool)
    naming[[r for r, _ in failed_pairs if r < len(naming)]] = True
    chosen = np.flatnonzero(naming[rows] & (d >= 0))
    module = derived.module[d[chosen]]
    keys = rows[chosen].astype(np.int64) * width + module
    failed = [r * width + derived.modules[m] for r, m in failed_pairs if m in derived.modules]
    out[chosen] = (module > 0) & np.isin(keys, np.array(failed, dtype=np.int64))
    return out


def _missing(
    tcode: np.ndarray,
    task: _Labels,
    rows_valid: np.ndarray,
    dual: np.ndarray,
    judge_valid: np.ndarray,
    v_row: np.ndarray,
    v_kind: np.ndarray,
    d: np.ndarray,
    allowed: np.ndarray,
    repeated_rows: np.ndarray,
    in_failed: np.ndarray,
    decl: ItemIndex,
    derived: _Derived,
    failed_pairs: set[tuple[int, str]],
    found: _Found,
) -> None:
    """Valid runs must record every item of each list, but items of failed modules.

    Counts find the candidates (fewer verdicts than items, or a repeat); only they are
    looked at item by item.
    """
    n = len(tcode)
    candidates = np.zeros(n, bool)
    counted = allowed & ~in_failed
    failed_items: dict[tuple[int, int], int] = defaultdict(int)  # (row, kind) -> items
    for row, module in failed_pairs:
        m = derived.modules.get(module, 0)
        for kind in (_RULES, _FATAL, _JUDGE):
            failed_items[(row, kind)] += derived.per_module.get((int(tcode[row]), m, kind), 0)
    for kind in (_RULES, _FATAL, _JUDGE):
        mask = counted & (v_kind == kind)
        present = np.bincount(v_row[mask], minlength=n)
        expected = np.where(tcode >= 0, decl.counts[np.maximum(tcode, 0), kind], 0)
        for (row, k), count in failed_items.items():
            if k == kind:
                expected[row] -= count
        check = rows_valid & ((present < expected) | repeated_rows)
        if kind == _JUDGE:
            check &= dual & (judge_valid == 1)
        candidates |= check
    rows = np.flatnonzero(candidates)
    if not len(rows):
        return
    candidate = np.zeros(n, bool)
    candidate[rows] = True
    chosen = np.flatnonzero(candidate[v_row] & allowed)
    by_row = pd.Series(chosen).groupby(v_row[chosen]).apply(list).to_dict() if len(chosen) else {}
    for row in rows.tolist():
        mine = by_row.get(row, [])
        for kind in (_RULES, _FATAL, _JUDGE):
            if kind == _JUDGE and not (dual[row] and judge_valid[row] == 1):
                continue
            recorded = {decl.id[d[i]] for i in mine if v_kind[i] == kind}
            absent = [
                a
                for a in decl.allowed.get((str(task[row]), kind), [])
                if a not in recorded
                and (row, decl.module[decl.table[tcode[row], decl.id_code[a]]]) not in failed_pairs
            ]
            if absent:
                found.item(
                    row,
                    KIND_NAMES[kind],
                    f"missing verdicts for {', '.join(absent)}; a valid run records every "
                    "item (or names its module in modules_failed)",
                )


def _evidence(
    loaded: LoadedBundle,
    judge_known: np.ndarray,
    v_row: np.ndarray,
    v_pos: np.ndarray,
    d: np.ndarray,
    ids: _Labels,
    decl: ItemIndex,
    derived: _Derived,
    found: _Found,
) -> None:
    """Judge verdicts may cite only the evidence designated for their item."""
    evidence = loaded.runs.evidence
    if not len(evidence) or not judge_known.any():
        return
    width = max(int(v_pos.max(initial=0)), int(evidence["pos"].max())) + 1
    verdict_at = pd.Index(v_row[judge_known].astype(np.int64) * width + v_pos[judge_known])
    e_key = evidence["row"].to_numpy().astype(np.int64) * width + evidence["pos"].to_numpy()
    where = verdict_at.get_indexer(e_key)
    chosen = np.flatnonzero(judge_known)
    cited = _Labels(evidence["id"])
    # evidence of a Judge verdict whose item designates some: is the id among them?
    item = np.where(where >= 0, d[chosen[np.maximum(where, 0)]], -1)
    looked = np.flatnonzero((item >= 0) & derived.designates[np.maximum(item, 0)])
    items, at = np.unique(item[looked], return_inverse=True)
    inside = np.array(
        [[name in decl.evidence[k] for name in cited.names] + [False] for k in items.tolist()],
        dtype=bool,
    ).reshape(len(items), len(cited.names) + 1)
    stray_e = looked[~inside[at.ravel(), cited.codes[looked]]]
    stray: dict[int, list[str]] = defaultdict(list)
    for e in stray_e.tolist():
        stray[int(chosen[where[e]])].append(str(cited[e]))
    for i, cites in sorted(stray.items()):
        row = int(v_row[i])
        found.item(
            row,
            f"judge[{v_pos[i]}].evidence",
            f"cites {cites}, not designated for {ids[i]}; expected from "
            f"{list(decl.evidence[d[i]])}",
        )


def _success(
    runs: pd.DataFrame,
    tcode: np.ndarray,
    dual: np.ndarray,
    judge_valid: np.ndarray,
    v_row: np.ndarray,
    v_kind: np.ndarray,
    v_value: np.ndarray,
    d: np.ndarray,
    decl: ItemIndex,
    in_failed: np.ndarray,
    n: int,
) -> np.ndarray:
    """Success of each run (§4.2(3)): D, every fatal and ordinary item, every Judge item at
    its pass level; items of failed modules fail. Same as :func:`run_outcome`."""
    known = d >= 0
    pass_level = np.where(known, decl.pass_level[np.maximum(d, 0)], 1)
    ok = known & ~in_failed & np.where(v_kind == _JUDGE, v_value >= pass_level, v_value == 1)

    def passed(kind: int) -> np.ndarray:
        return np.bincount(v_row[ok & (v_kind == kind)], minlength=n)

    def declared(kind: int) -> np.ndarray:
        return np.where(tcode >= 0, decl.counts[np.maximum(tcode, 0), kind], 0)

    delivery = runs["delivery"].to_numpy(dtype=bool)
    judge_pass = ~dual | ((judge_valid == 1) & (passed(_JUDGE) == declared(_JUDGE)))
    success: np.ndarray = (
        delivery
        & (passed(_FATAL) == declared(_FATAL))
        & (passed(_RULES) == declared(_RULES))
        & judge_pass
    )
    return success
