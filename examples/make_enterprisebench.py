#!/usr/bin/env python3
"""Write the illustrative EnterpriseBench-shaped example root into examples/enterprisebench.

The root has the layout of the Lingee example (results/<version>/release.yaml, tasks.yaml,
bundles/<combination>/bundle.yaml and runs.jsonl, harnesscards/) and the shape of the
EnterpriseBench paper (shared/reference/enterprisebench-paper.txt): foundational QA cut by
capability and difficulty into the eight cells of its Table 1 (§2.2), Consulting judged on
four dimensions and a separate overall (Table 3, §3.2), Beer Game costs (lower is better,
shown in units of 10^4) and EDT earnings (signed, shown in units of 10^6), agent methods ×
backbones as a grid, the Consulting judge following the backbone (§3.2), budgets not
equalised (§3.1) and memory or prompt evolution carried across tasks (Table 9).

Every task, run and score is synthetic: drawn from seeded generators around centres loosely
set from the paper's Tables 1, 2, 3, 6 and 7 (the CoT, Reflexion, AMEM and GEPA columns). The
release's notice says so. Nothing here is a result of EnterpriseBench.

Usage: python examples/make_enterprisebench.py [--out DIR]   (deterministic: same bytes)
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import random
from pathlib import Path
from typing import Any

from _common import disclosed, enum_values, header, jsonl, yaml_text

HERE = Path(__file__).resolve().parent
ROOT = HERE / "enterprisebench"
VERSION = "v1.0"
RUNS_PER_TASK = 2

# ---------------------------------------------------------------------------- the design

#: Method id -> (display name, tag (method family), how it carries state across tasks).
METHODS: dict[str, tuple[str, str, str | None]] = {
    "cot": ("CoT", "plain", None),
    "reflexion": ("Reflexion", "reflection", None),
    "amem": (
        "AMEM",
        "memory",
        "Online memory from previous samples: notes on earlier tasks of the same run are "
        "stored and retrieved for later ones (paper, Table 9). The memory starts empty at "
        "the first task of each run, so run 1 and run 2 do not share it; tasks within a run do.",
    ),
    "gepa": (
        "GEPA",
        "prompt-optimisation",
        "Prompt evolution: the prompt is proposed, reflected on and merged over mini-batches "
        "of earlier tasks' rollouts and feedback (paper, Table 9). Each run starts from the seed "
        "prompt; tasks within a run see the prompt evolved on the tasks before them.",
    ),
}
TAGS = {
    "plain": ("Plain prompting", "One reasoning pass per task, nothing kept between tasks."),
    "reflection": ("Self-reflection", "Reflects on its own attempt within the current task."),
    "memory": ("Memory", "Keeps an external memory across tasks."),
    "prompt-optimisation": ("Prompt optimisation", "Evolves its prompt across tasks."),
}
#: Backbone id -> (name, version, provider, tokenizer, context window).
BACKBONES: dict[str, tuple[str, str, str, str, int]] = {
    "deepseek-v3": ("DeepSeek-V3", "2025-03-24", "DeepSeek", "deepseek-v3", 128000),
    "gpt-4.1": ("GPT-4.1", "2025-04-14", "OpenAI", "o200k", 1047576),
    "glm-5.2": ("GLM-5.2", "2026-03-01", "Zhipu AI", "glm-5", 200000),
}
#: Method × backbone cells left unevaluated (10 of the 12 have a bundle).
NOT_EVALUATED = {("reflexion", "glm-5.2"), ("amem", "glm-5.2")}
#: The Consulting judge is kept from another model family (§3.2).
JUDGE_OF = {"gpt-4.1": "deepseek-v3", "deepseek-v3": "gpt-4.1", "glm-5.2": "gpt-4.1"}

CAPABILITIES = {
    "information-extraction": "Information Extraction",
    "numerical-calculation": "Numerical Calculation",
    "domain-knowledge": "Domain Knowledge",
    "complex-reasoning": "Complex Reasoning",
}
DIFFICULTIES = {
    "unsplit": (
        "All (not split)",
        "Not bucketed by difficulty: the paper's Table 1 reports Information Extraction "
        "and Complex Reasoning over all difficulties.",
    ),
    "easy": ("Easy (0–3)", "Difficulty score 0 to 3 of 10 (paper, §2.2)."),
    "middle": ("Middle (4–6)", "Difficulty score 4 to 6 of 10 (paper, §2.2)."),
    "hard": ("Hard (7–10)", "Difficulty score 7 to 10 of 10 (paper, §2.2)."),
}
#: The eight QA cells of Table 1: (capability, difficulty, short code, held-out tasks, titles).
QA_CELLS: list[tuple[str, str, str, int, list[str]]] = [
    (
        "information-extraction",
        "unsplit",
        "ie",
        1,
        [
            "Net revenue from a 10-K excerpt",
            "Effective date of a lease agreement",
            "Auditor named in an annual report",
            "Segment with the largest headcount",
        ],
    ),
    (
        "numerical-calculation",
        "easy",
        "nc-easy",
        2,
        [
            "Year-on-year revenue growth",
            "Gross margin from two figures",
            "Average of four quarterly dividends",
            "Change in operating expenses",
            "Debt-to-equity ratio",
        ],
    ),
    (
        "numerical-calculation",
        "middle",
        "nc-middle",
        2,
        [
            "Compound annual growth over five years",
            "Effective tax rate from pre-tax income",
            "Free cash flow from a cash-flow statement",
            "Weighted average cost of capital",
            "Inventory turnover from two balance sheets",
        ],
    ),
    (
        "numerical-calculation",
        "hard",
        "nc-hard",
        2,
        [
            "Bond price from coupon, yield and maturity",
            "Present value of an uneven cash-flow stream",
            "Break-even volume with step costs",
            "Diluted earnings per share with convertible bonds",
            "Loan balance after 37 instalments",
        ],
    ),
    (
        "domain-knowledge",
        "easy",
        "dk-easy",
        1,
        [
            "Definition of working capital",
            "What the current ratio measures",
            "Statement that reports retained earnings",
            "Meaning of accrual accounting",
        ],
    ),
    (
        "domain-knowledge",
        "middle",
        "dk-middle",
        1,
        [
            "Lease classification under IFRS 16",
            "Effect of a stock split on equity",
            "Revenue recognition for a bundled contract",
            "Duration and interest-rate sensitivity",
        ],
    ),
    (
        "domain-knowledge",
        "hard",
        "dk-hard",
        1,
        [
            "Deferred tax on a revaluation surplus",
            "Hedge accounting for a forecast transaction",
            "Consolidation of a variable-interest entity",
            "Goodwill impairment test under IAS 36",
        ],
    ),
    (
        "complex-reasoning",
        "unsplit",
        "cr",
        1,
        [
            "Accepting a special order below full cost",
            "Responding to an inflated expense claim",
            "Choosing between two supplier contracts",
            "Advising on a concentrated stock position",
        ],
    ),
]
QA_SOURCES = {
    "information-extraction": "FinQA and TAT-QA",
    "numerical-calculation": "FinQA and BizBench",
    "domain-knowledge": "BizBench",
    "complex-reasoning": "CFA scenario questions",
}
CONSULTING_CASES = [
    ("market-entry", "Market entry for a regional coffee chain"),
    ("airline-profitability", "Profitability decline at a mid-size airline"),
    ("saas-pricing", "Pricing a new tier of a software service"),
    ("logistics-merger", "Integration after a merger of two logistics firms"),
    ("battery-capacity", "Capacity expansion of a battery plant"),
    ("retail-turnaround", "Turnaround of a department-store chain"),
]
#: Judged dimensions (Table 3) and the Judge items that assess them.
DIMENSIONS = {
    "structure": ("Structure", "Frames the problem and breaks it down into a clear approach."),
    "quantitative": ("Quantitative reasoning", "Asks for and uses the numbers correctly."),
    "business": ("Business sense", "Draws sound, actionable business conclusions."),
    "communication": ("Communication", "Presents a clear, well-argued recommendation."),
}
CONSULTING_PASS = 7
# Beer Game (Appendix A.5): 25 steps, demand 100 then 400 from step 2, backorders 1.0 per
# unit and step, a minimum inventory cost of 200 per step.
BEER_STEPS, BEER_DEMAND_FIRST, BEER_DEMAND, BEER_BACKORDER, BEER_MIN_COST = 25, 100, 400, 1.0, 200
BEER_SCENARIOS = [
    ("beer-game-step-demand", "Step demand (100 to 400 from week 2)", 1.0),
    ("beer-game-long-lead", "Step demand with a longer shipment delay", 1.3),
]
# EDT (Appendix A.6): 96 months, a fixed cost of 20,000 a month, 12 consultants at a salary
# of 6,000 and a workplace cost of 2,000 a month.
EDT_MONTHS, EDT_FIXED, EDT_STAFF, EDT_SALARY, EDT_WORKPLACE = 96, 20000, 12, 6000, 2000
EDT_SCENARIOS = [
    ("edt-interactive", "Interactive scenario (revenue risk 0.5)", 0.0, 0.6),
    ("edt-high-risk", "High-risk scenario (revenue risk 0.8)", -5.5, 2.0),
]
#: Measure runs that fail (combination, task, run): the episode is aborted, no value recorded.
FAILED_MEASURE_RUNS = {
    ("reflexion-deepseek-v3", "beer-game-long-lead", 2),
    ("cot-glm-5.2", "edt-high-risk", 1),
}
#: Combinations with a domain they were not evaluated on, and why.
NOT_COVERED = {
    "gepa-glm-5.2": (
        "edt",
        "EDT gives one rollout per scenario, too few for GEPA's mini-batch prompt evolution "
        "under GLM-5.2's rate limits; not run.",
    ),
}

# Centres of the synthetic draws, loosely after the paper (Tables 1, 2, 6 and 3, 7).
# QA: accuracy per cell in QA_CELLS order.
QA_CENTRES: dict[tuple[str, str], list[float]] = {
    ("cot", "deepseek-v3"): [0.824, 0.840, 0.730, 0.500, 0.925, 0.817, 0.339, 0.576],
    ("reflexion", "deepseek-v3"): [0.791, 0.816, 0.712, 0.500, 0.981, 0.808, 0.386, 0.515],
    ("amem", "deepseek-v3"): [0.857, 0.847, 0.711, 0.563, 0.925, 0.827, 0.349, 0.636],
    ("gepa", "deepseek-v3"): [0.846, 0.836, 0.736, 0.563, 0.925, 0.797, 0.355, 0.697],
    ("cot", "gpt-4.1"): [0.863, 0.860, 0.742, 0.500, 0.887, 0.866, 0.423, 0.758],
    ("reflexion", "gpt-4.1"): [0.837, 0.850, 0.736, 0.500, 0.944, 0.870, 0.462, 0.727],
    ("amem", "gpt-4.1"): [0.871, 0.931, 0.727, 0.500, 0.962, 0.861, 0.455, 0.727],
    ("gepa", "gpt-4.1"): [0.863, 0.943, 0.842, 0.563, 0.921, 0.825, 0.455, 0.727],
    ("cot", "glm-5.2"): [0.903, 0.826, 0.730, 0.500, 0.925, 0.911, 0.522, 0.697],
    ("gepa", "glm-5.2"): [0.932, 0.843, 0.752, 0.563, 0.943, 0.904, 0.504, 0.773],
}
# Consulting: structure, quantitative, business, communication on 0-10.
CONSULTING_CENTRES: dict[tuple[str, str], list[float]] = {
    ("cot", "deepseek-v3"): [7.26, 6.58, 7.30, 7.60],
    ("reflexion", "deepseek-v3"): [6.90, 5.92, 6.93, 7.33],
    ("amem", "deepseek-v3"): [7.40, 6.99, 7.44, 7.92],
    ("gepa", "deepseek-v3"): [8.08, 8.08, 8.40, 8.59],
    ("cot", "gpt-4.1"): [7.32, 6.59, 7.33, 7.67],
    ("reflexion", "gpt-4.1"): [6.81, 5.81, 6.78, 7.22],
    ("amem", "gpt-4.1"): [7.71, 7.25, 7.75, 8.23],
    ("gepa", "gpt-4.1"): [7.71, 7.51, 8.04, 8.31],
    ("cot", "glm-5.2"): [7.35, 6.71, 7.37, 7.67],
    ("gepa", "glm-5.2"): [7.45, 7.13, 7.71, 7.99],
}
# Beer Game cost in 10^4 and EDT earnings in 10^6.
BEER_CENTRES = {
    "cot": [2.54, 5.36, 2.12],
    "reflexion": [5.10, 4.62, 2.54],
    "amem": [2.25, 3.82, 2.50],
    "gepa": [2.57, 3.09, 1.99],
}
EDT_CENTRES = {
    "cot": [5.82, 7.77, 7.65],
    "reflexion": [6.20, 6.97, 7.69],
    "amem": [6.76, 7.21, 7.70],
    "gepa": [6.04, 8.16, 7.65],
}
# Resources per QA sample, after Table 9: (calls, total tokens), adaptation overhead included.
QA_RESOURCES = {
    "cot": (1.0, 1086),
    "reflexion": (2.04, 2531),
    "amem": (1.0, 1050),
    "gepa": (13.84, 48865),
}
TOKENIZER_FACTOR = {"deepseek-v3": 1.0, "gpt-4.1": 0.93, "glm-5.2": 1.08}


def beer_failure_cost() -> float:
    """Cost of an episode in which the retailer never orders: every unit demanded stays
    backordered to the end, plus the minimum inventory cost of each step."""
    backlog, cost = 0, 0.0
    for step in range(1, BEER_STEPS + 1):
        backlog += BEER_DEMAND_FIRST if step == 1 else BEER_DEMAND
        cost += backlog * BEER_BACKORDER + BEER_MIN_COST
    return cost


def edt_failure_earnings() -> float:
    """Earnings when no project is staffed: the fixed and workforce costs of every month."""
    return -float(EDT_MONTHS * (EDT_FIXED + EDT_STAFF * (EDT_SALARY + EDT_WORKPLACE)))


def combinations() -> list[tuple[str, str, str]]:
    """(combination id, method, backbone) of every evaluated cell, method-major."""
    return [(f"{m}-{b}", m, b) for m in METHODS for b in BACKBONES if (m, b) not in NOT_EVALUATED]


# ---------------------------------------------------------------------------- release

COMPONENTS = {
    "tasks": "1.0.0",
    "data": "1.0.0",
    "environment": "1.0.0",
    "protocol": "1.0",
    "judge_assets": "1.0.0",
    "scorer": {
        "answer-matcher": "1.0.0",
        "consulting-judge": "1.0.0",
        "beer-game-simulator": "1.0.0",
        "edt-simulator": "1.0.0",
        "aggregator": "1.0.0",
    },
}


def _cell_title(capability: str, difficulty: str) -> str:
    level = "All" if difficulty == "unsplit" else difficulty.capitalize()
    return f"{CAPABILITIES[capability]} — {level}"


def metrics() -> list[dict[str, Any]]:
    tokens = {"direction": "lower", "unit": "tokens"}
    return [
        {"id": "task_score", "title": "Task Score", "direction": "higher"},
        {"id": "rule_score", "title": "Rule score", "direction": "higher"},
        {"id": "judge_score", "title": "Judge score", "direction": "higher"},
        {"id": "success_rate", "title": "Success rate", "direction": "higher"},
        {"id": "reliability", "title": "reliability@k", "direction": "higher"},
        {"id": "input_tokens", "title": "Input tokens", **tokens},
        {"id": "output_tokens", "title": "Output tokens", **tokens},
        {"id": "total_tokens", "title": "Total tokens", **tokens},
        {
            "id": "model_calls",
            "title": "Model calls",
            "direction": "lower",
            "unit": "calls",
            "measured": True,
            "role": "resource",
            "across_models": True,
        },
        {
            "id": "consulting_score",
            "title": "Consulting score",
            "direction": "higher",
            "of": "task_score",
            "scale": 0.1,
        },
        {
            "id": "beer_cost",
            "title": "Beer Game cost",
            "direction": "lower",
            "unit": "cost units",
            "measured": True,
            "scale": 10000.0,
            "range": {"low": 0.0, "high": None},
            "role": "outcome",
            "across_models": True,
        },
        {
            "id": "edt_earnings",
            "title": "EDT earnings",
            "direction": "higher",
            "unit": "currency units",
            "measured": True,
            "scale": 1000000.0,
            "range": {"low": None, "high": None},
            "role": "outcome",
            "across_models": True,
        },
    ]


def profile() -> dict[str, Any]:
    qa_rows = [
        {
            "domain": "qa",
            "facets": {"capability": cap, "difficulty": diff},
            "title": _cell_title(cap, diff),
        }
        for cap, diff, *_ in QA_CELLS
    ]
    return {
        "task_fields": ["interaction", "source", "licence"],
        "facets": [
            {
                "id": "capability",
                "title": "Capability",
                "description": "The foundational capability a QA sample tests (paper, §2.2).",
                "values": enum_values(CAPABILITIES),
            },
            {
                "id": "difficulty",
                "title": "Difficulty",
                "description": "The 0–10 difficulty score bucketed as in the paper's §2.2; "
                "Information Extraction and Complex Reasoning are reported unsplit, as in its "
                "Table 1.",
                "values": enum_values(DIFFICULTIES),
            },
        ],
        "axes": [{"id": "method", "title": "Method"}, {"id": "backbone", "title": "Backbone"}],
        "tags": enum_values(TAGS),
        "dimensions": enum_values(DIMENSIONS),
        "continuous_levels": True,
        "carried_state": "labelled",
        "views": [
            {
                "kind": "board",
                "id": "by-backbone",
                "title": "Results by backbone",
                "per": "backbone",
                "columns": "method",
                "rows": [
                    *qa_rows,
                    {"domain": "consulting", "title": "Consulting"},
                    {"domain": "beer-game", "title": "Beer Game"},
                    {"domain": "edt", "title": "EDT"},
                ],
            },
            {
                "kind": "grid",
                "id": "qa-grid",
                "title": "QA Task Score, method × backbone",
                "domain": "qa",
                "metric": "task_score",
                "rows": "method",
                "columns": "backbone",
            },
            {
                "kind": "grid",
                "id": "beer-game-grid",
                "title": "Beer Game cost, method × backbone",
                "domain": "beer-game",
                "metric": "beer_cost",
                "rows": "method",
                "columns": "backbone",
            },
            {
                "kind": "dimensions",
                "id": "consulting-dimensions",
                "title": "Consulting by dimension",
                "domain": "consulting",
            },
            {
                "kind": "resources",
                "id": "qa-resources",
                "title": "QA resources",
                "domain": "qa",
                "metrics": ["model_calls", "total_tokens"],
            },
        ],
    }


def release_manifest(tasks: list[dict[str, Any]]) -> dict[str, Any]:
    public = sum(t["group"] == "public" for t in tasks)
    carried = " and ".join(title for title, _, state in METHODS.values() if state)
    judges = ", ".join(f"{BACKBONES[j][0]} judges {BACKBONES[b][0]}" for b, j in JUDGE_OF.items())
    return {
        "format_version": 1,
        "benchmark": {"name": "EnterpriseBench", "code": "enterprisebench"},
        "version": VERSION,
        "title": "EnterpriseBench-shaped example 1.0 — illustrative",
        "freeze_date": dt.date(2026, 11, 2),
        "illustrative": True,
        "notice": (
            "**Illustrative example release.** It shows how a benchmark shaped like "
            "EnterpriseBench declares its own metrics, facets and views; it is not a result "
            "of EnterpriseBench. Every task, run and score is synthetic, drawn from seeded "
            "generators. Do not cite these numbers. 'The paper' on these pages is Yang et "
            "al., *EnterpriseBench: Benchmarking LLM Agents on Enterprise-Level Strategic "
            "Reasoning and Decision-Making*."
        ),
        "components": COMPONENTS,
        "domains": [
            {
                "id": "qa",
                "title": "Foundational QA",
                "description": "Enterprise and financial questions with one reference answer, "
                "cut by capability and difficulty (paper, §2.2). The domain score is the mean over "
                "the eight cells of the paper's Table 1, shown beside the mean over tasks.",
                "facets": ["capability", "difficulty"],
                "aggregate": {"over": "cells", "facets": ["capability", "difficulty"]},
            },
            {
                "id": "consulting",
                "title": "Consulting",
                "description": "Simulated case interviews judged on four dimensions and a "
                "separately judged overall, 0–10 (paper, §2.3 and §3.2).",
                "outcome": "consulting_score",
            },
            {
                "id": "beer-game",
                "title": "Beer Game",
                "description": "25-step supply-chain ordering episodes; the outcome is the "
                "total accumulated cost, lower is better (paper, §2.3).",
                "outcome": "beer_cost",
            },
            {
                "id": "edt",
                "title": "Enterprise Digital Twin",
                "description": "Scenario-level enterprise strategies rolled out in a "
                "project-business simulator; the outcome is accumulated earnings, which can "
                "be negative (paper, §2.3).",
                "outcome": "edt_earnings",
            },
        ],
        "enumerations": {
            "failure_types": enum_values(
                {
                    "wrong-answer": "Answer does not match the reference",
                    "no-answer": "No answer in the expected format",
                    "below-pass-level": "A judged dimension below its pass level",
                    "episode-aborted": "Simulation episode aborted",
                }
            ),
            "incomplete_causes": enum_values(
                {
                    "provider-error": "Model provider error",
                    "timeout": "Run timed out",
                    "judge-invalid": "No valid Judge result",
                }
            ),
        },
        "metrics": metrics(),
        "controlled_factors": [
            {
                "factor": "Task set",
                "status": "controlled",
                "setting": "tasks 1.0.0, frozen before evaluation",
            },
            {
                "factor": "Environments",
                "status": "controlled",
                "setting": "one QA interface, Consulting interviewer and two simulators, the "
                "same for every combination",
                "covers": ["environment"],
            },
            {
                "factor": "Scoring pipeline",
                "status": "controlled",
                "setting": "one answer matcher, judge runner, simulators and aggregator",
                "covers": ["pipeline"],
            },
            {
                "factor": "Consulting judge",
                "status": "variable",
                "setting": f"follows the backbone, kept from another model family: {judges} "
                "(paper, §3.2); combinations are compared only with those judged by the same model",
                "covers": ["evaluator"],
            },
            {
                "factor": "Resource budgets",
                "status": "variable",
                "setting": "each method keeps its native inference and adaptation "
                "configuration; calls and tokens are not equalised (paper, §3.1 and Table 9); "
                "the run limits of the bundles are the same",
                "covers": ["budgets"],
            },
            {
                "factor": "Agent method × backbone",
                "status": "variable",
                "setting": "the independent variables, laid out on the method and backbone axes",
            },
        ],
        "runs_per_task": RUNS_PER_TASK,
        "reliability_k": list(range(1, RUNS_PER_TASK + 1)),
        "groups": {
            "public": public,
            "held_out": len(tasks) - public,
            "min_held_out_aggregate": 5,
        },
        "disclosure_floor": ["context.persistent_memory", "scheduling.agent_loop"],
        "boundaries_of_use": (
            "- **Illustrative.** Synthetic data in EnterpriseBench's shape; not its results.\n"
            "- **No cross-domain total.** QA, Consulting, Beer Game and EDT are scored in "
            "different units and directions; a board sets them side by side and never sums "
            "or averages them.\n"
            "- **Compared within one judge.** The Consulting judge follows the backbone, so "
            "combinations are ranked only against those judged by the same model.\n"
            f"- **Carried state.** {carried} carry state across tasks; their runs are not "
            "independent and their reliability@k is not reported.\n"
        ),
        "profile": profile(),
    }


# ---------------------------------------------------------------------------- catalog


def _task(
    tid: str, title: str, domain: str, scoring: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    return {
        "id": tid,
        "title": title,
        "domain": domain,
        "family": extra.pop("family", f"fam-{tid}"),
        **({"variant": extra.pop("variant")} if "variant" in extra else {}),
        "interaction": extra.pop("interaction"),
        "group": extra.pop("group", "public"),
        "scoring": scoring,
        "source": extra.pop("source"),
        "licence": "CC BY 4.0 (example)",
        **extra,
    }


def qa_tasks() -> list[dict[str, Any]]:
    """Four or five one-item rule-only tasks per cell; some of each cell held out."""
    rng = random.Random("enterprisebench:qa-groups")
    out = []
    for cap, diff, code, held, titles in QA_CELLS:
        held_out = set(rng.sample(range(len(titles)), held))
        for i, title in enumerate(titles):
            out.append(
                _task(
                    f"qa-{code}-{i + 1:02d}",
                    title,
                    "qa",
                    {
                        "mode": "rule-only",
                        "core_delivery": "An answer is extracted from the response in the "
                        "expected format",
                        "rule_items": [
                            {
                                "id": "A1",
                                "title": "Answer matches the reference (exact or normalised match, "
                                "choice, or numeric tolerance)",
                            }
                        ],
                    },
                    interaction="single-turn",
                    group="held-out" if i in held_out else "public",
                    source=f"Synthetic sample in the style of {QA_SOURCES[cap]} (illustrative)",
                    facets={"capability": cap, "difficulty": diff},
                )
            )
    return out


def consulting_tasks() -> list[dict[str, Any]]:
    items = [
        {
            "id": f"J-{dim}",
            "title": f"{title}: {description[0].lower()}{description[1:]}",
            "max_level": 10,
            "pass_level": CONSULTING_PASS,
            "dimension": dim,
        }
        for dim, (title, description) in DIMENSIONS.items()
    ]
    items.append(
        {
            "id": "J-overall",
            "title": "Overall performance, judged on its own",
            "max_level": 10,
            "pass_level": CONSULTING_PASS,
            "overall": True,
        }
    )
    return [
        _task(
            f"consulting-{slug}",
            title,
            "consulting",
            {
                "mode": "judge-only",
                "core_delivery": "The interview ends with a recommendation to the client",
                "judge_items": items,
            },
            interaction="multi-turn",
            source="Synthetic case in the style of MBA consulting casebooks (illustrative)",
        )
        for slug, title in CONSULTING_CASES
    ]


def measure_tasks() -> list[dict[str, Any]]:
    beer = [
        _task(
            tid,
            f"Beer Game: {title}",
            "beer-game",
            {
                "mode": "measure",
                "measure": "beer_cost",
                "failure_value": beer_failure_cost(),
                "core_delivery": f"All {BEER_STEPS} order decisions are valid and the episode "
                "completes",
            },
            family="fam-beer-game",
            variant=title,
            interaction="multi-turn",
            source="Synthetic scenario after the Beer Distribution Game (Sterman, 1989)",
        )
        for tid, title, _ in BEER_SCENARIOS
    ]
    edt = [
        _task(
            tid,
            f"EDT: {title}",
            "edt",
            {
                "mode": "measure",
                "measure": "edt_earnings",
                "failure_value": edt_failure_earnings(),
                "core_delivery": "A complete strategy is submitted and rolled out over "
                f"{EDT_MONTHS} months",
            },
            family="fam-edt",
            variant=title,
            interaction="single-turn",
            source="Synthetic scenario after the transentis Enterprise Digital Twin",
        )
        for tid, title, _, _ in EDT_SCENARIOS
    ]
    return beer + edt


def catalog() -> dict[str, Any]:
    tasks = qa_tasks() + consulting_tasks() + measure_tasks()
    families: dict[str, dict[str, str]] = {}
    for task in tasks:
        if task["family"] not in families:
            title = task["title"]
            if task["family"] == "fam-beer-game":
                title = "Beer Game episodes"
            elif task["family"] == "fam-edt":
                title = "Enterprise Digital Twin scenarios"
            families[task["family"]] = {
                "id": task["family"],
                "title": title,
                "domain": task["domain"],
            }
    return {
        "format_version": 1,
        "release": VERSION,
        "families": list(families.values()),
        "tasks": tasks,
    }


# ---------------------------------------------------------------------------- runs


def _offset(task_id: str, sd: float) -> float:
    """A task's own difficulty, the same for every combination."""
    return random.Random(f"enterprisebench:task:{task_id}").gauss(0.0, sd)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _logit(p: float) -> float:
    p = min(max(p, 0.02), 0.98)
    return math.log(p / (1.0 - p))


