"""What the run checks derive from a task catalog, once per catalog (not per bundle)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from generator.load.items import ItemIndex, item_index
from generator.models import Catalog
from generator.protocol.outcome import Declared, Items, declare

#: The scoring modes with a Judge channel.
JUDGED = ("dual-channel", "judge-only")


@dataclass(frozen=True)
class CatalogItems:
    """A catalog's declared items for the run checks.

    ``index``: the items as arrays (:class:`ItemIndex`); ``items`` and ``tasks``: what the run
    outcome needs of them (:mod:`generator.protocol.outcome`); ``module_items``: the item keys
    of each (task code, module id); ``designates``: per item, it designates evidence; ``local``:
    per item, its rank among its task's items, below ``width``; ``scopes``: per task, its
    (domain, subdivision), and ``sets`` the task sets it belongs to; ``modes``: per task, its
    scoring mode; ``measure``: per task, the measured metric a measure task scores in (None for
    the other modes) and ``failure_value``, what its failed runs score.

    ``tasks.dual`` marks the tasks with a Judge channel (dual-channel and judge-only): their
    runs need a valid Judge result, and succeed only with every Judge item at its pass level.
    """

    index: ItemIndex
    items: Items
    tasks: Declared
    module_items: dict[tuple[int, str], np.ndarray]
    designates: np.ndarray
    local: np.ndarray
    width: int
    scopes: list[tuple[str, str | None]]
    sets: list[tuple[str, ...]]  # per task, the task sets of its domain it belongs to
    modes: list[str]
    measure: list[str | None]
    failure_value: list[float | None]


def catalog_items(catalog: Catalog) -> CatalogItems:
    """The catalog's items as the run checks use them; build it once per catalog and pass it
    to :func:`generator.check.runs.check_runs` for each bundle."""
    index = item_index(catalog)
    local = _ranks(index.task)
    return CatalogItems(
        index=index,
        items=Items(kind=index.kind, max_level=index.max_level, pass_level=index.pass_level),
        tasks=_declared(catalog, index),
        module_items=_module_items(index),
        designates=np.array([bool(e) for e in index.evidence], dtype=bool),
        local=local,
        width=int(local.max(initial=0)) + 1,
        scopes=[(t.domain, t.subdivision) for t in catalog.tasks],
        sets=[tuple(t.sets) for t in catalog.tasks],
        modes=[t.scoring.mode for t in catalog.tasks],
        measure=[t.scoring.measure for t in catalog.tasks],
        failure_value=[t.scoring.failure_value for t in catalog.tasks],
    )


def _declared(catalog: Catalog, index: ItemIndex) -> Declared:
    return declare([t.scoring for t in catalog.tasks], index.counts)


def _module_items(index: ItemIndex) -> dict[tuple[int, str], np.ndarray]:
    grouped: dict[tuple[int, str], list[int]] = defaultdict(list)
    for k, (task, module) in enumerate(
        zip(index.task.tolist(), index.module.tolist(), strict=True)
    ):
        if module:
            grouped[(task, module)].append(k)
    return {key: np.array(items, np.int64) for key, items in grouped.items()}


def _ranks(task: np.ndarray) -> np.ndarray:
    """Each item's rank among the items of its task."""
    order = np.argsort(task, kind="stable")
    starts = np.searchsorted(task[order], task[order])
    local = np.empty(len(order), np.int64)
    local[order] = np.arange(len(order)) - starts
    return local
