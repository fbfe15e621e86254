#!/usr/bin/env python3
"""Measure what the published intervals and ranks claim, on releases with a known truth.

Each simulated release draws its tasks from a known population: a task's difficulty d is
normal on the logit scale (sd ``--spread``), and a combination of ability a passes each of a
task's four rule items independently with probability p = 1 / (1 + exp(d − a)), the same
for every run of that task (so the runs of one task are correlated, as in a real release).
Five combinations: two true ties, then true gaps of 0.06, 0.09 and 0.15 in Task Score.
The truths are population means computed by Gauss–Hermite quadrature: Task Score E[p],
success rate E[p⁴], reliability@k E[p^(4k)], contamination gap 0 (public and held-out
tasks are drawn from the same population).

Every figure is taken from ``build_report`` — the engine the site uses, on models built in
memory exactly as the loader builds them — and compared with the truth:

- coverage of the nominal 95% intervals of Task Score, success rate, reliability@k and the
  public − held-out gap (the share of intervals holding the truth);
- the false-difference rate (the tied pair called significantly different), and power (a
  truly different adjacent pair called different in the right direction);
- rank errors: releases where a truly worse combination's rank range lies entirely above a
  better one's, and where the two tied combinations get ranges that exclude each other.

Each figure carries its replication count and Monte-Carlo standard error. Usage::

    python bench/coverage.py [--releases 300] [--quick | --setting I ...] [--out FILE.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import make_release as mr  # noqa: E402

from generator.load import Loaded, LoadedBundle, LoadedRelease  # noqa: E402
from generator.load.records import columns_from_records  # noqa: E402
from generator.load.source import Source  # noqa: E402
from generator.models import Bundle, Catalog, Release, RunRecord  # noqa: E402
from generator.score.report import build_report  # noqa: E402
from generator.score.results import Report  # noqa: E402

ITEMS = 4  # rule items per task; success = all pass
TARGETS = (0.50, 0.50, 0.56, 0.65, 0.80)  # true Task Scores: a tie, then gaps .06 .09 .15
NAMES = tuple(f"c{i}" for i in range(len(TARGETS)))
NODES, WEIGHTS = np.polynomial.hermite_e.hermegauss(120)
WEIGHTS = WEIGHTS / WEIGHTS.sum()


@dataclass(frozen=True)
class Setting:
    tasks: int
    runs: int
    held_out: bool = False  # half of the tasks held out (the gap's coverage)
    incomplete: float = 0.0  # chance that a run is evaluation-incomplete

    @property
    def name(self) -> str:
        extra = (", half held out" if self.held_out else "") + (
            f", {self.incomplete:.0%} incomplete runs" if self.incomplete else ""
        )
        return f"T={self.tasks}, n={self.runs}{extra}"


SETTINGS = (
    Setting(20, 3),
    Setting(20, 5),
    Setting(100, 3),
    Setting(100, 5),
    Setting(40, 3, held_out=True, incomplete=0.05),
    Setting(100, 5, held_out=True, incomplete=0.05),
)


def _expect(ability: float, spread: float, power: float) -> float:
    """E[p^power] over the task population, p = logistic(ability − d), d ~ N(0, spread²)."""
    p = 1 / (1 + np.exp(spread * NODES - ability))
    return float(np.dot(WEIGHTS, p**power))


def abilities(spread: float) -> list[float]:
    """Per combination, the ability whose population Task Score is its target (bisection)."""
    out = []
    for target in TARGETS:
        low, high = -20.0, 20.0
        for _ in range(200):
            mid = (low + high) / 2
            low, high = (mid, high) if _expect(mid, spread, 1) < target else (low, mid)
        out.append((low + high) / 2)
    return out


def _catalog(setting: Setting) -> dict[str, Any]:
    """A real catalog of general-domain tasks, every task rule-only with four items."""
    cat = mr.catalog("v1.0", 0, setting.tasks, 0, 4, 1)
    for i, t in enumerate(cat["tasks"]):
        t["group"] = "held-out" if setting.held_out and i % 2 else "public"
        t["scoring"] = {
            "mode": "rule-only",
            "core_delivery": "The result file exists and parses.",
            "rule_items": [{"id": f"R{j}", "title": f"Item {j}"} for j in range(1, ITEMS + 1)],
        }
        t.pop("key_process_chain", None)
    return cat


def _release(setting: Setting, cat: dict[str, Any], samples: int) -> Release:
    data = mr.release_manifest("v1.0", 0, cat, setting.runs, [])
    data["domains"] = data["domains"][:1]
    data["groups"]["min_held_out_aggregate"] = 5
    data["statistics"] = {"bootstrap_samples": samples, "seed": 0}
    return Release.model_validate(data)


def _bundles(setting: Setting) -> dict[str, Bundle]:
    combos = mr.make_combinations(len(NAMES), 0)
    out = {}
    for name, combo in zip(NAMES, combos, strict=True):
        data = mr.bundle_manifest("v1.0", 0, combo, setting.runs, 2, setting.incomplete > 0)
        data["combination"]["id"] = name
        data.pop("not_covered", None)
        out[name] = Bundle.model_validate(data)
    return out


def simulate(
    setting: Setting,
    rng: np.random.Generator,
    skills: list[float],
    spread: float,
    parts: tuple[Release, Catalog, dict[str, Bundle]],
) -> tuple[Report, np.ndarray]:
    """One release: tasks drawn from the population, every combination's runs on them; the
    report, and each combination's per-task mean run score (combinations × tasks)."""
    release, catalog, bundles = parts
    difficulty = rng.normal(0.0, spread, setting.tasks)
    loaded = []
    means = np.full((len(NAMES), setting.tasks), np.nan)
    for c, (name, skill) in enumerate(zip(NAMES, skills, strict=True)):
        p = 1 / (1 + np.exp(difficulty - skill))
        passes = rng.random((setting.tasks, setting.runs, ITEMS)) < p[:, None, None]
        # Only public tasks lose runs: a held-out task without all its runs withholds the
        # combination from every held-out aggregate (§4.4), as make_release.py does too.
        public = np.array([t.group == "public" for t in catalog.tasks])
        lost = (rng.random((setting.tasks, setting.runs)) < setting.incomplete) & public[:, None]
        records = []
        for t, task in enumerate(catalog.tasks):
            for r in range(setting.runs):
                ok = passes[t, r].tolist()
                base = {
                    "task": task.id,
                    "run": r + 1,
                    "seed": r + 1,
                    "input_tokens": 1000,
                    "output_tokens": 100,
                    "duration_s": 10.0,
                    "turns": 3,
                }
                if lost[t, r]:
                    records.append(
                        {
                            **base,
                            "status": "incomplete",
                            "cause": "environment-startup",
                            "retries": 2,
                            "delivery": False,
                        }
                    )
                    continue
                records.append(
                    {
                        **base,
                        "status": "valid",
                        "delivery": True,
                        "rules": [{"id": f"R{j + 1}", "pass": v} for j, v in enumerate(ok)],
                        "failure_type": None if all(ok) else "numeric-or-state-error",
                    }
                )
        scores = np.where(lost, np.nan, passes.mean(axis=2))
        seen = ~np.isnan(scores).all(axis=1)
        means[c, seen] = np.nanmean(scores[seen], axis=1)
        models = [RunRecord.model_validate(r) for r in records]
        loaded.append(
            LoadedBundle(
                name,
                Loaded(bundles[name], Source("bundle.yaml")),
                columns_from_records(models, list(range(2, len(models) + 2))),
                "runs.jsonl",
            )
        )
    version = LoadedRelease(
        release.version,
        Loaded(release, Source("release.yaml")),
        Loaded(catalog, Source("tasks.yaml")),
        tuple(loaded),
        (),
    )
    return build_report(version, "general"), means


