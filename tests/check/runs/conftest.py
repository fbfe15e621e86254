"""A small release for the sections of the run checks: three tasks, records written as a
submitter would, and the sections' frozen inputs built from them by the public builders
(:func:`generator.check.runs.columns.run_checks`, :func:`generator.check.runs.catalog_items`).

The tasks, in catalog order:

- ``t1`` (office/a): rule-only; ordinary items R1, R2 and the fatal item F1;
- ``t2`` (office/b): dual-channel (w = 0.5); R1, R2 and F1, Judge items J1 (levels 0..4,
  designated evidence E1) and J2 (pass/fail); R2 and J2 form the module ``m1``, and the task
  declares a second evidence item E2 that no Judge item designates;
- ``t3`` (erp/x): rule-only; R1, R2.

``runs_per_task`` is 2. A record's line is its position in the file after the header line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import builders
import pytest

from generator.check.runs import catalog_items
from generator.check.runs.columns import Found, RunChecks, run_checks
from generator.errors import Problem
from generator.load import Loaded, LoadedBundle
from generator.load.records import columns_from_records
from generator.load.source import Source
from generator.models import Bundle, Catalog, Release, RunRecord
from generator.models.profile import Metric, Range

RUNS_PATH = "results/v0.1/bundles/small/runs.jsonl"
BUNDLE_PATH = "results/v0.1/bundles/small/bundle.yaml"
EVALUATION_LINE = 40  # where bundle.yaml says ``evaluation:``


def _catalog() -> Catalog:
    t1 = builders.task("t1", "office", "a", fatal=1)
    t2 = builders.task("t2", "office", "b", fatal=1, judge=(4, 1))
    t2["scoring"]["modules"] = [{"id": "m1", "title": "Module one"}]
    t2["scoring"]["rule_items"][1]["module"] = "m1"
    t2["scoring"]["judge_items"][1]["module"] = "m1"
    t2["scoring"]["judge_items"][0]["evidence"] = ["E1"]
    t2["scoring"]["evidence"] = [
        {"id": e, "source": "result.json", "location": "$.total", "excerpt": "42"}
        for e in ("E1", "E2")
    ]
    t3 = builders.task("t3", "erp", "x")
    return builders.catalog([t1, t2, t3])


@dataclass(frozen=True)
class Small:
    """The release, its catalog, and builders of records and of the sections' inputs."""

    release: Release
    catalog: Catalog
    runs_path: ClassVar[str] = RUNS_PATH
    bundle_path: ClassVar[str] = BUNDLE_PATH
    evaluation_line: ClassVar[int] = EVALUATION_LINE

    @staticmethod
    def rule(item: str, ok: bool = True) -> dict[str, Any]:
        """A rule verdict as a runs file writes it."""
        return {"id": item, "pass": ok}

    @staticmethod
    def judge(item: str, level: int, *evidence: str) -> dict[str, Any]:
        """A Judge verdict as a runs file writes it."""
        return {"id": item, "level": level, "evidence": list(evidence)}

    def record(self, task: str, run: int = 1, **fields: Any) -> RunRecord:
        """A valid run of ``task`` that passes everything, with ``fields`` changed."""
        data: dict[str, Any] = {
            "task": task,
            "run": run,
            "seed": run,
            "status": "valid",
            "delivery": True,
            "rules": [self.rule("R1"), self.rule("R2")],
            "fatal": [self.rule("F1")] if task in ("t1", "t2") else [],
            "judge": [self.judge("J1", 4, "E1"), self.judge("J2", 1)] if task == "t2" else [],
            "judge_valid": True if task == "t2" else None,
            "input_tokens": 100,
            "output_tokens": 10,
            "duration_s": 1.0,
            "turns": 1,
        }
        data.update(fields)
        return RunRecord.model_validate(data)

    def full(self) -> list[RunRecord]:
        """Every task's prescribed runs, all passing."""
        return [
            self.record(t.id, k)
            for t in self.catalog.tasks
            for k in range(1, self.release.runs_per_task + 1)
        ]

    def loaded(
        self,
        records: Sequence[RunRecord],
        *,
        not_covered: list[dict[str, str]] | None = None,
        evaluation: str = "complete",
    ) -> LoadedBundle:
        bundle: Bundle = builders.bundle("small", not_covered=not_covered, evaluation=evaluation)
        source = Source(BUNDLE_PATH, {("evaluation",): EVALUATION_LINE})
        columns = columns_from_records(list(records), self.lines(len(records)))
        return LoadedBundle("small", Loaded(bundle, source), columns, RUNS_PATH)

    def checks(self, records: Sequence[RunRecord], **bundle: Any) -> RunChecks:
        """What every section reads, for a bundle of ``records``."""
        return run_checks(self.release, catalog_items(self.catalog), self.loaded(records, **bundle))

    @staticmethod
    def lines(n: int) -> list[int]:
        return list(range(2, n + 2))  # line 1 is the header

    @staticmethod
    def reported(runs: RunChecks, found: Found) -> list[Problem]:
        """The problems a section found, located as check_runs locates them, in line order
        (a record's own in the order found)."""
        located = [
            Problem(runs.loaded.runs_path, int(runs.records.line[row]), field, message)
            for row, problems in found.by_row.items()
            for field, message in problems
        ]
        return sorted(located, key=lambda p: p.line)


