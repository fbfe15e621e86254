"""A task catalog's declared items as arrays, for checking and scoring run columns in bulk.

Task ids and item ids get integer codes; a dense table maps (task code, item-id code) to the
declared item, so millions of verdicts find their item with one array lookup. Item ids repeat
across tasks (R01, J01, ...), so the table stays small.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import pandas as pd

from generator.models import Catalog
from generator.protocol.items import LISTS

RULES, FATAL, JUDGE = LISTS["rules"], LISTS["fatal"], LISTS["judge"]


@dataclass(frozen=True)
class ItemIndex:
    """Declared items, one row each, in catalog order: a task's rule items, then its Judge
    items. The row number is the item's key everywhere downstream."""

    tasks: list[str]
    task_code: dict[str, int]
    ids: list[str]
    id_code: dict[str, int]
    table: np.ndarray  # (task code, id code) -> item row, or -1
    task: np.ndarray  # per item: task code
    id: np.ndarray  # per item: item id (str)
    kind: np.ndarray  # per item: RULES, FATAL or JUDGE
    module: np.ndarray  # per item: module id, or ""
    max_level: np.ndarray
    pass_level: np.ndarray
    evidence: list[tuple[str, ...]]
    counts: np.ndarray  # (task code, kind) -> number of declared items
    allowed: dict[tuple[str, int], list[str]]  # (task, kind) -> sorted item ids
    modules: dict[str, list[str]]  # task -> sorted module ids

    def task_codes(self, tasks: pd.Series) -> np.ndarray:
        """Catalog code of each value of a categorical column of task ids, or -1."""
        cats = np.array([self.task_code.get(t, -1) for t in tasks.cat.categories], np.int64)
        codes = tasks.cat.codes.to_numpy().astype(np.int64)
        return np.where(codes >= 0, cats[np.maximum(codes, 0)] if len(cats) else -1, -1)


def item_index(catalog: Catalog) -> ItemIndex:
    """The catalog's index. Built where it is needed (the checks and the scoring), with no
    cache: a cache keyed on the catalog saved nothing measurable (load and validate 2.78 s
    with it, 2.76 s without; ``bench/tricks.py``, 2026-12-01)."""
    return _build(catalog)


def _build(catalog: Catalog) -> ItemIndex:
    tasks = [t.id for t in catalog.tasks]
    task_code = {t: i for i, t in enumerate(tasks)}
    rows: list[tuple[int, str, int, str, int, int, tuple[str, ...]]] = []
    allowed: dict[tuple[str, int], list[str]] = defaultdict(list)
    modules: dict[str, list[str]] = {}
    for code, t in enumerate(catalog.tasks):
        s = t.scoring
        for i in s.rule_items:
            kind = FATAL if i.fatal else RULES
            rows.append((code, i.id, kind, i.module or "", 1, 1, ()))
            allowed[(t.id, kind)].append(i.id)
        for j in s.judge_items:
            level = j.passing_level
            rows.append((code, j.id, JUDGE, j.module or "", j.max_level, level, j.evidence))
            allowed[(t.id, JUDGE)].append(j.id)
        modules[t.id] = sorted(m.id for m in s.modules)
    ids = sorted({r[1] for r in rows})
    id_code = {i: k for k, i in enumerate(ids)}
    table = np.full((len(tasks), max(len(ids), 1)), -1, np.int64)
    counts = np.zeros((len(tasks), 3), np.int64)
    for k, r in enumerate(rows):
        table[r[0], id_code[r[1]]] = k
        counts[r[0], r[2]] += 1
    return ItemIndex(
        tasks=tasks,
        task_code=task_code,
        ids=ids,
        id_code=id_code,
        table=table,
        task=np.array([r[0] for r in rows], np.int64),
        id=np.array([r[1] for r in rows], dtype=object),
        kind=np.array([r[2] for r in rows], np.int64),
        module=np.array([r[3] for r in rows], dtype=object),
        max_level=np.array([r[4] for r in rows], np.int64),
        pass_level=np.array([r[5] for r in rows], np.int64),
        evidence=[r[6] for r in rows],
        counts=counts,
        allowed={k: sorted(v) for k, v in allowed.items()},
        modules=modules,
    )
