"""Columnar tables of one version: tasks, declared items, runs and item verdicts.

Built from the columns the loader reads (:mod:`generator.load.runcolumns`), without a
Python loop per run; everything downstream works on whole columns.

The item verdicts are not copied: each bundle's part of the frame refers to the loader's
arrays (run row and value) and adds only each verdict's declared item, in the narrowest
integer type that holds it. At a million runs there are tens of millions of verdicts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

from generator.load import LoadedBundle, LoadedRelease
from generator.load.items import ItemIndex, item_index
from generator.load.runcolumns import item_table
from generator.memory import release_unused_memory
from generator.models import Bundle, Catalog, Release
from generator.models.catalog import Scoring
from generator.protocol.outcome import declare

KIND_RULE, KIND_FATAL, KIND_JUDGE = 0, 1, 2

# Explicit column types, so a version without runs still has boolean and numeric columns;
# the counts are NaN where a run leaves them out (a release that does not report them).
# After them, one float64 column per measured metric the release declares (its id).
RUN_DTYPES: dict[str, Any] = {
    "combination": str,
    "task": str,
    "run": "int64",
    "valid": bool,
    "delivery": bool,
    "judge_valid": bool,
    "retries": "int64",
    "cause": str,
    "input_tokens": "float64",
    "output_tokens": "float64",
    "duration_s": "float64",
    "turns": "float64",
    "failure_type": str,
}


@dataclass(frozen=True)
class BundleVerdicts:
    """One bundle's item verdicts: ``row`` (its run is ``start + row``), ``value`` (1/0 for
    rule items, the level for Judge items) and :attr:`item`, the declared item (a row of
    ``VersionFrame.items``). ``row``, ``value``, the verdicts' id codes and the runs' task
    codes are the loader's own arrays, not copies; ``table`` maps (task code, id code) to the
    declared item (-1: none) for the few tasks and ids of the bundle."""

    combination: str
    start: int  # rid of the bundle's first run
    runs: int  # number of runs of the bundle
    row: np.ndarray
    value: np.ndarray
    id_code: np.ndarray  # per verdict: code of its item id in the loader's categorical
    run_task: np.ndarray  # per run: code of its task in the loader's categorical
    table: np.ndarray

    @property
    def item(self) -> np.ndarray:
        """The declared item of each verdict, looked up on each call (two gathers a verdict;
        kept, these keys would take as much memory as the verdicts' rows)."""
        item: np.ndarray = self.table[self.run_task[self.row], self.id_code]
        return item


@dataclass(frozen=True)
class VersionFrame:
    """Everything the engine needs about one version, as columns.

    ``tasks``: one row per task (index ``task``). ``items``: one row per declared item with
    its integer ``item`` key. ``runs``: one row per run record (index ``rid``): the columns
    of :data:`RUN_DTYPES`, then each measured metric of the release (:func:`measured`) as
    a float64 column named by its id, NaN where the run records no value.
    ``parts``: each bundle's recorded item verdicts (:class:`BundleVerdicts`), in the order
    of ``runs``. ``failed``: (``rid``, ``item``) pairs whose module the run names as failed.
    """

    version: str
    release: Release
    bundles: Mapping[str, Bundle]
    tasks: pd.DataFrame
    items: pd.DataFrame
    runs: pd.DataFrame
    parts: tuple[BundleVerdicts, ...]
    failed: pd.DataFrame

    @property
    def verdicts(self) -> pd.DataFrame:
        """All verdicts as one table (``rid``, ``item``, ``value``), built on each call: for
        tests and inspection; the engine works bundle by bundle on :attr:`parts`."""
        return pd.DataFrame(
            {
                "rid": _concat([p.row.astype(np.int64) + p.start for p in self.parts]),
                "item": _concat([p.item.astype(np.int64) for p in self.parts]),
                "value": _concat([p.value.astype(np.float64) for p in self.parts]),
            }
        )


def measured(release: Release) -> tuple[str, ...]:
    """Ids of the metrics the release declares measured, in declaration order: the runs
    table's measure columns."""
    return tuple(m.id for m in release.metrics if m.measured)


def _concat(arrays: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(arrays) if arrays else np.empty(0, np.int64)


def _facet_value(value: str | tuple[str, ...], multi: bool) -> str | tuple[str, ...]:
    """A task's value of a facet as its column holds it: the value, or for a facet that
    allows several, the tuple of the task's values (one value given alone included)."""
    if multi:
        return (value,) if isinstance(value, str) else tuple(value)
    return value


def _channels(release: Release, scoring: Scoring) -> dict[str, tuple[str, ...]]:
    """The Judge channels that judge the task, where the release declares channels."""
    if not release.profile.channels:
        return {}
    return {"channels": tuple(sorted({j.channel for j in scoring.judge_items if j.channel}))}


def _structure(release: Release, scoring: Scoring) -> dict[str, tuple[tuple[str, float], ...]]:
    """Where the release declares judged dimensions or rule classes: each one's share of the
    task's J (its items' weight over all) or of its ordinary rule items. Tasks that share it
    relate their figures alike to J or R; across tasks that do not, the difference of the
    figures can single out one task (§4.4)."""
    out = {}
    judged = [j for j in scoring.judge_items if not j.overall]
    if release.profile.dimensions and judged:
        mass = sum(j.weight for j in judged)
        shares: dict[str, float] = {}
        for j in judged:
            shares[j.dimension or ""] = shares.get(j.dimension or "", 0.0) + j.weight / mass
        out["struct:dimension"] = tuple(sorted((k, round(v, 12)) for k, v in shares.items()))
    ruled = [i for i in scoring.rule_items if not i.fatal]
    if release.profile.rule_classes and ruled:
        counts: dict[str, float] = {}
        for i in ruled:
            counts[i.rule_class or ""] = counts.get(i.rule_class or "", 0.0) + 1 / len(ruled)
        out["struct:rule_class"] = tuple(sorted((k, round(v, 12)) for k, v in counts.items()))
    return out


def _tasks(release: Release, catalog: Catalog) -> pd.DataFrame:
    weights = {r.id: r.weight for r in release.enumerations.risk_levels}
    multi = {f.id for f in release.profile.facets if f.multi}
    sets = {d.id: [s.id for s in d.task_sets] for d in release.domains}
    rows = []
    for t in catalog.tasks:
        s = t.scoring
        rows.append(
            {
                "task": t.id,
                "title": t.title,
                "domain": t.domain,
                "subdivision": t.subdivision,
                "group": t.group,
                "n_rule": sum(not i.fatal for i in s.rule_items),
                "n_fatal": sum(i.fatal for i in s.rule_items),
                "n_judge": len(s.judge_items),
                "risk_weight": weights.get(t.risk_level or "", np.nan),
                "chain": t.key_process_chain or "",
                "boundary": t.functional_boundary,
                "measure": s.measure or "",
                **{f"facet:{f}": _facet_value(v, f in multi) for f, v in t.facets.items()},
                **{f"set:{s}": s if s in t.sets else "" for s in sets.get(t.domain, ())},
                **_channels(release, s),
                **_structure(release, s),
            }
        )
    out = pd.DataFrame(rows).set_index("task")
    declared = declare(
        [t.scoring for t in catalog.tasks], out[["n_rule", "n_fatal", "n_judge"]].to_numpy()
    )
    for name in DECLARED:
        out[name] = getattr(declared, name)
    return out


#: The parts of each task's declaration (:func:`~generator.protocol.outcome.declare`) kept
#: as columns of the task table.
DECLARED = (
    *("dual", "rule_weight", "all_or_nothing", "overall", "measured", "failure_value"),
    *("rule_mass", "judge_mass"),
)


def _items(catalog: Catalog) -> pd.DataFrame:
    rows = []
    for t in catalog.tasks:
        for i in t.scoring.rule_items:
            kind = KIND_FATAL if i.fatal else KIND_RULE
            rule = (t.id, i.id, kind, i.module or "", 1, 1, False, "", i.rule_class or "")
            rows.append((*rule, i.weight, ""))
        for j in t.scoring.judge_items:
            level = j.passing_level
            judged = (j.overall, j.dimension or "")
            judge = (t.id, j.id, KIND_JUDGE, j.module or "", j.max_level, level, *judged, "")
            rows.append((*judge, j.weight, j.channel or ""))
    columns = [
        *("task", "item_id", "kind", "module", "max_level", "pass_level", "overall", "dimension"),
        "rule_class",
        "weight",
        "channel",
    ]
    frame = pd.DataFrame(rows, columns=columns)
    frame.index.name = "item"
    return frame


def build_frame(
    version: LoadedRelease, consented_only: bool = False, treatments: bool = True
) -> VersionFrame:
    """Columns of a loaded, checked version (release, catalog and bundles all present).

    With ``consented_only``, bundles without publication consent are left out (§7.2);
    without ``treatments``, the treatment bundles of experiments (those with a condition),
    which are shown only beside their baselines. The memory of the temporaries (each
    bundle's runs columns) goes back to the system.
    """
    frame = _build_frame(version, consented_only, treatments)
    release_unused_memory()
    return frame


def _build_frame(version: LoadedRelease, consented_only: bool, treatments: bool) -> VersionFrame:
    """Each bundle's part of the columns, one after another, then the version's tables."""
    assert version.release is not None
    assert version.catalog is not None
    release, catalog = version.release.model, version.catalog.model
    items = _items(catalog)
    index = item_index(catalog)  # its item rows are the rows of ``items``
    metrics = measured(release)
    assert not set(metrics) & set(RUN_DTYPES), "a measured metric is named like a run column"
    runs_parts: list[dict[str, Any]] = []
    parts: list[BundleVerdicts] = []
    failed_parts: list[pd.DataFrame] = []
    bundles = {}
    for loaded in version.bundles:
        bundle = loaded.bundle.model
        if consented_only and not bundle.consent.granted:
            continue
        if not treatments and bundle.condition is not None:
            continue
        rid = sum(p.runs for p in parts)
        bundles[bundle.combination.id] = bundle
        runs_parts.append(_runs(bundle.combination.id, loaded.runs.runs))
        runs_parts[-1].update(_measures(loaded.runs.measures, len(loaded.runs), metrics))
        parts.append(_verdicts(bundle.combination.id, loaded, rid, index))
        failed_parts += _failed_modules(loaded, rid)
    return VersionFrame(
        release.version,
        release,
        bundles,
        _tasks(release, catalog),
        items,
        _concat_runs(runs_parts, metrics),
        tuple(parts),
        _failed_items(items, failed_parts),
    )


def _verdicts(combo: str, loaded: LoadedBundle, rid: int, index: ItemIndex) -> BundleVerdicts:
    """The bundle's verdicts, on the loader's arrays, each with its declared item."""
    cols = loaded.runs
    verdicts, task_of_row = cols.verdicts, cols.runs["task"]
    part = BundleVerdicts(
        combo,
        rid,
        len(cols.runs),
        verdicts["row"].to_numpy(),
        verdicts["value"].to_numpy(),
        verdicts["id"].array.codes,
        task_of_row.array.codes,
        item_table(index, task_of_row, verdicts["id"]),
    )
    assert len(cols.runs) == 0 or (part.item >= 0).all(), "build_frame needs checked runs"
    return part


def _failed_modules(loaded: LoadedBundle, rid: int) -> list[pd.DataFrame]:
    """(rid, task, module) of every module the bundle's runs name as failed, if any."""
    cols = loaded.runs
    if not len(cols.modules):
        return []
    rows = cols.modules["row"].to_numpy()
    named = {
        "rid": rows.astype(np.int64) + rid,
        "task": cols.runs["task"].to_numpy()[rows].astype(str),
        "module": cols.modules["module"].astype(str).to_numpy(),
    }
    return [pd.DataFrame(named)]


def _runs(combo: str, runs: pd.DataFrame) -> dict[str, Any]:
    """One bundle's columns of the runs table: strings still as categoricals (converted
    once for all bundles), numbers as arrays."""
    return {
        "combination": pd.Categorical.from_codes(np.zeros(len(runs), np.int8), pd.Index([combo])),
        "task": runs["task"].array,
        "run": runs["run"].to_numpy(),
        "valid": (runs["status"] == "valid").to_numpy(),
        "delivery": runs["delivery"].to_numpy(),
        "judge_valid": runs["judge_valid"].fillna(0).to_numpy(np.int8) == 1,
        "retries": runs["retries"].to_numpy(),
        "cause": _blank_missing(runs["cause"]),
        "input_tokens": runs["input_tokens"].to_numpy(),
        "output_tokens": runs["output_tokens"].to_numpy(),
        "duration_s": runs["duration_s"].to_numpy(),
        "turns": runs["turns"].to_numpy(),
        "failure_type": _blank_missing(runs["failure_type"]),
    }


def _measures(measures: pd.DataFrame, runs: int, metrics: tuple[str, ...]) -> dict[str, Any]:
    """One bundle's measure columns: per metric, each run's value or NaN (a checked run
    records each metric at most once)."""
    row = measures["row"].to_numpy()
    ids = measures["id"].astype(str).to_numpy() if len(measures) else np.empty(0, str)
    value = measures["value"].to_numpy(np.float64)
    out: dict[str, Any] = {}
    for metric in metrics:
        column = np.full(runs, np.nan)
        mine = ids == metric
        column[row[mine]] = value[mine]
        out[metric] = column
    return out


def _blank_missing(column: pd.Series) -> pd.Categorical:
    """A categorical column with missing values as ""."""
    values: pd.Categorical = column.array
    if values.isna().any():
        if "" not in values.categories:
            values = values.add_categories([""])
        values = values.fillna("")
    return values


def _str_categories(values: pd.Categorical) -> pd.Categorical:
    """The categorical with categories of the string type (an empty or object-typed set of
    categories would not combine with the others)."""
    if values.categories.dtype == "str":
        return values
    categories = pd.Index([str(c) for c in values.categories], dtype="str")
    return pd.Categorical.from_codes(values.codes, categories, validate=False)


def _concat_runs(parts: list[dict[str, Any]], metrics: tuple[str, ...] = ()) -> pd.DataFrame:
    """The bundles' columns, one after another, in the types of :data:`RUN_DTYPES` and a
    float64 column per measured metric (index ``rid``); typed empty columns when there are
    no bundles."""
    dtypes = RUN_DTYPES | dict.fromkeys(metrics, "float64")
    if not parts:
        empty = pd.DataFrame({c: pd.Series(dtype=t) for c, t in dtypes.items()})
        empty.index.name = "rid"
        return empty
    columns: dict[str, Any] = {}
    for name, dtype in dtypes.items():
        values = [p[name] for p in parts]
        if dtype is str:
            joined = pd.Series(union_categoricals([_str_categories(v) for v in values]))
            columns[name] = joined.astype(str)
        else:
            columns[name] = np.concatenate(values).astype(dtype, copy=False)
    runs = pd.DataFrame(columns)
    runs.index.name = "rid"
    return runs


def _failed_items(items: pd.DataFrame, parts: list[pd.DataFrame]) -> pd.DataFrame:
    """(rid, item) for every declared item whose module a run names as failed."""
    if not parts:
        return pd.DataFrame({"rid": np.empty(0, np.int64), "item": np.empty(0, np.int64)})
    named = pd.concat(parts, ignore_index=True)
    declared = items.reset_index()[["item", "task", "module"]]
    pairs = named.merge(declared, on=["task", "module"])
    return pairs[["rid", "item"]].astype(np.int64).reset_index(drop=True)
