#!/usr/bin/env python3
"""Each speed trick of the build, measured on and off on the same release.

    python bench/tricks.py --repeat 3 --json bench/results/tricks.json

For every trick in :data:`TRICKS`, full builds of bench's reference release (as
``bench/run.py`` makes it) alternate with the trick on and off, each in a fresh process; the
figures are the medians of the total and of the stage the trick is for. A trick whose
figure shows no gain goes (the issue: every speed trick keeps its figure or goes); the ones
kept quote their figure in their docstring. Measured and removed on 2026-12-01
(bench/results/2026-12-01-tricks.json): a pool of threads writing the pages and downloads,
and a cache of the catalog's item index.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import run  # noqa: E402  (bench/run.py: the release and the timed build)


class _Inline:
    """An executor that runs what it is given at once, in the calling thread."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Future[Any]:
        done: Future[Any] = Future()
        try:
            done.set_result(function(*args, **kwargs))
        except BaseException as exc:
            done.set_exception(exc)
        return done


def _no_evidence_beside_scoring() -> None:
    """The pages' evidence index gathered after the scoring (generator/build.py)."""
    import generator.build as build

    build.ThreadPoolExecutor = _Inline  # type: ignore[assignment,misc]


def _no_gc_freeze() -> None:
    """The garbage collector walks every object, scores and pages included."""
    import generator.site.build as site_build

    class _GC:
        freeze = unfreeze = staticmethod(lambda: None)

    site_build.gc = _GC  # type: ignore[assignment]


def _no_shared_navigation() -> None:
    """Every page outside the navigation renders the navigation itself."""
    import generator.pages as pages

    pages.replace = lambda page, **_: page  # type: ignore[assignment]


def _no_page_worker() -> None:
    """All pages rendered in this process (no forked part)."""
    import generator.site.build as site_build

    site_build.PARTS = 1


def _no_arrow_runs() -> None:
    """Every runs file read line by line with pydantic (the reference reader), not parsed
    in bulk by Arrow."""
    import generator.load.jsonlines as jsonlines

    jsonlines.read_fast = lambda raw, start, first_line: None  # type: ignore[assignment]


def _no_bulk_tables() -> None:
    """The task pages' run and verdict tables written record by record: each download
    through ``Table`` (the reference ``tests/pages/blocks/test_bulk.py`` holds the bulk
    writer to), each cell encoded for every row and each row joined in Python."""

    import pandas as pd
    import pyarrow as pa

    import generator.pages.blocks.bulk as bulk
    from generator.pages.blocks.tables import Prepared, Row, Table

    def encoded(values: Any, encode: Any) -> pa.Array:
        if isinstance(values, pd.DataFrame):
            rows = values.itertuples(index=False, name=None)
            return pa.array([encode(bulk._python(list(r))) for r in rows], pa.string())
        return pa.array([encode(v) for v in bulk._python(list(values))], pa.string())

    def joined(parts: list[Any]) -> list[str]:
        columns = [p.to_pylist() if isinstance(p, pa.Array) else None for p in parts]
        n = len(next(c for c in columns if c is not None))
        return [
            "".join(p if c is None else c[i] for p, c in zip(parts, columns, strict=True))
            for i in range(n)
        ]

    def downloads(records: pd.DataFrame, by: pd.Series, table: str, caption: str) -> Any:
        out = {}
        frame = records.reset_index(drop=True)
        for key, part in bulk.groups(by):
            rows = tuple(
                Row((), {str(k): v for k, v in record.items()})
                for record in frame.iloc[part].to_dict("records")
            )
            written = Table(table, caption, tuple(frame.columns), rows)
            out[key] = Prepared(written.to_csv(), written.to_json())
        return out

    bulk.encoded = encoded  # type: ignore[assignment]
    bulk.joined = joined  # type: ignore[assignment]
    bulk.downloads = downloads  # type: ignore[assignment]


#: trick -> (what switches it off, the stage of bench/run.py's build it is for)
TRICKS: dict[str, tuple[Callable[[], None], str]] = {
    "evidence-beside-scoring": (_no_evidence_beside_scoring, "score_s"),
    "gc-freeze": (_no_gc_freeze, "total_s"),
    "shared-navigation": (_no_shared_navigation, "engine_s"),
    "page-worker": (_no_page_worker, "pages_s"),
    "arrow-runs": (_no_arrow_runs, "load_validate_s"),
    "bulk-tables": (_no_bulk_tables, "pages_s"),
}


def _child(root: Path, off: str | None) -> dict[str, Any]:
    args = [sys.executable, __file__, "--child", "--root", str(root)]
    if off:
        args += ["--off", off]
    done = subprocess.run(args, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def measure(root: Path, tricks: list[str], repeat: int) -> dict[str, Any]:
    """Alternating builds with each trick on and off; medians."""
    out: dict[str, Any] = {"repeat": repeat, "date": time.strftime("%Y-%m-%d"), "tricks": {}}
    for trick in tricks:
        on, off = [], []
        for _ in range(repeat):
            on.append(_child(root, None))
            off.append(_child(root, trick))
        stage = TRICKS[trick][1]
        figures = {
            f"{key}_{side}": statistics.median(r[key] for r in runs)
            for key in sorted({"total_s", stage})
            for side, runs in (("on", on), ("off", off))
        }
        out["tricks"][trick] = {"stage": stage, **figures}
        print(trick, json.dumps(out["tricks"][trick]), flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="builds per side (medians)")
    parser.add_argument("--trick", action="append", choices=sorted(TRICKS), help="only these")
    parser.add_argument("--json", type=Path, help="write the results here as JSON")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--off", choices=sorted(TRICKS), help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        os.environ["LG_BENCH_NO_CACHE"] = "1"
        if args.off:
            TRICKS[args.off][0]()
        with contextlib.redirect_stdout(sys.stderr):
            figures = run.measure_build(args.root, fresh=True)
        print(json.dumps(figures))
        return
    root = run.ensure_release("reference")
    result = measure(root, args.trick or sorted(TRICKS), args.repeat)
    text = json.dumps(result, indent=2, sort_keys=True)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
