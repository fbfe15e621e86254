#!/usr/bin/env python3
"""Measure what the intervals of Judge channels, experiments, second raters and task sets
claim, on releases with a known truth shaped like the EnterpriseClawBench-shaped example
(``bench/profile_release.py``): text and visual tasks alternating, Lite the first tasks of
Full, a skill experiment (two levels × two consumers) on the last tasks, a second rater of
the first two combinations' runs on the first Lite tasks, two runs per task.

A run's quality is q = logistic(a_k + u_kt − d_t − offset_c + e), a_k the ability on Lite or
on the other Full tasks, d_t, u_kt and e normal (SD_TASK, SD_PAIR, SD_RUN); an item's level
round(G·q + bias_c + N(0, noise_c²)) in 0..G, a rule item passed with probability RULE_PASS;
a treatment adds SHIFT[level][consumer] + N(0, SD_SKILL²) (per task) to the consumer's
logit; the rater reads logistic(logit q + N(0, discord_c²)) with its bias and noise
(CHANNELS). Each figure of ``build_report`` is held against its estimand:

- a channel score (Lite, Full): the population mean over the scope's tasks of the channel of
  a task's expected channel score (Gauss–Hermite quadrature);
- a skill change: the population mean over targets of (expected treatment − expected
  baseline score), a level's the mean of its cells; over fewer targets than
  ``statistics.min_tasks_to_resample`` (run noise only), the mean of those targets' changes;
- rater agreement (ρ, MAE, mean difference of the pooled rated runs): its value over the
  population of such runs (POPULATION_TASKS tasks drawn; runs within a task are clustered,
  which widens the interval, not the estimand: every rated task has as many rated runs);
- Lite against Full: Spearman's ρ of the combinations' population means on the two sets
  (with three combinations −1, −0.5, 0.5 or 1: an interval only admits some orders).

``--quick``: 3 releases of setting 0, written nowhere; ``--readme``: bench/README.md's summary;
``--rho fisher``: the sets' ρ interval replaced by the raters' (Fisher's z), to measure why it
is not used (``bench/results/2026-12-04-sets-fisher.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import coverage_measure as cm  # noqa: E402
import profile_release as pr  # noqa: E402

from generator.score import sets  # noqa: E402
from generator.score.concordance import fisher_interval, spearman  # noqa: E402
from generator.score.report import build_report  # noqa: E402
from generator.score.results import Report  # noqa: E402

G, RUNS, RULE_PASS, RULE_WEIGHT = 10, 2, 0.9, 0.25
SD_TASK, SD_PAIR, SD_RUN, SD_SKILL = 1.0, 0.3, 0.4, 0.5
#: channel → (difficulty offset, Judge bias, Judge noise, rater bias, rater noise, discord)
CHANNELS = {"text": (0.0, 0.0, 0.8, 0.8, 1.0, 0.3), "visual": (0.3, -0.5, 1.2, 1.5, 1.5, 1.5)}
SHIFT = {"gpt-5.5": (0.4, 0.2), "haiku-4.5": (-0.5, -0.3)}  # per level: per consumer (logit)
POPULATION_TASKS = 100_000
NODES, WEIGHTS = np.polynomial.hermite_e.hermegauss(60)  # weights summing to √(2π)
PHI = np.vectorize(NormalDist().cdf)


@dataclass(frozen=True)
class Setting:
    tasks: int  # in the Full set
    lite: int  # the first tasks, in both sets
    combos: int  # on both sets; the first two are the consumers and the rated ones
    targets: int  # the experiment's targets: the last tasks (Full only)
    rated: int  # rated tasks per channel (the first Lite tasks)
    crossed: bool = False  # the combinations' order differs between the sets

    @property
    def label(self) -> str:
        """bench/README.md's column: A the example's size, B larger; × where the orders cross."""
        size = ("A" if self.tasks < 100 else "B") + ("×" if self.crossed else "")
        return size + (f", {self.targets} targets" if self.targets < 5 else "")

    @property
    def name(self) -> str:
        sizes = f"{self.lite}/{self.tasks} tasks, K={self.combos}, {self.targets} targets"
        return f"{sizes}, {self.rated} rated" + (", orders cross" if self.crossed else "")

    def abilities(self) -> tuple[np.ndarray, np.ndarray]:
        """Each combination's ability on Lite tasks and on the other tasks of Full: the
        same, or (crossed) adjacent pairs exchanged and spread four times wider there."""
        lite = np.linspace(0.3, -0.3, self.combos)
        swap = np.minimum(np.arange(self.combos) ^ 1, self.combos - 1)
        swap = np.array([0, 2, 1]) if self.combos == 3 else swap
        return lite, (4 * lite[swap] if self.crossed else lite)


SETTINGS = (
    Setting(30, 20, 3, 5, 6),
    Setting(30, 20, 3, 5, 6, crossed=True),
    Setting(30, 20, 3, 3, 6),
    Setting(150, 60, 8, 20, 30),
    Setting(150, 60, 8, 20, 30, crossed=True),
)


def channel_of(t: int) -> str:
    return "text" if t % 2 == 0 else "visual"


def logistic(z: np.ndarray) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-z)))


def judged(z: np.ndarray, channel: str) -> np.ndarray:
    """A run's expected Judge score at logit z: Σ_{l=1..G} P(level ≥ l) / G."""
    m = G * logistic(np.asarray(z, dtype=float))[..., None] + CHANNELS[channel][1]
    return np.asarray(PHI((m - np.arange(1, G + 1) + 0.5) / CHANNELS[channel][2]).sum(-1) / G)