def _tokens(rng: random.Random, total: float, backbone: str) -> dict[str, int]:
    total_i = max(50, round(total * TOKENIZER_FACTOR[backbone] * rng.lognormvariate(0.0, 0.3)))
    inp = round(total_i * 0.82)
    return {"input_tokens": inp, "output_tokens": total_i - inp}


def _calls(rng: random.Random, method: str, base: int) -> int:
    """Model calls of a run: Reflexion reflects once per attempt, GEPA adds its share of
    prompt evolution (Table 9)."""
    calls = base * (2 if method == "reflexion" else 1)
    if method == "reflexion" and rng.random() < 0.04:
        calls += base
    if method == "gepa":
        calls += max(1, round(rng.gauss(12.8, 3.0)))
    return calls


def _measures(**values: float) -> list[dict[str, Any]]:
    return [{"id": k, "value": float(v)} for k, v in values.items()]


def _incomplete(cause: str, note: str) -> dict[str, Any]:
    return {"status": "incomplete", "cause": cause, "retries": 2, "delivery": False, "note": note}


def _qa_run(rng: random.Random, method: str, backbone: str, task: dict[str, Any]) -> dict[str, Any]:
    cell = next(i for i, c in enumerate(QA_CELLS) if c[:2] == tuple(task["facets"].values()))
    calls = _calls(rng, method, 1)
    calls_mean, tokens_mean = QA_RESOURCES[method]
    usage = _tokens(rng, tokens_mean * calls / calls_mean, backbone)
    if rng.random() < 0.02:
        cause = rng.choice(["provider-error", "timeout"])
        note = {
            "provider-error": "The model provider returned errors after 2 retries.",
            "timeout": "No response within the time limit after 2 retries.",
        }[cause]
        return {
            **_incomplete(cause, note),
            "rules": [],
            **usage,
            "measures": _measures(model_calls=calls),
        }
    p = _sigmoid(_logit(QA_CENTRES[(method, backbone)][cell]) + _offset(task["id"], 0.9))
    delivered = rng.random() > 0.02
    correct = delivered and rng.random() < p
    record: dict[str, Any] = {
        "status": "valid",
        "delivery": delivered,
        "rules": [{"id": "A1", "pass": correct}],
        **usage,
        "measures": _measures(model_calls=calls),
    }
    if not correct:
        record["failure_type"] = "wrong-answer" if delivered else "no-answer"
    return record


