#!/usr/bin/env python3
"""Write the illustrative EnterpriseClawBench-shaped example root into examples/enterpriseclawbench.

The root has the layout of the Lingee example (results/<version>/release.yaml, tasks.yaml,
bundles/<combination>/bundle.yaml and runs.jsonl, harnesscards/) and the shape of the
EnterpriseClawBench report (shared/reference/enterpriseclawbench-summary-zh.txt): workplace
tasks cut by role class and by deliverable type (a task may ask for two types), a Lite and a
Full task set, each task scored on five hard-rule items (one per rule class) and five
weighted semantic dimensions judged on a text or a visual channel, cost in CNY and runtime,
harness × model combinations on two axes, a skill-transfer experiment (skills written by two
creator models, injected into two consumers, measured on five target tasks) and a second
rater (human experts, and a second AI judge) on some runs.

Every task, run and score is synthetic: drawn from a seeded latent model whose shapes follow
the summary qualitatively (a strong Codex × GPT-5.5, Claude models losing deliveries under
Hermes' approval checks, cost rising faster than the score, marketing and finance/operations
hardest, grounded accuracy weakest, the visual judge lower than humans and out of their order,
skills by GPT-5.5 helping and by Haiku 4.5 hurting). The release's notice says so. Nothing
here is a result of EnterpriseClawBench, and no figure of the site is typed here: they are
computed from the run records this script writes.

Usage: python examples/make_enterpriseclawbench.py [--out DIR]   (deterministic: same bytes)
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
from pathlib import Path
from typing import Any

from _common import disclosed, enum_values, header, jsonl, yaml_text

HERE = Path(__file__).resolve().parent
ROOT = HERE / "enterpriseclawbench"
VERSION = "v1.0"
RUNS_PER_TASK = 2
DOMAIN = "workplace"
MAX_LEVEL = 10
PASS_LEVEL = 6
RULE_WEIGHT = 0.25
MIN_HELD_OUT = 4
SEED = "enterpriseclawbench"

# ---------------------------------------------------------------------------- the design

#: Harness id -> (name, vendor, agent loop, human approval points).
HARNESSES: dict[str, tuple[str, str, str, str]] = {
    "codex": (
        "Codex",
        "OpenAI",
        "Plan, run shell commands and edit files in a loop until the deliverable is written",
        "None inside the sandbox",
    ),
    "claude-code": (
        "Claude Code",
        "Anthropic",
        "Tool-use loop over shell, file and web tools with sub-agents for long tasks",
        "None in the benchmark's permission mode",
    ),
    "hermes": (
        "Hermes",
        "Nous Research",
        "Tool-use loop whose commands pass an approval check before they run",
        "An approval check before each shell command and file write; a refused or unanswered "
        "check stops the chain of commands",
    ),
    "deepagents": (
        "DeepAgents",
        "LangChain",
        "Planning tool, file system and sub-agents over a LangGraph loop",
        "None",
    ),
}
#: Model id -> (name, version, provider, tokenizer, context window).
MODELS: dict[str, tuple[str, str, str, str, int]] = {
    "gpt-5.5": ("GPT-5.5", "2026-04-23", "OpenAI", "o200k", 400000),
    "sonnet-4.6": ("Sonnet 4.6", "2026-02-17", "Anthropic", "claude", 200000),
    "haiku-4.5": ("Haiku 4.5", "2025-10-15", "Anthropic", "claude", 200000),
}
#: Illustrative list prices, CNY per million input and output tokens.
PRICES = {"gpt-5.5": (18.0, 144.0), "sonnet-4.6": (21.6, 108.0), "haiku-4.5": (7.2, 36.0)}
#: Harness × model cells left unevaluated (10 of the 12 have a bundle).
NOT_EVALUATED = {("claude-code", "gpt-5.5"), ("codex", "haiku-4.5")}
#: The one harness run on the Full set; every other combination covers Lite only.
FULL_SET_HARNESS = "deepagents"
JUDGE = ("Sonnet 4.6", "2026-02-17")
SECOND_JUDGE = ("GPT-5.4", "2026-03-05")

ROLES = {
    "product": ("Product", "Product and project delivery."),
    "engineering": ("Engineering", "Software, data and infrastructure work."),
    "hr": ("HR", "People operations: hiring, onboarding, training."),
    "marketing": ("Marketing", "Campaigns, content and market analysis."),
    "finance-ops": ("Finance / operations", "Budgets, procurement, policy and operations."),
}
DELIVERABLES = {
    "spreadsheet": "Spreadsheet",
    "presentation": "Presentation",
    "html": "HTML page",
    "pdf": "PDF",
    "image": "Image",
    "document": "Document",
    "code": "Code",
}
EXTENSIONS = {
    "spreadsheet": ".xlsx",
    "presentation": ".pptx",
    "html": ".html",
    "pdf": ".pdf",
    "image": ".png",
    "document": ".md or .docx",
    "code": ".py",
}
#: Deliverables a visual judge reads from rendered screenshots; the others are read as text.
VISUAL = ("spreadsheet", "presentation", "html", "pdf", "image")
CHANNELS = {
    "text": (
        "Text",
        "The Judge reads the deliverable's text (documents, code): tasks whose primary "
        "deliverable is text.",
    ),
    "visual": (
        "Visual",
        "A multimodal Judge reads screenshots of the rendered deliverable (pages, slides, "
        "sheets, PDFs, images): tasks whose primary deliverable is visual.",
    ),
}
RULE_CLASSES = {
    "file-type": ("File type", "Each deliverable has the expected file type."),
    "file-count": ("File count", "The expected number of files is delivered."),
    "readable": ("Non-empty and readable", "Every file is non-empty and opens."),
    "placeholders": (
        "No placeholders",
        "No unreplaced template placeholder such as {{YOUR_NAME}} is left.",
    ),
    "renders": ("Renders", "The deliverable renders in a browser or its viewer."),
}
#: Dimension id -> (title, description, weight in J, offset of its level in the latent model).
DIMENSIONS: dict[str, tuple[str, str, float, float]] = {
    "grounded-accuracy": (
        "Grounded Accuracy",
        "Facts and figures agree with the input files; nothing invented or missed.",
        0.30,
        -0.11,
    ),
    "instruction-fit": (
        "Instruction Fit",
        "Does what the request asks, in the form it asks for.",
        0.20,
        0.05,
    ),
    "coverage-depth": (
        "Coverage and Depth",
        "Covers every part of the request with the depth the role needs.",
        0.20,
        -0.03,
    ),
    "practical-utility": (
        "Practical Utility",
        "Could be used as delivered by the person who asked.",
        0.15,
        0.0,
    ),
    "communication": (
        "Communication Quality",
        "Clear structure, wording and layout.",
        0.15,
        0.09,
    ),
}
TASK_SETS = {
    "lite": (
        "Lite",
        "Human-audited tasks covering every role class; the set the main board is read on.",
    ),
    "full": ("Full", "Every task, built and labelled by the automatic pipeline."),
}

#: One task in two lines: id, role class, deliverable types (the first is the primary one,
#: whose channel judges the task), group, the smallest task set it is in (Lite tasks are in
#: Full too); then its title.
TASK_TABLE = """
prd-checkout           product     document                 held-out lite
    Product requirements for a checkout redesign