class Tally:
    """Hits out of trials per figure. The five combinations of a release share its tasks, so
    releases are the independent replications: the Monte-Carlo standard error is that of a
    ratio of per-release sums (hits and trials), over releases."""

    def __init__(self) -> None:
        self.releases: list[dict[str, list[int]]] = []

    def next_release(self) -> None:
        self.releases.append({})

    def add(self, name: str, hit: bool) -> None:
        entry = self.releases[-1].setdefault(name, [0, 0])
        entry[0] += int(hit)
        entry[1] += 1

    def summary(self) -> dict[str, dict[str, float | int]]:
        out: dict[str, dict[str, float | int]] = {}
        names = sorted({n for r in self.releases for n in r})
        for name in names:
            hits = np.array([r.get(name, [0, 0])[0] for r in self.releases], dtype=float)
            trials = np.array([r.get(name, [0, 0])[1] for r in self.releases], dtype=float)
            share = hits.sum() / trials.sum()
            count = len(self.releases)
            residual = (hits - share * trials) / trials.mean()
            se = float(np.sqrt(np.sum(residual**2) / (count * (count - 1)))) if count > 1 else 0
            out[name] = {
                "rate": round(float(share), 4),
                "mc_se": round(se, 4),
                "hits": int(hits.sum()),
                "trials": int(trials.sum()),
            }
        return out


