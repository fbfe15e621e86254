"""Assemble every aggregate of one (version, domain) into a :class:`Report`."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from generator.load import LoadedRelease
from generator.models import Release
from generator.score.aggregate import (
    ScopeData,
    _not_covered,
    aggregate_scope,
    replicates_of,
    select,
)
from generator.score.frame import VersionFrame, build_frame
from generator.score.results import (
    CombinationInfo,
    Contamination,
    Estimate,
    Report,
    ScopeResult,
    Settings,
    TaskRow,
)
from generator.score.runs import score_runs
from generator.score.scope import GROUPS, Scope, withheld_scopes
from generator.score.stats import percentile_interval

GROUP_TITLES = {"all": "all tasks", "public": "public group", "held-out": "held-out group"}


def published_frame(version: LoadedRelease) -> VersionFrame:
    """The version's columns without bundles that lack publication consent (§7.2)."""
    return build_frame(version, consented_only=True)


def _settings(release: Release) -> Settings:
    stats = release.statistics
    return Settings(
        confidence=stats.confidence,
        bootstrap_samples=stats.bootstrap_samples,
        seed=stats.seed,
        runs_per_task=release.runs_per_task,
        reliability_k=list(release.reliability_k),
        min_held_out_aggregate=release.groups.min_held_out_aggregate,
    )


def build_report(
    version: LoadedRelease,
    domain_id: str,
    frame: VersionFrame | None = None,
    runs: pd.DataFrame | None = None,
) -> Report:
    """Every number the site shows for one domain of one version.

    ``frame`` and its scored ``runs`` may be passed in when already computed for the version.
    """
    frame = published_frame(version) if frame is None else frame
    release = frame.release
    domain = next(d for d in release.domains if d.id == domain_id)
    runs = score_runs(frame) if runs is None else runs
    tasks = frame.tasks[frame.tasks["domain"] == domain_id]
    withheld = withheld_scopes(tasks, release.groups.min_held_out_aggregate)
    scopes: list[ScopeResult] = []
    data_of: dict[str, ScopeData] = {}
    subs: list[tuple[str | None, str]] = [(None, domain.title)] + [
        (s.id, f"{s.title} ({domain.subdivision_label})") for s in domain.subdivisions
    ]
    for sub, title in subs:
        part = tasks if sub is None else tasks[tasks["subdivision"] == sub]
        all_public = not (part["group"] == "held-out").any()
        for group in GROUPS:
            if all_public and group == "public":
                continue  # the same tasks as "all tasks": shown once
            scope = Scope(version=frame.version, domain=domain_id, subdivision=sub, group=group)
            label = f"{title} — {GROUP_TITLES[group]}"
            if all_public and group == "all":
                label += " (all public)"
            data = select(scope, frame.tasks, runs, release)
            if data.tasks.empty:
                continue
            reason = withheld.get((sub, group))
            if reason is not None:
                scopes.append(
                    ScopeResult(scope=scope, title=label, withheld=reason, tasks=len(data.tasks))
                )
                continue
            data_of[scope.key] = data
            scopes.append(aggregate_scope(data, dict(frame.bundles), label))
    return Report(
        version=frame.version,
        domain=domain_id,
        domain_title=domain.title,
        illustrative=release.illustrative,
        notice=release.notice,
        settings=_settings(release),
        combinations=[_info(frame, c) for c in sorted(frame.bundles)],
        scopes=scopes,
        tasks=_task_rows(frame, runs, tasks),
        contamination=_contamination(frame, data_of, domain_id),
        contamination_note=None
        if _has_both(data_of, frame.version, domain_id)
        else (
            withheld.get((None, "held-out"))
            or "needs tasks in both the public and the held-out group"
        ),
    )


def _info(frame: VersionFrame, combo: str) -> CombinationInfo:
    b = frame.bundles[combo]
    return CombinationInfo(
        id=combo,
        title=b.combination.title,
        harnesscard=b.combination.harnesscard,
        harness_mode=b.combination.harness_mode,
        model=f"{b.combination.model.name} {b.combination.model.version}",
        tokenizer=b.combination.model.tokenizer,
        evaluation=b.evaluation,
    )


def _task_rows(frame: VersionFrame, runs: pd.DataFrame, tasks: pd.DataFrame) -> list[TaskRow]:
    """Per public task and combination; held-out tasks never get a row (§4.4)."""
    public = tasks[tasks["group"] == "public"].sort_index()
    if public.empty:
        return []
    valid = runs[runs["valid"] & runs["task"].isin(public.index)]
    means = (
        valid.groupby(["combination", "task"])
        .agg(
            score=("score", "mean"),
            rule=("rule", "mean"),
            judge=("judge", "mean"),
            runs=("score", "size"),
            successes=("success", "sum"),
        )
        .reset_index()
    )
    found: dict[tuple[str, str], dict[Hashable, Any]] = {
        (str(r["combination"]), str(r["task"])): r for r in means.to_dict("records")
    }
    scope = Scope(version=frame.version, domain=str(public["domain"].iloc[0]), group="public")
    rows = []
    for combo in sorted(frame.bundles):
        covered = set(_not_covered(frame.bundles[combo], scope, public)[0])
        for task, title, sub in zip(
            public.index, public["title"], public["subdivision"], strict=True
        ):
            m = found.get((combo, str(task)))
            status = (
                "not-covered"
                if task not in covered
                else "scored"
                if m is not None
                else "no-valid-runs"
            )
            judge = None if m is None or pd.isna(m["judge"]) else float(m["judge"])
            rows.append(
                TaskRow(
                    task=str(task),
                    title=str(title),
                    subdivision=str(sub),
                    combination=combo,
                    status=status,
                    score=None if m is None else float(m["score"]),
                    rule=None if m is None else float(m["rule"]),
                    judge=judge,
                    valid_runs=0 if m is None else int(m["runs"]),
                    successes=0 if m is None else int(m["successes"]),
                )
            )
    return rows


def _has_both(data_of: dict[str, ScopeData], version: str, domain: str) -> bool:
    return all(
        Scope(version=version, domain=domain, group=g).key in data_of
        for g in ("public", "held-out")
    )


def _contamination(
    frame: VersionFrame, data_of: dict[str, ScopeData], domain: str
) -> list[Contamination]:
    """Public minus held-out Task Score per combination, with a bootstrap interval (§4.4)."""
    if not _has_both(data_of, frame.version, domain):
        return []
    conf = frame.release.statistics.confidence
    public = data_of[Scope(version=frame.version, domain=domain, group="public").key]
    held = data_of[Scope(version=frame.version, domain=domain, group="held-out").key]
    out = []
    for combo in sorted(frame.bundles):
        bundle = frame.bundles[combo]
        pv, preps, pn = replicates_of(public, combo, bundle)
        hv, hreps, hn = replicates_of(held, combo, bundle)
        if pn == 0 or hn == 0:
            continue

        def est(value: float, reps: np.ndarray, n: int) -> Estimate:
            low, high = percentile_interval(reps, conf)
            return Estimate(value=value, low=low, high=high, tasks=n)

        out.append(
            Contamination(
                combination=combo,
                public=est(pv, preps, pn),
                held_out=est(hv, hreps, hn),
                gap=est(pv - hv, preps - hreps, pn + hn),
                note=None
                if pn == len(public.tasks)
                else f"public side over {pn} of {len(public.tasks)} public tasks (incomplete or "
                "not covered); read the gap with care",
            )
        )
    return out
