"""The input files an import writes, as data: a minimal release and its task catalog (when
the root has none), a HarnessCard and a bundle per combination, and the bundle's runs.

Each document is a plain mapping, checked against its model before it is written (a value
of the source that the model refuses is reported at its field) and serialised by the YAML
or JSON serializer, never pasted into text. A setting the source does not record is
"not recorded" (:data:`generator.models.base.NOT_RECORDED`).
"""

from __future__ import annotations

import copy
import datetime as dt
import json
from typing import Any

from generator.importers.source import (
    BUDGETS,
    CONFIGURATION,
    Imported,
    ImportedBundle,
    ImportedRun,
    as_id,
)
from generator.models.base import FORMAT_VERSION, NOT_RECORDED
from generator.models.harnesscard import MINIMUM_FIELDS

#: The rule item of a pass/fail task: the source's own check.
PASSED = "passed"
#: Per-run counts a bundle's runs may record, in the order a release declares their metrics.
COUNTS = ("input_tokens", "output_tokens", "duration_s", "turns")
#: The engine's metrics every generated release declares, with their titles.
ENGINE_METRICS = (
    ("rule_score", "Rule score"),
    ("judge_score", "Judge score"),
    ("success_rate", "Success rate"),
    ("reliability", "reliability@k"),
)
COUNT_METRICS = {
    "input_tokens": {"id": "input_tokens", "title": "Input tokens", "unit": "tokens"},
    "output_tokens": {"id": "output_tokens", "title": "Output tokens", "unit": "tokens"},
    "duration_s": {"id": "duration_s", "title": "Duration", "unit": "s"},
    "turns": {"id": "turns", "title": "Turns"},
}


def _recorded(value: Any) -> Any:
    return NOT_RECORDED if value is None else value


def components(imported: Imported) -> dict[str, Any]:
    """The component versions of the release, as the source records them."""
    out: dict[str, Any] = {
        key: _recorded(imported.components.get(key))
        for key in ("tasks", "data", "environment", "protocol", "judge_assets")
    }
    out["scorer"] = {name: _recorded(version) for name, version in imported.scorer.items()}
    return out


def runs_per_task(imported: Imported) -> int:
    """The runs per task every bundle of the import prescribes (the importer checks they
    agree)."""
    return max(b.runs_per_task for b in imported.bundles)


def recorded_counts(imported: Imported) -> list[str]:
    """The per-run counts some run of the import records."""
    return [
        c
        for c in COUNTS
        if any(getattr(r, c) is not None for b in imported.bundles for r in b.runs)
    ]


def release(imported: Imported, version: str, code: str, freeze: dt.date) -> dict[str, Any]:
    """A minimal release for the import: one domain per source domain, the outcome the
    source scores in, the causes and failure types its runs name."""
    outcome = imported.outcome
    n = runs_per_task(imported)
    domains = []
    for domain, title in imported.domains.items():
        entry: dict[str, Any] = {"id": domain, "title": title}
        if outcome.kind == "measure":
            entry["outcome"] = outcome.metric
        domains.append(entry)
    enumerations: dict[str, Any] = {}
    if imported.failures:
        enumerations["failure_types"] = _values(imported.failures)
    if imported.causes:
        enumerations["incomplete_causes"] = _values(imported.causes)
    metrics: list[dict[str, Any]] = [
        {
            "id": "task_score",
            "title": outcome.title if outcome.kind == "pass-fail" else "Task Score",
            "direction": "higher",
        }
    ]
    metrics += [{"id": m, "title": t, "direction": "higher"} for m, t in ENGINE_METRICS]
    if outcome.kind == "measure":
        metrics.append(
            {
                "id": outcome.metric,
                "title": outcome.title,
                "direction": "higher",
                "measured": True,
                "role": "outcome",
                "range": {"low": outcome.low, "high": outcome.high},
            }
        )
    counts = recorded_counts(imported)
    for count in counts:
        metrics.append({**COUNT_METRICS[count], "direction": "lower"})
        if count == "output_tokens" and "input_tokens" in counts:
            metrics.append(
                {
                    "id": "total_tokens",
                    "title": "Total tokens",
                    "direction": "lower",
                    "unit": "tokens",
                }
            )
    return {
        "format_version": FORMAT_VERSION,
        "benchmark": {"name": imported.benchmark, "code": code},
        "version": version,
        "title": f"{imported.benchmark} {version}",
        "freeze_date": freeze.isoformat(),
        "illustrative": False,
        "components": components(imported),
        "domains": domains,
        "enumerations": enumerations,
        "metrics": metrics,
        "controlled_factors": [
            {
                "factor": "Task set",
                "status": "controlled",
                "setting": f"the tasks of the imported {imported.tool} results",
            }
        ],
        "runs_per_task": n,
        "reliability_k": list(range(1, n + 1)),
        "groups": {"public": len(imported.tasks), "held_out": 0},
        "boundaries_of_use": (
            f"Imported from {imported.tool} results. A score belongs to one combination of "
            f"harness and model on the tasks of {imported.benchmark} {version}; a setting the "
            "results do not record is shown as not recorded."
        ),
        "profile": {"task_fields": []},
    }


def _values(titles: dict[str, str]) -> list[dict[str, str]]:
    return [{"id": key, "title": title} for key, title in sorted(titles.items())]


