"""Build small in-memory versions for engine tests, without files."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from generator.load import Loaded, LoadedBundle, LoadedRelease
from generator.load.records import columns_from_records
from generator.load.source import Source
from generator.models import Bundle, Catalog, HarnessCard, Release, RunRecord

FIXTURES = Path(__file__).resolve().parent / "fixtures"
_RELEASE = yaml.safe_load((FIXTURES / "release" / "valid-minimal.yaml").read_text())
_BUNDLE = yaml.safe_load((FIXTURES / "bundle" / "valid-minimal.yaml").read_text())


def release(runs_per_task: int = 2, k: tuple[int, ...] = (1, 2), **extra: Any) -> Release:
    """Two domains: 'office' (categories a, b) and 'erp' (dimensions x, y, business views)."""
    data = copy.deepcopy(_RELEASE)
    data["domains"] = [
        {
            "id": "office",
            "title": "Office",
            "subdivision_label": "category",
            "subdivisions": [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}],
        },
        {
            "id": "erp",
            "title": "ERP",
            "subdivision_label": "dimension",
            "business_views": True,
            "subdivisions": [{"id": "x", "title": "X"}, {"id": "y", "title": "Y"}],
        },
    ]
    data["enumerations"]["risk_levels"] = [
        {"id": "low", "title": "Low", "weight": 1},
        {"id": "high", "title": "High", "weight": 3},
    ]
    data["enumerations"]["key_process_chains"] = [{"id": "chain", "title": "Chain"}]
    data["runs_per_task"] = runs_per_task
    data["reliability_k"] = list(k)
    data["statistics"] = {"bootstrap_samples": 400, "seed": 7}
    data.update(extra)
    return Release.model_validate(data)


def task(
    tid: str,
    domain: str = "office",
    sub: str = "a",
    *,
    group: str = "public",
    rules: int = 2,
    fatal: int = 0,
    judge: tuple[int, ...] = (),
    weight: float = 0.5,
    risk: str = "low",
    chain: str | None = None,
    boundary: bool = False,
) -> dict[str, Any]:
    """A task with ``rules`` ordinary items, ``fatal`` fatal items, Judge items of max levels."""
    items: list[dict[str, Any]] = [{"id": f"R{i}", "title": "r"} for i in range(1, rules + 1)]
    items += [{"id": f"F{i}", "title": "f", "fatal": True} for i in range(1, fatal + 1)]
    scoring: dict[str, Any] = {
        "mode": "dual-channel" if judge else "rule-only",
        "core_delivery": "d",
        "rule_items": items,
    }
    if judge:
        scoring["rule_weight"] = weight
        scoring["judge_items"] = [
            {"id": f"J{i}", "title": "j", "max_level": g} for i, g in enumerate(judge, 1)
        ]
    out = {
        "id": tid,
        "title": tid.upper(),
        "domain": domain,
        "subdivision": sub,
        "family": f"fam-{domain}",
        "scenario_category": "analysis",
        "operation_type": "query",
        "difficulty": "easy",
        "interaction": "single-turn",
        "group": group,
        "industry": "i",
        "company_size": "c",
        "role": "r",
        "process_stage": "p",
        "risk_level": risk,
        "functional_boundary": boundary,
        "scoring": scoring,
        "budgets": {"timeout_s": 1, "max_steps": 1, "max_tokens": 1},
        "multi_solution": "m",
        "known_limitations": "k",
        "source": "s",
        "licence": "l",
        "card": {"description": "d"},
    }
    if chain:
        out["key_process_chain"] = chain
    return out


def catalog(tasks: list[dict[str, Any]]) -> Catalog:
    families = sorted({(t["family"], t["domain"]) for t in tasks})
    return Catalog.model_validate(
        {
            "format_version": 1,
            "release": "v0.1",
            "families": [{"id": f, "title": f, "domain": d} for f, d in families],
            "tasks": tasks,
        }
    )


def bundle(
    combo: str,
    *,
    not_covered: list[dict[str, str]] | None = None,
    consent: bool = True,
    tokenizer: str = "tok",
    evaluation: str = "complete",
) -> Bundle:
    data = copy.deepcopy(_BUNDLE)
    data["combination"]["id"] = combo
    data["combination"]["model"]["tokenizer"] = tokenizer
    data["not_covered"] = not_covered or []
    data["consent"]["granted"] = consent
    data["evaluation"] = evaluation
    return Bundle.model_validate(data)


def run(
    tid: str,
    index: int,
    *,
    passed: int | None = None,
    of: int = 2,
    fatal: tuple[bool, ...] = (),
    judge: tuple[int, ...] = (),
    delivery: bool = True,
    valid: bool = True,
    tokens: tuple[int, int] = (100, 10),
    duration: float = 10.0,
    turns: int = 3,
    failure: str | None = None,
) -> RunRecord:
    """A run passing the first ``passed`` of ``of`` ordinary items (all when None)."""
    passed = of if passed is None else passed
    return RunRecord.model_validate(
        {
            "task": tid,
            "run": index,
            "seed": index,
            "status": "valid" if valid else "incomplete",
            "cause": None if valid else "crash",
            "delivery": delivery,
            "fatal": [{"id": f"F{i}", "pass": ok} for i, ok in enumerate(fatal, 1)],
            "rules": [{"id": f"R{i}", "pass": i <= passed} for i in range(1, of + 1)],
            "judge": [{"id": f"J{i}", "level": g} for i, g in enumerate(judge, 1)],
            "judge_valid": (bool(valid)) if judge or not valid else None,
            "input_tokens": tokens[0],
            "output_tokens": tokens[1],
            "duration_s": duration,
            "turns": turns,
            "failure_type": failure,
        }
    )


def version(
    rel: Release,
    cat: Catalog,
    runs: dict[str, list[RunRecord]],
    bundles: dict[str, Bundle] | None = None,
) -> LoadedRelease:
    """A loaded version from models; ``runs`` maps combination id to its records."""
    loaded = []
    for combo, records in sorted(runs.items()):
        b = (bundles or {}).get(combo) or bundle(combo)
        loaded.append(
            LoadedBundle(
                combo,
                Loaded(b, Source("bundle.yaml")),
                columns_from_records(records, list(range(2, len(records) + 2))),
                "runs.jsonl",
            )
        )
    return LoadedRelease(
        rel.version,
        Loaded(rel, Source("release.yaml")),
        Loaded(cat, Source("tasks.yaml")),
        tuple(loaded),
        (),
    )


def read_records(path: Path) -> list[RunRecord]:
    """A runs file read one pydantic record a line, independently of the bulk loader."""
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [RunRecord.model_validate_json(line) for line in lines if line.strip()]


def harnesscard(path: Path) -> HarnessCard:
    """The HarnessCard of a YAML file."""
    return HarnessCard.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def card_with(card: HarnessCard, layer: str, field: str, value: Any) -> HarnessCard:
    """``card`` with one field of one layer replaced."""
    layers = card.layers.model_copy(
        update={layer: getattr(card.layers, layer).model_copy(update={field: value})}
    )
    return card.model_copy(update={"layers": layers})


FACETS = [
    {"id": "capability", "title": "Capability", "values": [{"id": "ie", "title": "IE"}]},
    {
        "id": "difficulty",
        "title": "Difficulty",
        "values": [{"id": "easy", "title": "Easy"}, {"id": "hard", "title": "Hard"}],
    },
]
COST = {"id": "cost", "title": "Cost", "direction": "lower", "measured": True, "scale": 1e4}
CALLS = {
    "id": "calls",
    "title": "Calls",
    "direction": "lower",
    "measured": True,
    "role": "resource",
}


def profiled(**profile: Any) -> Release:
    """The builders' release plus a QA domain cut by two facets and a cost domain."""
    base = release().model_dump(mode="json", by_alias=True, exclude_none=True)
    base["metrics"] += [COST, CALLS]
    base["domains"] += [
        {
            "id": "qa",
            "title": "QA",
            "facets": ["capability", "difficulty"],
            "aggregate": {"over": "cells", "facets": ["capability", "difficulty"]},
        },
        {"id": "game", "title": "Game", "outcome": "cost"},
    ]
    base["profile"] = {
        "facets": FACETS,
        "axes": [{"id": "method", "title": "Method"}, {"id": "backbone", "title": "Backbone"}],
        "tags": [{"id": "memory", "title": "Memory"}],
        "dimensions": [{"id": "structure", "title": "Structure"}],
        "carried_state": "labelled",
        **profile,
    }
    return Release.model_validate(base)


def judged_by(combo: str, judge: str) -> Bundle:
    """Bundle ``combo`` whose Judge model is ``judge``."""
    data: dict[str, Any] = bundle(combo).model_dump(mode="json", by_alias=True)
    data["evaluator"]["judge_model"] = judge
    return Bundle.model_validate(data)