def _rationale(level: float, what: str) -> str:
    if level >= 8.5:
        return f"{what}: strong throughout the interview."
    if level >= CONSULTING_PASS:
        return f"{what}: sound, with minor gaps."
    if level >= 5:
        return f"{what}: partly convincing; key steps missing."
    return f"{what}: weak; the case was not worked through."


def _consulting_run(
    rng: random.Random, method: str, backbone: str, task: dict[str, Any]
) -> dict[str, Any]:
    turns = rng.randint(8, 16)
    calls = _calls(rng, method, turns)
    usage = _tokens(rng, 2400.0 * calls, backbone)
    if rng.random() < 0.04:
        return {
            **_incomplete("judge-invalid", "No valid Judge verdict after 2 retries."),
            "judge": [],
            "judge_valid": False,
            **usage,
            "measures": _measures(model_calls=calls),
        }
    case = _offset(task["id"], 0.5)
    levels = [
        round(min(10.0, max(0.0, centre + case + rng.gauss(0.0, 0.45))), 1)
        for centre in CONSULTING_CENTRES[(method, backbone)]
    ]
    mean = sum(levels) / len(levels)
    overall = round(min(10.0, max(0.0, mean - rng.uniform(0.0, 0.16) + rng.gauss(0.0, 0.05))), 1)
    passed = all(level >= CONSULTING_PASS for level in levels)
    if passed:  # a case that passes every dimension passes overall too
        overall = max(overall, float(CONSULTING_PASS))
    verdicts = [
        {"id": f"J-{dim}", "level": level, "rationale": _rationale(level, title)}
        for (dim, (title, _)), level in zip(DIMENSIONS.items(), levels, strict=True)
    ]
    verdicts.append(
        {"id": "J-overall", "level": overall, "rationale": _rationale(overall, "Overall")}
    )
    record: dict[str, Any] = {
        "status": "valid",
        "delivery": True,
        "judge": verdicts,
        "judge_valid": True,
        **usage,
        "measures": _measures(model_calls=calls),
    }
    if not (passed and overall >= CONSULTING_PASS):
        record["failure_type"] = "below-pass-level"
    return record


