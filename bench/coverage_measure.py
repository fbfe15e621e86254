#!/usr/bin/env python3
"""Measure what the published intervals and ranks claim for a measured outcome (a cost,
earnings): a domain whose tasks score in a declared metric not confined to [0, 1].

Each simulated release draws its tasks from a known population and scores every
combination's runs through ``build_report``, as ``bench/coverage.py`` does for Lingee's
[0, 1] scores. Two populations, one per kind of measure:

- ``cost`` (lower is better, like the Beer Game's accumulated cost): a task's base cost is
  log-normal (median ``COST_MEDIAN``, log-sd ``--spread``), a combination multiplies it by
  its factor, and each run multiplies that by log-normal noise of mean 1 (log-sd
  ``RUN_NOISE``);
- ``earnings`` (higher is better, signed, like EDT's accumulated earnings): a task's base is
  normal around 0, a combination adds its shift, each run adds normal noise.

A run fails with probability ``FAILED`` and then scores the task's failure value (the
engine's rule for a failed measure run), so the truth of a combination on a task is
``(1 − FAILED) · its mean run value + FAILED · failure value``; its population truth, the
mean of that over the task population, in closed form. Five combinations: a true tie, then
growing true gaps (``FACTORS``, ``SHIFTS``).

Measured, each with its replication count and Monte-Carlo standard error:

- with at least ``statistics.min_tasks_to_resample`` tasks: coverage of the 95% interval of
  the domain mean (over resampled tasks) of the population truth; the tied pair called
  different; power at each true gap (called different in the right direction); rank errors
  (a truly worse combination ranked entirely above a better one, the tied pair's ranges
  excluding each other), ranks reading the metric's direction;
- with fewer tasks (2 or 3): the interval then claims only the run-to-run noise of those very
  tasks, so its truth is the mean of those tasks' own truths, not the population's; coverage of
  that, of the tied pair's difference over them (truth 0) and, for contrast, how often the
  run-noise interval holds the population truth (which it does not claim).

Usage::

    python bench/coverage_measure.py [--releases 400] [--quick | --setting I ...] [--out FILE]
    python bench/coverage_measure.py --readme   # bench/README.md's summary of the results
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
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


def _coverage_module() -> ModuleType:
    """bench/coverage.py (its tally and bundles), loaded by path: ``coverage`` is also the
    name of a package on the path."""
    name = "bench_coverage"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / "coverage.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


cov = _coverage_module()
Tally = cov.Tally

NAMES = tuple(f"c{i}" for i in range(5))
FAILED = 0.03  # chance that a run fails and scores the task's failure value (by default)
RUN_NOISE = 0.2  # cost: log-sd of a run's noise; earnings: its sd, in units of SCALE
COST_MEDIAN = 30_000.0  # cost: median base cost of a task
COST_FAILURE = 127_500.0  # cost: a failed run's value (the example's Beer Game failure value)
FACTORS = (1.0, 1.0, 0.9, 0.75, 0.55)  # cost: each combination's factor (a tie, then gaps)
EARNINGS_SCALE = 1e6  # earnings: sd of the task base
SHIFTS = (0.0, 0.0, 0.2, 0.5, 0.9)  # earnings: each combination's shift, in units of SCALE
EARNINGS_FAILURE = -4e6  # earnings: a failed run's value
GAPS = ("smallest", "middle", "largest")  # the adjacent pairs after the tie, by true gap
METRICS = {
    "cost": {
        "id": "cost",
        "title": "Cost",
        "direction": "lower",
        "unit": "cost units",
        "measured": True,
        "scale": 1e4,
        "range": {"low": 0.0, "high": None},
    },
    "earnings": {
        "id": "earnings",
        "title": "Earnings",
        "direction": "higher",
        "unit": "currency units",
        "measured": True,
        "scale": 1e6,
        "range": {"low": None, "high": None},
    },
}


@dataclass(frozen=True)
class Setting:
    kind: str  # "cost" or "earnings"
    tasks: int
    runs: int
    failed: float = FAILED  # chance that a run fails and scores the failure value

    @property
    def name(self) -> str:
        extra = "" if self.failed else ", no failed runs"
        return f"{self.kind}, T={self.tasks}, n={self.runs}{extra}"

    @property
    def failure_value(self) -> float:
        return COST_FAILURE if self.kind == "cost" else EARNINGS_FAILURE

    @property
    def higher(self) -> bool:
        return self.kind == "earnings"


SETTINGS = (
    # over resampled tasks (T >= statistics.min_tasks_to_resample)
    Setting("cost", 8, 2),
    Setting("cost", 20, 2),
    Setting("cost", 60, 2),
    Setting("cost", 20, 2, failed=0.0),
    Setting("earnings", 8, 2),
    Setting("earnings", 20, 2),
    # the run noise of a few tasks
    Setting("cost", 2, 2),
    Setting("cost", 3, 3),
    Setting("cost", 3, 3, failed=0.0),
    Setting("earnings", 2, 2),
    Setting("earnings", 3, 3),
    Setting("earnings", 3, 3, failed=0.0),
)


def task_truths(setting: Setting, base: np.ndarray) -> np.ndarray:
    """Each combination's truth on each task (combinations × tasks): the mean of its run
    values, a failed run counted at the failure value."""
    if setting.kind == "cost":
        mean = np.outer(FACTORS, base)
    else:
        mean = base[None, :] + EARNINGS_SCALE * np.array(SHIFTS)[:, None]
    out: np.ndarray = (1 - setting.failed) * mean + setting.failed * setting.failure_value
    return out


def population_truths(setting: Setting, spread: float) -> np.ndarray:
    """Each combination's truth over the task population (the mean of its task truths)."""
    if setting.kind == "cost":
        mean_base = COST_MEDIAN * np.exp(spread**2 / 2)  # the log-normal's mean
        return task_truths(setting, np.array([mean_base]))[:, 0]
    return task_truths(setting, np.array([0.0]))[:, 0]


