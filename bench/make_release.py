#!/usr/bin/env python3
"""Write a synthetic lg-bench release at scale, in the real input format (for benchmarks).

The output is a complete input root for ``python -m generator validate|report|build``::

    OUT_DIR/results/<version>/release.yaml
    OUT_DIR/results/<version>/tasks.yaml
    OUT_DIR/results/<version>/bundles/<combination>/bundle.yaml + runs.jsonl
    OUT_DIR/results/<version>/deepdives/<task>.yaml      (only with --deep-dives N)
    OUT_DIR/harnesscards/<card>.yaml                     (four cards shared by combinations)

Everything is synthetic and seeded: the same arguments and seed give the same bytes.

Shape (per version): both domains (general with its ten categories; enterprise with the
finance / supply-chain / manufacturing dimensions and business views), task families of
one to four variants, a held-out group in every domain (about a fifth of the tasks, spread
over the sub-divisions, never below the release's minimum held-out aggregate when the
domain is large enough), rule-only and dual-channel tasks, fatal items, modules on
multi-turn tasks, risk levels, key-process chains and functional-boundary tasks
(enterprise only), exception classes, frozen evidence bound to Judge items, pass levels.
Runs carry item verdicts, Judge levels with evidence and a short rationale, tokens,
duration and turns; failing runs carry a failure type; every fourth combination has a few
evaluation-incomplete runs (cause, retries, note; on public tasks only, so that no
held-out aggregate is withheld) and is marked ``evaluation: incomplete``; every fifth
combination declares one category not covered (no image-input adapter).

Scale. ``--rules`` is the mean number of rule items (ordinary + fatal) per task and
``--judges`` the mean number of Judge items per dual-channel task; item counts vary
around the means. The defaults are the reference scale: 1,400 tasks (500 general, 900
enterprise) x 20 combinations x 5 runs = 140,000 runs (minus the few uncovered ones).

10x: ``--combinations 200`` (1.4 million runs, the same catalog; each bundle's
runs.jsonl keeps its size). ``--versions 10`` is another 10x, spread over ten releases.

Usage::

    python bench/make_release.py OUT_DIR [--tasks-general 500] [--tasks-enterprise 900]
        [--combinations 20] [--runs 5] [--rules 25] [--judges 5] [--versions 1]
        [--seed 0] [--deep-dives 0]

Importable: ``write_release(out, ...)`` returns a summary (runs, bytes, paths).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

FORMAT_VERSION = 1
MIN_HELD_OUT_AGGREGATE = 5
HELD_OUT_SHARE = 0.2
BASE_FREEZE = dt.date(2026, 10, 12)

# ---------------------------------------------------------------------------- vocabulary

#: General categories: (id, title, task-id prefix, scenario category, operation types).
GENERAL_CATEGORIES: tuple[tuple[str, str, str, str, tuple[str, ...]], ...] = (
    ("data-analysis", "Data Analysis", "DA", "analysis-reporting", ("analysis",)),
    (
        "document-review",
        "Document Review & Validation",
        "DRV",
        "document-work",
        ("document-processing",),
    ),
    (
        "data-filtering",
        "Data Filtering & Processing",
        "DFP",
        "information-retrieval",
        ("query", "operation"),
    ),
    ("fault-diagnosis", "Fault Diagnosis", "FD", "troubleshooting", ("analysis",)),
    ("knowledge-retrieval", "Knowledge Base Retrieval", "KBR", "information-retrieval", ("query",)),
    ("schedule-management", "Schedule Management", "SM", "planning-scheduling", ("operation",)),
    ("report-qa", "Report Reading QA", "RRQ", "information-retrieval", ("query",)),
    (
        "compliance-verification",
        "Compliance & Policy Verification",
        "CPV",
        "document-work",
        ("analysis", "document-processing"),
    ),
    (
        "content-generation",
        "Content Generation",
        "CG",
        "content-production",
        ("document-processing",),
    ),
    ("image-processing", "Image Processing", "IMG", "document-work", ("document-processing",)),
)
#: Categories whose Judge items are bound to frozen evidence.
EVIDENCE_CATEGORIES = frozenset({"knowledge-retrieval", "report-qa", "compliance-verification"})

#: Enterprise dimensions: (id, title, scenario categories, key-process chains, fatal title).
ENTERPRISE_DIMENSIONS: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...], str], ...] = (
    (
        "finance",
        "Finance",
        ("voucher-processing", "period-closing", "payables-receivables"),
        ("voucher-to-close", "payment-run"),
        "No unbalanced voucher saved as valid",
    ),
    (
        "supply-chain",
        "Supply chain",
        ("sales-management", "procurement-inventory"),
        ("order-to-delivery", "procure-to-pay"),
        "Inventory change matches the source document",
    ),
    (
        "manufacturing",
        "Manufacturing",
        ("production-planning", "quality-management"),
        ("plan-to-production", "inspection-to-disposition"),
        "No unauthorised change to production data",
    ),
)
ENTERPRISE_OPS = ("query", "operation", "operation", "analysis", "document-processing")


def _enum(*pairs: tuple[str, str]) -> list[dict[str, str]]:
    return [{"id": i, "title": t} for i, t in pairs]


ENUMERATIONS: dict[str, Any] = {
    "scenario_categories": _enum(
        ("analysis-reporting", "Analysis and reporting"),
        ("document-work", "Document work"),
        ("information-retrieval", "Information retrieval"),
        ("planning-scheduling", "Planning and scheduling"),
        ("troubleshooting", "Troubleshooting"),
        ("content-production", "Content production"),
        ("voucher-processing", "Voucher processing"),
        ("period-closing", "Period-end closing"),
        ("payables-receivables", "Payables and receivables"),
        ("sales-management", "Sales management"),
        ("procurement-inventory", "Procurement and inventory"),
        ("production-planning", "Production planning"),
        ("quality-management", "Quality management"),
    ),
    "operation_types": _enum(
        ("query", "Query"),
        ("operation", "Operation"),
        ("analysis", "Analysis"),
        ("document-processing", "Document processing"),
    ),
    "difficulty_tiers": _enum(
        ("L1", "L1 basic"), ("L2", "L2 intermediate"), ("L3", "L3 advanced"), ("L4", "L4 expert")
    ),
    "exception_classes": _enum(
        ("data-anomaly", "Data anomaly"),
        ("state-conflict", "Business-state conflict"),
        ("insufficient-permission", "Insufficient permission"),
        ("missing-information", "Missing information"),
    ),
    "failure_types": _enum(
        ("missing-deliverable", "Missing deliverable"),
        ("numeric-or-state-error", "Numeric or state error"),
        ("constraint-violation", "Business-constraint violation"),
        ("semantic-quality", "Insufficient semantic quality"),
        ("budget-exhausted", "Execution budget exhausted"),
    ),
    "risk_levels": [
        {"id": "low", "title": "Low", "weight": 1.0},
        {"id": "medium", "title": "Medium", "weight": 1.5},
        {"id": "high", "title": "High (funds, posting, activation)", "weight": 2.0},
    ],
    "incomplete_causes": _enum(
        ("environment-startup", "Environment start-up failure"),
        ("communication", "Communication failure"),
        ("evidence-extraction", "Evidence-extraction failure"),
        ("scoring-service", "Scoring-service failure"),
        ("judge-invalid", "No valid Judge result"),
    ),
    "key_process_chains": _enum(
        ("voucher-to-close", "Voucher entry → review → posting → closing"),
        ("payment-run", "Payment proposal → approval → payment → reconciliation"),
        ("order-to-delivery", "Sales order → goods issue → invoicing"),
        ("procure-to-pay", "Purchase requisition → order → receipt → invoice"),
        ("plan-to-production", "Production plan → work order release → completion"),
        ("inspection-to-disposition", "Inspection → nonconformance → disposition"),
    ),
}

METRICS: list[dict[str, str]] = [
    {"id": "task_score", "title": "Task Score", "direction": "higher"},
    {"id": "rule_score", "title": "Rule score", "direction": "higher"},
    {"id": "judge_score", "title": "Judge score", "direction": "higher"},
    {"id": "success_rate", "title": "Success rate", "direction": "higher"},
    {"id": "reliability", "title": "reliability@k", "direction": "higher"},
    {"id": "input_tokens", "title": "Input tokens (cache-inclusive)", "direction": "lower"},
    {"id": "output_tokens", "title": "Output tokens", "direction": "lower", "unit": "tokens"},
    {"id": "total_tokens", "title": "Total tokens", "direction": "lower", "unit": "tokens"},
    {"id": "duration_s", "title": "Duration", "direction": "lower", "unit": "s"},
    {"id": "turns", "title": "Turns", "direction": "lower"},
    {"id": "risk_weighted_score", "title": "Risk-weighted score", "direction": "higher"},
    {"id": "key_process_success", "title": "Key-process success", "direction": "higher"},
    {"id": "fatal_error_rate", "title": "Fatal-error rate", "direction": "lower"},
    {"id": "boundary_correctness", "title": "Boundary correctness", "direction": "higher"},
]

RULE_TITLES = {
    "analysis": (
        "Result table follows the contract",
        "Key metric value",
        "Derived ratio",
        "Period and scope stated",
        "Cross-artifact consistency",
    ),
    "query": (
        "Answer in the prescribed carrier",
        "Record set complete",
        "Value matches the source",
        "Units and precision",
    ),
    "operation": (
        "Target document state",
        "Field value",
        "Linked documents updated",
        "Audit trail present",
        "No side effects outside scope",
    ),
    "document-processing": (
        "Artifact contract",
        "Extracted field",
        "Cross-footing",
        "Format norms",
        "Source mapping",
    ),
}
BOUNDARY_TITLES = (
    "Unsupported request refused or redirected",
    "Guidance offered",
    "No data modified",
    "Refusal names the reason",
)
JUDGE_TITLES = (
    "Conclusions supported by source data",
    "Recommendations respect the constraints",
    "Unresolved issues stated",
    "Facts kept apart from assumptions",
    "Structure and readability",
    "Coverage of the requested topics",
    "No fabrication",
)
TOPICS = (
    "invoice",
    "budget",
    "contract",
    "supplier",
    "expense",
    "receivable",
    "payable",
    "inventory",
    "order",
    "shipment",
    "work-order",
    "bom",
    "roster",
    "meeting",
    "policy",
    "ledger",
    "forecast",
    "defect",
    "refund",
    "asset",
)
INDUSTRIES = ("cross-industry", "manufacturing", "retail", "logistics", "services")
COMPANY_SIZES = ("small enterprise", "medium enterprise", "large enterprise")
ROLES = {
    "general": ("analyst", "assistant", "operations specialist", "auditor"),
    "finance": ("accountant", "finance manager", "treasury clerk"),
    "supply-chain": ("sales clerk", "buyer", "warehouse planner"),
    "manufacturing": ("production planner", "quality engineer", "line supervisor"),
}
STAGES = ("preparation", "execution", "review", "period-end closing", "reporting")
TIMEOUT = {"L1": 600, "L2": 900, "L3": 1200, "L4": 1800}
SIZE = {"L1": 0.45, "L2": 0.8, "L3": 1.25, "L4": 1.7}
EASE = {"L1": 1.0, "L2": 0.93, "L3": 0.85, "L4": 0.78}
RATIONALES = {
    "full": ("Criterion met; the evidence supports it.", "Met: cited figures match the source."),
    "part": ("Partly met; some points lack support.", "Partly met: one gap left unstated."),
    "none": ("Not met; the artifact lacks it.", "Not met, or unsupported by the evidence."),
}

# ---------------------------------------------------------------------------- harnesses

#: The seven layers and their minimum fields (§5.1.2), as in generator/models/harnesscard.py.
CARD_LAYERS: dict[str, tuple[str, ...]] = {
    "execution": (
        "runtime_substrate",
        "sandboxing",
        "filesystem_access",
        "network_access",
        "task_timeout",
        "step_timeout",
        "max_steps",
        "evaluation_entry_point",
    ),
    "tool": (
        "tool_list",
        "schema_style",
        "tool_selection_policy",
        "error_format",
        "retryable_error_classes",
        "tool_visibility",
    ),
    "context": (
        "context_cap",
        "ordering_policy",
        "summarization_policy",
        "retrieval_method",
        "persistent_memory",
        "cache_policy",
    ),
    "scheduling": (
        "agent_loop",
        "stopping_rule",
        "retry_policy",
        "escalation_behaviour",
        "delegation_policy",
        "rollback_behaviour",
    ),
    "observability": (
        "logged_artifacts",
        "trajectory_format",
        "checkpoints",
        "traces",
        "validation_logs",
        "auditable_after_run",
    ),
    "verification": (
        "output_parser",
        "schema_validation",
        "self_checking",
        "test_execution",
        "anomaly_detection",
        "final_output_validation",
    ),
    "governance": (
        "permission_model",
        "allow_deny_rules",
        "side_effect_boundaries",
        "secret_handling",
        "human_approval_points",
    ),
}
DISCLOSURE_FLOOR = (
    "execution.sandboxing",
    "execution.network_access",
    "governance.permission_model",
    "verification.final_output_validation",
)

#: (card id, harness name, version, vendor, modes as (id, title), withheld field).
HARNESSES: tuple[tuple[str, str, str, str, tuple[tuple[str, str], ...], str], ...] = (
    ("lingee-2.3", "Lingee", "2.3.1", "Lingee", (), "verification.anomaly_detection"),
    (
        "deepseek-harness-1.4",
        "DeepSeek Harness",
        "1.4.0",
        "DeepSeek",
        (
            ("standard", "Standard function calling"),
            ("code-mode", "Code Mode"),
            ("dual", "Dual tool-calling"),
        ),
        "observability.checkpoints",
    ),
    ("opencode-0.9", "OpenCode", "0.9.12", "OpenCode", (), "governance.secret_handling"),
    (
        "nimbus-agent-0.5",
        "Nimbus Agent",
        "0.5.2",
        "Nimbus Labs",
        (("plan-act", "Plan then act"), ("direct", "Direct tool use")),
        "context.cache_policy",
    ),
)
#: (slug, name, version, provider, tokenizer).
MODELS: tuple[tuple[str, str, str, str, str], ...] = (
    ("glm53f", "GLM-5.3-Flash", "2026-09-30", "Zhipu AI", "glm-5"),
    ("qwen4max", "Qwen4-Max", "2026-08-15", "Alibaba Cloud", "qwen-4"),
    ("dsv4", "DeepSeek-V4", "2026-07-01", "DeepSeek", "deepseek-v4"),
    ("kimik3", "Kimi-K3", "2026-09-01", "Moonshot AI", "kimi-3"),
    ("minimaxm3", "MiniMax-M3", "2026-06-20", "MiniMax", "minimax-3"),
)


def harnesscard(
    spec: tuple[str, str, str, str, tuple[tuple[str, str], ...], str],
) -> dict[str, Any]:
    card_id, name, version, vendor, modes, withheld = spec
    layers: dict[str, Any] = {}
    for layer, fields in CARD_LAYERS.items():
        values: dict[str, Any] = {}
        for name_ in fields:
            ref = f"{layer}.{name_}"
            if ref == withheld:
                values[name_] = {"withheld": "Not yet documented by the vendor (synthetic)."}
            elif name_ == "max_steps":
                values[name_] = {"value": 150}
            elif name_ == "auditable_after_run":
                values[name_] = {"value": True}
            elif name_ in {"tool_list", "logged_artifacts"}:
                values[name_] = {"value": ["file read/write", "shell", "ERP MCP tools"]}
            else:
                values[name_] = {"value": f"{name} {name_.replace('_', ' ')} (synthetic)"}
        layers[layer] = values
    layers["tool"]["additional"] = {"parallel_calls": {"value": "Up to 4 tool calls a step"}}
    card: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "id": card_id,
        "harness": {"name": name, "version": version, "vendor": vendor},
        "card_date": dt.date(2026, 10, 1),
    }
    if modes:
        card["modes"] = [
            {"id": m, "title": t, "description": f"{t} (synthetic mode)."} for m, t in modes
        ]
    card["layers"] = layers
    return card


@dataclass(frozen=True)
class Combo:
    id: str
    title: str
    card: str
    mode: str | None
    model: tuple[str, str, str, str, str]
    agent_version: str
    skill: float
    tokens: int
    not_covered: tuple[dict[str, str], ...]
    flaky: bool


def make_combinations(n: int, seed: int) -> list[Combo]:
    configs = [(h, m) for h in HARNESSES for m in (h[4] or ((None, None),))]
    out = []
    for i in range(n):
        harness, (mode, mode_title) = configs[i % len(configs)]
        model = MODELS[(i // len(configs) + i) % len(MODELS)]
        rng = random.Random(f"{seed}/combo/{i}")
        variant = i // (len(configs) * len(MODELS))
        suffix = f"-t{variant}" if variant else ""
        cid = f"{harness[0].rsplit('-', 1)[0]}{'-' + mode if mode else ''}-{model[0]}{suffix}"
        shown = f"{harness[1]} ({mode_title})" if mode_title else harness[1]
        not_covered: tuple[dict[str, str], ...] = ()
        if i % 5 == 2:
            not_covered = (
                {
                    "domain": "general",
                    "subdivision": "image-processing",
                    "reason": "The evaluated build has no image-input adapter; not adapted, "
                    "so not covered (§5.3), not zero.",
                },
            )
        out.append(
            Combo(
                id=cid,
                title=f"{shown} × {model[1]}" + (f" (variant {variant})" if variant else ""),
                card=harness[0],
                mode=mode,
                model=model,
                agent_version=harness[2],
                skill=round(rng.uniform(0.5, 0.92), 3),
                tokens=rng.randrange(120_000, 340_000, 1000),
                not_covered=not_covered,
                flaky=i % 4 == 1,
            )
        )
    return out


# ---------------------------------------------------------------------------- tasks


@dataclass
class Plan:
    """What run generation needs about one task, with its JSON fragments precomputed."""

    id: str
    domain: str
    subdivision: str
    public: bool
    dual: bool
    ease: float
    size: float
    timeout: int
    multi: bool
    fatal: list[tuple[str, str]] = field(default_factory=list)  # (pass, fail) fragments
    rules: list[tuple[str | None, str, str]] = field(default_factory=list)  # module, pass, fail
    modules: list[str] = field(default_factory=list)
    # judge: (module, max level, pass level, fragments by level and variant)
    judge: list[tuple[str | None, int, int, list[tuple[str, str]]]] = field(default_factory=list)


def _vary(rng: random.Random, mean: int, low: int) -> int:
    return max(low, round(mean * rng.uniform(0.6, 1.4)))


def _held_out_count(n: int) -> int:
    """Held-out tasks of a domain of n: about a fifth, above the minimum aggregate if n allows."""
    if n < 4:
        return 0
    return max(round(n * HELD_OUT_SHARE), min(MIN_HELD_OUT_AGGREGATE + 1, n // 2))


def _spread(quota: int, size: int) -> set[int]:
    """quota indices evenly spread over range(size)."""
    return {int((j + 0.5) * size / quota) for j in range(quota)} if quota else set()


def _task(
    rng: random.Random,
    *,
    tid: str,
    title: str,
    domain: str,
    sub: str,
    family: str,
    variant: str,
    scenario: str,
    op: str,
    group: str,
    rules: int,
    judges: int,
    fatal_title: str,
    chains: tuple[str, ...],
    evidence_bound: bool,
) -> dict[str, Any]:
    enterprise = domain == "enterprise"
    diff = rng.choice(("L1", "L2", "L2", "L3", "L3", "L4"))
    boundary = enterprise and op == "operation" and rng.random() < 0.1
    multi = not boundary and rng.random() < 0.15
    dual = not boundary and rng.random() < (0.45 if enterprise else 0.55)
    risk = "high" if boundary else rng.choice(("low", "medium", "medium", "high"))
    n_items = _vary(rng, rules, 3) if not boundary else rng.randint(4, 6)
    n_fatal = 0
    if rng.random() < 0.3 or (enterprise and risk == "high"):
        n_fatal = 2 if rng.random() < 0.15 else 1
    n_ordinary = max(1, n_items - n_fatal)
    modules = [f"turn-{k}" for k in range(1, rng.randint(2, 3) + 1)] if multi else []
    titles = BOUNDARY_TITLES if boundary else RULE_TITLES[op]
    rule_items: list[dict[str, Any]] = []
    for n in range(n_ordinary):
        item: dict[str, Any] = {"id": f"R{n + 1:02d}", "title": f"{titles[n % len(titles)]}"}
        if n >= len(titles):
            item["title"] += f" ({n // len(titles) + 1})"
        if modules and (n < len(modules) or rng.random() < 0.7):
            item["module"] = modules[n % len(modules)]
        rule_items.append(item)
    for n in range(n_fatal):
        rule_items.append(
            {"id": f"F{n + 1:02d}", "title": f"{fatal_title} ({n + 1})", "fatal": True}
        )
    scoring: dict[str, Any] = {"mode": "dual-channel" if dual else "rule-only"}
    if dual:
        scoring["rule_weight"] = rng.choice((0.3, 0.4, 0.5, 0.6, 0.7))
    if not dual and not modules and rng.random() < 0.05:
        scoring["rule_scoring"] = "all-or-nothing"
    scoring["core_delivery"] = (
        "A refusal or redirection is given in the final reply"
        if boundary
        else "Core artifacts exist at the declared path and parse"
    )
    if modules:
        scoring["modules"] = [
            {"id": m, "title": f"Turn {k}"} for k, m in enumerate(modules, start=1)
        ]
    scoring["rule_items"] = rule_items
    if dual:
        g = rng.choice((1, 3, 4))
        evidence = []
        if evidence_bound:
            evidence = [
                {
                    "id": f"E{k}",
                    "source": f"input/kb/{rng.randrange(100_000, 999_999)}.md",
                    "location": f"¶{rng.randint(1, 9)}",
                    "excerpt": f"(synthetic excerpt {k} of the frozen evidence list)",
                }
                for k in range(1, rng.randint(3, 6) + 1)
            ]
        judge_items = []
        for n in range(_vary(rng, judges, 1)):
            j: dict[str, Any] = {
                "id": f"J{n + 1:02d}",
                "title": JUDGE_TITLES[n % len(JUDGE_TITLES)],
                "max_level": g,
            }
            if g >= 3 and rng.random() < 0.3:
                j["pass_level"] = g - 1
            if modules and n < len(modules):
                j["module"] = modules[n]
            if evidence:
                start = n % len(evidence)
                j["evidence"] = [e["id"] for e in evidence[start : start + 2]]
            judge_items.append(j)
        scoring["judge_items"] = judge_items
        if evidence:
            scoring["evidence"] = evidence
    entry: dict[str, Any] = {
        "id": tid,
        "title": title,
        "domain": domain,
        "subdivision": sub,
        "family": family,
        "variant": variant,
        "scenario_category": scenario,
        "operation_type": op,
        "difficulty": diff,
        "interaction": "multi-turn" if multi else "single-turn",
        "group": group,
        "industry": rng.choice(INDUSTRIES),
        "company_size": rng.choice(COMPANY_SIZES),
        "role": rng.choice(ROLES["general" if domain == "general" else sub]),
        "process_stage": rng.choice(STAGES),
        "risk_level": risk,
    }
    if enterprise and op == "operation" and not boundary and rng.random() < 0.4:
        entry["key_process_chain"] = rng.choice(chains)
    if boundary:
        entry["functional_boundary"] = True
    if boundary or (enterprise and rng.random() < 0.15):
        entry["exception_class"] = rng.choice([e["id"] for e in ENUMERATIONS["exception_classes"]])
    entry["scoring"] = scoring
    entry["budgets"] = {"timeout_s": TIMEOUT[diff], "max_steps": 150, "max_tokens": 2_000_000}
    entry["multi_solution"] = "Any answer that meets the artifact contract is accepted."
    entry["known_limitations"] = "None recorded." if group == "public" else "Held-out task."
    entry["source"] = "Synthetic benchmark task (bench/make_release.py)."
    entry["licence"] = "CC BY 4.0 (synthetic)"
    entry["card"] = {"description": f"{title}. Synthetic task; no statement is reproduced."}
    return entry


def catalog(
    version: str, seed: int, tasks_general: int, tasks_enterprise: int, rules: int, judges: int
) -> dict[str, Any]:
    """The task catalog: families and tasks of both domains (the same for every version)."""
    rng = random.Random(f"{seed}/catalog")
    tasks: list[dict[str, Any]] = []
    families: list[dict[str, Any]] = []
    specs: list[tuple[str, list[tuple[str, str, str, tuple[str, ...], tuple[str, ...], str]]]] = [
        (
            "general",
            [
                (sid, title, prefix, (scen,), ops, "Key amounts correct")
                for sid, title, prefix, scen, ops in GENERAL_CATEGORIES
            ],
        ),
        (
            "enterprise",
            [
                (did, title, did, scens, chains, fatal_title)
                for did, title, scens, chains, fatal_title in ENTERPRISE_DIMENSIONS
            ],
        ),
    ]
    counts = {"general": tasks_general, "enterprise": tasks_enterprise}
    for domain, subs in specs:
        n, width = counts[domain], len(subs)
        held_total = _held_out_count(n)
        for s, (sid, sub_title, prefix, scens, extra, fatal_title) in enumerate(subs):
            size = n // width + (1 if s < n % width else 0)
            quota = min(held_total // width + (1 if s < held_total % width else 0), size // 2)
            held = _spread(quota, size)
            family_left = 0
            family: dict[str, Any] = {}
            for number in range(1, size + 1):
                if family_left == 0:
                    topic = rng.choice(TOPICS)
                    family = {
                        "id": f"fam-{sid}-{topic}-{len(families) + 1:04d}",
                        "title": f"{topic.replace('-', ' ').capitalize()} ({sub_title.lower()})",
                        "domain": domain,
                        "_topic": topic,
                        "_n": 0,
                    }
                    families.append(family)
                    family_left = rng.randint(1, 4)
                family_left -= 1
                family["_n"] += 1
                op = rng.choice(extra if domain == "general" else ENTERPRISE_OPS)
                topic = family["_topic"]
                title = f"{topic.replace('-', ' ').capitalize()} {op.replace('-', ' ')} #{number}"
                task = _task(
                    rng,
                    tid=f"{prefix}-{topic}-{number:04d}",
                    title=title,
                    domain=domain,
                    sub=sid,
                    family=family["id"],
                    variant=f"variant {family['_n']}",
                    scenario=rng.choice(scens),
                    op=op,
                    group="held-out" if number - 1 in held else "public",
                    rules=rules,
                    judges=judges,
                    fatal_title=fatal_title,
                    chains=extra if domain == "enterprise" else (),
                    evidence_bound=sid in EVIDENCE_CATEGORIES
                    or (domain == "enterprise" and rng.random() < 0.3),
                )
                if domain == "general":
                    task["id"] += f"-{task['difficulty']}"
                tasks.append(task)
    clean = [{k: v for k, v in f.items() if not k.startswith("_")} for f in families]
    return {"format_version": FORMAT_VERSION, "release": version, "families": clean, "tasks": tasks}


def _fragment(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def plan(task: dict[str, Any]) -> Plan:
    scoring = task["scoring"]
    p = Plan(
        id=task["id"],
        domain=task["domain"],
        subdivision=task["subdivision"],
        public=task["group"] == "public",
        dual=scoring["mode"] == "dual-channel",
        ease=EASE[task["difficulty"]],
        size=SIZE[task["difficulty"]] * (1.6 if task["interaction"] == "multi-turn" else 1.0),
        timeout=task["budgets"]["timeout_s"],
        multi=task["interaction"] == "multi-turn",
        modules=[m["id"] for m in scoring.get("modules", [])],
    )
    for item in scoring["rule_items"]:
        ok = _fragment({"id": item["id"], "pass": True})
        bad = _fragment({"id": item["id"], "pass": False})
        if item.get("fatal"):
            p.fatal.append((ok, bad))
        else:
            p.rules.append((item.get("module"), ok, bad))
    for j in scoring.get("judge_items", []):
        g = j["max_level"]
        cited = j.get("evidence", [])[:2]
        by_level = []
        for level in range(g + 1):
            kind = "full" if level >= g else "none" if level == 0 else "part"
            a, b = (
                _fragment(
                    {"id": j["id"], "level": level, **({"evidence": cited} if cited else {})}
                    | {"rationale": r}
                )
                for r in RATIONALES[kind]
            )
            by_level.append((a, b))
        p.judge.append((j.get("module"), g, j.get("pass_level", g), by_level))
    return p


# ---------------------------------------------------------------------------- runs

_CAUSES = ("environment-startup", "communication", "evidence-extraction", "scoring-service")


@dataclass
class RunStats:
    runs: int = 0
    incomplete: int = 0
    uncovered_pairs: int = 0
    bytes: int = 0


def _covered(combo: Combo, task: Plan) -> bool:
    return not any(
        s["domain"] == task.domain and s.get("subdivision") in (None, task.subdivision)
        for s in combo.not_covered
    )


def write_runs(
    path: Path,
    version: str,
    combo: Combo,
    plans: list[Plan],
    runs: int,
    seed: int,
    max_retries: int,
    stats: RunStats,
) -> bool:
    """Write one bundle's runs file; return whether some run is evaluation-incomplete."""
    rng = random.Random(f"{seed}/{version}/{combo.id}/runs")
    r = rng.random
    lognorm = rng.lognormvariate
    public = [t for t in plans if t.public and _covered(combo, t)]
    forced = rng.choice(public).id if combo.flaky and public else None
    any_incomplete = False
    skill = combo.skill
    out: list[str] = ['{"format_version":1}']
    for t in plans:
        if not _covered(combo, t):
            stats.uncovered_pairs += 1
            continue
        p = skill * t.ease
        head = f'{{"task":"{t.id}","run":'
        for run in range(1, runs + 1):
            seed_value = rng.randrange(1, 2**31)
            incomplete = combo.flaky and t.public and (r() < 0.004 or (t.id == forced and run == 1))
            size = t.size
            input_tokens = int(combo.tokens * size * lognorm(0.0, 0.35))
            output_tokens = int(input_tokens * (0.03 + 0.05 * r()))
            turns = max(1, int(14 * size * lognorm(0.0, 0.3)))
            parts = [head, str(run), ',"seed":', str(seed_value)]
            if incomplete:
                any_incomplete = True
                stats.incomplete += 1
                judge_invalid = t.dual and r() < 0.4
                cause = "judge-invalid" if judge_invalid else _CAUSES[int(r() * len(_CAUSES))]
                parts.append(f',"status":"incomplete","cause":"{cause}","retries":{max_retries}')
                if judge_invalid:
                    parts.append(',"delivery":true,"fatal":[')
                    parts.append(",".join(ok for ok, _ in t.fatal))
                    parts.append('],"rules":[')
                    parts.append(",".join(ok for _, ok, _ in t.rules))
                    parts.append('],"judge":[],"judge_valid":false')
                else:
                    parts.append(',"delivery":false,"fatal":[],"rules":[]')
                    if t.dual:
                        parts.append(',"judge":[],"judge_valid":false')
                    if cause == "environment-startup":
                        input_tokens = output_tokens = turns = 0
                duration = round(30 + 60 * r(), 1)
                parts.append(
                    f',"input_tokens":{input_tokens},"output_tokens":{output_tokens},'
                    f'"duration_s":{duration!r},"turns":{turns}'
                )
                parts.append(
                    f',"note":"{cause.replace("-", " ").capitalize()} failure after '
                    f'{max_retries} retries."}}'
                )
                out.append("".join(parts))
                continue
            parts.append(',"status":"valid"')
            if r() < 0.03:
                parts.append(',"retries":1')
            good = r() < p  # a good run: items rarely fail
            timed_out = not good and r() < 0.08
            delivery = not timed_out and (good or r() < 0.55 + 0.4 * p)
            parts.append(',"delivery":true' if delivery else ',"delivery":false')
            failed_modules: set[str] = set()
            if t.modules and not good and r() < 0.5:
                failed_modules.add(t.modules[-1])
            fatal_failed = False
            parts.append(',"fatal":[')
            frags = []
            for ok, bad in t.fatal:
                if r() < (0.998 if good else 0.93):
                    frags.append(ok)
                else:
                    frags.append(bad)
                    fatal_failed = True
            parts.append(",".join(frags))
            parts.append('],"rules":[')
            frags = []
            rules_failed = False
            item_pass = 0.995 if good else 0.45 + 0.45 * p
            for module, ok, bad in t.rules:
                if module is not None and module in failed_modules:
                    rules_failed = True  # scores 0; no verdict recorded
                    continue
                if r() < item_pass:
                    frags.append(ok)
                else:
                    frags.append(bad)
                    rules_failed = True
            parts.append(",".join(frags))
            parts.append("]")
            if failed_modules:
                parts.append(',"modules_failed":["' + '","'.join(sorted(failed_modules)) + '"]')
            judge_pass = True
            if t.dual:
                if not delivery and r() < 0.5:
                    parts.append(',"judge":[],"judge_valid":false')  # zeroed: no Judge needed
                    judge_pass = False
                else:
                    frags = []
                    level_p = 0.3 + 0.6 * p
                    for module, g, pass_level, by_level in t.judge:
                        if module is not None and module in failed_modules:
                            judge_pass = False
                            continue
                        if good:
                            level = g if r() < 0.9 else g - 1
                        else:
                            level = 0
                            for _ in range(g):
                                if r() < level_p:
                                    level += 1
                        if level < pass_level:
                            judge_pass = False
                        frags.append(by_level[level][r() < 0.5])
                    parts.append(',"judge":[' + ",".join(frags) + '],"judge_valid":true')
            if timed_out:
                duration = float(t.timeout)
            else:
                duration = min(t.timeout - 1.0, round(240 * size * lognorm(0.0, 0.35), 1))
            parts.append(
                f',"input_tokens":{input_tokens},"output_tokens":{output_tokens},'
                f'"duration_s":{duration!r},"turns":{turns}'
            )
            success = delivery and not fatal_failed and not rules_failed and judge_pass
            if not success:
                if timed_out:
                    ftype = "budget-exhausted"
                elif not delivery:
                    ftype = "missing-deliverable"
                elif fatal_failed:
                    ftype = "constraint-violation"
                elif rules_failed:
                    ftype = "numeric-or-state-error" if r() < 0.8 else "constraint-violation"
                else:
                    ftype = "semantic-quality"
                parts.append(f',"failure_type":"{ftype}"')
                if timed_out:
                    parts.append(f',"note":"Timed out at the {t.timeout}-second budget."')
            parts.append("}")
            out.append("".join(parts))
        stats.runs += runs
    text = "\n".join(out) + "\n"
    data = text.encode("utf-8")
    path.write_bytes(data)
    stats.bytes += len(data)
    return any_incomplete