roadmap-deck           product     presentation             public   lite
    Quarterly roadmap review deck
usage-dashboard        product     html,spreadsheet         held-out lite
    Feature-usage dashboard from event exports
competitor-matrix      product     spreadsheet              held-out full
    Competitor feature matrix
release-notes-page     product     html                     public   lite
    Release-notes web page for version 4.2
interview-synthesis    product     document,presentation    held-out lite
    Synthesis of twelve user interviews
onboarding-mockups     product     image                    held-out full
    Onboarding flow mock-up images
log-parser             engineering code,spreadsheet         held-out lite
    Script that parses gateway logs into an incident table
api-migration-guide    engineering document                 public   lite
    API migration guide for integrators
outage-postmortem      engineering document,pdf             held-out lite
    Post-mortem of a payment outage
status-page            engineering html                     held-out lite
    Service status page from monitoring exports
pipeline-diagram       engineering image                    held-out full
    Architecture diagram of the data pipeline
coverage-report        engineering pdf                      held-out full
    Test-coverage report with a trend chart
crm-cleaning           engineering code                     held-out full
    Data-cleaning script for a CRM export
job-descriptions       hr          document                 held-out lite
    Job descriptions for three open roles
onboarding-handbook    hr          pdf                      held-out lite
    New-hire onboarding handbook
headcount-plan         hr          spreadsheet              public   full
    Headcount plan by team and quarter
compliance-training    hr          presentation             held-out lite
    Compliance training deck
careers-page           hr          html                     held-out lite
    Careers landing page
campaign-brief         marketing   document                 held-out lite
    Campaign brief for a spring launch
membership-badges      marketing   html,image               held-out lite
    Landing page with three-tier membership crown badges
social-kit             marketing   image                    public   full
    Social-media image kit for a product launch
market-sizing          marketing   spreadsheet,presentation held-out lite
    Market-sizing model for a new region
newsletter             marketing   html                     held-out lite
    Customer newsletter in HTML
brand-summary          marketing   pdf                      held-out full
    Brand guideline summary
budget-variance        finance-ops spreadsheet              public   lite
    Budget variance analysis
vendor-deck            finance-ops presentation             held-out lite
    Vendor comparison deck for procurement
expense-policy         finance-ops document                 held-out full
    Travel and expense policy update
kpi-dashboard          finance-ops html,spreadsheet         held-out lite
    Operations KPI dashboard page
invoice-reconciliation finance-ops code,spreadsheet         held-out full
    Invoice reconciliation script and summary