def _measure_run(
    rng: random.Random, combo: str, method: str, backbone: str, task: dict[str, Any], run: int
) -> dict[str, Any]:
    b = list(BACKBONES).index(backbone)
    beer = task["domain"] == "beer-game"
    base = BEER_STEPS if beer else 3
    calls = _calls(rng, method, base)
    usage = _tokens(rng, (900.0 if beer else 6000.0) * calls, backbone)
    if (combo, task["id"], run) in FAILED_MEASURE_RUNS:
        step = rng.randint(5, base) if beer else 1
        note = (
            f"Orders could not be parsed at step {step}; the episode was aborted."
            if beer
            else "The submitted strategy staffed more consultants than the firm has; the "
            "simulator refused it."
        )
        return {
            "status": "valid",
            "delivery": False,
            **usage,
            "measures": _measures(model_calls=calls),
            "failure_type": "episode-aborted",
            "note": note,
        }
    if beer:
        factor = next(f for tid, _, f in BEER_SCENARIOS if tid == task["id"])
        cost = BEER_CENTRES[method][b] * 1e4 * factor * rng.lognormvariate(0.0, 0.18)
        value = round(cost * 2) / 2  # holding costs come in halves
        outcome = {"beer_cost": value}
    else:
        shift, sd = next((s, d) for tid, _, s, d in EDT_SCENARIOS if tid == task["id"])
        earnings = (EDT_CENTRES[method][b] + shift + rng.gauss(0.0, sd)) * 1e6
        outcome = {"edt_earnings": float(round(earnings))}
    return {
        "status": "valid",
        "delivery": True,
        **usage,
        "measures": _measures(**outcome, model_calls=calls),
    }


