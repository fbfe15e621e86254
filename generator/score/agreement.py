"""Rater agreement: each second rater against the bundles' Judge, per Judge channel, over
the runs of one domain both rated (EnterpriseClawBench §4.3: two AI judges, AI against
humans, per route).

A run's channel score, for either rater, is the weighted mean of g/G over its task's Judge
items on that channel, a judged overall apart — J restricted to the channel, formed by
:func:`generator.protocol.outcome.item_credit` as J is, an item of a failed module at 0 for
both. The Judge's side needs a valid run with a valid Judge result; the rater's, its levels
of the channel's items on that run. Only pooled figures of the domain are formed, never one
of a task, each with the tasks it rests on: whether they are published over held-out tasks is
the privacy gate's decision (:func:`generator.score.gating_others.gate_agreement`). Over fewer
tasks than an interval needs, they have none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from generator.load import LoadedBundle
from generator.models import Catalog, Release
from generator.models.bundle import Rater
from generator.models.runs import RatedRun
from generator.protocol.items import JUDGE_CHANNEL, item_channel
from generator.protocol.outcome import JUDGE, Items, Verdicts, item_credit
from generator.score.agreement_results import AgreementFigure, RaterAgreement
from generator.score.concordance import compare
from generator.score.frame import VersionFrame
from generator.score.runs import failed_verdicts
from generator.score.stats import seed_for

#: Fewest rated tasks a rank correlation's interval is ever formed over.
MIN_TASKS = 3


def channels(release: Release) -> list[tuple[str, str]]:
    """The release's Judge channels as (id, title); without channels, the one Judge."""
    declared = [(c.id, c.title) for c in release.profile.channels]
    return declared or [(JUDGE_CHANNEL, "Judge")]


@dataclass(frozen=True)
class ChannelItems:
    """The declared items of a frame, per channel: ``items[c]`` weighs only channel c's
    Judge items (every other item weighs 0), ``mass[c]`` each task's weight on c (its
    channel items but a judged overall), by task id."""

    items: dict[str, Items]
    mass: dict[str, pd.Series]
    on: dict[str, np.ndarray]  # per channel, per item key: an item of the channel, not overall


def channel_items(frame: VersionFrame, catalog: Catalog) -> ChannelItems:
    """:class:`ChannelItems` of the frame's items, channels as the catalog names them."""
    named = {(t.id, j.id): item_channel(j) for t in catalog.tasks for j in t.scoring.judge_items}
    table = frame.items
    judge = table["kind"].to_numpy() == JUDGE
    channel = np.array(
        [named.get(k, "") if j else "" for k, j in zip(_keys(table), judge, strict=True)],
        dtype=object,
    )
    overall = table["overall"].to_numpy(dtype=bool)
    weight = table["weight"].to_numpy(dtype=np.float64)
    out = ChannelItems({}, {}, {})
    for c, _ in channels(frame.release):
        on = (channel == c) & ~overall
        out.on[c] = on
        out.items[c] = Items(
            kind=table["kind"].to_numpy(),
            max_level=table["max_level"].to_numpy(),
            pass_level=table["pass_level"].to_numpy(),
            overall=overall,
            weight=np.where(on, weight, 0.0),
        )
        out.mass[c] = pd.Series(np.where(on, weight, 0.0)).groupby(table["task"].to_numpy()).sum()
    return out


def _keys(table: pd.DataFrame) -> Iterable[tuple[str, str]]:
    return zip(table["task"].astype(str), table["item_id"].astype(str), strict=True)


