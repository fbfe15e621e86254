#!/usr/bin/env python3
"""Measure what the intervals of Judge channels, experiments, second raters and task sets
claim, on releases with a known truth.

Each simulated release is shaped like the EnterpriseClawBench-shaped example (its release,
task and bundle declarations are the templates): dual-channel tasks (rule weight 0.25, five
rule items, five weighted Judge items on the text or the visual channel, levels 0..10, the
channels alternating), a Lite set of the first tasks inside the Full set, a skill experiment
(two levels × two consumers) on the last tasks, a second rater of the first two
combinations' runs on the first Lite tasks, two runs per task, every task public. A run's
quality is q = logistic(a_k + u_kt − d_t − offset_c + e): a combination's ability a_k (on
Lite tasks, or on the other Full tasks), d_t ~ N(0, SD_TASK²), u_kt ~ N(0, SD_PAIR²),
e ~ N(0, SD_RUN²). A Judge item's level is round(G·q + bias_c + N(0, noise_c²)) clipped to
0..G; a rule item passes with probability RULE_PASS. A treatment adds SHIFT[level][consumer]
+ N(0, SD_SKILL²) (one draw per level and task) to its consumer's logit. The second rater
reads logistic(logit q + N(0, discord_c²)) with its own bias and noise.

Every figure is taken from ``build_report`` and held against its estimand:

- a Judge channel's score (``channels``, on Lite and on Full): the population mean over the
  scope's tasks of the channel of a task's expected channel score (Gauss–Hermite);
- an experiment's cell: the population mean over target tasks of (expected treatment score
  − expected baseline score); a level's mean: the mean of its cells. Over fewer targets than
  ``statistics.min_tasks_to_resample`` the interval claims the run noise only, and its truth
  is the mean of those very targets' expected changes;
- rater agreement (Spearman's ρ, mean absolute error, mean difference over the pooled rated
  runs): its value over the population of such runs (the rated combinations' runs on the
  channel's Lite tasks), computed on POPULATION_TASKS tasks. Runs of a task are clustered:
  that widens the interval, not the estimand (every rated task has the same runs);
- Lite against Full: Spearman's ρ of the combinations' population means on the two sets.
  With three combinations ρ is one of −1, −0.5, 0.5, 1: an interval only admits some orders.

Usage::

    python bench/coverage_profiles.py [--releases 200] [--quick | --setting I ...] [--out FILE]
    python bench/coverage_profiles.py --readme   # the README's summary of the results
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import coverage_measure as cm  # noqa: E402

from generator.load import Loaded, LoadedBundle, LoadedRelease, load_inputs  # noqa: E402
from generator.load.raters import LoadedRater  # noqa: E402
from generator.load.records import columns_from_records  # noqa: E402
from generator.load.source import Source  # noqa: E402
from generator.models import Bundle, Catalog, Release, RunRecord  # noqa: E402
from generator.models.bundle import Rater  # noqa: E402
from generator.models.runs import RatedRun  # noqa: E402
from generator.score.concordance import spearman  # noqa: E402
from generator.score.report import build_report  # noqa: E402
from generator.score.results import Report  # noqa: E402

TEMPLATE = ROOT / "examples" / "enterpriseclawbench"
DOMAIN, G, RUNS, RULE_PASS, RULE_WEIGHT = "workplace", 10, 2, 0.9, 0.25
SD_TASK, SD_PAIR, SD_RUN, SD_SKILL = 1.0, 0.3, 0.4, 0.5
#: channel → (difficulty offset, Judge bias, Judge noise, rater bias, rater noise, discord)
CHANNELS = {"text": (0.0, 0.0, 0.8, 0.8, 1.0, 0.3), "visual": (0.3, -0.5, 1.2, 1.5, 1.5, 1.5)}
SHIFT = {"gpt-5.5": (0.4, 0.2), "haiku-4.5": (-0.5, -0.3)}  # per level: per consumer (logit)
POPULATION_TASKS = 100_000
NODES, WEIGHTS = np.polynomial.hermite_e.hermegauss(60)
WEIGHTS = WEIGHTS / WEIGHTS.sum()
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
    def name(self) -> str:
        cross = ", orders cross" if self.crossed else ""
        return (
            f"{self.lite}/{self.tasks} tasks, K={self.combos}, {self.targets} targets, "
            f"{self.rated} rated{cross}"
        )

    def abilities(self) -> tuple[np.ndarray, np.ndarray]:
        """Each combination's ability on Lite tasks and on the other tasks of Full: the
        same, or (crossed) adjacent pairs exchanged and spread four times wider there."""
        lite = np.linspace(0.3, -0.3, self.combos)
        if not self.crossed:
            return lite, lite
        swap = np.minimum(np.arange(self.combos) ^ 1, self.combos - 1)
        return lite, 4 * lite[np.array([0, 2, 1]) if self.combos == 3 else swap]


SETTINGS = (
    Setting(30, 20, 3, 5, 6),
    Setting(30, 20, 3, 5, 6, crossed=True),
    Setting(30, 20, 3, 3, 6),
    Setting(150, 60, 8, 20, 30),
    Setting(150, 60, 8, 20, 30, crossed=True),
)


def channel_of(t: int) -> str:
    return "text" if t % 2 == 0 else "visual"


def judged(z: np.ndarray, channel: str) -> np.ndarray:
    """A run's expected Judge score at logit z: Σ_{l=1..G} P(level ≥ l) / G."""
    _, bias, noise, *_ = CHANNELS[channel]
    m = G / (1 + np.exp(-np.asarray(z, dtype=float)))[..., None] + bias
    out: np.ndarray = PHI((m - np.arange(1, G + 1) + 0.5) / noise).sum(axis=-1) / G
    return out