"""


def task_rows() -> list[tuple[str, str, tuple[str, ...], bool, bool, str]]:
    """(id, role, deliverables, public, in Lite, title) of every task, in catalog order."""
    out = []
    lines = TASK_TABLE.strip().splitlines()
    for line, title_line in zip(lines[::2], lines[1::2], strict=True):
        slug, role, kinds, group, smallest = line.split()
        title = title_line.strip()
        out.append(
            (slug, role, tuple(kinds.split(",")), group == "public", smallest == "lite", title)
        )
    return out


#: The skill-transfer experiment: front-end page skills written by a creator model from the
#: source tasks' runs, injected into a consumer, measured on the target tasks.
EXPERIMENT = "skill-transfer"
SOURCES = (
    "usage-dashboard",
    "kpi-dashboard",
    "roadmap-deck",
    "interview-synthesis",
    "outage-postmortem",
    "onboarding-handbook",
    "compliance-training",
    "market-sizing",
    "budget-variance",
    "vendor-deck",
)
TARGETS = ("release-notes-page", "status-page", "careers-page", "membership-badges", "newsletter")
#: Creator model -> (mean change of the consumer's judged quality, its spread over tasks, the
#: factor on the consumer's chance of not delivering: a working page template helps it deliver).
CREATORS = {"gpt-5.5": (0.09, 0.05, 0.3), "haiku-4.5": (-0.10, 0.07, 1.5)}
CONSUMERS = (("deepagents", "haiku-4.5"), ("codex", "gpt-5.5"))

#: Bundles whose run 1 of every Lite task human experts rated again (text and visual items).
HUMAN_RATED = (
    "codex-gpt-5.5",
    "claude-code-sonnet-4.6",
    "hermes-sonnet-4.6",
    "deepagents-haiku-4.5",
)
#: Bundles whose every valid run a second AI judge rated again.
JUDGE_RATED = ("codex-gpt-5.5", "deepagents-sonnet-4.6")

# Centres of the latent model: judged quality of a delivered run (0-1), the chance that a
# run delivers, tokens (thousands in, thousands out) and runtime (s) per run.
QUALITY = {
    ("codex", "gpt-5.5"): 0.61,
    ("codex", "sonnet-4.6"): 0.55,
    ("claude-code", "sonnet-4.6"): 0.59,
    ("claude-code", "haiku-4.5"): 0.565,
    ("hermes", "gpt-5.5"): 0.54,
    ("hermes", "sonnet-4.6"): 0.555,
    ("hermes", "haiku-4.5"): 0.53,
    ("deepagents", "gpt-5.5"): 0.615,
    ("deepagents", "sonnet-4.6"): 0.565,
    ("deepagents", "haiku-4.5"): 0.545,
}
#: Hermes' approval checks interrupt Claude models' command chains: fewer deliveries.
DELIVERS = {"hermes": {"gpt-5.5": 0.9, "sonnet-4.6": 0.72, "haiku-4.5": 0.68}}
DELIVERS_DEFAULT = 0.96
TOKENS = {
    "codex": (260.0, 18.0),
    "claude-code": (320.0, 20.0),
    "hermes": (420.0, 24.0),
    "deepagents": (300.0, 19.0),
}
TOKENS_MODEL = {"gpt-5.5": 1.0, "sonnet-4.6": 1.1, "haiku-4.5": 0.9}
TOKENS_HERMES_CLAUDE = 1.9  # retries around refused approval checks
RUNTIME = {"codex": 540.0, "claude-code": 660.0, "hermes": 1080.0, "deepagents": 780.0}
RUNTIME_MODEL = {"gpt-5.5": 1.0, "sonnet-4.6": 0.9, "haiku-4.5": 0.6}
ROLE_OFFSET = {
    "product": 0.04,
    "engineering": 0.05,
    "hr": 0.04,
    "marketing": -0.09,
    "finance-ops": -0.10,
}
#: GPT-5.5 is the steadiest across role classes: its share of the role offsets.
ROLE_SHARE = {"gpt-5.5": 0.5, "sonnet-4.6": 1.0, "haiku-4.5": 1.2}
#: Chance that a delivered run passes each rule class.
RULE_PASS = {
    "file-type": 0.97,
    "file-count": 0.92,
    "readable": 0.96,
    "placeholders": 0.88,
    "renders": 0.9,
}
#: Chance that a run of a public task is lost to a technical failure (disclosed, not scored).
#: A run lost on a held-out task was run again: a held-out task short of its runs would
#: withhold its combination's figures over the whole held-out group (§4.4).
INCOMPLETE = 0.04


def combinations() -> list[tuple[str, str, str]]:
    """(combination id, harness, model) of every evaluated cell, harness-major."""
    return [(f"{h}-{m}", h, m) for h in HARNESSES for m in MODELS if (h, m) not in NOT_EVALUATED]


def treatments() -> list[tuple[str, str, str, str]]:
    """(combination id, harness, model, creator) of every treatment bundle."""
    return [(f"{h}-{m}-skill-{c}", h, m, c) for h, m in CONSUMERS for c in CREATORS]


def channel_of(deliverables: tuple[str, ...]) -> str:
    """The Judge channel of a task: its primary (first) deliverable's."""
    return "visual" if deliverables[0] in VISUAL else "text"


# ---------------------------------------------------------------------------- release

COMPONENTS = {
    "tasks": "1.0.0",
    "data": "1.0.0",
    "environment": "1.0.0",
    "protocol": "1.0",
    "judge_assets": "1.0.0",
    "scorer": {
        "rule-checker": "1.0.0",
        "renderer": "1.0.0",
        "text-judge": "1.0.0",
        "visual-judge": "1.0.0",
        "aggregator": "1.0.0",
    },
}


def metrics() -> list[dict[str, Any]]:
    return [
        {"id": "task_score", "title": "Composite", "direction": "higher"},
        {"id": "rule_score", "title": "Hard-rule score", "direction": "higher"},
        {"id": "judge_score", "title": "Semantic score", "direction": "higher"},
        {"id": "success_rate", "title": "Success rate", "direction": "higher"},
        {"id": "reliability", "title": "reliability@k", "direction": "higher"},
        {
            "id": "cost_cny",
            "title": "Cost",
            "direction": "lower",
            "unit": "CNY",
            "measured": True,
            "role": "resource",
            "currency": "CNY",
            "range": {"low": 0.0, "high": None},
            "across_models": True,
        },
        {"id": "duration_s", "title": "Runtime", "direction": "lower", "unit": "s"},
        {"id": "total_tokens", "title": "Total tokens", "direction": "lower", "unit": "tokens"},
    ]


def _rows(facet: str, table: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"domain": DOMAIN, "facets": {facet: value}} for value in table]