def expect(mean: Any, sd: float, channel: str) -> np.ndarray:
    """E[judged(x)] for x ~ N(mean, sd²), elementwise in ``mean``."""
    x = np.asarray(mean, dtype=float)[..., None] + sd * NODES
    return np.asarray(judged(x, channel) @ (WEIGHTS / WEIGHTS.sum()))


def levels(p: np.ndarray, bias: Any, noise: Any, rng: np.random.Generator) -> np.ndarray:
    """Five item levels per run of quality ``p`` (p's shape × 5)."""
    raw = G * p[..., None] + bias + noise * rng.standard_normal((*p.shape, 5))
    return np.clip(np.round(raw), 0, G)


def rater_truth(
    ability: np.ndarray, channel: str, weights: np.ndarray, seed: int = 19
) -> dict[str, float]:
    """ρ, MAE and mean difference (second − Judge) over the population of rated runs."""
    rng = np.random.default_rng([seed, len(channel)])
    offset, bias, noise, rater_bias, rater_noise, discord = CHANNELS[channel]
    n, k = POPULATION_TASKS, len(ability)
    z = ability[:, None, None] - offset - SD_TASK * rng.standard_normal(n)[None, :, None]
    z = z + SD_PAIR * rng.standard_normal((k, n, 1)) + SD_RUN * rng.standard_normal((k, n, RUNS))
    judge = levels(logistic(z), bias, noise, rng) @ weights / G
    seen = logistic(z + discord * rng.standard_normal(z.shape))
    error = levels(seen, rater_bias, rater_noise, rng) @ weights / G - judge
    rho = spearman(judge.ravel(), (judge + error).ravel())
    return {"spearman": rho, "mae": float(np.abs(error).mean()), "difference": float(error.mean())}