def covered(combo: str, task: dict[str, Any]) -> bool:
    """Whether the combination was run on the task (not on a domain it does not cover)."""
    skipped, domain = NOT_COVERED.get(combo, ("", ""))[0], str(task["domain"])
    return skipped != domain


def runs(
    combo: str, method: str, backbone: str, tasks: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    rng = random.Random(f"enterprisebench:runs:{combo}")
    out = []
    for task in tasks:
        if not covered(combo, task):
            continue
        for run in range(1, RUNS_PER_TASK + 1):
            head = {"task": task["id"], "run": run, "seed": rng.randrange(2**31)}
            if task["domain"] == "qa":
                body = _qa_run(rng, method, backbone, task)
            elif task["domain"] == "consulting":
                body = _consulting_run(rng, method, backbone, task)
            else:
                body = _measure_run(rng, combo, method, backbone, task, run)
            out.append({**head, **body})
    return out


# ---------------------------------------------------------------------------- bundles


def bundle(combo: str, method: str, backbone: str, records: list[dict[str, Any]]) -> dict[str, Any]:
    name, version, provider, tokenizer, window = BACKBONES[backbone]
    judge = BACKBONES[JUDGE_OF[backbone]]
    valid: dict[str, int] = {}
    for r in records:
        valid[r["task"]] = valid.get(r["task"], 0) + (r["status"] == "valid")
    complete = all(n == RUNS_PER_TASK for n in valid.values())
    title, tag, carried = METHODS[method]
    start = dt.date(2026, 10, 5) + dt.timedelta(days=list(BACKBONES).index(backbone) * 3)
    out: dict[str, Any] = {
        "format_version": 1,
        "release": VERSION,
        "combination": {
            "id": combo,
            "title": f"{title} × {name}",
            "harnesscard": card_id(method),
            "model": {
                "name": name,
                "version": version,
                "provider": provider,
                "tokenizer": tokenizer,
            },
            "agent_version": "1.0.0",
            "axes": {"method": title, "backbone": name},
            "tags": [tag],
        },
        "configuration": {
            "temperature": 0.0,
            "top_p": 1.0,
            "max_output_tokens": 4096,
            "context_window": window,
            "compression_threshold": None,
            "reasoning_mode": "no extended thinking",
            "runs_per_task": RUNS_PER_TASK,
            "pipeline_components": COMPONENTS,
        },
        "budgets": {
            "timeout_s": 1800,
            "max_steps": 60,
            "max_tokens": 1000000,
            "max_retries": 2,
            "retry_policy": "Retry provider errors and timeouts up to twice; answers and "
            "episodes are never retried.",
        },
        "clarification": {
            "simulated_user_script_version": "1.0.0",
            "waiting_cap_s": 60,
            "rules": "In Consulting an LLM interviewer holds the case materials and reveals a "
            "fact only when asked for it; QA, Beer Game and EDT take no clarification.",
        },
        "environment_snapshot": "enterprisebench-env-1.0.0",
        "evaluator": {
            "judge_model": judge[0],
            "judge_model_version": judge[1],
            "prompt_version": "1.0.0",
            "voting": "single judge, temperature 0 (Consulting only)",
        },
        "run_dates": {"start": start, "end": start + dt.timedelta(days=4)},
        "consent": {
            "granted": True,
            "by": "Example submitter (illustrative)",
            "date": dt.date(2026, 10, 20),
        },
        "evaluation": "complete" if complete else "incomplete",
    }
    if combo in NOT_COVERED:
        domain, reason = NOT_COVERED[combo]
        out["not_covered"] = [{"domain": domain, "reason": reason}]
    out["runs"] = "runs.jsonl"
    if carried:
        out["carried_state"] = carried
    return out


# ---------------------------------------------------------------------------- HarnessCards


def card_id(method: str) -> str:
    return f"eb-{method}-1.0"


def harnesscard(method: str) -> dict[str, Any]:
    title, _, carried = METHODS[method]
    loop = {
        "cot": "One chain-of-thought call per decision",
        "reflexion": "Attempt, self-reflection on the attempt, retry once within the task",
        "amem": "One call per decision with memories retrieved from earlier tasks",
        "gepa": "One call per decision with the current evolved prompt; reflective "
        "Genetic-Pareto prompt search between mini-batches",
    }[method]
    memory = {
        "cot": "None",
        "reflexion": "Current-sample trajectory only",
        "amem": "Online memory from previous samples only",
        "gepa": "Online mini-batch feedback and history only",
    }[method]
    return {
        "format_version": 1,
        "id": card_id(method),
        "harness": {
            "name": f"EnterpriseBench agent: {title}",
            "version": "1.0.0",
            "vendor": "Illustrative, after the EnterpriseBench reference implementation",
        },
        "card_date": dt.date(2026, 9, 28),
        "layers": {
            "execution": {
                "runtime_substrate": disclosed("Python process per run; simulators in-process"),
                "sandboxing": disclosed("Process isolation"),
                "filesystem_access": disclosed("None"),
                "network_access": disclosed("Model provider API only"),
                "task_timeout": disclosed("1,800 s per run"),
                "step_timeout": disclosed("120 s per model call"),
                "max_steps": disclosed(60),
                "evaluation_entry_point": disclosed(
                    "Benchmark runner scores each run on completion"
                ),
            },
            "tool": {
                "tool_list": disclosed(["Beer Game order tool", "EDT strategy tool"]),
                "schema_style": disclosed("MCP tools with JSON Schema"),
                "tool_selection_policy": disclosed(
                    "Fixed per task: QA and Consulting take no tools"
                ),
                "error_format": disclosed("Tool error text returned to the model"),
                "retryable_error_classes": disclosed(["provider error", "timeout"]),
                "tool_visibility": disclosed("All tools visible to the model"),
            },
            "context": {
                "context_cap": disclosed("The backbone's context window"),
                "ordering_policy": disclosed("Instructions, retrieved state, then the task"),
                "summarization_policy": disclosed("None"),
                "retrieval_method": disclosed(
                    "Embedding search over stored memories" if method == "amem" else "None"
                ),
                "persistent_memory": disclosed(memory),
                "cache_policy": disclosed("None"),
            },
            "scheduling": {
                "agent_loop": disclosed(loop),
                "stopping_rule": disclosed("Final answer, end of episode, or budget"),
                "retry_policy": disclosed("Provider errors and timeouts retried up to twice"),
                "escalation_behaviour": disclosed("None"),
                "delegation_policy": disclosed("No sub-agents"),
                "rollback_behaviour": disclosed("None"),
            },
            "observability": {
                "logged_artifacts": disclosed(["prompts", "responses", "tool calls"]),
                "trajectory_format": disclosed("JSON Lines per run"),
                "checkpoints": disclosed(
                    "Evolved prompt after each mini-batch" if method == "gepa" else "None"
                ),
                "traces": disclosed("Every model call with its token counts"),
                "validation_logs": disclosed("Scorer logs kept with the run"),
                "auditable_after_run": disclosed(True),
            },
            "verification": {
                "output_parser": disclosed("Answer-format parser of the benchmark"),
                "schema_validation": disclosed("Tool arguments checked against their schemas"),
                "self_checking": disclosed("Self-reflection" if method == "reflexion" else "None"),
                "test_execution": disclosed("None"),
                "anomaly_detection": disclosed("None"),
                "final_output_validation": disclosed("Scorer-side only"),
            },
            "governance": {
                "permission_model": disclosed("Benchmark tools only"),
                "allow_deny_rules": disclosed("None beyond the tool list"),
                "side_effect_boundaries": disclosed("Simulated environments only"),
                "secret_handling": disclosed(
                    "Provider key held by the runner, never shown to the model"
                ),
                "human_approval_points": disclosed("None"),
            },
        },
        "notes": "Illustrative HarnessCard for the EnterpriseBench-shaped example."
        + (f" Carries state across tasks: {carried}" if carried else ""),
    }


# ---------------------------------------------------------------------------- writing


HEADER = header("make_enterprisebench.py")


def all_files() -> dict[str, str]:
    """Path relative to the example root → text, for every file of the root."""
    cat = catalog()
    base = f"results/{VERSION}"
    out = {
        f"{base}/release.yaml": yaml_text(release_manifest(cat["tasks"]), HEADER),
        f"{base}/tasks.yaml": yaml_text(cat, HEADER),
    }
    for combo, method, backbone in combinations():
        records = runs(combo, method, backbone, cat["tasks"])
        out[f"{base}/bundles/{combo}/bundle.yaml"] = yaml_text(
            bundle(combo, method, backbone, records), HEADER
        )
        out[f"{base}/bundles/{combo}/runs.jsonl"] = jsonl(records)
    for method in METHODS:
        out[f"harnesscards/{card_id(method)}.yaml"] = yaml_text(harnesscard(method), HEADER)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT, help="example root to write into")
    args = parser.parse_args()
    for rel, text in all_files().items():
        path = args.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(path)


if __name__ == "__main__":
    main()