def draw_bases(setting: Setting, spread: float, rng: np.random.Generator) -> np.ndarray:
    """The release's tasks: a base per task, drawn from the population."""
    if setting.kind == "cost":
        return COST_MEDIAN * np.exp(spread * rng.standard_normal(setting.tasks))
    return EARNINGS_SCALE * rng.standard_normal(setting.tasks)


def draw_runs(setting: Setting, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each combination's run values (combinations × tasks × runs), NaN where a run failed."""
    shape = (len(NAMES), setting.tasks, setting.runs)
    noise = rng.standard_normal(shape)
    if setting.kind == "cost":
        mean = np.outer(FACTORS, base)[:, :, None]
        values = mean * np.exp(RUN_NOISE * noise - RUN_NOISE**2 / 2)
    else:
        mean = (base[None, :] + EARNINGS_SCALE * np.array(SHIFTS)[:, None])[:, :, None]
        values = mean + RUN_NOISE * EARNINGS_SCALE * noise
    failed = rng.random(shape) < setting.failed
    out: np.ndarray = np.where(failed, np.nan, values)
    return out


def _catalog(setting: Setting) -> dict[str, Any]:
    """A catalog of general-domain tasks, every one scored in the measure."""
    cat = mr.catalog("v1.0", 0, setting.tasks, 0, 4, 1)
    for t in cat["tasks"]:
        t["group"] = "public"
        t["scoring"] = {
            "mode": "measure",
            "measure": setting.kind,
            "failure_value": setting.failure_value,
            "core_delivery": "The episode completes with every decision valid.",
        }
        t.pop("key_process_chain", None)
    return cat


def _release(setting: Setting, cat: dict[str, Any], samples: int) -> Release:
    data = mr.release_manifest("v1.0", 0, cat, setting.runs, [])
    data["domains"] = [{**data["domains"][0], "outcome": setting.kind}]
    data["metrics"] = [*data["metrics"], METRICS[setting.kind]]
    data["statistics"] = {"bootstrap_samples": samples, "seed": 0}
    return Release.model_validate(data)


def _records(catalog: Catalog, values: np.ndarray, metric: str) -> list[RunRecord]:
    """One combination's run records (tasks × runs of values, NaN for a failed run)."""
    records = []
    for t, task in enumerate(catalog.tasks):
        for r, value in enumerate(values[t].tolist()):
            base = {
                "task": task.id,
                "run": r + 1,
                "seed": r + 1,
                "status": "valid",
                "input_tokens": 1000,
                "output_tokens": 100,
                "duration_s": 10.0,
                "turns": 3,
            }
            if np.isnan(value):
                base |= {"delivery": False, "failure_type": "numeric-or-state-error"}
            else:
                base |= {"delivery": True, "measures": [{"id": metric, "value": value}]}
            records.append(RunRecord.model_validate(base))
    return records


def simulate(
    setting: Setting,
    rng: np.random.Generator,
    spread: float,
    parts: tuple[Release, Catalog, dict[str, Bundle]],
) -> tuple[Report, np.ndarray]:
    """One release: tasks drawn, every combination's runs on them; its report and the truth
    of each combination on each of its tasks (combinations × tasks)."""
    release, catalog, bundles = parts
    base = draw_bases(setting, spread, rng)
    values = draw_runs(setting, base, rng)
    loaded = []
    for c, name in enumerate(NAMES):
        models = _records(catalog, values[c], setting.kind)
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
    return build_report(version, "general"), task_truths(setting, base)


def _covers(low: float | None, high: float | None, truth: float) -> bool:
    return low is not None and high is not None and low <= truth <= high


def score_release(
    report: Report, setting: Setting, truths: np.ndarray, population: np.ndarray, tally: Any
) -> None:
    """Compare one release's published figures with the truth."""
    scope = next(s for s in report.scopes if s.scope.subdivision is None and s.scope.group == "all")
    by_name = {c.combination: c for c in scope.combinations}
    diffs = {(d.a, d.b): d for d in scope.differences}
    tie = diffs[(NAMES[0], NAMES[1])]
    basis = {by_name[n].task_score.interval for n in NAMES}  # type: ignore[union-attr]
    if basis == {"runs"}:
        for c, name in enumerate(NAMES):
            s = by_name[name].task_score
            assert s is not None
            own = float(truths[c].mean())
            tally.add("coverage: run noise, mean of these tasks", _covers(s.low, s.high, own))
            tally.add(
                "contrast: run-noise interval holding the population mean",
                _covers(s.low, s.high, float(population[c])),
            )
        tally.add(
            "coverage: run noise, tied pair's difference over these tasks (truth 0)",
            _covers(tie.low, tie.high, 0.0),
        )
        tally.add("false difference: tied pair called different", tie.significant)
        return
    assert basis == {"tasks"}, basis
    for c, name in enumerate(NAMES):
        s = by_name[name].task_score
        assert s is not None
        tally.add("coverage: domain mean", _covers(s.low, s.high, float(population[c])))
    tally.add("coverage: tied pair's difference (truth 0)", _covers(tie.low, tie.high, 0.0))
    tally.add("false difference: tied pair called different", tie.significant)
    for size, a, b in zip(GAPS, NAMES[1:], NAMES[2:], strict=False):
        d = diffs[(a, b)]
        right = d.high < 0 if setting.higher else d.low > 0  # b is the better one
        tally.add(f"power: the {size} true gap ({a}, {b})", d.significant and right)
    ranks = {n: (by_name[n].rank, by_name[n].rank_worst) for n in NAMES}
    sign = 1 if setting.higher else -1
    inverted = any(
        ranks[worse][1] < ranks[better][0]  # type: ignore[operator]
        for i, worse in enumerate(NAMES)
        for better in NAMES
        if sign * (population[NAMES.index(better)] - population[i]) > 1e-9
    )
    tally.add("rank error: a worse combination ranked entirely above a better one", inverted)
    (b0, w0), (b1, w1) = ranks[NAMES[0]], ranks[NAMES[1]]
    tally.add("rank error: the tied pair's ranges exclude each other", w0 < b1 or w1 < b0)  # type: ignore[operator]


def run_setting(setting: Setting, releases: int, spread: float, samples: int) -> dict[str, Any]:
    cat = _catalog(setting)
    parts = (
        _release(setting, cat, samples),
        Catalog.model_validate(cat),
        cov._bundles(cov.Setting(setting.tasks, setting.runs)),
    )
    population = population_truths(setting, spread)
    seed = [setting.tasks, setting.runs, int(setting.higher), int(setting.failed * 1000), 18]
    rng = np.random.default_rng(seed)
    tally = Tally()
    started = time.perf_counter()
    for _ in range(releases):
        tally.next_release()
        report, truths = simulate(setting, rng, spread, parts)
        score_release(report, setting, truths, population, tally)
    return {
        "setting": setting.name,
        "kind": setting.kind,
        "tasks": setting.tasks,
        "runs": setting.runs,
        "failed_runs": setting.failed,
        "releases": releases,
        "seconds": round(time.perf_counter() - started, 1),
        "truth": {n: round(float(v), 1) for n, v in zip(NAMES, population, strict=True)},
        "figures": tally.summary(),
    }


def design(spread: float, samples: int) -> dict[str, Any]:
    """The simulation's design, as bench/README.md states it."""
    return {
        "method": "measured outcome: t·se corrected for skew (Hall 1992) over resampled tasks, "
        "or value ± t·se over runs (few tasks)",
        "spread": spread,
        "bootstrap_samples": samples,
        "failed_runs": FAILED,
        "run_noise": RUN_NOISE,
        "cost": {
            "direction": "lower",
            "median": COST_MEDIAN,
            "factors": list(FACTORS),
            "failure_value": COST_FAILURE,
        },
        "earnings": {
            "direction": "higher",
            "task_sd": EARNINGS_SCALE,
            "shifts": [s * EARNINGS_SCALE for s in SHIFTS],
            "failure_value": EARNINGS_FAILURE,
        },
    }


#: bench/README.md's two tables: (label, figure name), over resampled tasks, then over runs.
README_ROWS = (
    (
        ("domain mean (population truth)", "coverage: domain mean"),
        ("tied pair's difference (truth 0)", "coverage: tied pair's difference (truth 0)"),
        ("tied pair called different", "false difference: tied pair called different"),
        *(
            (f"power at the {size} true gap", f"power: the {size} true gap ({a}, {b})")
            for size, a, b in zip(GAPS, NAMES[1:], NAMES[2:], strict=False)
        ),
        (
            "a worse combination ranked entirely above a better one",
            "rank error: a worse combination ranked entirely above a better one",
        ),
        (
            "the tied pair's rank ranges exclude each other",
            "rank error: the tied pair's ranges exclude each other",
        ),
    ),
    (
        ("mean of these tasks (their own truth)", "coverage: run noise, mean of these tasks"),
        (
            "tied pair's difference over them (truth 0)",
            "coverage: run noise, tied pair's difference over these tasks (truth 0)",
        ),
        (
            "… holding the population mean (not claimed)",
            "contrast: run-noise interval holding the population mean",
        ),
    ),
)
#: Where bench/README.md's generated block starts and ends.
README_MARKS = (
    "<!-- coverage-measure: generated by bench/coverage_measure.py --readme -->",
    "<!-- /coverage-measure -->",
)


def _table(settings: list[dict[str, Any]], rows: tuple[tuple[str, str], ...]) -> list[str]:
    lines = [
        "| figure | " + " | ".join(s["setting"] for s in settings) + " |",
        "| --- |" + " --- |" * len(settings),
    ]
    for label, name in rows:
        found = [s["figures"].get(name) for s in settings]
        cells = ["—" if f is None else f"{f['rate']:.3f}" for f in found]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def readme_block(section: dict[str, Any]) -> str:
    """bench/README.md's summary of ``section`` (the ``measure`` part of site_src/coverage.json)."""
    settings = section["settings"]
    errors = [f["mc_se"] for s in settings for f in s["figures"].values() if f["mc_se"] > 0]
    releases = sorted({s["releases"] for s in settings})
    tasks = [s for s in settings if "coverage: domain mean" in s["figures"]]
    runs = [s for s in settings if "coverage: domain mean" not in s["figures"]]
    cost, earnings = section["cost"], section["earnings"]
    lines = [
        README_MARKS[0],
        f"Cost (lower is better): log-normal task costs (median {cost['median']:,.0f}, log-sd "
        f"{section['spread']}), combination factors {', '.join(map(str, cost['factors']))}. "
        f"Earnings (higher is better, signed): normal task bases (sd "
        f"{earnings['task_sd']:,.0f}), combination shifts "
        f"{', '.join(f'{v:,.0f}' for v in earnings['shifts'])}. Run noise within a task; "
        f"{section['failed_runs']:.0%} of runs fail and score the failure value "
        f"({cost['failure_value']:,.0f}; {earnings['failure_value']:,.0f}) unless the setting "
        f"says otherwise. {', '.join(map(str, releases))} releases per setting; Monte-Carlo "
        f"errors ±{min(errors):.3f}–{max(errors):.3f}. Over resampled tasks (T tasks, n runs):",
        "",
        *_table(tasks, README_ROWS[0]),
        "",
        "Over fewer tasks than `statistics.min_tasks_to_resample`, where the interval claims "
        "only the run-to-run noise of those very tasks:",
        "",
        *_table(runs, README_ROWS[1]),
        README_MARKS[1],
    ]
    return "\n".join(lines)


def write(path: Path, section: dict[str, Any]) -> None:
    """Put ``section`` under ``measure`` in the JSON file at ``path``, keeping the rest."""
    document = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    document["measure"] = section
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


COVERAGE = ROOT / "site_src" / "coverage.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--releases", type=int, default=400, help="releases per setting")
    parser.add_argument("--spread", type=float, default=0.6, help="log-sd of a task's base cost")
    parser.add_argument("--samples", type=int, default=2000, help="bootstrap replicates")
    parser.add_argument(
        "--quick", action="store_true", help="20 releases per setting, written nowhere"
    )
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
        default=None,
        help="the JSON file whose 'measure' part the results replace (default "
        "site_src/coverage.json; none with --quick)",
    )
    args = parser.parse_args(argv)
    if args.readme:
        document = json.loads((args.out or COVERAGE).read_text(encoding="utf-8"))
        print(readme_block(document["measure"]))
        return 0
    out = args.out if args.out is not None or args.quick else COVERAGE
    releases = 20 if args.quick else args.releases
    settings = SETTINGS if not args.setting else tuple(SETTINGS[i] for i in args.setting)
    results = []
    for setting in settings:
        found = run_setting(setting, releases, args.spread, args.samples)
        results.append(found)
        print(f"{found['setting']} ({found['releases']} releases, {found['seconds']} s)")
        for name, f in found["figures"].items():
            print(f"  {name}: {f['rate']:.3f} ± {f['mc_se']:.3f} ({f['hits']}/{f['trials']})")
    if out is not None:
        write(out, {**design(args.spread, args.samples), "settings": results})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