def catalog(imported: Imported, version: str) -> dict[str, Any]:
    """The task catalog: every task the import names, in its domain's one family."""
    outcome = imported.outcome
    if outcome.kind == "pass-fail":
        scoring: dict[str, Any] = {
            "mode": "rule-only",
            "core_delivery": "The run ended and was scored.",
            "rule_items": [{"id": PASSED, "title": outcome.check}],
        }
    else:
        scoring = {
            "mode": "measure",
            "measure": outcome.metric,
            "failure_value": outcome.low if outcome.low is not None else 0.0,
            "core_delivery": "The run ended and was scored.",
        }
    tasks = []
    for task in sorted(imported.tasks, key=lambda t: (t.domain, t.id)):
        entry: dict[str, Any] = {
            "id": task.id,
            "title": task.title,
            "domain": task.domain,
            "family": task.domain,
            "group": "public",
        }
        if task.source:
            entry["source"] = task.source
        entry["scoring"] = copy.deepcopy(scoring)  # a copy each: YAML repeats it, no alias
        tasks.append(entry)
    return {
        "format_version": FORMAT_VERSION,
        "release": version,
        "families": [
            {"id": domain, "title": title, "domain": domain}
            for domain, title in imported.domains.items()
        ],
        "tasks": tasks,
    }


def card_id(bundle: ImportedBundle) -> str:
    """The id of the bundle's HarnessCard: its harness, and version where recorded."""
    name = (
        bundle.harness
        if bundle.harness_version is None
        else (f"{bundle.harness}-{bundle.harness_version}")
    )
    return as_id(name, "harness", "harness")


def card(bundle: ImportedBundle) -> dict[str, Any]:
    """The HarnessCard of the bundle's harness: every field not recorded but those the
    source discloses."""
    layers: dict[str, dict[str, Any]] = {}
    for layer, fields in MINIMUM_FIELDS.items():
        layers[layer] = {}
        for name in fields:
            value = bundle.card.get(f"{layer}.{name}")
            layers[layer][name] = NOT_RECORDED if value is None else {"value": value}
    return {
        "format_version": FORMAT_VERSION,
        "id": card_id(bundle),
        "harness": {
            "name": bundle.harness,
            "version": _recorded(bundle.harness_version),
            "vendor": NOT_RECORDED,
        },
        "card_date": bundle.last_day.isoformat(),
        "layers": layers,
    }


def complete(bundle: ImportedBundle, tasks: int) -> bool:
    """Whether every task has the prescribed valid runs."""
    valid = [r.task for r in bundle.runs if r.status == "valid"]
    counts = {t: valid.count(t) for t in set(valid)}
    return len(counts) == tasks and all(n >= bundle.runs_per_task for n in counts.values())


def bundle(
    imported: Imported,
    entry: ImportedBundle,
    version: str,
    consent: dict[str, Any],
) -> dict[str, Any]:
    """The bundle of one combination: what the source says, the rest not recorded."""
    missing = [
        c for c in COUNTS if any(getattr(r, c) is None for r in entry.runs if r.status == "valid")
    ]
    out: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "release": version,
        "combination": {
            "id": entry.combination,
            "title": entry.title,
            "harnesscard": card_id(entry),
            "model": {
                "name": entry.model,
                "version": _recorded(entry.model_version),
                "provider": _recorded(entry.model_provider),
                "tokenizer": NOT_RECORDED,
            },
            "agent_version": _recorded(entry.agent_version),
        },
        "configuration": {
            **{key: _recorded(entry.configuration.get(key)) for key in CONFIGURATION},
            "runs_per_task": entry.runs_per_task,
            "pipeline_components": components(imported),
        },
        "budgets": {key: _recorded(entry.budgets.get(key)) for key in BUDGETS},
        "clarification": dict.fromkeys(
            ("simulated_user_script_version", "waiting_cap_s", "rules"), NOT_RECORDED
        ),
        "environment_snapshot": NOT_RECORDED,
        "evaluator": dict.fromkeys(
            ("judge_model", "judge_model_version", "prompt_version", "voting"), NOT_RECORDED
        ),
        "run_dates": {"start": entry.first_day.isoformat(), "end": entry.last_day.isoformat()},
        "consent": consent,
        "evaluation": "complete" if complete(entry, len(imported.tasks)) else "incomplete",
    }
    if missing:
        out["counts_not_recorded"] = missing
    if entry.notes:
        out["notes"] = entry.notes
    return out


def run_record(run: ImportedRun, outcome_kind: str, metric: str) -> dict[str, Any]:
    """One line of the runs file."""
    record: dict[str, Any] = {"task": run.task, "run": run.run}
    if run.seed is not None:
        record["seed"] = run.seed
    record["status"] = run.status
    if run.status == "incomplete":
        record["cause"] = run.cause
        record["delivery"] = False
    else:
        record["delivery"] = True
        if outcome_kind == "pass-fail":
            record["rules"] = [{"id": PASSED, "pass": bool(run.passed)}]
        elif run.value is not None:
            record["measures"] = [{"id": metric, "value": run.value}]
    if run.retries:
        record["retries"] = run.retries
    for count in COUNTS:
        value = getattr(run, count)
        if value is not None:
            record[count] = value
    if outcome_kind == "pass-fail" and run.status == "valid" and run.failure_type is not None:
        record["failure_type"] = run.failure_type
    if run.note:
        record["note"] = run.note
    return record


def runs_lines(imported: Imported, entry: ImportedBundle) -> str:
    """The runs file of a bundle: its header line, then a line per run in task and run
    order."""
    outcome = imported.outcome
    lines = [json.dumps({"format_version": FORMAT_VERSION})]
    for run in sorted(entry.runs, key=lambda r: (r.task, r.run)):
        lines.append(json.dumps(run_record(run, outcome.kind, outcome.metric), ensure_ascii=False))
    return "\n".join(lines) + "\n"