def judge_scores(frame: VersionFrame, by: ChannelItems, combos: Iterable[str]) -> pd.DataFrame:
    """Per run of the ``combos`` (index ``rid``), the Judge's score on each channel (a
    column per channel; NaN where the run has no valid Judge result or no item there)."""
    wanted = set(combos)
    width = len(frame.items)
    kind = frame.items["kind"].to_numpy()
    rids: list[np.ndarray] = []
    scores: dict[str, list[np.ndarray]] = {c: [] for c in by.items}
    for part in frame.parts:
        if part.combination not in wanted:
            continue
        item = part.item
        failed = failed_verdicts(part, frame.failed, width, item)
        verdicts = Verdicts(part.runs, part.row, item, kind[item], part.value, failed)
        rids.append(np.arange(part.start, part.start + part.runs))
        for c, items in by.items.items():
            scores[c].append(item_credit(items, verdicts)[:, JUDGE])
    rid = np.concatenate(rids) if rids else np.empty(0, np.int64)
    runs = frame.runs.iloc[rid]
    judged = runs["valid"].to_numpy(bool) & runs["judge_valid"].to_numpy(bool)
    out = pd.DataFrame(index=pd.Index(rid, name="rid"))
    for c, parts in scores.items():
        credit = np.concatenate(parts) if parts else np.empty(0)
        mass = by.mass[c].reindex(runs["task"].to_numpy()).fillna(0.0).to_numpy()
        with np.errstate(invalid="ignore", divide="ignore"):
            out[c] = np.where(judged & (mass > 0), credit / mass, np.nan)
    return out


def rater_scores(
    frame: VersionFrame, by: ChannelItems, combo: str, rated: Sequence[RatedRun]
) -> pd.DataFrame:
    """Per rated run of the bundle ``combo`` found among the frame's runs (index ``rid``),
    the rater's score on each channel whose items it rated there (NaN elsewhere)."""
    mine = frame.runs[frame.runs["combination"] == combo]
    key = {
        (str(t), int(r)): int(k)
        for t, r, k in zip(mine["task"], mine["run"], mine.index, strict=True)
    }
    item_key = {k: i for i, k in enumerate(_keys(frame.items))}
    rid, row, item, value = [], [], [], []
    for run in rated:
        found = key.get((run.task, run.run))
        if found is None:
            continue
        rid.append(found)
        for verdict in run.judge:
            row.append(len(rid) - 1)
            item.append(item_key[(run.task, verdict.id)])
            value.append(float(verdict.level))
    rows, items = np.array(row, np.int64), np.array(item, np.int64)
    failed = _failed(frame, np.array(rid, np.int64)[rows], items)
    kind = frame.items["kind"].to_numpy()[items]
    verdicts = Verdicts(len(rid), rows, items, kind, np.array(value, np.float64), failed)
    tasks = frame.runs["task"].to_numpy()[np.array(rid, np.int64)]
    out = pd.DataFrame(index=pd.Index(rid, name="rid", dtype=np.int64))
    for c, on in by.on.items():
        touched = np.bincount(rows, weights=on[items].astype(float), minlength=len(rid)) > 0
        mass = by.mass[c].reindex(tasks).fillna(0.0).to_numpy()
        credit = item_credit(by.items[c], verdicts)[:, JUDGE]
        with np.errstate(invalid="ignore", divide="ignore"):
            out[c] = np.where(touched & (mass > 0), credit / mass, np.nan)
    return out


def _failed(frame: VersionFrame, rid: np.ndarray, item: np.ndarray) -> np.ndarray:
    """Whether each (run, item) is of a module the run names as failed."""
    width = len(frame.items)
    failed = frame.failed
    named = failed["rid"].to_numpy(np.int64) * width + failed["item"].to_numpy(np.int64)
    return np.isin(rid * width + item, named)