def _covers(low: float | None, high: float | None, truth: float) -> bool:
    return low is not None and high is not None and low <= truth <= high


def plain_paired(means: np.ndarray, a: int, b: int, rng: np.random.Generator) -> bool:
    """Whether a textbook one-stage paired bootstrap (2,000 task draws, percentile interval)
    calls a − b different: the baseline the engine's power is measured against."""
    gaps = means[a] - means[b]
    gaps = gaps[~np.isnan(gaps)]
    draws = rng.integers(0, len(gaps), size=(2000, len(gaps)))
    low, high = np.percentile(gaps[draws].mean(axis=1), [2.5, 97.5])
    return bool(low > 0 or high < 0)


def score_release(
    report: Report,
    means: np.ndarray,
    truth: dict[str, Any],
    tally: Tally,
    held_out: bool,
    rng: np.random.Generator,
) -> None:
    """Compare one release's published figures with the truth."""
    scope = next(s for s in report.scopes if s.scope.subdivision is None and s.scope.group == "all")
    by_name = {c.combination: c for c in scope.combinations}
    for name in NAMES:
        c = by_name[name]
        assert c.task_score is not None
        assert c.success_rate is not None
        tally.add(
            "coverage: Task Score",
            _covers(c.task_score.low, c.task_score.high, truth["score"][name]),
        )
        tally.add(
            "coverage: success rate",
            _covers(c.success_rate.low, c.success_rate.high, truth["success"][name]),
        )
        for r in c.reliability:
            tally.add(
                f"coverage: reliability@{r.k}",
                _covers(r.low, r.high, truth["reliability"][r.k][name]),
            )
    diffs = {(d.a, d.b): d for d in scope.differences}
    tie = diffs[("c0", "c1")]
    tally.add("false difference: tied pair called different", tie.significant)
    tally.add(
        "baseline: plain one-stage paired percentile, tied pair called different",
        plain_paired(means, 0, 1, rng),
    )
    tally.add(
        "baseline: plain one-stage paired percentile, power at gap 0.06",
        plain_paired(means, 1, 2, rng),
    )
    for (a, b), gap in (
        ((NAMES[1], NAMES[2]), 0.06),
        ((NAMES[2], NAMES[3]), 0.09),
        ((NAMES[3], NAMES[4]), 0.15),
    ):
        d = diffs[(a, b)]
        tally.add(f"power: true gap {gap:.2f}", d.significant and d.high < 0)
    ranks = {n: (by_name[n].rank, by_name[n].rank_worst) for n in NAMES}
    inverted = any(
        ranks[worse][1] < ranks[better][0]  # type: ignore[operator]
        for i, worse in enumerate(NAMES)
        for better in NAMES[i + 1 :]
        if truth["score"][better] > truth["score"][worse]
    )
    tally.add("rank error: a worse combination ranked entirely above a better one", inverted)
    (b0, w0), (b1, w1) = ranks["c0"], ranks["c1"]
    tally.add("rank error: the tied pair's ranges exclude each other", w0 < b1 or w1 < b0)  # type: ignore[operator]
    if held_out:
        for g in report.contamination:
            tally.add(
                "coverage: public − held-out gap (truth 0)", _covers(g.gap.low, g.gap.high, 0)
            )