def truths(s: Setting, weights: np.ndarray) -> dict[str, Any]:
    """A setting's estimands (those of few targets are per release: :func:`simulate`)."""
    lite, other = s.abilities()
    sd = float(np.sqrt(SD_TASK**2 + SD_PAIR**2 + SD_RUN**2))
    chans = [(channel_of(t), CHANNELS[channel_of(t)][0]) for t in range(s.tasks)]
    per_task = [
        expect((lite if t < s.lite else other) - o, sd, c) for t, (c, o) in enumerate(chans)
    ]
    out: dict[str, Any] = {"channels": {}, "sets": {}, "cells": {}}
    for scope, last in (("Lite", s.lite), ("Full", s.tasks)):
        for c in CHANNELS:
            mine = [per_task[t] for t in range(last) if chans[t][0] == c]
            out["channels"][f"{c}, {scope}"] = np.mean(mine, axis=0).tolist()
        judge = np.mean(per_task[:last], axis=0)
        out["sets"][scope] = (RULE_WEIGHT * RULE_PASS + (1 - RULE_WEIGHT) * judge).tolist()
    out["set_rho"] = spearman(np.array(out["sets"]["Lite"]), np.array(out["sets"]["Full"]))
    treated, targets = float(np.hypot(sd, SD_SKILL)), chans[s.tasks - s.targets :]
    for level, shift in SHIFT.items():
        a = other[:2]  # the consumers'
        change = [expect(a + shift - o, treated, c) - expect(a - o, sd, c) for c, o in targets]
        out["cells"][level] = ((1 - RULE_WEIGHT) * np.mean(change, axis=0)).tolist()
    out["agreement"] = {c: rater_truth(lite[:2], c, weights) for c in CHANNELS}
    return out


def simulate(s: Setting, rng: np.random.Generator, p: pr.Parts) -> tuple[Report, Any, Any]:
    """One release: its report; per level and consumer the mean expected change over its own
    targets (the run-noise interval's truth); per channel the rated runs' Judge and second
    scores, and their tasks."""
    lite, other = s.abilities()
    chans = [channel_of(t) for t in range(s.tasks)]
    table = np.array([CHANNELS[c] for c in chans])[:, :, None, None]  # tasks × 6 × 1 × 1
    ability = np.where(np.arange(s.tasks) < s.lite, lite[:, None], other[:, None])
    x = ability + SD_PAIR * rng.standard_normal((s.combos, s.tasks)) - table[:, 0, 0, 0]
    x -= SD_TASK * rng.standard_normal(s.tasks)

    def runs(x: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[Any]]:
        z = x[:, None] + SD_RUN * rng.standard_normal((len(x), RUNS))
        judge = levels(logistic(z), table[rows, 1], table[rows, 2], rng)
        rules = rng.random((len(rows), RUNS, 5)) < RULE_PASS
        return z, judge, pr.records(p, rows.tolist(), judge, rules)

    every, loaded, scored = np.arange(s.tasks), [], []
    rated, weights = every[: 2 * s.rated], p.weights / p.weights.sum() / G
    for k in range(s.combos):
        z, judge, records = runs(x[k], every)
        if k >= 2:
            loaded.append(pr.bundle(p, f"c{k}", records))
            continue
        seen = logistic(z[rated] + table[rated, 5, 0] * rng.standard_normal((len(rated), RUNS)))
        second = levels(seen, table[rated, 3], table[rated, 4], rng)
        loaded.append(pr.bundle(p, f"c{k}", records, (pr.rater(p, rated.tolist(), second),)))
        scored.append((judge[rated] @ weights, second @ weights))
    pairs = {}  # per channel: the Judge's and the rater's scores, the task of each
    for c in CHANNELS:
        on = np.array([chans[t] == c for t in rated])
        sides = [np.concatenate([pair[i][on].ravel() for pair in scored]) for i in (0, 1)]
        pairs[c] = [*sides, np.tile(np.repeat(np.arange(on.sum()), RUNS), len(scored))]
    targets, own = every[s.tasks - s.targets :], {}
    for level, shift in SHIFT.items():
        skill, own[level] = SD_SKILL * rng.standard_normal(len(targets)), []
        for k in range(2):
            base, treated = x[k, targets], x[k, targets] + shift[k] + skill
            loaded.append(pr.bundle(p, f"c{k}-skill-{level}", runs(treated, targets)[2]))
            change = [
                expect(a, SD_RUN, chans[t]) - expect(b, SD_RUN, chans[t])
                for a, b, t in zip(treated, base, targets, strict=True)
            ]
            own[level].append(float(np.mean(change)) * (1 - RULE_WEIGHT))
    return build_report(pr.version(p, loaded), pr.DOMAIN), own, pairs