def rated_pairs(
    frame: VersionFrame, catalog: Catalog, bundles: Iterable[LoadedBundle]
) -> tuple[pd.DataFrame, dict[str, Rater]]:
    """Every (rater, channel, run) both scored: columns ``rater``, ``channel``, ``rid``,
    ``task``, ``judge`` and ``second`` (the two scores); and each rater, by id (as the
    first bundle that lists it declares it). Bundles without publication consent (not in
    the frame) are left out."""
    rated = [b for b in bundles if b.raters and b.bundle.model.combination.id in frame.bundles]
    by = channel_items(frame, catalog)
    combos = [b.bundle.model.combination.id for b in rated]
    judge = judge_scores(frame, by, combos)
    raters: dict[str, Rater] = {}
    pairs = []
    for loaded in rated:
        combo = loaded.bundle.model.combination.id
        for rater in loaded.raters:
            raters.setdefault(rater.rater.id, rater.rater)
            second = rater_scores(frame, by, combo, rater.runs)
            for c in by.items:
                ours = judge[c].reindex(second.index).notna().to_numpy(bool)
                rid = second.index.to_numpy()[second[c].notna().to_numpy(bool) & ours]
                pairs.append(
                    pd.DataFrame(
                        {
                            "rater": rater.rater.id,
                            "channel": c,
                            "rid": rid,
                            "task": frame.runs["task"].to_numpy()[rid],
                            "judge": judge.loc[rid, c].to_numpy(),
                            "second": second.loc[rid, c].to_numpy(),
                        }
                    )
                )
    columns = ["rater", "channel", "rid", "task", "judge", "second"]
    found = pd.concat(pairs, ignore_index=True) if pairs else pd.DataFrame(columns=columns)
    return found, raters


@dataclass(frozen=True)
class Rated:
    """One rater's agreement on one channel, before the privacy gate, and its rated tasks."""

    result: RaterAgreement
    tasks: tuple[str, ...]


def agreement(
    frame: VersionFrame, catalog: Catalog, bundles: Iterable[LoadedBundle], domain: str
) -> list[Rated]:
    """Each second rater against the Judge on each channel, over the domain's runs both
    rated, per channel (in the release's order) and rater (by id); none without raters."""
    pairs, raters = rated_pairs(frame, catalog, bundles)
    if not len(pairs):
        return []
    tasks = frame.tasks
    mine = pairs[tasks.loc[pairs["task"].to_numpy(), "domain"].to_numpy() == domain]
    out = []
    for c, title in channels(frame.release):
        for rater_id in sorted(raters):
            found = mine[(mine["channel"] == c) & (mine["rater"] == rater_id)]
            if len(found):
                out.append(_agreement(frame, domain, raters[rater_id], (c, title), found))
    return out


def _agreement(
    frame: VersionFrame,
    domain: str,
    rater: Rater,
    channel: tuple[str, str],
    pairs: pd.DataFrame,
) -> Rated:
    """One rater on one channel: the figures, without interval where they must be."""
    stats = frame.release.statistics
    codes, names = pd.factorize(pairs["task"], sort=True)
    held = int((frame.tasks.loc[names, "group"] == "held-out").sum())
    base = RaterAgreement(
        rater=rater.id,
        title=rater.title,
        kind=rater.kind,
        channel=channel[0],
        channel_title=channel[1],
        runs=len(pairs),
        tasks=len(names),
        held_out_tasks=held,
    )
    needed = max(MIN_TASKS, stats.min_tasks_to_resample)
    interval = len(names) >= needed
    seed = seed_for(stats.seed, frame.version, domain, "agreement", rater.id, channel[0])
    found = compare(
        pairs["judge"].to_numpy(np.float64),
        pairs["second"].to_numpy(np.float64),
        codes,
        stats.bootstrap_samples,
        seed,
        stats.confidence,
        interval,
    )
    note = None
    if not interval:
        note = (
            f"no interval: {len(names)} task(s) rated, fewer than the {needed} an interval "
            "over resampled tasks needs"
        )
    figures = {
        "spearman": _figure(found.spearman),
        "mae": _figure(found.mae),
        "difference": _figure(found.difference),
        "interval_note": note,
    }
    return Rated(base.model_copy(update=figures), tuple(str(n) for n in names))


def _figure(values: tuple[float, float, float]) -> AgreementFigure:
    value, low, high = (None if np.isnan(v) else float(v) for v in values)
    return AgreementFigure(value=value, low=low, high=high)