def expect(mean: Any, sd: float, channel: str) -> np.ndarray:
    """E[judged(x)] for x ~ N(mean, sd²), elementwise in ``mean``."""
    x = np.asarray(mean, dtype=float)[..., None] + sd * NODES
    out: np.ndarray = judged(x, channel) @ WEIGHTS
    return out


def levels(p: np.ndarray, bias: Any, noise: Any, rng: np.random.Generator) -> np.ndarray:
    """Five item levels per run of quality ``p`` (p's shape × 5)."""
    raw = G * p[..., None] + bias + noise * rng.standard_normal((*p.shape, 5))
    out: np.ndarray = np.clip(np.round(raw), 0, G)
    return out


def logistic(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1 / (1 + np.exp(-z))
    return out


def rater_truth(ability: np.ndarray, channel: str, weights: np.ndarray) -> dict[str, float]:
    """ρ, MAE and mean difference (second − Judge) over the population of rated runs."""
    rng = np.random.default_rng([19, len(channel)])
    offset, bias, noise, rater_bias, rater_noise, discord = CHANNELS[channel]
    n = POPULATION_TASKS
    z = (
        ability[:, None, None]
        - offset
        - SD_TASK * rng.standard_normal(n)[None, :, None]
        + SD_PAIR * rng.standard_normal((len(ability), n, 1))
        + SD_RUN * rng.standard_normal((len(ability), n, RUNS))
    )
    judge = levels(logistic(z), bias, noise, rng) @ weights / G
    seen = logistic(z + discord * rng.standard_normal(z.shape))
    error = levels(seen, rater_bias, rater_noise, rng) @ weights / G - judge
    return {
        "spearman": spearman(judge.ravel(), (judge + error).ravel()),
        "mae": float(np.abs(error).mean()),
        "difference": float(error.mean()),
    }


def truths(s: Setting, weights: np.ndarray) -> dict[str, Any]:
    """A setting's estimands (those of few targets are per release: :func:`simulate`)."""
    lite, other = s.abilities()
    sd = float(np.sqrt(SD_TASK**2 + SD_PAIR**2 + SD_RUN**2))
    per_task = [  # each task's expected score on its channel, per combination
        expect((lite if t < s.lite else other) - CHANNELS[channel_of(t)][0], sd, channel_of(t))
        for t in range(s.tasks)
    ]
    out: dict[str, Any] = {"channels": {}, "sets": {}}
    for scope, last in (("Lite", s.lite), ("Full", s.tasks)):
        for c in CHANNELS:
            mine = [per_task[t] for t in range(last) if channel_of(t) == c]
            out["channels"][f"{c}, {scope}"] = np.mean(mine, axis=0).tolist()
        composite = RULE_WEIGHT * RULE_PASS + (1 - RULE_WEIGHT) * np.mean(per_task[:last], axis=0)
        out["sets"][scope] = composite.tolist()
    out["set_rho"] = spearman(np.array(out["sets"]["Lite"]), np.array(out["sets"]["Full"]))
    treated = float(np.sqrt(sd**2 + SD_SKILL**2))
    targets = [(t, channel_of(t), CHANNELS[channel_of(t)][0]) for t in range(s.tasks)]
    targets = targets[s.tasks - s.targets :]
    out["cells"] = {
        level: [
            float(
                np.mean(
                    [
                        expect(other[k] + shift[k] - off, treated, c)
                        - expect(other[k] - off, sd, c)
                        for _, c, off in targets
                    ]
                )
                * (1 - RULE_WEIGHT)
            )
            for k in range(2)
        ]
        for level, shift in SHIFT.items()
    }
    out["agreement"] = {c: rater_truth(lite[:2], c, weights) for c in CHANNELS}
    return out


@dataclass(frozen=True)
class Parts:
    """A setting's declarations, built once from the example's templates."""

    release: Release
    catalog: Catalog
    bundles: dict[str, Bundle]  # the combinations c0.., then the treatments
    rater: Rater
    rules: dict[str, list[str]]  # per channel: the rule and the Judge item ids
    judge: dict[str, list[str]]
    weights: np.ndarray  # the Judge items' weights (the same on both channels)


def parts(s: Setting, samples: int) -> Parts:
    """The release, catalog and bundles of a setting, from the example's declarations."""
    inputs, _ = load_inputs(TEMPLATE)
    version = inputs.releases[0]
    assert version.release is not None
    assert version.catalog is not None
    dump = {"mode": "json", "by_alias": True, "exclude_none": True}
    release = version.release.model.model_dump(**dump)  # type: ignore[arg-type]
    catalog = version.catalog.model.model_dump(**dump)  # type: ignore[arg-type]
    template = {}
    for task in catalog["tasks"]:
        template.setdefault(task["scoring"]["judge_items"][0]["channel"], task)
    tasks = []
    for t in range(s.tasks):
        task = json.loads(json.dumps(template[channel_of(t)]))
        task.update(id=f"t{t:03d}", title=f"Task {t}", family=f"fam-t{t:03d}", group="public")
        task.update(sets=["lite", "full"] if t < s.lite else ["full"])
        task.pop("facets", None)
        tasks.append(task)
    catalog["tasks"] = tasks
    catalog["families"] = [
        {"id": t["family"], "title": t["title"], "domain": DOMAIN} for t in tasks
    ]
    release["domains"][0]["facets"] = []
    release["profile"].update(facets=[], views=[])
    release["groups"] = {"public": s.tasks, "held_out": 0, "min_held_out_aggregate": 4}
    release["statistics"] = {**release.get("statistics", {}), "bootstrap_samples": samples}
    experiment = release["profile"]["experiments"][0]
    experiment.update(sources=["t000", "t001"], targets=[t["id"] for t in tasks[-s.targets :]])
    by_id = {
        b.bundle.model.combination.id: b.bundle.model.model_dump(**dump) for b in version.bundles
    }  # type: ignore[arg-type]
    plain, treated = by_id["deepagents-haiku-4.5"], by_id["deepagents-haiku-4.5-skill-gpt-5.5"]
    rater = Rater.model_validate(plain.pop("raters")[0])
    bundles = {}
    for k in range(s.combos):
        axes = {"harness": f"H{k}", "model": f"M{k}"}
        combination = {**plain["combination"], "id": f"c{k}", "title": f"C{k}", "axes": axes}
        extra = {"raters": [rater.model_dump(mode="json")]} if k < 2 else {}
        bundles[f"c{k}"] = Bundle.model_validate({**plain, "combination": combination, **extra})
        for level in SHIFT if k < 2 else ():
            name = f"c{k}-skill-{level}"
            combination = {**combination, "id": name, "title": name}
            condition = {"experiment": experiment["id"], "level": level}
            data = {**treated, "combination": combination, "condition": condition}
            bundles[name] = Bundle.model_validate(data)
    first = {c: template[c]["scoring"] for c in CHANNELS}
    return Parts(
        Release.model_validate(release),
        Catalog.model_validate(catalog),
        bundles,
        rater,
        {c: [i["id"] for i in first[c]["rule_items"]] for c in CHANNELS},
        {c: [i["id"] for i in first[c]["judge_items"]] for c in CHANNELS},
        np.array([i["weight"] for i in first["text"]["judge_items"]]) / 1.0,
    )


def _records(p: Parts, tasks: list[int], judge: np.ndarray, rules: np.ndarray) -> list[RunRecord]:
    """Run records of ``tasks`` (Judge levels and rule passes: tasks × runs × items)."""
    out = []
    for i, t in enumerate(tasks):
        c = channel_of(t)
        for r in range(RUNS):
            passed, level = rules[i, r].tolist(), judge[i, r].tolist()
            ok = all(passed) and min(level) >= 6
            failure = None if ok else "below-pass-level" if all(passed) else "hard-rule-failed"
            record = {
                "task": f"t{t:03d}",
                "run": r + 1,
                "seed": r + 1,
                "status": "valid",
                "delivery": True,
                "rules": [{"id": j, "pass": v} for j, v in zip(p.rules[c], passed, strict=True)],
                "judge": [{"id": j, "level": v} for j, v in zip(p.judge[c], level, strict=True)],
                "judge_valid": True,
                "input_tokens": 1000,
                "output_tokens": 100,
                "duration_s": 60.0,
                "measures": [{"id": "cost_cny", "value": 1.0}],
                "failure_type": failure,
            }
            out.append(RunRecord.model_validate(record))
    return out


def _bundle(
    p: Parts, name: str, models: list[RunRecord], raters: tuple[LoadedRater, ...]
) -> LoadedBundle:
    columns = columns_from_records(models, list(range(2, len(models) + 2)))
    return LoadedBundle(
        name, Loaded(p.bundles[name], Source("bundle.yaml")), columns, "runs.jsonl", raters=raters
    )


def simulate(
    s: Setting, rng: np.random.Generator, p: Parts
) -> tuple[Report, dict[str, list[float]]]:
    """One release: its report, and the mean expected change over its own targets per level
    and consumer (the run-noise interval's truth)."""
    lite, other = s.abilities()
    chans = [channel_of(t) for t in range(s.tasks)]
    table = np.array([CHANNELS[c] for c in chans])  # tasks × 6
    ability = np.where(np.arange(s.tasks) < s.lite, lite[:, None], other[:, None])
    x = ability + SD_PAIR * rng.standard_normal((s.combos, s.tasks)) - table[:, 0]
    x -= SD_TASK * rng.standard_normal(s.tasks)

    def runs(z: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        z = z[:, None] + SD_RUN * rng.standard_normal((len(z), RUNS))
        judge = levels(logistic(z), table[rows, 1, None, None], table[rows, 2, None, None], rng)
        return z, judge, rng.random((len(rows), RUNS, 5)) < RULE_PASS

    everything = np.arange(s.tasks)
    rated = everything[: 2 * s.rated]
    loaded = []
    for k in range(s.combos):
        z, judge, rules = runs(x[k], everything)
        raters: tuple[LoadedRater, ...] = ()
        if k < 2:
            seen = logistic(
                z[rated] + table[rated, 5, None] * rng.standard_normal((len(rated), RUNS))
            )
            second = levels(seen, table[rated, 3, None, None], table[rated, 4, None, None], rng)
            verdicts = [
                RatedRun.model_validate(
                    {
                        "task": f"t{t:03d}",
                        "run": r + 1,
                        "judge": [
                            {"id": j, "level": v}
                            for j, v in zip(p.judge[chans[t]], second[i, r].tolist(), strict=True)
                        ],
                    }
                )
                for i, t in enumerate(rated.tolist())
                for r in range(RUNS)
            ]
            raters = (LoadedRater(p.rater, "second.jsonl", tuple(verdicts)),)
        loaded.append(_bundle(p, f"c{k}", _records(p, everything.tolist(), judge, rules), raters))
    targets = everything[s.tasks - s.targets :]
    own: dict[str, list[float]] = {}
    for level, shift in SHIFT.items():
        skill = SD_SKILL * rng.standard_normal(len(targets))
        own[level] = []
        for k in range(2):
            base, treated = x[k, targets], x[k, targets] + shift[k] + skill
            _, judge, rules = runs(treated, targets)
            models = _records(p, targets.tolist(), judge, rules)
            loaded.append(_bundle(p, f"c{k}-skill-{level}", models, ()))
            change = [
                expect(a, SD_RUN, chans[t]) - expect(b, SD_RUN, chans[t])
                for a, b, t in zip(treated, base, targets.tolist(), strict=True)
            ]
            own[level].append(float(np.mean(change)) * (1 - RULE_WEIGHT))
    version = LoadedRelease(
        p.release.version,
        Loaded(p.release, Source("release.yaml")),
        Loaded(p.catalog, Source("tasks.yaml")),
        tuple(loaded),
        (),
    )
    return build_report(version, DOMAIN), own


def score_release(
    report: Report, truth: dict[str, Any], own: dict[str, list[float]], tally: Any
) -> None:
    """Hold one release's intervals against their truths."""
    covers = cm._covers
    for label, scope in (
        ("Lite", next(x for x in report.scopes if x.scope.whole and x.scope.group == "all")),
        (
            "Full",
            next(x for x in report.scopes if x.scope.task_set == "full" and x.scope.group == "all"),
        ),
    ):
        for c in scope.combinations:
            for ch, e in c.channels.items():
                value = truth["channels"][f"{ch}, {label}"][int(c.combination[1:])]
                tally.add(f"coverage: {ch} channel score, {label}", covers(e.low, e.high, value))
    (sets,) = report.sets
    tally.add("coverage: Lite against Full, ρ", covers(sets.low, sets.high, truth["set_rho"]))
    tally.add("no interval: Lite against Full, ρ", sets.low is None)
    (experiment,) = report.experiments
    for change in [*experiment.cells, *experiment.level_means]:
        cells = truth["cells"][change.level]
        mine = own[change.level]
        k = None if change.consumer is None else int(change.consumer[1:])
        population = float(np.mean(cells)) if k is None else cells[k]
        what = "a creator's mean change" if k is None else "a creator × consumer change"
        if change.interval == "runs":
            here = float(np.mean(mine)) if k is None else mine[k]
            tally.add(f"coverage: {what}, these targets", covers(change.low, change.high, here))
            tally.add(
                f"contrast: {what}, run noise holding the population change",
                covers(change.low, change.high, population),
            )
        else:
            tally.add(f"coverage: {what}", covers(change.low, change.high, population))
    for a in report.agreement:
        for stat, label in (("spearman", "ρ"), ("mae", "MAE"), ("difference", "mean difference")):
            f = getattr(a, stat)
            value = truth["agreement"][a.channel][stat]
            tally.add(f"coverage: rater {label}, {a.channel}", covers(f.low, f.high, value))


def run_setting(s: Setting, releases: int, samples: int) -> dict[str, Any]:
    p = parts(s, samples)
    truth = truths(s, p.weights / p.weights.sum())
    rng = np.random.default_rng([s.tasks, s.combos, s.targets, s.rated, int(s.crossed), 19])
    tally = cm.Tally()
    started = time.perf_counter()
    for _ in range(releases):
        tally.next_release()
        report, own = simulate(s, rng, p)
        score_release(report, truth, own, tally)
    rounded = json.loads(json.dumps(truth), parse_float=lambda v: round(float(v), 4))
    return {
        "setting": s.name,
        "tasks": s.tasks,
        "lite": s.lite,
        "combinations": s.combos,
        "targets": s.targets,
        "rated_per_channel": s.rated,
        "crossed": s.crossed,
        "releases": releases,
        "seconds": round(time.perf_counter() - started, 1),
        "truth": rounded,
        "figures": tally.summary(),
    }


def design(samples: int) -> dict[str, Any]:
    """The simulation's design, as the README states it."""
    return {
        "template": "examples/enterpriseclawbench",
        "bootstrap_samples": samples,
        "runs_per_task": RUNS,
        "sd": {"task": SD_TASK, "pair": SD_PAIR, "run": SD_RUN, "skill": SD_SKILL},
        "rule_pass": RULE_PASS,
        "channels": {
            c: dict(
                zip(
                    ("offset", "bias", "noise", "rater_bias", "rater_noise", "discord"),
                    v,
                    strict=True,
                )
            )
            for c, v in CHANNELS.items()
        },
        "shift": {level: list(v) for level, v in SHIFT.items()},
        "population_tasks": POPULATION_TASKS,
    }


#: The README's rows: (label, figure name).
README_ROWS = (
    *(
        (f"{ch} channel score, {scope}", f"coverage: {ch} channel score, {scope}")
        for scope in ("Lite", "Full")
        for ch in CHANNELS
    ),
    ("skill change, creator × consumer", "coverage: a creator × consumer change"),
    ("skill change, creator's mean", "coverage: a creator's mean change"),
    ("… run noise: these targets' change", "coverage: a creator × consumer change, these targets"),
    (
        "… run noise: population change (not claimed)",
        "contrast: a creator × consumer change, run noise holding the population change",
    ),
    *(
        (f"rater {label}, {ch}", f"coverage: rater {label}, {ch}")
        for label in ("ρ", "MAE", "mean difference")
        for ch in CHANNELS
    ),
    ("Lite against Full, ρ", "coverage: Lite against Full, ρ"),
    ("… no interval (a replicate lacked a set)", "no interval: Lite against Full, ρ"),
)
README_MARKS = (
    "<!-- coverage-profiles: generated by bench/coverage_profiles.py --readme -->",
    "<!-- /coverage-profiles -->",
)
RESULTS = ROOT / "bench" / "results" / "coverage_profiles.json"


def readme_block(document: dict[str, Any]) -> str:
    """The README's summary of the results (``bench/results/coverage_profiles.json``)."""
    settings = document["settings"]
    errors = [f["mc_se"] for s in settings for f in s["figures"].values() if f["mc_se"] > 0]
    rho = ", ".join(f"{s['truth']['set_rho']:g}" for s in settings)
    lines = [
        README_MARKS[0],
        f"{', '.join(map(str, sorted({s['releases'] for s in settings})))} releases per setting "
        f"(Lite/Full tasks, K combinations on both sets, the experiment's targets, rated tasks "
        f"per channel); Monte-Carlo errors ±{min(errors):.3f}–{max(errors):.3f}. Share of the "
        f"nominal 95% intervals that held their truth. True Lite-against-Full ρ per setting: "
        f"{rho}.",
        "",
        *cm._table(settings, README_ROWS),
        README_MARKS[1],
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--releases", type=int, default=200, help="releases per setting")
    parser.add_argument("--samples", type=int, default=2000, help="bootstrap replicates")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="3 releases of the first setting, 200 replicates, written nowhere",
    )
    parser.add_argument(
        "--readme",
        action="store_true",
        help="print the README's summary of the results and run nothing",
    )
    parser.add_argument(
        "--setting",
        type=int,
        action="append",
        choices=range(len(SETTINGS)),
        help="only these settings (indexes into SETTINGS; repeatable)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"where the results go (default {RESULTS.relative_to(ROOT)}; none with --quick)",
    )
    args = parser.parse_args(argv)
    if args.readme:
        print(readme_block(json.loads((args.out or RESULTS).read_text(encoding="utf-8"))))
        return 0
    out = args.out if args.out is not None or args.quick else RESULTS
    releases, samples = (3, 200) if args.quick else (args.releases, args.samples)
    chosen = SETTINGS[:1] if args.quick else SETTINGS
    if args.setting:
        chosen = tuple(SETTINGS[i] for i in args.setting)
    results = []
    for s in chosen:
        found = run_setting(s, releases, samples)
        results.append(found)
        print(f"{found['setting']} ({found['releases']} releases, {found['seconds']} s)")
        for name, f in found["figures"].items():
            print(f"  {name}: {f['rate']:.3f} ± {f['mc_se']:.3f} ({f['hits']}/{f['trials']})")
    if out is not None:
        document = {**design(samples), "settings": results}
        out.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
