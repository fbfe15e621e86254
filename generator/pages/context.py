"""Everything one version's pages are made of, computed once: reports, frame, inputs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

import pandas as pd

from generator.disclosure import below_floor, fingerprint
from generator.load import Loaded, LoadedRelease
from generator.load.runcolumns import LISTS
from generator.models import Catalog, DeepDive, HarnessCard, Release, Task
from generator.score.frame import VersionFrame
from generator.score.items import item_breakdown_table, task_efficiency_table
from generator.score.report import build_report, published_frame
from generator.score.results import Report, TaskRow
from generator.score.runs import score_runs


@dataclass(frozen=True)
class VersionContext:
    release: Release
    catalog: Catalog
    frame: VersionFrame
    scored: pd.DataFrame  # the frame's runs with their scores (score_runs)
    reports: Mapping[str, Report]  # by domain id
    cards: Mapping[str, HarnessCard]
    fingerprints: Mapping[str, str]  # by combination id
    below_floor: Mapping[str, list[str]]  # combination id -> floor fields its card withholds
    deep_dives: Mapping[str, DeepDive]
    loaded: LoadedRelease
    cited: Mapping[str, Mapping[tuple[str, str], list[str]]]  # task -> (combo, item) -> ids

    @cached_property
    def breakdowns(self) -> dict[str, list[dict[str, Any]]]:
        """Item verdicts over valid runs, as records by task (§5.2 part 4)."""
        return _by_task(item_breakdown_table(self.frame))

    @cached_property
    def efficiencies(self) -> dict[str, list[dict[str, Any]]]:
        return _by_task(task_efficiency_table(self.frame))

    @cached_property
    def scored_by_task(self) -> dict[str, list[dict[str, Any]]]:
        """Each task's scored runs as records, by combination and run."""
        return _by_task(self.scored.sort_values(["task", "combination", "run"], kind="stable"))

    @cached_property
    def task_rows(self) -> dict[str, list[TaskRow]]:
        """Each task's rows in its domain report, in report order."""
        rows: dict[str, list[TaskRow]] = {}
        for report in self.reports.values():
            for row in report.tasks:
                rows.setdefault(row.task, []).append(row)
        return rows

    @property
    def version(self) -> str:
        return self.release.version

    @cached_property
    def tasks(self) -> dict[str, Task]:
        return {t.id: t for t in self.catalog.tasks}

    def public_tasks(self) -> list[Task]:
        return sorted((t for t in self.catalog.tasks if t.group == "public"), key=lambda t: t.id)


def version_context(
    loaded: LoadedRelease, cards: Mapping[str, Loaded[HarnessCard]]
) -> VersionContext:
    """Score every domain of a checked version and gather what its pages show."""
    assert loaded.release is not None
    assert loaded.catalog is not None
    release = loaded.release.model
    frame = published_frame(loaded)
    scored = score_runs(frame)
    reports = {d.id: build_report(loaded, d.id, frame, scored) for d in release.domains}
    return VersionContext(
        release=release,
        catalog=loaded.catalog.model,
        frame=frame,
        scored=scored,
        reports=reports,
        cards={k: v.model for k, v in cards.items()},
        below_floor={
            combo: below_floor(cards[b.combination.harnesscard].model, release.disclosure_floor)
            for combo, b in frame.bundles.items()
        },
        fingerprints={
            combo: fingerprint(cards[b.combination.harnesscard].model, b)
            for combo, b in frame.bundles.items()
        },
        deep_dives={d.model.task: d.model for d in loaded.deep_dives},
        loaded=loaded,
        cited=_cited(loaded, set(frame.bundles)),
    )


def _cited(
    loaded: LoadedRelease, published: set[str]
) -> dict[str, dict[tuple[str, str], list[str]]]:
    """The evidence ids valid runs cite, by task, then (combination, Judge item)."""
    cited: dict[tuple[str, str, str], set[str]] = {}
    for bundle in loaded.bundles:
        combo = bundle.bundle.model.combination.id
        columns = bundle.runs
        if combo not in published or not len(columns.evidence):
            continue
        judge = columns.verdicts[columns.verdicts["kind"] == LISTS["judge"]]
        evidence = columns.evidence.merge(
            judge[["row", "pos", "id"]].rename(columns={"id": "item"}), on=["row", "pos"]
        )
        runs = columns.runs
        evidence = evidence[(runs["status"].to_numpy()[evidence["row"].to_numpy()] == "valid")]
        tasks = runs["task"].astype(str).to_numpy()[evidence["row"].to_numpy()]
        for task, item, eid in zip(
            tasks, evidence["item"].astype(str), evidence["id"].astype(str), strict=True
        ):
            cited.setdefault((task, combo, item), set()).add(eid)
    out: dict[str, dict[tuple[str, str], list[str]]] = {}
    for (task, combo, item), ids in sorted(cited.items()):
        out.setdefault(task, {})[(combo, item)] = sorted(ids)
    return out


def _by_task(frame: pd.DataFrame) -> dict[str, list[dict[str, Any]]]:
    """The rows of a frame with a task column, as records grouped by task (one conversion)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for record in cast(list[dict[str, Any]], frame.to_dict("records")):
        out.setdefault(str(record["task"]), []).append(record)
    return out