class Held(cm.Tally):  # type: ignore[misc]
    """The tally of ``bench/coverage.py``, with the mean width of each interval held."""

    def __init__(self) -> None:
        super().__init__()
        self.widths: dict[str, list[float]] = {}

    def hold(self, name: str, low: float | None, high: float | None, truth: float) -> None:
        self.add(f"coverage: {name}", cm._covers(low, high, truth))
        if low is not None and high is not None:
            self.widths.setdefault(f"coverage: {name}", []).append(high - low)


def score_release(report: Report, truth: dict[str, Any], own: Any, tally: Held) -> None:
    """Hold one release's intervals against their truths."""
    lite = next(x for x in report.scopes if x.scope.whole and x.scope.group == "all")
    full = next(x for x in report.scopes if x.scope.task_set == "full" and x.scope.group == "all")
    for label, scope in (("Lite", lite), ("Full", full)):
        for c in scope.combinations:
            for ch, e in c.channels.items():
                value = truth["channels"][f"{ch}, {label}"][int(c.combination[1:])]
                tally.hold(f"{ch} channel score, {label}", e.low, e.high, value)
    (sets,) = report.sets
    tally.hold("Lite against Full, ρ", sets.low, sets.high, truth["set_rho"])
    tally.add("informative: Lite against Full, ρ interval above 0", (sets.low or -1) > 0)
    (experiment,) = report.experiments
    for change in [*experiment.cells, *experiment.level_means]:
        cells, mine = truth["cells"][change.level], own[change.level]
        k = None if change.consumer is None else int(change.consumer[1:])
        what = "skill change, creator's mean" if k is None else CHANGE
        population, here = (np.mean(cells), np.mean(mine)) if k is None else (cells[k], mine[k])
        if change.interval == "runs":
            tally.hold(f"{what}, these targets (run noise)", change.low, change.high, float(here))
            what = f"{what}, the population's (run noise, not claimed)"
        tally.hold(what, change.low, change.high, float(population))
    for a in report.agreement:
        for stat, label in (("spearman", "ρ"), ("mae", "MAE"), ("difference", "mean difference")):
            name, f = f"rater {label}, {a.channel}", getattr(a, stat)
            value = truth["agreement"][a.channel][stat]
            tally.hold(name, f.low, f.high, value)
            tally.add(f"truth above the interval: {name}", (f.high or 9) < value)


def run_setting(s: Setting, releases: int, samples: int) -> dict[str, Any]:
    p = pr.parts(s.tasks, s.lite, s.combos, s.targets, channel_of, samples)
    truth = truths(s, p.weights / p.weights.sum())
    rng = np.random.default_rng([s.tasks, s.combos, s.targets, s.rated, int(s.crossed), 19])
    tally, started = Held(), time.perf_counter()
    for _ in range(releases):
        tally.next_release()
        report, own, _ = simulate(s, rng, p)
        score_release(report, truth, own, tally)
    return {
        "setting": s.name,
        "label": s.label,
        **asdict(s),
        "releases": releases,
        "seconds": round(time.perf_counter() - started, 1),
        "truth": json.loads(json.dumps(truth), parse_float=lambda v: round(float(v), 4)),
        "figures": tally.summary(),
        "mean_width": {n: round(float(np.mean(w)), 4) for n, w in sorted(tally.widths.items())},
    }


def design(samples: int) -> dict[str, Any]:
    """The simulation's design: its constants."""
    names = "G RUNS RULE_PASS RULE_WEIGHT SD_TASK SD_PAIR SD_RUN SD_SKILL SHIFT POPULATION_TASKS"
    out = {n.lower(): globals()[n] for n in names.split()}
    return {"bootstrap_samples": samples, "channels": CHANNELS, **out}


RATER = [f"rater {s}, {c}" for s in ("ρ", "MAE", "mean difference") for c in CHANNELS]
CHANGE = "skill change, creator × consumer"
#: bench/README.md's rows, each a figure's name (what follows its first colon labels it).
README_ROWS = tuple(
    (name.split(": ", 1)[1], name)
    for name in (
        *(f"coverage: {c} channel score, {s}" for s in ("Lite", "Full") for c in CHANNELS),
        f"coverage: {CHANGE}",
        "coverage: skill change, creator's mean",
        f"coverage: {CHANGE}, these targets (run noise)",
        f"coverage: {CHANGE}, the population's (run noise, not claimed)",
        *(f"coverage: {r}" for r in RATER),
        "coverage: Lite against Full, ρ",
        "informative: Lite against Full, ρ interval above 0",
    )
)
README_MARKS = (
    "<!-- coverage-profiles: generated by bench/coverage_profiles.py --readme -->",
    "<!-- /coverage-profiles -->",
)
RESULTS = ROOT / "bench" / "results" / "coverage_profiles.json"


