#!/usr/bin/env python3
"""Speed and memory of the generator at benchmark scale (issue: fast at full scale).

    python bench/run.py --scale reference --json bench/results/reference.json
    python bench/run.py --scale 10x --json bench/results/10x.json
    python bench/run.py --scale reference --repeat 3      # medians of three runs

``reference``: 1,400 tasks (500 general, 900 enterprise), 20 combinations, 5 runs per task,
about 25 rule items and 5 Judge items per run: 140,000 runs, written by
``bench/make_release.py`` into ``bench/work/`` (kept between runs; regenerated when missing).
It reports, as JSON:

- ``runs``, ``input_bytes`` (all input files);
- ``parse_floor_s``: ``pyarrow.json.read_json`` merely parsing the run files (columnar, all
  cores): the practical floor for reading them;
- ``load_validate_s``: loading and checking every input (``validate``);
- ``score_s``: every aggregate the pages show, for every domain;
- ``pages_s``: writing the Markdown pages and their tables (in two processes), then after
  mkdocs waiting for the downloads and moving its output beside them;
- ``engine_s``: the mkdocs build (a forked worker writes the downloads meanwhile);
- ``assemble_s``: the generator's pass over the pages mkdocs wrote (tables, charts and the
  shared navigation put in, ``generator/site/assemble.py``);
- ``total_s``: the whole ``build`` into an empty output folder (load, check, score, pages,
  mkdocs, landing page, swap);
- ``peak_rss_mb``: peak resident memory of that build's process; ``peak_rss_mb_workers``:
  the largest peak of its forked workers (they share the parent's memory at the fork, so
  the two do not add up);
- ``rebuild_s``: a build over the previous output of a two-version release after one
  version changed: the other comes from the cache, at ``rebuild_cache_s`` (the share of its
  full build time: ``rebuild_cache_share``); ``rebuild_full_s``: the same release without
  the cache;
- ``breakdown``: load, check and score in parts, each timed on its own in a separate process
  (see :func:`measure_breakdown`): where the time above 3 x the parse floor goes;
- ``score_s_10x``, ``peak_rss_mb_10x``: load, check and score at 10x the runs (1.4 million:
  50 runs per task), measured in a separate process so its peak is its own.

With ``--scale 10x`` only the 10x figures are measured.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import itertools
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

SCALES: dict[str, dict[str, int]] = {
    "reference": {"tasks_general": 500, "tasks_enterprise": 900, "combinations": 20, "runs": 5},
    "10x": {"tasks_general": 500, "tasks_enterprise": 900, "combinations": 20, "runs": 50},
}
SHAPE = {"rules": 25, "judges": 5, "seed": 0}


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ensure_release(scale: str, versions: int = 1) -> Path:
    """The synthetic release of ``scale`` under bench/work/, written once."""
    from make_release import write_release

    root = HERE / "work" / f"{scale}-v{versions}"
    marker = root / ".complete"
    if not marker.is_file():
        write_release(root, **SCALES[scale], **SHAPE, versions=versions, deep_dives=6)
        marker.write_text("ok\n")
    return root


def parse_floor(root: Path) -> float:
    """Seconds for pyarrow to parse every runs file into columns."""
    import pyarrow.json as pj

    os.sync()
    start = time.perf_counter()
    for path in sorted(root.rglob("*.jsonl")):
        pj.read_json(path)
    return time.perf_counter() - start


def measure_build(root: Path, fresh: bool) -> dict[str, Any]:
    """One build with per-stage times, in this process; ``fresh``: into an empty output
    folder (else over the previous build, which it replaces)."""
    from generator.build import build_site
    from generator.check import check_inputs
    from generator.load import load_inputs
    from generator.site.cache import reusable

    marks: list[tuple[str, float]] = []
    out = root.parent / f"{root.name}-site"
    if fresh and out.exists():
        shutil.rmtree(out)  # a full build writes into an empty folder, as in CI
    os.sync()  # the previous run's writes and deletions reach the disk before timing starts
    start = time.perf_counter()
    unchanged = reusable(root, out, strict=False)  # what `build` does: skip unchanged versions
    hashed = time.perf_counter()
    inputs, problems = load_inputs(root, unchanged)
    problems += check_inputs(inputs)
    errors = [str(p) for p in problems if p.severity == "error"]
    if errors:
        raise SystemExit("the synthetic release is invalid:\n" + "\n".join(errors[:20]))
    loaded = time.perf_counter()

    def progress(message: str) -> None:
        marks.append((message, time.perf_counter()))

    build_site(inputs, out, strict=False, progress=progress)
    end = time.perf_counter()
    stages = {"score": 0.0, "pages": 0.0, "engine": 0.0, "assemble": 0.0, "cache": hashed - start}
    bounds = [*marks, ("end", end)]
    for (message, at), (_, until) in itertools.pairwise(bounds):
        kind = message.split(": ", 1)[-1]
        key = {
            "scoring": "score",
            "writing pages": "pages",
            "writing downloads": "pages",
            "building the site": "engine",
            "putting blocks and navigation into the pages": "assemble",
            "unchanged, from the cache": "cache",
        }.get(kind)
        if key:
            stages[key] += until - at
    return {
        "runs": sum(len(b.runs) for r in inputs.releases for b in r.bundles),
        "load_validate_s": loaded - start,
        "score_s": stages["score"],
        "pages_s": stages["pages"],
        "engine_s": stages["engine"],
        "assemble_s": stages["assemble"],
        "total_s": end - start,
        "cache_s": stages["cache"],  # hashing inputs, and taking unchanged versions over
        "cached_versions": sum(1 for m, _ in marks if m.endswith("unchanged, from the cache")),
    }


def measure_score(root: Path) -> dict[str, Any]:
    """Load, check and score every domain of every version (no pages): the 10x stage."""
    from generator.check import check_inputs
    from generator.load import load_inputs
    from generator.score.version import score_version

    os.sync()
    start = time.perf_counter()
    inputs, problems = load_inputs(root)
    problems += check_inputs(inputs)
    loaded = time.perf_counter()
    for version in inputs.releases:
        score_version(version)
    end = time.perf_counter()
    return {
        "runs": sum(len(b.runs) for r in inputs.releases for b in r.bundles),
        "load_validate_s": loaded - start,
        "score_s": end - loaded,
        "peak_rss_mb": _peak_mb(),
    }


#: The functions ``measure_breakdown`` times as the per-run part of scoring: the version's
#: frame, each run's scores and the task means (module, function).
PER_RUN = (
    ("generator.score.version", "published_frame"),
    ("generator.score.version", "score_runs"),
    ("generator.score.report", "task_table"),
)
#: ... and as the intervals: every figure's interval in the scopes (a measure's seeded task
#: draws included) and the contamination gap's variance.
INTERVALS = (
    ("generator.score.aggregate", "intervals"),
    ("generator.score.report", "task_variances"),
)


def resolve(where: tuple[str, str]) -> tuple[Any, str]:
    """(module, name) of a function named in :data:`PER_RUN` or :data:`INTERVALS`; fails when
    scoring no longer calls it by that name (the breakdown would silently time nothing)."""
    module = importlib.import_module(where[0])
    if not callable(getattr(module, where[1], None)):
        raise LookupError(f"{where[0]}.{where[1]} is not a function: update bench/run.py")
    return module, where[1]


def measure_breakdown(root: Path) -> dict[str, Any]:
    """Where load, check and score spend their time. Two parts of loading, each timed on its
    own: reading and validating the catalogs (``catalog_s``) and reading the runs files as
    the build does, two at a time (``runs_read_s``). Then the stages as :func:`measure_score`
    runs them: loading (``load_s``), the checks (``check_s``) and scoring (``score_s``),
    split into the version's frame, each run's scores and the task means (``per_run_score_s``:
    the part that grows with the runs), the intervals (``intervals_s``: every figure's
    interval, a measure's seeded task draws included) and the rest (``score_rest_s``: estimates,
    percentiles, differences, business views, the reports' models, memory given back)."""
    from concurrent.futures import ThreadPoolExecutor

    import generator.score.version as scoring
    from generator.check import check_inputs
    from generator.load import load_inputs
    from generator.load.jsonlines import read_runs
    from generator.load.tree import READERS
    from generator.load.validate import validate_as
    from generator.load.yamlfile import read_yaml
    from generator.models import Catalog

    out: dict[str, Any] = {"catalog_s": 0.0, "score_s": 0.0}
    for folder in sorted(p for p in (root / "results").iterdir() if p.is_dir()):
        start = time.perf_counter()
        parsed = read_yaml(folder / "tasks.yaml", "tasks.yaml")
        assert isinstance(parsed, tuple), parsed
        validate_as(Catalog, *parsed)
        out["catalog_s"] += time.perf_counter() - start
    files = sorted(root.rglob("*.jsonl"))
    start = time.perf_counter()
    with ThreadPoolExecutor(READERS) as pool:
        for _ in pool.map(lambda path: read_runs(path, path.name), files):
            pass
    out["runs_read_s"] = time.perf_counter() - start
    os.sync()
    start = time.perf_counter()
    inputs, problems = load_inputs(root)
    loaded = time.perf_counter()
    problems += check_inputs(inputs)
    out["load_s"], out["check_s"] = loaded - start, time.perf_counter() - loaded
    spent: dict[str, float] = {}
    parts = tuple(resolve(where) for where in PER_RUN)
    drawn = tuple(resolve(where) for where in INTERVALS)
    timed = (*parts, *drawn)
    originals = {(module, name): getattr(module, name) for module, name in timed}
    for (module, name), function in originals.items():
        label = "intervals" if (module, name) in drawn else name
        setattr(module, name, _timing(function, label, spent))
    try:
        for version in inputs.releases:
            start = time.perf_counter()
            scoring.score_version(version)
            out["score_s"] += time.perf_counter() - start
    finally:
        for (module, name), function in originals.items():
            setattr(module, name, function)
    out["per_run_score_s"] = sum(spent.get(name, 0.0) for _, name in parts)
    out["intervals_s"] = spent.get("intervals", 0.0)
    out["score_rest_s"] = out["score_s"] - out["per_run_score_s"] - out["intervals_s"]
    return out


def _timing(function: Any, name: str, spent: dict[str, float]) -> Any:
    """``function``, adding the seconds of each call to ``spent[name]``."""

    def timed(*args: Any, **kwargs: Any) -> Any:
        begin = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.perf_counter() - begin

    return timed


def _child(mode: str, root: Path) -> dict[str, Any]:
    """Run one measurement in a fresh process, so that its memory peak is its own."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--root", str(root)],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _touch_one_version(root: Path) -> None:
    """Change one input of the newest version (a bundle's notes), as a new submission would."""
    newest = sorted((root / "results").iterdir())[-1]
    bundle = sorted((newest / "bundles").iterdir())[0] / "bundle.yaml"
    text = bundle.read_text(encoding="utf-8")
    stamp = f"# touched {time.time_ns()}\n"
    lines = [line for line in text.splitlines(keepends=True) if not line.startswith("# touched")]
    bundle.write_text(stamp + "".join(lines), encoding="utf-8")


def reference(repeat: int) -> dict[str, Any]:
    root = ensure_release("reference")
    # Full builds: with the cache, the second repeat would take the first one's output.
    builds = [_child("build-nocache", root) for _ in range(repeat)]
    floors = [parse_floor(root) for _ in range(repeat)]
    parts = [_child("breakdown", root) for _ in range(repeat)]
    two = ensure_release("reference", versions=2)
    _child("build", two)  # fill the cache
    _touch_one_version(two)
    rebuild = _child("build", two)
    full = _child("build-nocache", two)
    med = {
        k: statistics.median(b[k] for b in builds)
        for k in builds[0]
        if isinstance(builds[0][k], float)
    }
    result: dict[str, Any] = {
        "scale": "reference",
        "repeat": repeat,
        "runs": builds[0]["runs"],
        "input_bytes": sum(p.stat().st_size for p in root.rglob("*") if p.is_file()),
        "parse_floor_s": statistics.median(floors),
        **med,
        "breakdown": {
            k: statistics.median(p[k] for p in parts) for k in sorted(parts[0]) if k.endswith("_s")
        },
        "rebuild_s": rebuild["total_s"],
        "rebuild_cache_s": rebuild["cache_s"],
        "rebuild_full_s": full["total_s"],
        "rebuild_cached_versions": rebuild["cached_versions"],
    }
    result["rebuild_cache_share"] = rebuild["cache_s"] / (full["total_s"] / 2)
    result["load_validate_score_over_floor"] = (
        result["load_validate_s"] + result["score_s"]
    ) / result["parse_floor_s"]
    return result


def ten_x(repeat: int, base: dict[str, Any] | None) -> dict[str, Any]:
    root = ensure_release("10x")
    runs = [_child("score", root) for _ in range(repeat)]
    out: dict[str, Any] = {
        "runs_10x": runs[0]["runs"],
        "score_s_10x": statistics.median(r["score_s"] for r in runs),
        "load_validate_s_10x": statistics.median(r["load_validate_s"] for r in runs),
        "peak_rss_mb_10x": max(r["peak_rss_mb"] for r in runs),
    }
    if base is not None:
        out["score_ratio_10x"] = out["score_s_10x"] / base["score_s"]
    return out


def _tree(pid: int) -> list[int]:
    """``pid`` and every process below it (from /proc)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def _pss_mb(pids: list[int]) -> float:
    """The summed proportional set sizes of ``pids`` (pages shared by n processes count 1/n
    in each, so the sum is the memory the tree holds)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
    return total / 1024


def whole_build_10x() -> dict[str, Any]:
    """One whole build at 10x (not one of the goals' figures): its time, what it wrote, the
    build process's peak and the peak of the build and its forked workers together, as the
    sum of their proportional set sizes sampled every 0.3 s (Linux only)."""
    root = ensure_release("10x")
    process = subprocess.Popen(
        [sys.executable, __file__, "--child", "build-nocache", "--root", str(root)],
        stdout=subprocess.PIPE,
        text=True,
    )
    peak = 0.0
    while process.poll() is None:
        peak = max(peak, _pss_mb(_tree(process.pid)))
        time.sleep(0.3)
    stdout = process.communicate()[0]
    if process.returncode:
        raise SystemExit(f"the 10x build failed ({process.returncode})")
    figures: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    site = root.parent / f"{root.name}-site"
    written = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    return {
        "build_10x_s": figures["total_s"],
        "build_10x_written_mb": written / 1e6,
        "build_10x_peak_rss_mb": figures["peak_rss_mb"],
        "build_10x_peak_pss_mb_with_workers": peak,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", choices=["reference", "10x", "both"], default="both")
    parser.add_argument("--json", type=Path, help="write the results here as JSON")
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure (medians)")
    parser.add_argument(
        "--whole-10x",
        action="store_true",
        help="also build the whole site at 10x once, its memory with the workers' (PSS)",
    )
    children = ["build", "build-nocache", "score", "breakdown"]
    parser.add_argument("--child", choices=children, help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        if args.child == "build-nocache":
            os.environ["LG_BENCH_NO_CACHE"] = "1"
        if args.child == "score":
            figures = measure_score(args.root)
        elif args.child == "breakdown":
            figures = measure_breakdown(args.root)
        else:
            figures = measure_build(args.root, fresh=args.child == "build-nocache")
        figures["peak_rss_mb"] = _peak_mb()
        # the build's forked workers (pages, downloads): the largest one's peak
        figures["peak_rss_mb_workers"] = (
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        )
        print(json.dumps(figures))
        return
    result: dict[str, Any] = {}
    if args.scale in ("reference", "both"):
        result.update(reference(args.repeat))
    if args.scale in ("10x", "both"):
        result.update(ten_x(args.repeat, result or None))
    if args.whole_10x:
        result.update(whole_build_10x())
    text = json.dumps(result, indent=2, sort_keys=True)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
