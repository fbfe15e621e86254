"""A small import, as an importer would read it, for the tests of what imports write."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from generator.importers.source import Imported, ImportedBundle, ImportedRun, ImportedTask, Outcome

DAY = dt.date(2026, 11, 20)


def runs(model: str) -> tuple[ImportedRun, ...]:
    """Two tasks, two runs each: three scored (with counts), one lost to an error."""
    ok = {"input_tokens": 100, "output_tokens": 10, "duration_s": 1.5}
    return (
        ImportedRun("t1", 1, "valid", passed=True, value=1.0, **ok),
        ImportedRun("t1", 2, "valid", passed=False, value=0.25, failure_type="incorrect", **ok),
        ImportedRun("t2", 1, "valid", passed=True, value=0.5, **ok),
        ImportedRun("t2", 2, "incomplete", cause="error", note=f"{model} crashed"),
    )


def bundle(model: str = "alpha") -> ImportedBundle:
    return ImportedBundle(
        combination=f"solver-{model}",
        title=f"solver × {model}",
        harness="solver",
        harness_version=None,
        model=model,
        model_provider="mock",
        runs_per_task=2,
        first_day=DAY,
        last_day=DAY + dt.timedelta(days=1),
        runs=runs(model),
        configuration={"temperature": 0.5},
        budgets={"timeout_s": 600},
        card={"execution.sandboxing": "docker"},
    )


def imported(kind: Literal["pass-fail", "measure"] = "pass-fail", models: int = 2) -> Imported:
    outcome = (
        Outcome("pass-fail", "check", "Accuracy", "The check passed")
        if kind == "pass-fail"
        else Outcome("measure", "score", "Score", "The score", low=None, high=None)
    )
    return Imported(
        benchmark="Toy Bench",
        tool="Toy",
        outcome=outcome,
        domains={"toy": "Toy"},
        tasks=(ImportedTask("t1", "Task 1", "toy"), ImportedTask("t2", "Task 2", "toy", "from X")),
        bundles=tuple(bundle(m) for m in ("alpha", "beta")[:models]),
        causes={"error": "The run ended in an error"},
        failures={"incorrect": "Incorrect"} if kind == "pass-fail" else {},
        components={"tasks": "1.0"},
        scorer={"toy": None},
    )