def shortfalls(settings: list[dict[str, Any]]) -> list[str]:
    """Each interval that held its truth less often than 95% by over two Monte-Carlo errors."""
    return [
        f"{name.split(': ', 1)[1]} ({s['label']}) {f['rate']:.3f} ± {f['mc_se']:.3f}"
        for s in settings
        for name, f in s["figures"].items()
        if name.startswith("coverage: ") and "not claimed" not in name
        if f["rate"] + 2 * f["mc_se"] < 0.95
    ]


def readme_block(document: dict[str, Any]) -> str:
    """bench/README.md's summary of the results (``bench/results/coverage_profiles.json``)."""
    named = document["settings"]
    settings = [{**s, "setting": s["label"]} for s in named]  # columns by label
    errors = [f["mc_se"] for s in settings for f in s["figures"].values() if f["mc_se"] > 0]
    legend = "; ".join(f"{s['label']}: {s['setting']}, ρ {s['truth']['set_rho']:g}" for s in named)
    releases = ", ".join(map(str, sorted({s["releases"] for s in settings})))
    widths = [
        {**s, "figures": {n: {"rate": w} for n, w in s["mean_width"].items()}} for s in settings
    ]
    lines = [
        README_MARKS[0],
        f"{releases} releases per setting (Lite/Full tasks, K combinations on both sets, the "
        f"experiment's targets, rated tasks per channel, the true Lite-against-Full ρ): {legend}. "
        f"Monte-Carlo errors ±{min(errors):.3f}–{max(errors):.3f}. Share of nominal 95% "
        "intervals that held their truth:",
        "",
        *cm._table(settings, README_ROWS),
        "",
        "Their mean width:",
        "",
        *cm._table(widths, README_ROWS[:-1]),
        "",
        "Short of 95% by more than two Monte-Carlo errors: "
        f"{'; '.join(shortfalls(settings)) or 'none'}.",
        README_MARKS[1],
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--releases", type=int, default=200, help="releases per setting")
    parser.add_argument("--samples", type=int, default=2000, help="bootstrap replicates")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--readme", action="store_true")
    parser.add_argument("--setting", type=int, action="append", choices=range(len(SETTINGS)))
    parser.add_argument("--out", type=Path, default=None, help="default: RESULTS")
    parser.add_argument(
        "--rho",
        choices=("percentile", "fisher"),
        default="percentile",
        help="the sets' ρ interval: as built, or the raters' Fisher-z (then --out is needed)",
    )
    args = parser.parse_args(argv)
    if args.rho == "fisher":
        if args.out is None and not args.quick:
            parser.error("--rho fisher measures an interval the site does not use: give --out")
        sets.order_interval = fisher_interval  # type: ignore[assignment]
    if args.readme:
        print(readme_block(json.loads((args.out or RESULTS).read_text(encoding="utf-8"))))
        return 0
    out = args.out if args.out is not None or args.quick else RESULTS
    releases, samples = (3, 200) if args.quick else (args.releases, args.samples)
    chosen = [SETTINGS[i] for i in args.setting or ([0] if args.quick else range(len(SETTINGS)))]
    results = []
    for s in chosen:
        results.append(found := run_setting(s, releases, samples))
        print(f"{found['setting']} ({found['releases']} releases, {found['seconds']} s)")
        for name, f in found["figures"].items():
            print(f"  {name}: {f['rate']:.3f} ± {f['mc_se']:.3f} ({f['hits']}/{f['trials']})")
    if out is not None:
        document = {**design(samples), "sets_interval": args.rho, "settings": results}
        out.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
