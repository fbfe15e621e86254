"""A bundle's run records as the checks read them: named columns, and the problems found."""

from __future__ import annotations

import typing
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from generator.check.runs.catalog import CatalogItems
from generator.load import LoadedBundle
from generator.load.runcolumns import item_table
from generator.models import Release
from generator.models.bundle import RunCount
from generator.protocol.experiments import treatment_targets


class Labels:
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


def number(value: float) -> str:
    """A recorded number as a message shows it: a whole one without a decimal point (a level
    written 5 or 5.0 reads "5"), any other as Python writes it ("7.5", "1e+308")."""
    value = float(value)
    return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)


class Found:
    """Problems by row (position in the runs table), in the order they are found."""

    def __init__(self) -> None:
        self.by_row: dict[int, list[tuple[str, str]]] = defaultdict(list)
        self.item_rows: set[int] = set()  # rows with an item-level problem

    def item(self, row: int, field: str, message: str) -> None:
        """An item-level problem: reported, and the row's outcome is not checked."""
        self.by_row[row].append((field, message))
        self.item_rows.add(row)

    def at(self, row: int, field: str, message: str) -> None:
        """A problem of one record's own fields: its outcome is still checked."""
        self.by_row[row].append((field, message))

    def add(self, rows: np.ndarray, field: str, message: str | Callable[[int], str]) -> None:
        for row in rows.tolist():
            text = message(row) if callable(message) else message
            self.by_row[row].append((field, text))


#: The counts a run records where the release reports a metric that needs them.
COUNTS: tuple[str, ...] = typing.get_args(RunCount)


@dataclass(frozen=True)
class Records:
    """One entry per run record: its ``line``, ``task`` (and its catalog ``code``, -1 when
    unknown), ``run`` index, ``valid`` status, ``cause``, ``failure`` type, ``judge_valid``
    (1, 0, NaN when not recorded), ``delivery`` (D), ``dual`` (its task has a Judge channel:
    dual-channel or judge-only), and its ``counts`` by name (:data:`COUNTS`; NaN when the
    record leaves one out)."""

    line: np.ndarray
    task: Labels
    code: np.ndarray
    run: np.ndarray
    valid: np.ndarray
    cause: Labels
    failure: Labels
    judge_valid: np.ndarray
    delivery: np.ndarray
    dual: np.ndarray
    counts: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.line)

    def per_task(self, values: np.ndarray) -> np.ndarray:
        """Per record, the value of its task (zero for an unknown task)."""
        code = self.code
        out: np.ndarray = np.where(code >= 0, values[np.maximum(code, 0)], values.dtype.type(0))
        return out


@dataclass(frozen=True)
class RecordVerdicts:
    """One entry per item verdict: its record's ``row``, ``kind`` (the list it is in), ``pos``
    in that list, ``id``, ``value`` (1/0, or the level), and the declared ``item`` of that id
    in its record's task (-1: none) with that item's kind ``item_kind`` (-1: none)."""

    row: np.ndarray
    kind: np.ndarray
    pos: np.ndarray
    id: Labels
    value: np.ndarray
    item: np.ndarray
    item_kind: np.ndarray

    def __len__(self) -> int:
        return len(self.row)


@dataclass(frozen=True)
class RecordMeasures:
    """One entry per recorded measure: its record's ``row``, ``pos`` in the record's list,
    metric ``id`` and ``value``."""

    row: np.ndarray
    pos: np.ndarray
    id: Labels
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.row)


@dataclass(frozen=True)
class RunChecks:
    """What every section of the run checks reads: the ``release``, its ``catalog``'s items,
    the bundle (``loaded``), its ``records``, ``verdicts`` and ``measures``, and per task
    whether the bundle declares its scope not covered (``uncovered``)."""

    release: Release
    catalog: CatalogItems
    loaded: LoadedBundle
    records: Records
    verdicts: RecordVerdicts
    uncovered: np.ndarray
    measures: RecordMeasures


def run_checks(release: Release, catalog: CatalogItems, loaded: LoadedBundle) -> RunChecks:
    """The bundle's columns, named, with each verdict's declared item."""
    records = _records(catalog, loaded.runs.runs)
    left = loaded.bundle.model.not_covered
    excluded = {(s.domain, s.subdivision) for s in left if s.task_set is None}
    sets_left = {(s.domain, s.task_set) for s in left if s.task_set is not None}
    uncovered = np.array(
        [
            (d, None) in excluded
            or (d, s) in excluded
            or (bool(sets) and all((d, one) in sets_left for one in sets))
            for (d, s), sets in zip(catalog.scopes, catalog.sets, strict=True)
        ],
        dtype=bool,
    )
    targets = treatment_targets(release, loaded.bundle.model)
    if targets is not None:  # a treatment bundle covers its experiment's targets only
        uncovered |= np.array([t not in targets for t in catalog.index.tasks], dtype=bool)
    verdicts = _verdicts(catalog, loaded.runs.runs, loaded.runs.verdicts, records)
    measures = loaded.runs.measures
    recorded = RecordMeasures(
        row=measures["row"].to_numpy(),
        pos=measures["pos"].to_numpy(),
        id=Labels(measures["id"]),
        value=measures["value"].to_numpy(np.float64),
    )
    return RunChecks(release, catalog, loaded, records, verdicts, uncovered, recorded)


def _records(catalog: CatalogItems, runs: pd.DataFrame) -> Records:
    code = catalog.index.task_codes(runs["task"])
    dual = catalog.tasks.dual
    return Records(
        line=runs["line"].to_numpy(),
        task=Labels(runs["task"]),
        code=code,
        run=runs["run"].to_numpy(),
        valid=(runs["status"] == "valid").to_numpy(),
        cause=Labels(runs["cause"]),
        failure=Labels(runs["failure_type"]),
        judge_valid=runs["judge_valid"].to_numpy(dtype=np.float64, na_value=np.nan),
        delivery=runs["delivery"].to_numpy(dtype=bool),
        dual=np.where(code >= 0, dual[np.maximum(code, 0)], False),
        counts={name: runs[name].to_numpy(np.float64) for name in COUNTS},
    )


def _verdicts(
    catalog: CatalogItems, runs: pd.DataFrame, verdicts: pd.DataFrame, records: Records
) -> RecordVerdicts:
    index = catalog.index
    row = verdicts["row"].to_numpy()
    ids = Labels(verdicts["id"])
    item = item_table(index, runs["task"], verdicts["id"])[records.task.codes[row], ids.codes]
    return RecordVerdicts(
        row=row,
        kind=verdicts["kind"].to_numpy(),
        pos=verdicts["pos"].to_numpy(),
        id=ids,
        value=verdicts["value"].to_numpy(),
        item=item,
        item_kind=np.where(item >= 0, index.kind[np.maximum(item, 0)], -1),
    )


@dataclass(frozen=True)
class FailedModules:
    """The items of the modules that open records name as failed: (``rows``, ``items``)
    pairs, and per verdict whether it is of such an item (``verdicts``)."""

    rows: np.ndarray
    items: np.ndarray
    verdicts: np.ndarray


@dataclass(frozen=True)
class ItemChecks:
    """What the item checks read: the bundle's ``runs``; per record, whether its items are
    checked (``open``); per verdict, whether it is of such a record (``in_open``), its id an
    item of its list in its record's task (``allowed``), and a Judge verdict of such a record
    naming a Judge item (``judge``); the ``failed`` modules' items."""

    runs: RunChecks
    open: np.ndarray
    in_open: np.ndarray
    allowed: np.ndarray
    judge: np.ndarray
    failed: FailedModules
