#!/usr/bin/env python3
"""The privacy gate's cost: per example and domain, the seconds to score the domain
(``build_report``), of them the seconds in the gate, the figures offered and refused.

    python bench/gate_speed.py [--root examples/enterpriseclawbench]

Measured on this project's two-core machine (2026-12-03), EnterpriseClawBench-shaped
example, domain ``workplace`` (ten combinations, 8,768 figures offered, minimum 4):

- one SVD per admitted figure, every candidate task set tested by an SVD of the whole
  basis: 51.8 s;
- the basis extended by Gram–Schmidt (no SVD), the parallel-column merge vectorised, the
  candidate sets screened in batches by the eigenvalues of their few columns' Gram block,
  the reduced row echelon form read for a witness, and the task sets that exposed groups
  before tried first: 15.5 s, every decision the same (``tests/score/test_support.py``
  binds the fast paths to the plain search, ``tests/score/test_gate.py`` the search to its
  definition);
- one gate for every combination (experiments join a treatment's figures to its
  baseline's), undoing a refused figure by a journal instead of copying the gate, and the
  parallel columns grouped by a fixed random projection of their keys (checked equal):
  11.4 s, 10.4 s of them in the gate, the same report;
- the gate deciding from the declaration alone (every task's residue, rule items, failure
  figures per declared type, 9,253 figures offered): 20% slower than the line before,
  measured side by side under the same load (55.8 s against 67.3 s, other jobs running);
- (2026-12-04) one ``Memory`` per domain (``generator/score/memory.py``) keeping each
  search's answer by its question and by the row space it searched: 12.2 s → 3.4 s in the
  gate; on bench's reference release 16.9 s + 6.6 s → 4.7 s + 5.2 s (its two domains), side
  by side under the same load, every report byte-identical.
- (2026-12-04) a combination of an earlier one's shape takes its decisions and parts
  (``gating.shapes``, ``Gate.copy``), pairs offered the same patterns share a gate: the
  reference release 4.5 s + 6.1 s → 2.6 s + 3.0 s, the ClawBench-shaped example (six shapes
  of ten combinations) 3.8 s → 3.5 s, one after the other on an idle machine, every report
  byte-identical.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from generator.build import load_checked  # noqa: E402
from generator.score import gating, report  # noqa: E402
from generator.score.gating import Gated  # noqa: E402
from generator.score.report import build_report  # noqa: E402

EXAMPLES = (
    HERE.parent,
    HERE.parent / "examples" / "enterprisebench",
    HERE.parent / "examples" / "enterpriseclawbench",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--root", type=Path, action="append", help="a release root (repeatable)")
    roots = parser.parse_args().root or list(EXAMPLES)
    seen: dict[str, float] = {}
    plain = gating.gate_domain

    def timed(*args: Any, **kwargs: Any) -> Gated:
        start = time.perf_counter()
        gated = plain(*args, **kwargs)
        seen["gate"] = time.perf_counter() - start
        seen["admitted"] = sum(len(v) for v in gated.figures.values())
        seen["refused"] = sum(len(v) for v in gated.refused.values())
        return gated

    setattr(report, "gate_domain", timed)  # noqa: B010 (the report's own name for it)
    for root in roots:
        inputs, _ = load_checked(root, False)
        for version in inputs.releases:
            assert version.release is not None  # load_checked raises otherwise
            for domain in version.release.model.domains:
                start = time.perf_counter()
                build_report(version, domain.id)
                total = time.perf_counter() - start
                print(
                    f"{root.name}/{version.folder}/{domain.id}: {total:.1f} s, of them "
                    f"{seen['gate']:.1f} s in the gate; {seen['admitted']:.0f} figures "
                    f"admitted, {seen['refused']:.0f} refused"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