def run_setting(setting: Setting, releases: int, spread: float, samples: int) -> dict[str, Any]:
    skills = abilities(spread)
    truth = {
        "score": {n: _expect(a, spread, 1) for n, a in zip(NAMES, skills, strict=True)},
        "success": {n: _expect(a, spread, ITEMS) for n, a in zip(NAMES, skills, strict=True)},
        "reliability": {
            k: {n: _expect(a, spread, ITEMS * k) for n, a in zip(NAMES, skills, strict=True)}
            for k in sorted({1, (setting.runs + 1) // 2, setting.runs})
        },
    }
    cat = _catalog(setting)
    parts = (_release(setting, cat, samples), Catalog.model_validate(cat), _bundles(setting))
    rng = np.random.default_rng([setting.tasks, setting.runs, int(setting.held_out)])
    tally = Tally()
    started = time.perf_counter()
    for _ in range(releases):
        tally.next_release()
        report, means = simulate(setting, rng, skills, spread, parts)
        score_release(report, means, truth, tally, setting.held_out, rng)
    return {
        "setting": setting.name,
        "tasks": setting.tasks,
        "runs": setting.runs,
        "releases": releases,
        "seconds": round(time.perf_counter() - started, 1),
        "truth": {
            "task_score": {n: round(v, 4) for n, v in truth["score"].items()},
            "success_rate": {n: round(v, 4) for n, v in truth["success"].items()},
        },
        "figures": tally.summary(),
    }


def design(spread: float, samples: int) -> dict[str, Any]:
    """The simulation's design, as the methodology page states it."""
    return {
        "spread": spread,
        "bootstrap_samples": samples,
        "items": ITEMS,
        "true_task_scores": list(TARGETS),
        "true_gaps": [round(b - a, 4) for a, b in itertools.pairwise(TARGETS)],
    }


#: bench/README.md's rows: (label, figure name; ``{k}``: the middle reliability, ``{n}``: the runs).
README_ROWS = (
    ("Task Score", "coverage: Task Score"),
    ("success rate", "coverage: success rate"),
    ("reliability@2 (n=3) or @3 (n=5)", "coverage: reliability@{k}"),
    ("reliability@n", "coverage: reliability@{n}"),
    ("public − held-out gap (truth 0)", "coverage: public − held-out gap (truth 0)"),
    ("tied pair called different", "false difference: tied pair called different"),
    (
        "… by a textbook one-stage paired percentile bootstrap",
        "baseline: plain one-stage paired percentile, tied pair called different",
    ),
    ("power at a true gap of 0.06", "power: true gap 0.06"),
    (
        "… by the textbook bootstrap",
        "baseline: plain one-stage paired percentile, power at gap 0.06",
    ),
    (
        "a worse combination ranked entirely above a better one",
        "rank error: a worse combination ranked entirely above a better one",
    ),
)
#: Where bench/README.md's generated block starts and ends.
README_MARKS = ("<!-- coverage: generated by bench/coverage.py --readme -->", "<!-- /coverage -->")


def _short(setting: str) -> str:
    """``T=40, n=3, half held out, 5% incomplete runs`` -> ``T=40, n=3 ‡``."""
    head = ", ".join(setting.split(", ")[:2])
    return head + " ‡" if setting.count(",") > 1 else head


def readme_block(document: dict[str, Any]) -> str:
    """bench/README.md's summary of ``document`` (site_src/coverage.json), between its marks."""
    settings = document["settings"]
    errors = [f["mc_se"] for s in settings for f in s["figures"].values() if f["mc_se"] > 0]
    releases = sorted({s["releases"] for s in settings})
    truths = ", ".join(f"{t:.2f}" for t in document["true_task_scores"])
    lines = [
        README_MARKS[0],
        f"Combinations with true Task Scores {truths}; {', '.join(map(str, releases))} "
        f"releases per setting; Monte-Carlo errors ±{min(errors):.3f}–{max(errors):.3f}. "
        "Share of nominal 95% intervals that held the truth, and how often differences and "
        "ranks erred (T tasks, n runs; ‡: half the tasks held out, 5% of the public runs "
        "evaluation-incomplete):",
        "",
        "| figure | " + " | ".join(_short(s["setting"]) for s in settings) + " |",
        "| --- |" + " --- |" * len(settings),
    ]
    for label, name in README_ROWS:
        cells = []
        for s in settings:
            key = name.format(k=(s["runs"] + 1) // 2, n=s["runs"])
            found = s["figures"].get(key)
            cells.append("—" if found is None else f"{found['rate']:.3f}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join([*lines, "", _pooled(settings), README_MARKS[1]])


def _pooled(settings: list[dict[str, Any]]) -> str:
    """One line: the range of the coverages, and the ties called different over all settings
    (a share of releases, with its binomial Monte-Carlo error)."""
    rates = [
        f["rate"] for s in settings for n, f in s["figures"].items() if n.startswith("coverage:")
    ]
    ties = [s["figures"]["false difference: tied pair called different"] for s in settings]
    hits, trials = sum(f["hits"] for f in ties), sum(f["trials"] for f in ties)
    share = hits / trials
    error = (share * (1 - share) / trials) ** 0.5
    return (
        f"Coverage over all settings and figures: {min(rates):.3f}–{max(rates):.3f}. A true tie "
        f"called different: {hits:,} of {trials:,} releases, {share:.1%} ± {error:.1%}."
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--releases", type=int, default=300, help="releases per setting")
    parser.add_argument("--spread", type=float, default=1.0, help="sd of task difficulty (logit)")
    parser.add_argument("--samples", type=int, default=2000, help="bootstrap replicates")
    parser.add_argument("--quick", action="store_true", help="the first setting only")
    parser.add_argument(
        "--readme",
        action="store_true",
        help="print bench/README.md's summary of site_src/coverage.json and run nothing",
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
        default=ROOT / "site_src" / "coverage.json",
        help="where to write the results as JSON (the methodology page shows them)",
    )
    args = parser.parse_args(argv)
    if args.readme:
        print(readme_block(json.loads(args.out.read_text(encoding="utf-8"))))
        return 0
    settings = SETTINGS[:1] if args.quick else SETTINGS
    if args.setting:
        settings = tuple(SETTINGS[i] for i in args.setting)
    results = []
    for setting in settings:
        found = run_setting(setting, args.releases, args.spread, args.samples)
        results.append(found)
        print(f"{found['setting']} ({found['releases']} releases, {found['seconds']} s)")
        for name, f in found["figures"].items():
            print(f"  {name}: {f['rate']:.3f} ± {f['mc_se']:.3f} ({f['hits']}/{f['trials']})")
    document = {
        "method": "one-stage task-clustered variance in closed form (tasks resampled, each with "
        "its own statistic)",
        **design(args.spread, args.samples),
        "settings": results,
    }
    if args.out is not None:
        # Other benches' parts of the file (bench/coverage_measure.py's "measure") are kept.
        if args.out.is_file():
            kept = json.loads(args.out.read_text(encoding="utf-8"))
            document = {**document, **{k: v for k, v in kept.items() if k not in document}}
        args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