# ---------------------------------------------------------------------------- manifests


def components(k: int) -> dict[str, Any]:
    return {
        "tasks": f"1.{k}.0",
        "data": f"1.{k}.0",
        "environment": f"2026.{10 + k % 3}.{1 + k // 3}",
        "protocol": "1.0",
        "judge_assets": f"1.{k}.1",
        "scorer": {
            "parser": f"1.{k + 1}.0",
            "rule-engine": "1.0.3",
            "judge-runner": f"1.{k}.0",
            "aggregator": "1.0.0",
        },
    }


def release_manifest(
    version: str, k: int, catalog_: dict[str, Any], runs: int, deep_dives: list[str]
) -> dict[str, Any]:
    groups = [t["group"] for t in catalog_["tasks"]]
    reliability_k = sorted({1, (runs + 1) // 2, runs})
    manifest: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "benchmark": {"name": "Lingee Bench", "code": "lg-bench"},
        "version": version,
        "title": f"Lingee Bench {version[1:]} — synthetic benchmark-scale release",
        "freeze_date": BASE_FREEZE + dt.timedelta(days=35 * k),
        "illustrative": True,
        "notice": "**Synthetic release for speed and memory benchmarks.** Every task, run "
        "and score is generated by bench/make_release.py. Do not cite these numbers.",
        "components": components(k),
        "domains": [
            {
                "id": "general",
                "title": "General domain",
                "subdivision_label": "category",
                "description": "Foundational capability on verifiable work packages (§2.4).",
                "subdivisions": [{"id": c[0], "title": c[1]} for c in GENERAL_CATEGORIES],
            },
            {
                "id": "enterprise",
                "title": "Enterprise management domain",
                "subdivision_label": "dimension",
                "business_views": True,
                "description": "End-to-end business task chains in a simulated ERP (§2.5).",
                "subdivisions": [{"id": d[0], "title": d[1]} for d in ENTERPRISE_DIMENSIONS],
            },
        ],
        "enumerations": ENUMERATIONS,
        "metrics": METRICS,
        "controlled_factors": [
            {
                "factor": "Task set",
                "status": "controlled",
                "setting": f"tasks 1.{k}.0, frozen before evaluation",
            },
            {
                "factor": "Initial environment state",
                "status": "controlled",
                "setting": "one sandbox snapshot per task, restored before every run",
            },
            {
                "factor": "Evaluator",
                "status": "controlled",
                "setting": "one Judge model, prompt and scorer version for all combinations",
            },
            {
                "factor": "Agent combination (harness × model)",
                "status": "variable",
                "setting": "the only independent variable (§4.1)",
            },
        ],
        "runs_per_task": runs,
        "reliability_k": reliability_k,
        "groups": {
            "public": groups.count("public"),
            "held_out": groups.count("held-out"),
            "min_held_out_aggregate": MIN_HELD_OUT_AGGREGATE,
        },
        "disclosure_floor": list(DISCLOSURE_FLOOR),
    }
    if deep_dives:
        manifest["deep_dives"] = deep_dives
    manifest["boundaries_of_use"] = (
        "- **Synthetic.** Generated for benchmarking the site generator; not a result.\n"
        "- **No cross-domain total.** Domain scores are never summed or averaged (§4.2).\n"
    )
    return manifest


def bundle_manifest(
    version: str, k: int, combo: Combo, runs: int, max_retries: int, incomplete: bool
) -> dict[str, Any]:
    start = BASE_FREEZE + dt.timedelta(days=35 * k + 1)
    model = combo.model
    combination: dict[str, Any] = {"id": combo.id, "title": combo.title, "harnesscard": combo.card}
    if combo.mode:
        combination["harness_mode"] = combo.mode
    combination["model"] = {
        "name": model[1],
        "version": model[2],
        "provider": model[3],
        "tokenizer": model[4],
    }
    combination["agent_version"] = combo.agent_version
    data: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "release": version,
        "combination": combination,
        "configuration": {
            "temperature": 0.2,
            "top_p": 0.95,
            "max_output_tokens": 16384,
            "context_window": 128000,
            "compression_threshold": 96000,
            "reasoning_mode": "thinking enabled",
            "runs_per_task": runs,
            "pipeline_components": components(k),
        },
        "budgets": {
            "timeout_s": 1800,
            "max_steps": 150,
            "max_tokens": 2_000_000,
            "max_retries": max_retries,
            "retry_policy": "Retry technical exceptions up to twice from the saved artifacts; "
            "agent failures are never retried.",
        },
        "clarification": {
            "simulated_user_script_version": f"1.{k}.0",
            "waiting_cap_s": 120,
            "rules": "The simulated user answers only pre-planted clarifiable items.",
        },
        "environment_snapshot": f"erp-sandbox-{components(k)['environment']}",
        "evaluator": {
            "judge_model": "GLM-5.3",
            "judge_model_version": "2026-09-30",
            "prompt_version": f"1.{k}.0",
            "voting": "single judge, temperature 0",
        },
        "run_dates": {"start": start, "end": start + dt.timedelta(days=14)},
        "consent": {
            "granted": True,
            "by": "Synthetic submitter",
            "date": start + dt.timedelta(days=15),
        },
        "evaluation": "incomplete" if incomplete else "complete",
    }
    if combo.not_covered:
        data["not_covered"] = [dict(s) for s in combo.not_covered]
    data["runs"] = "runs.jsonl"
    return data