def views() -> list[dict[str, Any]]:
    return [
        {
            "kind": "grid",
            "id": "composite-grid",
            "title": "Composite, harness × model",
            "domain": DOMAIN,
            "metric": "task_score",
            "rows": "harness",
            "columns": "model",
        },
        {
            "kind": "effect",
            "id": "harness-effect",
            "title": "Harness effect: each model across harnesses",
            "domain": DOMAIN,
            "metric": "task_score",
            "within": "model",
            "across": "harness",
        },
        {
            "kind": "scatter",
            "id": "cost-score",
            "title": "Composite against cost",
            "domain": DOMAIN,
            "x": "cost_cny",
            "y": "task_score",
            "log_x": True,
        },
        {
            "kind": "grid",
            "id": "cost-grid",
            "title": "Cost per run, harness × model",
            "domain": DOMAIN,
            "metric": "cost_cny",
            "rows": "harness",
            "columns": "model",
        },
        {
            "kind": "board",
            "id": "by-role",
            "title": "Composite by role class",
            "per": "model",
            "columns": "harness",
            "rows": _rows("role", ROLES),
        },
        {
            "kind": "board",
            "id": "by-deliverable",
            "title": "Composite by deliverable type",
            "per": "model",
            "columns": "harness",
            "rows": _rows("deliverable", DELIVERABLES),
        },
        {
            "kind": "dimensions",
            "id": "dimensions",
            "title": "The five semantic dimensions",
            "domain": DOMAIN,
        },
        {
            "kind": "resources",
            "id": "resources",
            "title": "Cost, runtime and tokens",
            "domain": DOMAIN,
            "metrics": ["cost_cny", "duration_s", "total_tokens"],
        },
        {
            "kind": "sets",
            "id": "lite-full",
            "title": "Lite against Full",
            "domain": DOMAIN,
            "metric": "task_score",
        },
        {
            "kind": "agreement",
            "id": "rater-agreement",
            "title": "Judge against second raters",
            "domain": DOMAIN,
        },
        {
            "kind": "transfer",
            "id": "skill-transfer",
            "title": "Skill transfer: creator × consumer",
            "experiment": EXPERIMENT,
        },
    ]


def profile() -> dict[str, Any]:
    return {
        "task_fields": ["interaction", "source", "licence"],
        "facets": [
            {
                "id": "role",
                "title": "Role class",
                "description": "The role the task's requester works in (one per task).",
                "values": enum_values(ROLES),
            },
            {
                "id": "deliverable",
                "title": "Deliverable type",
                "description": "The kinds of file a task asks for; a task asking for two counts "
                "in both, so the types overlap and are never summed.",
                "values": enum_values(DELIVERABLES),
                "multi": True,
            },
        ],
        "axes": [{"id": "harness", "title": "Harness"}, {"id": "model", "title": "Model"}],
        "dimensions": [
            {"id": d, "title": title, "description": text}
            for d, (title, text, _, _) in DIMENSIONS.items()
        ],
        "rule_classes": enum_values(RULE_CLASSES),
        "channels": enum_values(CHANNELS),
        "experiments": [experiment()],
        "views": views(),
    }


def experiment() -> dict[str, Any]:
    return {
        "id": EXPERIMENT,
        "title": "Skill transfer",
        "description": "A creator model distils a front-end page skill from the runs, "
        "deliverables and Judge feedback of the source tasks; the skill is injected into a "
        "consumer, whose runs on the target tasks are set against the same consumer's runs "
        "without it. The targets are held apart from the sources for the experiment; that "
        "split is not the public and held-out groups.",
        "domain": DOMAIN,
        "factor": "Skill creator",
        "baseline": "no skill",
        "levels": [{"id": c, "title": f"Skill by {MODELS[c][0]}"} for c in CREATORS],
        "sources": list(SOURCES),
        "targets": list(TARGETS),
    }


