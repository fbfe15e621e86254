"""Everything one version's pages are made of, computed once: reports, frame, inputs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from generator.disclosure import below_floor, fingerprint
from generator.load import Loaded, LoadedBundle, LoadedRelease
from generator.models import Catalog, DeepDive, HarnessCard, Release, Task
from generator.protocol.items import LISTS
from generator.score.frame import VersionFrame
from generator.score.results import Report, TaskRow
from generator.score.version import ScoredVersion


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

    def declares_judge_items(self, domain: str | None = None) -> bool:
        """Whether a task (of ``domain``, else of the release) declares Judge items: a
        pass/fail release or domain has no Judge score to show."""
        return any(t.scoring.judge_items and domain in (None, t.domain) for t in self.catalog.tasks)

    @cached_property
    def repeats_outcome(self) -> frozenset[str]:
        """The figures (``rule_score``, ``success_rate``) equal to the Task Score, value and
        interval, for every scored combination in every scope of the version: in a pass/fail
        release, where each task is one check, they say nothing the Task Score does not, so
        the pages show them once (the downloads keep them)."""
        rows = [
            c
            for report in self.reports.values()
            for scope in report.scopes
            for c in scope.combinations
            if c.status == "scored"
        ]

        def same(name: str) -> bool:
            def key(e: object) -> tuple[object, ...] | None:
                return None if e is None else tuple(getattr(e, k) for k in ("value", "low", "high"))

            return all(
                key(getattr(c, name)) == key(c.task_score) and c.task_score is not None
                for c in rows
            )

        return frozenset(n for n in ("rule_score", "success_rate") if rows and same(n))

    def public_tasks(self) -> list[Task]:
        return sorted((t for t in self.catalog.tasks if t.group == "public"), key=lambda t: t.id)


def version_context(
    scored: ScoredVersion,
    cards: Mapping[str, Loaded[HarnessCard]],
    cited: Cited | None = None,
) -> VersionContext:
    """What the pages of a scored version show; ``cited``: its :func:`cited_evidence`, when
    gathered already (the build gathers it beside the scoring)."""
    loaded, frame, release = scored.loaded, scored.frame, scored.release
    assert loaded.catalog is not None
    return VersionContext(
        release=release,
        catalog=loaded.catalog.model,
        frame=frame,
        scored=scored.scored,
        reports=scored.reports,
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
        cited=cited_evidence(loaded) if cited is None else cited,
    )


#: The evidence ids valid runs cite: task -> (combination, Judge item) -> ids.
Cited = dict[str, dict[tuple[str, str], list[str]]]


def cited_evidence(loaded: LoadedRelease) -> Cited:
    """The evidence ids the valid runs of published bundles cite (§7.2: consent; an
    experiment's treatment bundles are shown only in its results), by task, then
    (combination, Judge item); tasks, keys and ids sorted."""
    published = {
        b.bundle.model.combination.id
        for b in loaded.bundles
        if b.bundle.model.consent.granted and b.bundle.model.condition is None
    }
    return _cited(loaded, published)


def _cited(
    loaded: LoadedRelease, published: set[str]
) -> dict[str, dict[tuple[str, str], list[str]]]:
    """The evidence ids valid runs cite, by task, then (combination, Judge item); tasks,
    keys and ids sorted."""
    parts = [
        _citations(bundle)
        for bundle in loaded.bundles
        if bundle.bundle.model.combination.id in published and len(bundle.runs.evidence)
    ]
    found = [p for p in parts if len(p[0])]
    if not found:
        return {}
    # Per column (task, combination, item, id): codes in sorted order of the strings.
    coded = [pd.factorize(np.concatenate([p[i] for p in found]), sort=True) for i in range(4)]
    codes = np.stack([c for c, _ in coded])
    codes = codes[:, np.lexsort(codes[::-1])]
    codes = codes[:, np.r_[True, (np.diff(codes, axis=1) != 0).any(axis=0)]]  # distinct ids
    starts = np.flatnonzero(np.r_[True, (np.diff(codes[:3], axis=1) != 0).any(axis=0)])
    ends = [*starts[1:].tolist(), codes.shape[1]]
    keys = (
        np.asarray(u, dtype=object)[c[starts]].tolist()
        for (_, u), c in zip(coded[:3], codes[:3], strict=True)
    )
    ids = np.asarray(coded[3][1], dtype=object)[codes[3]].tolist()
    out: dict[str, dict[tuple[str, str], list[str]]] = {}
    for task, combo, item, start, end in zip(*keys, starts.tolist(), ends, strict=True):
        out.setdefault(task, {})[(combo, item)] = ids[start:end]
    return out


def _citations(bundle: LoadedBundle) -> tuple[np.ndarray, ...]:
    """Per evidence id a valid run of the bundle cites: its task, combination, Judge item
    and id (arrays of strings)."""
    columns = bundle.runs
    judge = columns.verdicts[columns.verdicts["kind"] == LISTS["judge"]]
    evidence = columns.evidence.merge(
        judge[["row", "pos", "id"]].rename(columns={"id": "item"}), on=["row", "pos"]
    )
    rows = evidence["row"].to_numpy()
    valid = columns.runs["status"].to_numpy()[rows] == "valid"
    tasks = _strings(columns.runs["task"])[rows[valid]]
    combo = np.full(len(tasks), bundle.bundle.model.combination.id, dtype=object)
    return tasks, combo, _strings(evidence["item"])[valid], _strings(evidence["id"])[valid]


def _strings(column: pd.Series) -> np.ndarray:
    """``column.astype(str)`` as an array of Python strings (categories converted once)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        names = [str(c) for c in column.cat.categories] + [str(float("nan"))]
        return np.asarray(names, dtype=object)[column.cat.codes.to_numpy()]
    return column.astype(str).to_numpy(dtype=object)