def pick_deep_dives(tasks: list[dict[str, Any]], count: int) -> list[str]:
    """Up to six public tasks, alternating domains, dual-channel ones first."""
    by_domain = [
        sorted(
            (t for t in tasks if t["group"] == "public" and t["domain"] == domain),
            key=lambda t: t["scoring"]["mode"] != "dual-channel",
        )
        for domain in ("general", "enterprise")
    ]
    out: list[str] = []
    for k in range(max(len(d) for d in by_domain)):
        out += [d[k]["id"] for d in by_domain if k < len(d)]
    return out[: min(count, 6)]


def deep_dive(task: str, combos: list[Combo]) -> dict[str, Any]:
    return {
        "format_version": FORMAT_VERSION,
        "task": task,
        "trajectory_nodes": "- **Localization.** Synthetic.\n- **Delivery.** Synthetic.\n",
        "interpretation": "Synthetic deep dive written by bench/make_release.py.\n",
        "differences": {c.id: "Synthetic note on this combination." for c in combos[:2]},
    }


# ---------------------------------------------------------------------------- writing


class _Dumper(yaml.CSafeDumper):
    pass


def _str(dumper: _Dumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def _write_yaml(path: Path, data: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    path.write_text("# Synthetic; generated by bench/make_release.py.\n" + text, "utf-8")
    return path


def write_release(
    out: Path,
    *,
    tasks_general: int = 500,
    tasks_enterprise: int = 900,
    combinations: int = 20,
    runs: int = 5,
    rules: int = 25,
    judges: int = 5,
    versions: int = 1,
    seed: int = 0,
    deep_dives: int = 0,
) -> dict[str, Any]:
    """Write the synthetic input root under ``out`` (results/ and harnesscards/ are replaced).

    Returns a summary: runs written (``runs``), of which ``incomplete_runs``;
    ``uncovered_pairs`` (task x combination pairs a bundle declares not covered, per
    version, summed); ``run_bytes`` (all runs files); ``tasks``, ``bundles``; the paths of
    the release folders, runs files and HarnessCards; and ``seconds`` taken.
    """
    if tasks_general < 1 or tasks_enterprise < 1:
        raise ValueError("each domain needs at least one task")
    if combinations < 1 or versions < 1 or not 1 <= runs <= 1000:
        raise ValueError("combinations and versions need >= 1; runs 1..1000")
    if rules < 2 or judges < 1:
        raise ValueError("rules needs >= 2 and judges >= 1")
    began = time.perf_counter()
    out = Path(out)
    for part in ("results", "harnesscards"):
        if (out / part).exists():
            shutil.rmtree(out / part)
    cards = [_write_yaml(out / "harnesscards" / f"{h[0]}.yaml", harnesscard(h)) for h in HARNESSES]
    combos = make_combinations(combinations, seed)
    stats = RunStats()
    release_dirs: list[Path] = []
    runs_files: list[Path] = []
    max_retries = 2
    n_tasks = 0
    for k in range(versions):
        version = f"v1.{k}"
        folder = out / "results" / version
        cat = catalog(version, seed, tasks_general, tasks_enterprise, rules, judges)
        n_tasks += len(cat["tasks"])
        plans = [plan(t) for t in cat["tasks"]]
        dives = pick_deep_dives(cat["tasks"], deep_dives)
        _write_yaml(folder / "release.yaml", release_manifest(version, k, cat, runs, dives))
        _write_yaml(folder / "tasks.yaml", cat)
        for task in dives:
            _write_yaml(folder / "deepdives" / f"{task}.yaml", deep_dive(task, combos))
        for combo in combos:
            base = folder / "bundles" / combo.id
            base.mkdir(parents=True, exist_ok=True)
            runs_path = base / "runs.jsonl"
            incomplete = write_runs(
                runs_path, version, combo, plans, runs, seed + k, max_retries, stats
            )
            _write_yaml(
                base / "bundle.yaml",
                bundle_manifest(version, k, combo, runs, max_retries, incomplete),
            )
            runs_files.append(runs_path)
        release_dirs.append(folder)
    return {
        "root": str(out),
        "versions": versions,
        "tasks": n_tasks,
        "bundles": len(runs_files),
        "runs": stats.runs,
        "incomplete_runs": stats.incomplete,
        "uncovered_pairs": stats.uncovered_pairs,
        "run_bytes": stats.bytes,
        "release_dirs": [str(p) for p in release_dirs],
        "runs_files": [str(p) for p in runs_files],
        "harnesscards": [str(p) for p in cards],
        "seconds": round(time.perf_counter() - began, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write a synthetic lg-bench release at scale (see the module docstring)."
    )
    parser.add_argument("out", type=Path, metavar="OUT_DIR", help="input root to write")
    parser.add_argument("--tasks-general", type=int, default=500)
    parser.add_argument("--tasks-enterprise", type=int, default=900)
    parser.add_argument(
        "--combinations", type=int, default=20, help="bundles per version (200 gives 10x runs)"
    )
    parser.add_argument("--runs", type=int, default=5, help="runs per task (runs_per_task)")
    parser.add_argument("--rules", type=int, default=25, help="mean rule items per task")
    parser.add_argument("--judges", type=int, default=5, help="mean Judge items (dual tasks)")
    parser.add_argument("--versions", type=int, default=1, help="releases v1.0, v1.1, ...")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deep-dives", type=int, default=0, help="deep dives (0..6)")
    args = parser.parse_args(argv)
    summary = write_release(
        args.out,
        tasks_general=args.tasks_general,
        tasks_enterprise=args.tasks_enterprise,
        combinations=args.combinations,
        runs=args.runs,
        rules=args.rules,
        judges=args.judges,
        versions=args.versions,
        seed=args.seed,
        deep_dives=args.deep_dives,
    )
    shown = {k: v for k, v in summary.items() if k not in {"runs_files", "harnesscards"}}
    json.dump(shown, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