@pytest.fixture(scope="session")
def small() -> Small:
    return Small(builders.release(runs_per_task=2), _catalog())


def _profiled_release(continuous: bool) -> Release:
    """A release that reports no token or turn metric (duration only) and declares measured
    metrics: ``cost`` (signed, unbounded), ``calls`` (at least 0) and ``rating`` (0..10)."""
    base = builders.release(runs_per_task=2)
    counted = ("input_tokens", "output_tokens", "total_tokens", "turns")
    engine = tuple(m for m in base.metrics if m.id not in counted)
    measured = (
        Metric(id="cost", title="Cost", direction="lower", measured=True, range=Range(low=None)),
        Metric(id="calls", title="Calls", direction="lower", measured=True),
        Metric(
            id="rating", title="Rating", direction="higher", measured=True, range=Range(high=10)
        ),
    )
    profile = base.profile.model_copy(update={"continuous_levels": continuous})
    return base.model_copy(update={"metrics": (*engine, *measured), "profile": profile})


def _profiled_catalog() -> Catalog:
    """``m1`` (office/a): a measure task scoring in ``cost`` (failure value 1e6) with the
    fatal item F1; ``j1`` (office/b): judge-only, Judge items J1 (0..10) and J2 (pass/fail);
    ``t1`` (erp/x): rule-only, R1 and R2."""
    m1 = builders.task("m1", "office", "a", rules=0, fatal=1)
    m1["scoring"].update(mode="measure", measure="cost", failure_value=1e6)
    j1 = builders.task("j1", "office", "b", rules=0, judge=(10, 1))
    j1["scoring"]["mode"] = "judge-only"
    del j1["scoring"]["rule_weight"]
    return builders.catalog([m1, j1, builders.task("t1", "erp", "x")])


@dataclass(frozen=True)
class Profiled(Small):
    """A release declaring measured metrics, with a measure and a judge-only task."""

    def record(self, task: str, run: int = 1, **fields: Any) -> RunRecord:
        """A valid run of ``task`` that passes everything, with ``fields`` changed: no
        token or turn counts, a cost on every run and a rating on the judge-only task's."""
        data: dict[str, Any] = {
            "task": task,
            "run": run,
            "seed": run,
            "status": "valid",
            "delivery": True,
            "rules": [self.rule("R1"), self.rule("R2")] if task == "t1" else [],
            "fatal": [self.rule("F1")] if task == "m1" else [],
            "judge": [self.judge("J1", 10), self.judge("J2", 1)] if task == "j1" else [],
            "judge_valid": True if task == "j1" else None,
            "duration_s": 1.0,
            "measures": [{"id": "cost", "value": -2.5 * run}]
            + ([{"id": "rating", "value": 7.5}] if task == "j1" else []),
        }
        data.update(fields)
        return RunRecord.model_validate(data)


@pytest.fixture(scope="session")
def profiled() -> Profiled:
    return Profiled(_profiled_release(False), _profiled_catalog())


@pytest.fixture(scope="session")
def continuous() -> Profiled:
    """The same release, allowing continuous Judge levels."""
    return Profiled(_profiled_release(True), _profiled_catalog())