def release_manifest(tasks: list[dict[str, Any]]) -> dict[str, Any]:
    public = sum(t["group"] == "public" for t in tasks)
    return {
        "format_version": 1,
        "benchmark": {"name": "EnterpriseClawBench", "code": "enterpriseclawbench"},
        "version": VERSION,
        "title": "EnterpriseClawBench-shaped example 1.0 — illustrative",
        "freeze_date": dt.date(2026, 11, 16),
        "illustrative": True,
        "notice": (
            "**Illustrative example release.** It shows how a benchmark shaped like "
            "EnterpriseClawBench declares its Judge channels, money, task sets, multi-valued "
            "facets, an experiment and second raters; it is not a result of "
            "EnterpriseClawBench. Every task, run, verdict and price is synthetic, drawn from "
            "seeded generators. Do not cite these numbers. 'The report' on these pages is "
            "Zhong et al., *EnterpriseClawBench: Benchmarking Agents from Real Workplace "
            "Sessions*."
        ),
        "components": COMPONENTS,
        "domains": [
            {
                "id": DOMAIN,
                "title": "Workplace deliverables",
                "description": "Requests from workplace sessions, each asking for one or two "
                "business files. A run's composite is the weighted mean of its hard-rule "
                "score and its five weighted semantic dimensions, judged on the text or the "
                "visual channel.",
                "facets": ["role", "deliverable"],
                "task_sets": [
                    {"id": s, "title": title, "description": text}
                    for s, (title, text) in TASK_SETS.items()
                ],
            }
        ],
        "enumerations": {
            "failure_types": enum_values(
                {
                    "approval-blocked": "Stopped at an approval check before delivering",
                    "no-deliverable": "No deliverable file written",
                    "hard-rule-failed": "A hard-rule check failed",
                    "below-pass-level": "A semantic dimension below its pass level",
                }
            ),
            "incomplete_causes": enum_values(
                {
                    "provider-error": "Model provider error",
                    "timeout": "Run timed out",
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
                "factor": "Workspace",
                "status": "controlled",
                "setting": "one Linux workspace image with the task's input files",
                "covers": ["environment"],
            },
            {
                "factor": "Scoring pipeline",
                "status": "controlled",
                "setting": "one rule checker, renderer, Judge runner and aggregator",
                "covers": ["pipeline"],
            },
            {
                "factor": "Judge",
                "status": "controlled",
                "setting": f"{JUDGE[0]} on both channels, text and visual, for every combination",
                "covers": ["evaluator"],
            },
            {
                "factor": "Run budgets",
                "status": "controlled",
                "setting": "the same time, step and token limits for every combination",
                "covers": ["budgets"],
            },
            {
                "factor": "Harness × model",
                "status": "variable",
                "setting": "the independent variables, laid out on the harness and model axes",
            },
        ],
        "runs_per_task": RUNS_PER_TASK,
        "reliability_k": list(range(1, RUNS_PER_TASK + 1)),
        "groups": {
            "public": public,
            "held_out": len(tasks) - public,
            "min_held_out_aggregate": MIN_HELD_OUT,
        },
        "disclosure_floor": ["governance.human_approval_points", "scheduling.agent_loop"],
        "boundaries_of_use": (
            "- **Illustrative.** Synthetic data in EnterpriseClawBench's shape; not its "
            "results.\n"
            "- **Lite and Full are compared, never pooled.** Only DeepAgents ran the Full "
            "set; every other combination is read on Lite.\n"
            "- **One composite, always beside its channels.** The text and visual Judges "
            "agree with human experts very differently; read the composite with each "
            "channel's score and coverage.\n"
            "- **Money across models, tokens within a tokenizer.** Costs are in CNY at each "
            "bundle's disclosed prices.\n"
            "- **Skill transfer is an experiment.** Its treatment bundles appear only in its "
            "own view, set against the same consumer without a skill.\n"
        ),
        "profile": profile(),
    }


# ---------------------------------------------------------------------------- catalog


def _rule_items(deliverables: tuple[str, ...]) -> list[dict[str, Any]]:
    types = " and ".join(EXTENSIONS[d] for d in deliverables)
    files = "one file" if len(deliverables) == 1 else f"{len(deliverables)} files"
    titles = {
        "file-type": f"Deliverables are {types}",
        "file-count": f"Exactly {files} in the output folder",
        "readable": "Every file is non-empty and opens",
        "placeholders": "No template placeholder such as {{YOUR_NAME}} left",
        "renders": "Renders in a browser or its viewer without errors",
    }
    return [{"id": f"R-{rc}", "title": titles[rc], "rule_class": rc} for rc in RULE_CLASSES]


def _judge_items(channel: str) -> list[dict[str, Any]]:
    return [
        {
            "id": f"J-{d}",
            "title": f"{title}: {text[0].lower()}{text[1:]}",
            "max_level": MAX_LEVEL,
            "pass_level": PASS_LEVEL,
            "dimension": d,
            "weight": weight,
            "channel": channel,
        }
        for d, (title, text, weight, _) in DIMENSIONS.items()
    ]


def catalog() -> dict[str, Any]:
    tasks = []
    for slug, role, deliverables, public, lite, title in task_rows():
        channel = channel_of(deliverables)
        kinds = " and ".join(DELIVERABLES[d].lower() for d in deliverables)
        tasks.append(
            {
                "id": slug,
                "title": title,
                "domain": DOMAIN,
                "family": f"fam-{slug}",
                "interaction": "single-turn",
                "group": "public" if public else "held-out",
                "scoring": {
                    "mode": "dual-channel",
                    "rule_weight": RULE_WEIGHT,
                    "core_delivery": "At least one deliverable file is written to the output "
                    "folder",
                    "rule_items": _rule_items(deliverables),
                    "judge_items": _judge_items(channel),
                },
                "source": "Synthetic request in the style of a rewritten workplace session "
                "(illustrative)",
                "licence": "CC BY 4.0 (example)",
                "card": {
                    "description": f"{title}: deliver a {kinds} from the input files in the "
                    f"workspace; judged on the {channel} channel.",
                },
                "facets": {
                    "role": role,
                    "deliverable": list(deliverables) if len(deliverables) > 1 else deliverables[0],
                },
                "sets": ["lite", "full"] if lite else ["full"],
            }
        )
    families = [{"id": t["family"], "title": t["title"], "domain": DOMAIN} for t in tasks]
    return {"format_version": 1, "release": VERSION, "families": families, "tasks": tasks}


# ---------------------------------------------------------------------------- runs


def _draw(key: str) -> random.Random:
    return random.Random(f"{SEED}:{key}")


def _task_offset(slug: str) -> float:
    """A task's own difficulty, the same for every combination."""
    return _draw(f"task:{slug}").gauss(0.0, 0.05)


def _clip(x: float, low: float = 0.0, high: float = 1.0) -> float:
    return min(high, max(low, x))


def _level(x: float) -> int:
    return round(_clip(x) * MAX_LEVEL)


def _usage(rng: random.Random, harness: str, model: str) -> dict[str, Any]:
    """Tokens, runtime and cost of one run."""
    tin, tout = TOKENS[harness]
    factor = TOKENS_MODEL[model] * rng.lognormvariate(0.0, 0.35)
    if harness == "hermes" and model != "gpt-5.5":
        factor *= TOKENS_HERMES_CLAUDE
    inp, out = round(tin * 1000 * factor), round(tout * 1000 * factor * rng.uniform(0.8, 1.25))
    price_in, price_out = PRICES[model]
    cost = (inp * price_in + out * price_out) / 1e6
    duration = RUNTIME[harness] * RUNTIME_MODEL[model] * rng.lognormvariate(0.0, 0.3)
    return {
        "input_tokens": inp,
        "output_tokens": out,
        "duration_s": round(duration, 1),
        "measures": [{"id": "cost_cny", "value": round(cost, 2)}],
    }


def _quality(harness: str, model: str, task: dict[str, Any]) -> float:
    role = task["facets"]["role"]
    return (
        QUALITY[(harness, model)]
        + ROLE_SHARE[model] * ROLE_OFFSET[role]
        + _task_offset(str(task["id"]))
    )


def _missed(key: str, slots: list[tuple[str, int]], rate: float) -> set[tuple[str, int]]:
    """The (task, run) slots that deliver nothing: that share of them, drawn without
    replacement, so that a combination's delivery rate is its design's."""
    return set(_draw(f"missed:{key}").sample(slots, round(len(slots) * min(1.0, rate))))


def _run(
    rng: random.Random,
    harness: str,
    model: str,
    task: dict[str, Any],
    delivered: bool,
    shift: float = 0.0,
    lost: bool = True,
) -> dict[str, Any]:
    """The body of one run: status, delivery, rule and Judge verdicts, usage; ``shift`` moves
    its judged quality (a skill's effect); ``lost``: whether the run may be lost to a
    technical failure."""
    usage = _usage(rng, harness, model)
    rule_ids = [i["id"] for i in task["scoring"]["rule_items"]]
    if lost and task["group"] == "public" and rng.random() < INCOMPLETE:
        cause = rng.choice(["provider-error", "timeout"])
        return {
            "status": "incomplete",
            "cause": cause,
            "retries": 2,
            "delivery": False,
            "rules": [],
            "judge": [],
            "judge_valid": False,
            **usage,
            "note": "The model provider returned errors after 2 retries."
            if cause == "provider-error"
            else "No deliverable within the time limit after 2 retries.",
        }
    if not delivered:
        blocked = harness == "hermes"
        return {
            "status": "valid",
            "delivery": False,
            "rules": [{"id": r, "pass": False} for r in rule_ids],
            "judge": [],
            "judge_valid": False,
            **usage,
            "failure_type": "approval-blocked" if blocked else "no-deliverable",
        }
    rules = [
        {"id": f"R-{rc}", "pass": rng.random() < p - (0.06 if model == "haiku-4.5" else 0.0)}
        for rc, p in RULE_PASS.items()
    ]
    quality = _quality(harness, model, task) + shift + rng.gauss(0.0, 0.05)
    judge = []
    for d, (title, _, _, offset) in DIMENSIONS.items():
        level = _level(quality + offset + rng.gauss(0.0, 0.07))
        judge.append({"id": f"J-{d}", "level": level, "rationale": _rationale(level, title)})
    record: dict[str, Any] = {
        "status": "valid",
        "delivery": True,
        "rules": rules,
        "judge": judge,
        "judge_valid": True,
        **usage,
    }
    if not all(r["pass"] for r in rules):
        record["failure_type"] = "hard-rule-failed"
    elif any(j["level"] < PASS_LEVEL for j in judge):
        record["failure_type"] = "below-pass-level"
    return record


def _rationale(level: int, what: str) -> str:
    if level >= 8:
        return f"{what}: strong throughout the deliverable."
    if level >= PASS_LEVEL:
        return f"{what}: sound, with minor gaps."
    if level >= 4:
        return f"{what}: partly met; key parts missing or wrong."
    return f"{what}: not met."


def covered(harness: str, task: dict[str, Any]) -> bool:
    """Whether a baseline combination of this harness runs the task (Full or Lite only)."""
    return harness == FULL_SET_HARNESS or "lite" in task["sets"]


def _slots(tasks: list[dict[str, Any]]) -> list[tuple[str, int]]:
    return [(str(t["id"]), run) for t in tasks for run in range(1, RUNS_PER_TASK + 1)]


def _misses(harness: str, model: str) -> float:
    """The share of a combination's runs that deliver nothing."""
    return 1.0 - DELIVERS.get(harness, {}).get(model, DELIVERS_DEFAULT)


def runs(combo: str, harness: str, model: str, tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rng = _draw(f"runs:{combo}")
    mine = [t for t in tasks if covered(harness, t)]
    missed = _missed(combo, _slots(mine), _misses(harness, model))
    out = []
    for task in mine:
        for run in range(1, RUNS_PER_TASK + 1):
            head = {"task": task["id"], "run": run, "seed": rng.randrange(2**31)}
            delivered = (task["id"], run) not in missed
            out.append({**head, **_run(rng, harness, model, task, delivered)})
    return out


def skill_effect(creator: str, harness: str, model: str, slug: str) -> float:
    """How a creator's skill moves a consumer's judged quality on one target task."""
    mean, spread, _ = CREATORS[creator]
    return _draw(f"skill:{creator}:{harness}-{model}:{slug}").gauss(mean, spread)


def treatment_runs(
    combo: str, harness: str, model: str, creator: str, tasks: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Runs of a consumer with a creator's skill injected, on the target tasks only."""
    rng = _draw(f"runs:{combo}")
    mine = [t for t in tasks if t["id"] in TARGETS]
    factor = CREATORS[creator][2]
    missed = _missed(combo, _slots(mine), _misses(harness, model) * factor)
    out = []
    for task in mine:
        shift = skill_effect(creator, harness, model, str(task["id"]))
        for run in range(1, RUNS_PER_TASK + 1):
            head = {"task": task["id"], "run": run, "seed": rng.randrange(2**31)}
            delivered = (task["id"], run) not in missed
            body = _run(rng, harness, model, task, delivered, shift, lost=False)
            out.append({**head, **body})
    return out


# ---------------------------------------------------------------------------- second raters


def _judged(record: dict[str, Any]) -> bool:
    return record["status"] == "valid" and bool(record["judge_valid"])


def _weighted(levels: dict[str, float]) -> float:
    return sum(DIMENSIONS[i[2:]][2] * v for i, v in levels.items()) / MAX_LEVEL


def human_verdicts(
    combo: str, records: list[dict[str, Any]], tasks: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Human experts' levels for run 1 of every Lite task the Judge scored: close to the Judge
    on the text channel; on the visual channel higher, and ordered against it."""
    rng = _draw(f"humans:{combo}")
    out = []
    for r in records:
        task = tasks[r["task"]]
        if r["run"] != 1 or "lite" not in task["sets"] or not _judged(r):
            continue
        levels = {j["id"]: j["level"] for j in r["judge"]}
        visual = task["scoring"]["judge_items"][0]["channel"] == "visual"
        mean, noise = _weighted(levels), rng.gauss(0.0, 0.08 if visual else 0.065)
        verdicts = []
        for item, level in levels.items():
            if visual:
                x = 0.88 - 0.3 * (mean - 0.55) + 0.3 * (level / MAX_LEVEL - mean)
            else:
                x = level / MAX_LEVEL + 0.11
            verdicts.append({"id": item, "level": _level(x + noise + rng.gauss(0.0, 0.07))})
        out.append({"task": r["task"], "run": r["run"], "judge": verdicts})
    return out


def judge_verdicts(combo: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A second AI judge's levels for every valid run the Judge scored: close to it."""
    rng = _draw(f"second-judge:{combo}")
    out = []
    for r in records:
        if not _judged(r):
            continue
        verdicts = [
            {"id": j["id"], "level": _level(j["level"] / MAX_LEVEL + rng.gauss(-0.02, 0.07))}
            for j in r["judge"]
        ]
        out.append({"task": r["task"], "run": r["run"], "judge": verdicts})
    return out


# ---------------------------------------------------------------------------- bundles


def _evaluator(judge: tuple[str, str], voting: str) -> dict[str, str]:
    return {
        "judge_model": judge[0],
        "judge_model_version": judge[1],
        "prompt_version": "1.0.0",
        "voting": voting,
    }


def bundle(combo: str, harness: str, model: str, records: list[dict[str, Any]]) -> dict[str, Any]:
    name, version, provider, tokenizer, window = MODELS[model]
    hname = HARNESSES[harness][0]
    valid: dict[str, int] = {}
    for r in records:
        valid[r["task"]] = valid.get(r["task"], 0) + (r["status"] == "valid")
    complete = all(n == RUNS_PER_TASK for n in valid.values())
    start = dt.date(2026, 11, 2) + dt.timedelta(days=list(HARNESSES).index(harness) * 2)
    out: dict[str, Any] = {
        "format_version": 1,
        "release": VERSION,
        "combination": {
            "id": combo,
            "title": f"{hname} × {name}",
            "harnesscard": card_id(harness),
            "model": {
                "name": name,
                "version": version,
                "provider": provider,
                "tokenizer": tokenizer,
            },
            "agent_version": "1.0.0",
            "axes": {"harness": hname, "model": name},
        },
        "configuration": {
            "temperature": 1.0,
            "top_p": 1.0,
            "max_output_tokens": 32000,
            "context_window": window,
            "compression_threshold": None,
            "reasoning_mode": "the harness's default reasoning setting",
            "runs_per_task": RUNS_PER_TASK,
            "pipeline_components": COMPONENTS,
        },
        "budgets": {
            "timeout_s": 3600,
            "max_steps": 200,
            "max_tokens": 4000000,
            "max_retries": 2,
            "retry_policy": "Retry provider errors and timeouts up to twice; a run that "
            "delivered is never retried.",
        },
        "clarification": {
            "simulated_user_script_version": "1.0.0",
            "waiting_cap_s": 60,
            "rules": "None: each task is one rewritten request with its input files; a "
            "question back is left unanswered.",
        },
        "environment_snapshot": "ecb-workspace-1.0.0",
        "evaluator": _evaluator(JUDGE, "single judge per channel, temperature 0"),
        "run_dates": {"start": start, "end": start + dt.timedelta(days=3)},
        "consent": {
            "granted": True,
            "by": "Example submitter (illustrative)",
            "date": dt.date(2026, 11, 12),
        },
        "evaluation": "complete" if complete else "incomplete",
    }
    if harness != FULL_SET_HARNESS:
        out["not_covered"] = [
            {
                "domain": DOMAIN,
                "reason": f"Only {HARNESSES[FULL_SET_HARNESS][0]} was run on the Full set; "
                f"{hname} × {name} was evaluated on Lite.",
                "task_set": "full",
            }
        ]
    out["runs"] = "runs.jsonl"
    out["pricing"] = {
        "currency": "CNY",
        "source": f"{provider}'s list prices for {name}, converted at the day's reference rate "
        "(illustrative)",
        "date": dt.date(2026, 11, 1),
    }
    out["channels"] = {c: _evaluator(JUDGE, f"single {c} judge, temperature 0") for c in CHANNELS}
    raters = []
    if combo in HUMAN_RATED:
        raters.append(
            {
                "id": "human-experts",
                "title": "Human experts",
                "kind": "human",
                "verdicts": "human-experts.jsonl",
            }
        )
    if combo in JUDGE_RATED:
        raters.append(
            {
                "id": "second-judge",
                "title": f"{SECOND_JUDGE[0]} judge",
                "kind": "judge",
                "verdicts": "second-judge.jsonl",
            }
        )
    if raters:
        out["raters"] = raters
    return out


def treatment_bundle(combo: str, creator: str, baseline: dict[str, Any]) -> dict[str, Any]:
    """The consumer's baseline bundle with the skill's condition: the same configuration."""
    combination = dict(baseline["combination"])
    combination["id"] = combo
    combination["title"] = f"{combination['title']}, skill by {MODELS[creator][0]}"
    out = {k: v for k, v in baseline.items() if k not in ("not_covered", "raters")}
    out["combination"] = combination
    out["evaluation"] = "complete"
    start = baseline["run_dates"]["end"] + dt.timedelta(days=2)
    out["run_dates"] = {"start": start, "end": start + dt.timedelta(days=1)}
    out["notes"] = (
        f"Treatment bundle of the skill-transfer experiment: a front-end page skill written "
        f"by {MODELS[creator][0]} from the source tasks is injected into the consumer, which "
        "runs the target tasks only."
    )
    out["condition"] = {"experiment": EXPERIMENT, "level": creator}
    return out


# ---------------------------------------------------------------------------- HarnessCards


def card_id(harness: str) -> str:
    return f"ecb-{harness}-1.0"


def harnesscard(harness: str) -> dict[str, Any]:
    name, vendor, loop, approvals = HARNESSES[harness]
    v = disclosed
    return {
        "format_version": 1,
        "id": card_id(harness),
        "harness": {"name": name, "version": "1.0.0", "vendor": f"{vendor} (illustrative card)"},
        "card_date": dt.date(2026, 10, 26),
        "layers": {
            "execution": {
                "runtime_substrate": v("Linux container per run with the task's input files"),
                "sandboxing": v("Container isolation"),
                "filesystem_access": v("Read the inputs, write the output folder"),
                "network_access": v("Model provider API and the task's reachable URLs"),
                "task_timeout": v("3,600 s per run"),
                "step_timeout": v("300 s per command"),
                "max_steps": v(200),
                "evaluation_entry_point": v("Deliverables in the output folder when the run ends"),
            },
            "tool": {
                "tool_list": v(["shell", "file read and write", "web fetch"]),
                "schema_style": v("The harness's native tool schema"),
                "tool_selection_policy": v("Model's choice"),
                "error_format": v("Tool error text returned to the model"),
                "retryable_error_classes": v(["provider error", "timeout"]),
                "tool_visibility": v("All tools visible to the model"),
            },
            "context": {
                "context_cap": v("The model's context window"),
                "ordering_policy": v("System prompt, request, then the tool history"),
                "summarization_policy": v("The harness's own compaction near the cap"),
                "retrieval_method": v("File reads by the model"),
                "persistent_memory": v("None"),
                "cache_policy": v("Provider prompt caching where offered"),
            },
            "scheduling": {
                "agent_loop": v(loop),
                "stopping_rule": v("The model ends its turn, or the budget runs out"),
                "retry_policy": v("Provider errors and timeouts retried up to twice"),
                "escalation_behaviour": v("None"),
                "delegation_policy": v(
                    "Sub-agents allowed" if harness in ("claude-code", "deepagents") else "None"
                ),
                "rollback_behaviour": v("None"),
            },
            "observability": {
                "logged_artifacts": v(["prompts", "responses", "tool calls", "deliverables"]),
                "trajectory_format": v("JSON Lines per run"),
                "checkpoints": v("None"),
                "traces": v("Every model call with its token counts"),
                "validation_logs": v("Rule checker and renderer logs kept with the run"),
                "auditable_after_run": v(True),
            },
            "verification": {
                "output_parser": v("None: deliverables are files"),
                "schema_validation": v("Tool arguments checked by the harness"),
                "self_checking": v("As the model chooses"),
                "test_execution": v("As the model chooses"),
                "anomaly_detection": v("None"),
                "final_output_validation": v("Scorer-side only"),
            },
            "governance": {
                "permission_model": v("Workspace sandbox"),
                "allow_deny_rules": v("No network beyond the provider and the task's URLs"),
                "side_effect_boundaries": v("The container only"),
                "secret_handling": v("Provider key held by the runner, never shown to the model"),
                "human_approval_points": v(approvals),
            },
        },
        "notes": "Illustrative HarnessCard for the EnterpriseClawBench-shaped example.",
    }


# ---------------------------------------------------------------------------- writing

HEADER = header("make_enterpriseclawbench.py")


def all_files() -> dict[str, str]:
    """Path relative to the example root → text, for every file of the root."""
    cat = catalog()
    tasks = {t["id"]: t for t in cat["tasks"]}
    base = f"results/{VERSION}"
    out = {
        f"{base}/release.yaml": yaml_text(release_manifest(cat["tasks"]), HEADER),
        f"{base}/tasks.yaml": yaml_text(cat, HEADER),
    }
    baselines: dict[tuple[str, str], dict[str, Any]] = {}
    for combo, harness, model in combinations():
        records = runs(combo, harness, model, cat["tasks"])
        folder = f"{base}/bundles/{combo}"
        baselines[(harness, model)] = bundle(combo, harness, model, records)
        out[f"{folder}/bundle.yaml"] = yaml_text(baselines[(harness, model)], HEADER)
        out[f"{folder}/runs.jsonl"] = jsonl(records)
        if combo in HUMAN_RATED:
            out[f"{folder}/human-experts.jsonl"] = jsonl(human_verdicts(combo, records, tasks))
        if combo in JUDGE_RATED:
            out[f"{folder}/second-judge.jsonl"] = jsonl(judge_verdicts(combo, records))
    for combo, harness, model, creator in treatments():
        records = treatment_runs(combo, harness, model, creator, cat["tasks"])
        folder = f"{base}/bundles/{combo}"
        data = treatment_bundle(combo, creator, baselines[(harness, model)])
        out[f"{folder}/bundle.yaml"] = yaml_text(data, HEADER)
        out[f"{folder}/runs.jsonl"] = jsonl(records)
    for harness in HARNESSES:
        out[f"harnesscards/{card_id(harness)}.yaml"] = yaml_text(harnesscard(harness), HEADER)
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
