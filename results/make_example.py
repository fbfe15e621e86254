#!/usr/bin/env python3
"""Write the example release into results/v1.0 and results/v1.1.

The example is illustrative. Only the six deep-dive tasks of v1.0 follow the whitepaper:
their item-level runs are set so that the scoring engine reproduces the per-task figures of
§5.2 (e.g. finance-fa-20: OpenCode rule 0 and Judge 1.0 at w = 0.3). Every other task, run
and number is synthetic, drawn from seeded generators, and says so in each release's
notice. HarnessCards (harnesscards/) and deep-dive narratives (results/*/deepdives/) are
written by hand.

Usage: python results/make_example.py [--out DIR]   (deterministic: same bytes every time)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent


# ---------------------------------------------------------------------------- release


def release_manifest(version: str) -> dict[str, Any]:
    v11 = version == "v1.1"
    return {
        "format_version": 1,
        "benchmark": {"name": "Lingee Bench", "code": "lg-bench"},
        "version": version,
        "title": f"Lingee Bench {version[1:]} — illustrative example release",
        "freeze_date": dt.date(2026, 11, 16) if v11 else dt.date(2026, 10, 12),
        "illustrative": True,
        "notice": (
            "**Illustrative example release.** It shows the input format and the site, and "
            "is not a benchmark result: tasks, runs and scores are synthetic. "
            + (
                "The six deep-dive tasks are set so that their task scores match the per-task "
                "figures reported in whitepaper §5.2; everything else is generated. "
                if not v11
                else "Every task, run and score in this version is generated. "
            )
            + "Do not cite these numbers."
        ),
        "components": {
            "tasks": "1.1.0" if v11 else "1.0.0",
            "data": "1.1.0" if v11 else "1.0.0",
            "environment": "2026.11.1" if v11 else "2026.10.2",
            "protocol": "1.0",
            "judge_assets": "1.1.0" if v11 else "1.0.1",
            "scorer": {
                "parser": "1.2.0" if v11 else "1.1.0",
                "rule-engine": "1.0.3",
                "judge-runner": "1.1.0" if v11 else "1.0.0",
                "aggregator": "1.0.0",
            },
        },
        "domains": [
            {
                "id": "general",
                "title": "General domain",
                "subdivision_label": "category",
                "description": "Foundational capability on verifiable professional work "
                "packages (§2.4).",
                "subdivisions": [
                    {"id": sid, "title": title} for sid, title in GENERAL_CATEGORIES
                ],
            },
            {
                "id": "enterprise",
                "title": "Enterprise management domain",
                "subdivision_label": "dimension",
                "business_views": True,
                "description": "End-to-end business task chains in a simulated ERP system "
                "(§2.5).",
                "subdivisions": [
                    {"id": "finance", "title": "Finance"},
                    {"id": "supply-chain", "title": "Supply chain"},
                    {"id": "manufacturing", "title": "Manufacturing"},
                ],
            },
        ],
        "enumerations": ENUMERATIONS,
        "metrics": METRICS,
        "controlled_factors": [
            {"factor": "Task set", "status": "controlled",
             "setting": f"tasks {('1.1.0' if v11 else '1.0.0')}, frozen before evaluation"},
            {"factor": "Initial environment state", "status": "controlled",
             "setting": "one Docker snapshot per task, restored before every run",
             "covers": ["environment"]},
            {"factor": "Resource and timeout budgets", "status": "controlled",
             "setting": "per-task budgets of the task catalog, the same for every combination",
             "covers": ["budgets"]},
            {"factor": "Evaluator", "status": "controlled",
             "setting": "one Judge model, prompt and scorer version for all combinations",
             "covers": ["evaluator", "pipeline"]},
            {"factor": "Agent combination (harness × model)", "status": "variable",
             "setting": "the only independent variable (§4.1)"},
        ],
        "runs_per_task": 3,
        "reliability_k": [1, 2, 3],
        "groups": {"public": 22 if v11 else 20, "held_out": 12 if v11 else 14},
        "disclosure_floor": ["execution.sandboxing", "execution.network_access",
                             "governance.permission_model",
                             "verification.final_output_validation"],
        "deep_dives": list(DEEP_DIVES),
        "boundaries_of_use": BOUNDARIES,
    }


GENERAL_CATEGORIES = [
    ("data-analysis", "Data Analysis"),
    ("document-review", "Document Review & Validation"),
    ("data-filtering", "Data Filtering & Processing"),
    ("fault-diagnosis", "Fault Diagnosis"),
    ("knowledge-retrieval", "Knowledge Base Retrieval"),
    ("schedule-management", "Schedule Management"),
    ("report-qa", "Report Reading QA"),
    ("compliance-verification", "Compliance & Policy Verification"),
    ("content-generation", "Content Generation"),
    ("image-processing", "Image Processing"),
]


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
        ("order-to-delivery", "Sales order → goods issue → invoicing"),
        ("plan-to-production", "Production plan → work order release → completion"),
    ),
}

METRICS = [
    {"id": "task_score", "title": "Task Score", "direction": "higher"},
    {"id": "rule_score", "title": "Rule score", "direction": "higher"},
    {"id": "judge_score", "title": "Judge score", "direction": "higher"},
    {"id": "success_rate", "title": "Success rate", "direction": "higher"},
    {"id": "reliability", "title": "reliability@k", "direction": "higher"},
    {"id": "input_tokens", "title": "Input tokens (cache-inclusive)", "direction": "lower",
     "unit": "tokens"},
    {"id": "output_tokens", "title": "Output tokens", "direction": "lower", "unit": "tokens"},
    {"id": "total_tokens", "title": "Total tokens", "direction": "lower", "unit": "tokens"},
    {"id": "duration_s", "title": "Duration", "direction": "lower", "unit": "s"},
    {"id": "turns", "title": "Turns", "direction": "lower"},
    {"id": "risk_weighted_score", "title": "Risk-weighted score", "direction": "higher"},
    {"id": "key_process_success", "title": "Key-process end-to-end success",
     "direction": "higher"},
    {"id": "fatal_error_rate", "title": "Fatal-error rate", "direction": "lower"},
    {"id": "boundary_correctness", "title": "Functional-boundary correctness",
     "direction": "higher"},
]

BOUNDARIES = """\
- **Bound to the combination and the version.** A score belongs to one evaluated combination
  (harness × model × environment × evaluator) on this version's evaluation assets. Scores under
  other task versions or configurations are not directly comparable (§1.4, §5.3).
- **No cross-domain total.** The general and enterprise domains have different scorers; their
  scores are never summed or averaged (§4.2, §5.3).
- **Cases are not a sample.** The six deep dives illustrate how results are read; they are not
  used to infer overall performance or rank (§5.2, §5.3).
- **Noise is not a difference.** Gaps inside the noise band of repeated runs are not evidence of
  a real difference. A rank is the range of ranks the significant paired differences allow;
  two combinations whose difference is not significant have overlapping ranges (§5.3).
- **Offline sandbox.** Results measure task and process capability in an offline ERP sandbox; they
  do not speak for online production, business coverage or cost savings (§3.2, §6).
"""

DEEP_DIVES = (
    "IMG-multi-invoice-batch-recognition-L2",
    "DA-cost-overrun-attribution-drilldown-L3",
    "KBR-refund-reversal-chain-tracing-L4",
    "finance-fa-20",
    "supply-chain-tc-059",
    "manufacturing-qc-029",
)


# ---------------------------------------------------------------------------- tasks

ITEM_TITLES = {
    "analysis": ["Result table follows the contract", "Key metric values", "Derived ratios",
                 "Period and scope stated", "Cross-artifact consistency", "Safety compliance"],
    "query": ["Answer in the prescribed carrier", "Record set complete", "Values match the source",
              "Units and precision", "Safety compliance"],
    "operation": ["Target document state", "Field values", "Linked documents updated",
                  "Audit trail present", "No side effects outside scope", "Safety compliance"],
    "document-processing": ["Artifact contract", "Extracted fields", "Cross-footing",
                            "Format norms", "Source mapping", "Safety compliance"],
}
JUDGE_TITLES = ["Conclusions supported by source data", "Recommendations respect the constraints",
                "Unresolved issues stated", "Facts kept apart from assumptions"]
FATAL_TITLES = {
    "finance": "No unbalanced voucher saved as valid",
    "supply-chain": "Inventory change matches the source document",
    "manufacturing": "No unauthorised change to production data",
    "general": "Key amounts correct",
}


def rules(titles: list[str], module: str | None = None, start: int = 1) -> list[dict[str, Any]]:
    out = []
    for n, title in enumerate(titles, start=start):
        item: dict[str, Any] = {"id": f"R{n:02d}", "title": title}
        if module:
            item["module"] = module
        out.append(item)
    return out


def fatal(titles: list[str]) -> list[dict[str, Any]]:
    return [{"id": f"F{n:02d}", "title": t, "fatal": True} for n, t in enumerate(titles, 1)]


def judges(titles: list[str], max_level: int, **extra: Any) -> list[dict[str, Any]]:
    return [{"id": f"J{n:02d}", "title": t, "max_level": max_level, **extra}
            for n, t in enumerate(titles, 1)]


def generic_task(
    tid: str, title: str, domain: str, sub: str, family: str, scenario: str, op: str, diff: str,
    group: str, *, risk: str = "medium", mode: str = "rule-only", w: float | None = None,
    n_rules: int = 5, n_fatal: int = 0, n_judge: int = 0, g: int = 4, multi: int = 0,
    chain: str | None = None, boundary: bool = False, exception: str | None = None,
    all_or_nothing: bool = False, variant: str | None = None, role: str = "analyst",
    stage: str = "execution", industry: str = "cross-industry",
) -> dict[str, Any]:
    titles = (ITEM_TITLES[op] * 2)[:n_rules]
    modules = [{"id": f"turn-{n}", "title": f"Turn {n}"} for n in range(1, multi + 1)]
    rule_items = []
    for n, t in enumerate(titles, 1):
        item: dict[str, Any] = {"id": f"R{n:02d}", "title": t}
        if multi:
            item["module"] = f"turn-{(n - 1) % multi + 1}"
        rule_items.append(item)
    if boundary:
        rule_items = rules(["Unsupported request refused or redirected", "Guidance offered",
                            "No data modified", "Refusal names the reason"])
    rule_items += fatal([FATAL_TITLES[domain if domain == "general" else sub]] * n_fatal)
    scoring: dict[str, Any] = {"mode": mode}
    if w is not None:
        scoring["rule_weight"] = w
    if all_or_nothing:
        scoring["rule_scoring"] = "all-or-nothing"
    scoring["core_delivery"] = (
        "A refusal or redirection is given in the final reply" if boundary
        else "Core artifacts exist at the declared path and parse"
    )
    if modules:
        scoring["modules"] = modules
    scoring["rule_items"] = rule_items
    if n_judge:
        scoring["judge_items"] = judges(JUDGE_TITLES[:n_judge], g)
    return task_entry(
        tid, title, domain, sub, family, scenario, op, diff, group, risk=risk, scoring=scoring,
        multi=bool(multi), chain=chain, boundary=boundary, exception=exception, variant=variant,
        role=role, stage=stage, industry=industry,
        description=f"{title}. (Illustrative task: statement not reproduced in the example.)",
    )


def task_entry(
    tid: str, title: str, domain: str, sub: str, family: str, scenario: str, op: str, diff: str,
    group: str, *, risk: str, scoring: dict[str, Any], multi: bool = False,
    chain: str | None = None, boundary: bool = False, exception: str | None = None,
    variant: str | None = None, role: str = "analyst", stage: str = "execution",
    industry: str = "cross-industry", description: str, timeout: int = 1200, card: Any = None,
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": tid, "title": title, "domain": domain, "subdivision": sub, "family": family,
    }
    if variant:
        entry["variant"] = variant
    entry.update({
        "scenario_category": scenario, "operation_type": op, "difficulty": diff,
        "interaction": "multi-turn" if multi else "single-turn", "group": group,
        "industry": industry, "company_size": "medium enterprise", "role": role,
        "process_stage": stage, "risk_level": risk,
    })
    if chain:
        entry["key_process_chain"] = chain
    if boundary:
        entry["functional_boundary"] = True
    if exception:
        entry["exception_class"] = exception
    entry["scoring"] = scoring
    entry["budgets"] = {"timeout_s": timeout, "max_steps": 150, "max_tokens": 2_000_000}
    entry["multi_solution"] = "Any reasonable answer that meets the artifact contract is accepted."
    entry["known_limitations"] = "None recorded." if group == "public" else "Held-out task."
    entry["source"] = "Synthesized from public materials (whitepaper §3.1); example data."
    entry["licence"] = "CC BY 4.0 (example)"
    entry["card"] = card or {"description": description}
    return entry


def deep_dive_tasks() -> list[dict[str, Any]]:
    img_rules = (
        [f"Invoice {n}: number recognised in INV-X-#### format, hyphens kept" for n in (1, 2, 3)]
        + [f"Invoice {n}: number mapped to its source image" for n in (1, 2, 3)]
        + [f"Invoice {n}: gross amount (price plus tax) recorded" for n in (1, 2, 3)]
        + ["Grand total equals the sum of the three amounts", "Detail rows: one per invoice",
           "Total row present", "Invoice-number column present", "Gross-amount column present",
           "Amount cells numeric or thousands-separated", "result.json: produced_file",
           "result.json: summary", "result.json: format_check", "No invoice omitted",
           "No fabricated content", "No banned words", "No web links",
           "output.xlsx written under output/"]
    )
    kbr_questions = [
        ("Q1 refund mechanism", ["version number", "patch number", "go-live date",
                                 "mechanism named"]),
        ("Q2 reversal documents", ["first step", "second step", "order of the steps"]),
        ("Q3 hidden amount field", ["field named", "cap formula", "formula verified",
                                    "parameter value"]),
        ("Q4 reimbursement checkboxes", ["checkbox named", "auto-configuration condition",
                                         "parameter value"]),
        ("Q5 self-service reversal", ["entry named", "reverse steps", "day difference"]),
        ("Q6 source timeline", ["articles listed", "timeline order", "dates match originals"]),
        ("Q7 closing", ["general refund methods", "amount limits", "verdict on ticket 2"]),
    ]
    kbr_rules = [f"{q}: {part}" for q, parts in kbr_questions for part in parts]
    kbr_evidence = [
        {"id": f"E{n}", "source": f"input/kb/{art}.md", "location": loc,
         "excerpt": f"(synthetic excerpt {n} of the frozen evidence list)"}
        for n, (art, loc) in enumerate(
            [("100231", "¶2"), ("100231", "¶5"), ("100874", "¶1"), ("100874", "table 2"),
             ("101002", "¶3"), ("101145", "¶4"), ("101145", "¶6"), ("101377", "¶1"),
             ("101590", "¶2")], 1)
    ]
    kbr_judge = [
        ("Two-step processing order", ["E1", "E2"]),
        ("Hidden-field valuation rule", ["E3", "E4"]),
        ("Refund methods and amount limits attributed", ["E5", "E6"]),
        ("Closing verdict on the travel ticket", ["E7"]),
        ("Citation grounding", [f"E{n}" for n in range(1, 10)]),
        ("No fabrication", ["E8", "E9"]),
    ]
    fa_topics = ["Assets and liabilities", "Revenue", "Cash flow", "Solvency", "Asset quality",
                 "Profitability", "Cost structure", "Operating efficiency", "Working capital",
                 "Prepayments and receivables", "Period-over-period trend", "Risks and anomalies",
                 "Summary and recommendations",
                 "Interactive HTML: displayable charts, card layout, drawer navigation",
                 "Data-source annotations and timestamps for every topic",
                 "User-visible content desensitized"]
    return [
        task_entry(
            "IMG-multi-invoice-batch-recognition-L2",
            "Batch Recognition and Posting of Multiple Invoices", "general", "image-processing",
            "fam-invoice-recognition", "document-work", "document-processing", "L2", "public",
            variant="three invoices in one batch", risk="medium", role="accounts clerk",
            scoring={
                "mode": "dual-channel", "rule_weight": 0.5,
                "core_delivery": "output.xlsx exists under output/ and parses as a workbook",
                "rule_items": rules(img_rules)
                + fatal(["Every invoice amount correct (a wrong amount zeroes the run)"]),
                "judge_items": judges(["Amounts and totals", "Invoice-number format",
                                       "Table structure", "Source references", "No fabrication"],
                                      3),
            },
            description="", timeout=900,
            card={
                "description": "Three separate invoice images under input/ are recognised one "
                "by one: invoice number and gross amount (price plus tax) of each, the grand "
                "total of the three, written into output.xlsx; none may be omitted.",
                "input_assets": "invoice_1.png to invoice_3.png and task.json, all synthetic; "
                "offline, no network.",
                "checkpoints": "Invoice-number format (INV-X-####, hyphens kept); the three "
                "gross amounts; the total; detail and total rows; per-invoice mapping to the "
                "source image; result.json fields; no fabrication, banned words or links.",
                "underspecification": "Only a minimal artifact contract: at least the "
                "invoice-number and gross-amount columns. Amounts compare under numeric "
                "equivalence. The recognition method is free.",
            },
        ),
        task_entry(
            "DA-cost-overrun-attribution-drilldown-L3", "Cost Overrun Attribution Drill-Down",
            "general", "data-analysis", "fam-cost-analysis", "analysis-reporting", "analysis",
            "L3", "public", multi=True, variant="overrun drill-down", risk="medium",
            role="management accountant",
            scoring={
                "mode": "dual-channel", "rule_weight": 0.7,
                "core_delivery": "turn_1/dept.md exists and parses",
                "modules": [{"id": "turn-1", "title": "Turn 1: overrun rates"},
                            {"id": "turn-2", "title": "Turn 2: account drill-down"},
                            {"id": "turn-3", "title": "Turn 3: remediation plan"}],
                "rule_items": [
                    {"id": "R01", "title": "Per-turn artifacts under the directory contract"},
                    {"id": "R02", "title": "Turn 1: overrun rate per department and the "
                     "largest-overrun department", "module": "turn-1"},
                    {"id": "R03", "title": "Turn 2: overrun accounts and amounts",
                     "module": "turn-2"},
                    {"id": "R04", "title": "Turn 3: remediation plan with calculated figures",
                     "module": "turn-3"},
                    {"id": "R05", "title": "result.json: metrics and key_findings"},
                    {"id": "R06", "title": "Output safety: no banned words"},
                ],
                "judge_items": [
                    {"id": "J01", "title": "Turn 1 conclusion correct", "max_level": 1,
                     "module": "turn-1"},
                    {"id": "J02", "title": "Turn 2 drill-down targets the driver accounts",
                     "max_level": 1, "module": "turn-2"},
                    {"id": "J03", "title": "Turn 3 advice targets the main driver accounts "
                     "with calculated figures", "max_level": 1, "module": "turn-3"},
                ],
            },
            description="",
            card={
                "description": "Three turns: compute each department's overrun rate "
                "((actual − budget)/budget) and find the largest; drill into that department's "
                "accounts; give remediation calculations for the main driver accounts.",
                "input_assets": "dept.xlsx, subject_detail.xlsx, task.json and "
                "turns/turn_1..3.md.",
                "checkpoints": "Six rule groups (per-turn artifacts, turn 1–3 results, "
                "result.json, banned words) and three Judge items on each turn's conclusion.",
                "underspecification": "The targets of turns 2 and 3 follow from earlier "
                "conclusions; the remediation plan is open-ended.",
            },
        ),
        task_entry(
            "KBR-refund-reversal-chain-tracing-L4", "Refund Reversal Chain Tracing", "general",
            "knowledge-retrieval", "fam-refund-tracing", "information-retrieval", "query", "L4",
            "public", risk="medium", role="expense administrator",
            scoring={
                "mode": "dual-channel", "rule_weight": 0.5,
                "core_delivery": "output/answer.txt exists and answers the seven questions",
                "rule_items": rules(kbr_rules),
                "judge_items": [
                    {"id": f"J{n:02d}", "title": t, "max_level": 1, "evidence": ev}
                    for n, (t, ev) in enumerate(kbr_judge, 1)
                ],
                "evidence": kbr_evidence,
            },
            description="",
            card={
                "description": "Trace two refund tickets through seven interlocking questions "
                "over a 69-article knowledge base, citing [article title] after key "
                "conclusions.",
                "input_assets": "A mirror of 69 knowledge-base articles (synthetic example).",
                "checkpoints": "23 rule groups on the seven questions; six Judge items "
                "including citation grounding and no fabrication.",
                "underspecification": "No titles, field or parameter names are given; each "
                "retrieval cue comes from earlier answers.",
            },
        ),
        task_entry(
            "finance-fa-20", "December Business Analysis Report", "enterprise", "finance",
            "fam-business-analysis-report", "analysis-reporting", "analysis", "L3", "public",
            risk="medium", role="finance manager", stage="period-end reporting",
            scoring={
                "mode": "dual-channel", "rule_weight": 0.3,
                "core_delivery": "A Markdown and an interactive HTML report are delivered",
                "rule_items": rules([
                    "Operating revenue in the financial metrics value table",
                    "Total assets, total liabilities and asset-liability ratio",
                    "Cash and cash equivalents", "Net operating cash flow"]),
                "judge_items": judges(fa_topics, 4),
            },
            description="", timeout=1800,
            card={
                "description": "A December 2024 business analysis report for the 'Galaxy "
                "Flagship Application Test' organisation covering 13 topics, as Markdown and "
                "interactive HTML.",
                "input_assets": "Simulated ERP data (statements, balances, dimensions) through "
                "the ERP tool interfaces; read-only.",
                "checkpoints": "16 content criteria; four numeric groups read from the "
                "financial metrics value table by table and column name.",
                "underspecification": "Amount unit free if noted; gaps stated, never zero.",
            },
        ),
        task_entry(
            "supply-chain-tc-059", "January Sales Monthly Report", "enterprise", "supply-chain",
            "fam-sales-monthly-report", "sales-management", "analysis", "L3", "public",
            risk="medium", role="sales operations manager", stage="monthly reporting",
            scoring={
                "mode": "dual-channel", "rule_weight": 0.4,
                "core_delivery": "The monthly report is delivered in the reply or as a file",
                "rule_items": rules(["Booking amount", "Order count", "On-time delivery rate",
                                     "Return rate"]),
                "judge_items": judges([
                    "Order overview and customer/material contribution",
                    "Delivery exceptions and collection risk, facts kept apart",
                    "Next-month actions target the problems found"], 4),
            },
            description="", timeout=1200,
            card={
                "description": "The January 2026 sales monthly report: customer and material "
                "contribution, delivery exceptions, collection risk, next-month actions.",
                "input_assets": "Sales orders, deliveries, returns and metrics through the ERP "
                "tool interfaces.",
                "checkpoints": "Three content criteria; four numeric checks read from the "
                "'this month's sales metrics' table.",
                "underspecification": "Clarifiable: the statistical scope when orders lack a "
                "salesperson (organisation scope, limitation stated).",
            },
        ),
        task_entry(
            "manufacturing-qc-029", "Two-Day Process Quality Comparison", "enterprise",
            "manufacturing", "fam-process-quality", "quality-management", "analysis", "L2",
            "public", risk="medium", role="quality engineer", stage="daily review",
            industry="manufacturing",
            scoring={
                "mode": "dual-channel", "rule_weight": 0.4,
                "core_delivery": "The three tables are delivered in the final reply",
                "rule_items": rules([
                    "First-inspection pass rate, both days", "Patrol anomaly rate, both days",
                    "Total defects (optional metric)", "Patrol record count",
                    "Anomalous patrol record count",
                    "Locator data of the top two processes by anomaly-rate increase"]),
                "judge_items": judges([
                    "Overall metrics table: coverage and definitions",
                    "Top-5 defect comparison table", "Quality-change interpretation",
                    "Process locator table"], 4),
            },
            description="", timeout=1200,
            card={
                "description": "Compare process quality between 3 and 4 October 2026: "
                "first-inspection pass rate, patrol anomaly rate, top-5 defects, as three "
                "tables plus analysis.",
                "input_assets": "Two days of process-inspection records through the ERP tool "
                "interfaces.",
                "checkpoints": "Four content criteria on the 0–4 scale; six numeric groups "
                "compared exactly.",
                "underspecification": "Column order free; unknown values written as 'cannot "
                "be computed', never zero.",
            },
        ),
    ]


def other_tasks(version: str) -> list[dict[str, Any]]:
    v11 = version == "v1.1"
    rotated = "public" if v11 else "held-out"
    t = generic_task
    tasks = [
        t("IMG-single-invoice-recognition-L1", "Single Invoice Recognition", "general",
          "image-processing", "fam-invoice-recognition", "document-work", "document-processing",
          "L1", "public", n_rules=5, n_fatal=1, variant="one invoice", risk="low"),
        t("DRV-contract-clause-crosscheck-L2", "Contract Clause Cross-Check", "general",
          "document-review", "fam-contract-review", "document-work", "document-processing",
          "L2", "public", n_rules=6),
        t("DFP-supplier-sql-filter-L1", "Supplier Filter by SQL", "general", "data-filtering",
          "fam-supplier-query", "information-retrieval", "query", "L1", "public", n_rules=4,
          all_or_nothing=True, risk="low"),
        t("FD-etl-error-rootcause-L3", "ETL Error Root Cause", "general", "fault-diagnosis",
          "fam-etl-diagnosis", "troubleshooting", "analysis", "L3", "public",
          mode="dual-channel", w=0.6, n_rules=5, n_judge=3),
        t("SM-cross-timezone-meeting-L2", "Cross-Timezone Meeting Plan", "general",
          "schedule-management", "fam-meeting-planning", "planning-scheduling", "operation",
          "L2", "public", n_rules=6, multi=2, risk="low"),
        t("RRQ-annual-report-ratio-qa-L2", "Annual Report Ratio QA", "general", "report-qa",
          "fam-report-qa", "information-retrieval", "query", "L2", "public",
          mode="dual-channel", w=0.7, n_rules=5, n_judge=2, g=1),
        t("CPV-travel-policy-version-conflict-L3", "Travel Policy Version Conflict", "general",
          "compliance-verification", "fam-policy-check", "document-work", "analysis", "L3",
          "public", mode="dual-channel", w=0.5, n_rules=5, n_judge=3),
        t("CG-contract-batch-merge-L2", "Contract Batch Merge", "general", "content-generation",
          "fam-template-merge", "content-production", "document-processing", "L2", "public",
          n_rules=6),
        t("DA-budget-variance-forecast-L3", "Budget Variance Forecast", "general",
          "data-analysis", "fam-cost-analysis", "analysis-reporting", "analysis", "L3",
          "held-out", mode="dual-channel", w=0.6, n_rules=6, n_judge=3, variant="forecast"),
        t("DRV-expense-form-validation-L2", "Expense Form Validation", "general",
          "document-review", "fam-expense-validation", "document-work", "document-processing",
          "L2", rotated, n_rules=6),
        t("KBR-invoice-policy-multihop-L3", "Invoice Policy Multi-Hop", "general",
          "knowledge-retrieval", "fam-policy-retrieval", "information-retrieval", "query", "L3",
          "held-out", mode="dual-channel", w=0.5, n_rules=5, n_judge=2, g=1),
        t("FD-api-timeout-escalation-L2", "API Timeout Escalation", "general", "fault-diagnosis",
          "fam-api-diagnosis", "troubleshooting", "analysis", "L2", "held-out", n_rules=5),
        t("SM-shift-roster-constraints-L3", "Shift Roster under Constraints", "general",
          "schedule-management", "fam-roster", "planning-scheduling", "operation", "L3",
          "held-out", n_rules=6),
        t("DFP-duplicate-vendor-cleanup-L2", "Duplicate Vendor Clean-Up", "general",
          "data-filtering", "fam-vendor-cleanup", "information-retrieval", "operation", "L2",
          "held-out", n_rules=5),
        t("finance-gl-05", "Month-End Voucher Chain", "enterprise", "finance",
          "fam-voucher-close", "period-closing", "operation", "L3", "public", risk="high",
          n_rules=6, n_fatal=1, multi=0, chain="voucher-to-close", role="general ledger "
          "accountant", stage="period-end closing"),
        t("finance-boundary-11", "Direct Edit of a Reviewed Voucher", "enterprise", "finance",
          "fam-voucher-boundary", "voucher-processing", "operation", "L2", "public",
          risk="high", boundary=True, n_fatal=1, exception="state-conflict",
          role="accountant"),
        t("supply-chain-so-017", "Sales Order to Goods Issue", "enterprise", "supply-chain",
          "fam-order-fulfilment", "sales-management", "operation", "L3", "public", risk="high",
          n_rules=6, n_fatal=1, chain="order-to-delivery", role="sales clerk"),
        t("supply-chain-inv-031", "Inventory Availability Query", "enterprise", "supply-chain",
          "fam-inventory-query", "procurement-inventory", "query", "L1", "public", risk="low",
          n_rules=5 if v11 else 4, role="warehouse planner", exception="data-anomaly"),
        t("manufacturing-wo-012", "Release Work Orders for a Plan", "enterprise",
          "manufacturing", "fam-work-orders", "production-planning", "operation", "L2",
          "public", n_rules=5, all_or_nothing=True, chain="plan-to-production",
          role="production planner", industry="manufacturing"),
        t("manufacturing-boundary-044", "BOM Edit in a Closed Period", "enterprise",
          "manufacturing", "fam-bom-boundary", "production-planning", "operation", "L2",
          "public", boundary=True, exception="insufficient-permission",
          industry="manufacturing"),
        t("finance-ap-33", "Supplier Payment Run", "enterprise", "finance", "fam-payment-run",
          "payables-receivables", "operation", "L3", "held-out", risk="high",
          mode="dual-channel", w=0.7, n_rules=6, n_fatal=1, n_judge=2),
        t("finance-ar-41", "Overdue Receivables Query", "enterprise", "finance",
          "fam-receivables", "payables-receivables", "query", "L1", rotated, risk="low",
          n_rules=4),
        t("supply-chain-pp-052", "Procurement Plan Review", "enterprise", "supply-chain",
          "fam-procurement-plan", "procurement-inventory", "analysis", "L3", "held-out",
          mode="dual-channel", w=0.5, n_rules=5, n_judge=3),
        t("supply-chain-boundary-066", "Unsupported Credit-Limit Override", "enterprise",
          "supply-chain", "fam-credit-boundary", "sales-management", "operation", "L2",
          "held-out", risk="high", boundary=True, exception="insufficient-permission"),
        t("manufacturing-mrp-071", "MRP Shortage Analysis", "enterprise", "manufacturing",
          "fam-mrp", "production-planning", "analysis", "L3", "held-out",
          mode="dual-channel", w=0.6, n_rules=5, n_judge=3, industry="manufacturing"),
        t("manufacturing-eq-083", "Equipment Downtime Query", "enterprise", "manufacturing",
          "fam-equipment", "quality-management", "query", "L1", "held-out", risk="low",
          n_rules=4, industry="manufacturing"),
    ]
    if v11:
        tasks += [
            t("CG-quarterly-letter-batch-L3", "Quarterly Letter Batch", "general",
              "content-generation", "fam-letter-batch", "content-production",
              "document-processing", "L3", "held-out", mode="dual-channel", w=0.6, n_rules=5,
              n_judge=2),
            t("manufacturing-sched-091", "Line Schedule Rebalancing", "enterprise",
              "manufacturing", "fam-line-schedule", "production-planning", "operation", "L3",
              "held-out", n_rules=6, n_fatal=1, industry="manufacturing"),
        ]
    else:
        tasks += [
            t("RRQ-segment-report-lookup-L1", "Segment Report Lookup", "general", "report-qa",
              "fam-segment-lookup", "information-retrieval", "query", "L1", "held-out",
              n_rules=4, risk="low"),
            t("manufacturing-bom-077", "BOM Where-Used Analysis", "enterprise",
              "manufacturing", "fam-bom-analysis", "production-planning", "analysis", "L2",
              "held-out", n_rules=5, industry="manufacturing"),
        ]
    return tasks


FAMILY_TITLES = {
    "fam-invoice-recognition": "Invoice recognition", "fam-cost-analysis": "Cost analysis",
    "fam-refund-tracing": "Refund chain tracing",
    "fam-business-analysis-report": "Business analysis report",
    "fam-sales-monthly-report": "Sales monthly report",
    "fam-process-quality": "Process quality comparison",
}


def catalog(version: str) -> dict[str, Any]:
    tasks = deep_dive_tasks() + other_tasks(version)
    families: dict[str, dict[str, Any]] = {}
    for task in tasks:
        fid = task["family"]
        if fid not in families:
            title = FAMILY_TITLES.get(fid, fid.removeprefix("fam-").replace("-", " ").capitalize())
            families[fid] = {"id": fid, "title": title, "domain": task["domain"]}
    return {"format_version": 1, "release": version, "families": list(families.values()),
            "tasks": tasks}


# ---------------------------------------------------------------------------- bundles

COMBINATIONS: dict[str, dict[str, Any]] = {
    "lingee": {"title": "Lingee × GLM-5.3-Flash", "card": "lingee-2.3", "mode": None,
               "skill": 0.9, "tokens": 180_000, "agent": "2.3.1"},
    "deepseek-harness-standard": {
        "title": "DeepSeek Harness (standard function calling) × GLM-5.3-Flash",
        "card": "deepseek-harness-1.4", "mode": "standard", "skill": 0.74, "tokens": 260_000,
        "agent": "1.4.0"},
    "deepseek-harness-code": {
        "title": "DeepSeek Harness (Code Mode) × GLM-5.3-Flash",
        "card": "deepseek-harness-1.4", "mode": "code-mode", "skill": 0.6, "tokens": 150_000,
        "agent": "1.4.0"},
    "deepseek-harness-dual": {
        "title": "DeepSeek Harness (dual tool-calling) × GLM-5.3-Flash",
        "card": "deepseek-harness-1.4", "mode": "dual", "skill": 0.7, "tokens": 240_000,
        "agent": "1.4.0"},
    "opencode": {"title": "OpenCode × GLM-5.3-Flash", "card": "opencode-0.9", "mode": None,
                 "skill": 0.72, "tokens": 320_000, "agent": "0.9.12"},
}

VERSION_COMBINATIONS = {
    "v1.0": ["lingee", "deepseek-harness-standard", "deepseek-harness-code",
             "deepseek-harness-dual", "opencode"],
    "v1.1": ["lingee", "deepseek-harness-standard", "opencode"],
}

NOT_COVERED = {
    ("v1.0", "opencode"): [{"domain": "general", "subdivision": "image-processing",
                            "reason": "The evaluated OpenCode build has no image-input adapter; "
                            "not adapted, so not covered (§5.3), not zero."}],
    ("v1.1", "opencode"): [{"domain": "general", "subdivision": "image-processing",
                            "reason": "Still no image-input adapter in the evaluated build."}],
    ("v1.0", "deepseek-harness-code"): [{"domain": "enterprise", "reason": "Code Mode was "
                                         "evaluated on the general domain only in this round."}],
    ("v1.0", "deepseek-harness-dual"): [{"domain": "enterprise", "reason": "The dual mode was "
                                         "evaluated on the general domain only in this round."}],
}

# (version, combination, task, run) → (status, cause, retries)
INCOMPLETE = {
    ("v1.0", "deepseek-harness-dual", "FD-etl-error-rootcause-L3", 2):
        ("judge-invalid", 2, "No valid Judge verdict after 2 retries."),
    ("v1.0", "deepseek-harness-code", "CG-contract-batch-merge-L2", 3):
        ("scoring-service", 2, "Scoring service unavailable after 2 retries."),
    ("v1.1", "opencode", "SM-cross-timezone-meeting-L2", 1):
        ("environment-startup", 2, "Sandbox failed to start after 2 retries."),
}


def bundle(version: str, combo: str, tasks: list[dict[str, Any]]) -> dict[str, Any]:
    spec = COMBINATIONS[combo]
    v11 = version == "v1.1"
    manifest = release_manifest(version)
    incomplete = any(k[0] == version and k[1] == combo for k in INCOMPLETE)
    data: dict[str, Any] = {
        "format_version": 1,
        "release": version,
        "combination": {
            "id": combo, "title": spec["title"], "harnesscard": spec["card"],
        },
    }
    if spec["mode"]:
        data["combination"]["harness_mode"] = spec["mode"]
    data["combination"]["model"] = {"name": "GLM-5.3-Flash", "version": "2026-09-30",
                                    "provider": "Zhipu AI", "tokenizer": "glm-5"}
    data["combination"]["agent_version"] = spec["agent"]
    data["configuration"] = {
        "temperature": 0.2, "top_p": 0.95, "max_output_tokens": 16384,
        "context_window": 128000, "compression_threshold": 96000,
        "reasoning_mode": "thinking enabled", "runs_per_task": 3,
        "pipeline_components": manifest["components"],
    }
    data["budgets"] = {"timeout_s": 1800, "max_steps": 150, "max_tokens": 2_000_000,
                       "max_retries": 2,
                       "retry_policy": "Retry technical exceptions up to twice from the saved "
                       "artifacts; agent failures are never retried."}
    data["clarification"] = {"simulated_user_script_version": "1.1.0" if v11 else "1.0.0",
                             "waiting_cap_s": 120,
                             "rules": "The simulated user answers only pre-planted clarifiable "
                             "items; other questions get 'go by the task statement'."}
    data["environment_snapshot"] = "erp-sandbox-2026.11.1" if v11 else "erp-sandbox-2026.10.2"
    data["evaluator"] = {"judge_model": "GLM-5.3", "judge_model_version": "2026-09-30",
                         "prompt_version": "1.1.0" if v11 else "1.0.0",
                         "voting": "single judge, temperature 0"}
    data["run_dates"] = (
        {"start": dt.date(2026, 11, 17), "end": dt.date(2026, 11, 24)} if v11
        else {"start": dt.date(2026, 10, 13), "end": dt.date(2026, 10, 27)}
    )
    data["consent"] = {"granted": True, "by": "Example submitter (illustrative)",
                       "date": dt.date(2026, 11, 25) if v11 else dt.date(2026, 10, 28)}
    data["evaluation"] = "incomplete" if incomplete else "complete"
    if (version, combo) in NOT_COVERED:
        data["not_covered"] = NOT_COVERED[(version, combo)]
    data["runs"] = "runs.jsonl"
    return data


# ---------------------------------------------------------------------------- runs

DIFFICULTY = {"L1": 1.0, "L2": 0.93, "L3": 0.85, "L4": 0.78}
SIZE = {"L1": 0.45, "L2": 0.8, "L3": 1.25, "L4": 1.7}


def _covered(version: str, combo: str, task: dict[str, Any]) -> bool:
    for scope in NOT_COVERED.get((version, combo), []):
        if scope["domain"] == task["domain"] and scope.get("subdivision") in (
            None, task["subdivision"]
        ):
            return False
    return True


def _pattern(
    task: dict[str, Any], rng: random.Random, skill: float
) -> tuple[bool, set[str], dict[str, int], set[str]]:
    """(delivery, failed rule/fatal ids, judge levels, failed modules) drawn at random."""
    scoring = task["scoring"]
    p = skill * DIFFICULTY[task["difficulty"]]
    delivery = rng.random() < 0.55 + 0.45 * p ** 0.5
    failed_modules: set[str] = set()
    if scoring.get("modules") and rng.random() > 0.4 + 0.6 * p:
        failed_modules.add(scoring["modules"][-1]["id"])
    failed = set()
    for item in scoring["rule_items"]:
        chance = 0.97 + 0.03 * p if item.get("fatal") else 0.35 + 0.65 * p
        if item.get("module") in failed_modules or rng.random() > chance:
            failed.add(item["id"])
    levels = {}
    for item in scoring.get("judge_items", []):
        g = item["max_level"]
        levels[item["id"]] = (0 if item.get("module") in failed_modules
                              else sum(rng.random() < 0.3 + 0.7 * p for _ in range(g)))
    return delivery, failed, levels, failed_modules


# Item-level patterns of the deep dives (v1.0): combination → (delivery, failed items,
# judge levels that differ from the maximum). They reproduce the figures of §5.2.
DEEP: dict[str, dict[str, tuple[bool, set[str], dict[str, int]]]] = {
    "IMG-multi-invoice-batch-recognition-L2": {
        "lingee": (True, set(), {}),
        "deepseek-harness-standard": (True, set(), {}),
        "deepseek-harness-code": (False, {"ALL"}, {"ALL": 0}),
        "deepseek-harness-dual": (True, {"R04", "R05", "R06"}, {"J02": 1}),
    },
    "DA-cost-overrun-attribution-drilldown-L3": {
        "lingee": (True, set(), {}),
        "deepseek-harness-standard": (True, {"R06"}, {}),
        "deepseek-harness-code": (True, set(), {}),
        "deepseek-harness-dual": (True, set(), {}),
        "opencode": (True, {"R06"}, {}),
    },
    "KBR-refund-reversal-chain-tracing-L4": {
        "lingee": (True, set(), {}),
        "deepseek-harness-standard": (True, {"R18", "R19", "R20"}, {"J05": 0}),
        "deepseek-harness-code": (True, {f"R{n:02d}" for n in range(12, 20)},
                                  {"J02": 0, "J05": 0, "J06": 0}),
        "deepseek-harness-dual": (True, {"R09", "R10", "R18", "R21"}, {"J03": 0, "J05": 0}),
        "opencode": (True, {"R20", "R23"}, {"J05": 0}),
    },
    "finance-fa-20": {
        "lingee": (True, set(), {}),
        "opencode": (True, {"R01", "R02", "R03", "R04"}, {}),
        "deepseek-harness-standard": (True, {"R01", "R02", "R03", "R04"},
                                      {f"J{n:02d}": 3 for n in range(7, 17)}),
    },
    "supply-chain-tc-059": {
        "lingee": (True, set(), {}),
        "opencode": (True, {"R01", "R02", "R03", "R04"}, {}),
        "deepseek-harness-standard": (False, {"ALL"}, {"ALL": 0}),
    },
    "manufacturing-qc-029": {
        "lingee": (True, set(), {}),
        "opencode": (True, {"R03"}, {}),
        "deepseek-harness-standard": (True, set(), {}),
    },
}
DEEP_NOTES = {
    ("IMG-multi-invoice-batch-recognition-L2", "deepseek-harness-code"):
        "Session ended without effective work; no artifact.",
    ("supply-chain-tc-059", "deepseek-harness-standard"):
        "Timed out at the 1,200-second budget without producing an artifact.",
}


def _failure_type(
    task: dict[str, Any], delivery: bool, failed: set[str], levels: dict[str, int],
    timed_out: bool,
) -> str | None:
    scoring = task["scoring"]
    fatal_ids = {i["id"] for i in scoring["rule_items"] if i.get("fatal")}
    judge_ok = all(levels[j["id"]] >= j["max_level"] for j in scoring.get("judge_items", []))
    if timed_out:
        return "budget-exhausted"
    if not delivery:
        return "missing-deliverable"
    if failed & fatal_ids:
        return "constraint-violation"
    if failed:
        safety = {i["id"] for i in scoring["rule_items"] if "afety" in i["title"]}
        return "constraint-violation" if failed <= safety else "numeric-or-state-error"
    if not judge_ok:
        return "semantic-quality"
    return None


def runs(version: str, combo: str, tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    spec = COMBINATIONS[combo]
    out = []
    for task in tasks:
        if not _covered(version, combo, task):
            continue
        scoring = task["scoring"]
        rng = random.Random(f"{version}/{combo}/{task['id']}")
        deep = DEEP.get(task["id"], {}).get(combo) if version == "v1.0" else None
        for run in range(1, 4):
            if deep is not None:
                delivery, failed, judge_levels = deep
                all_ids = {i["id"] for i in scoring["rule_items"]}
                failed = all_ids if "ALL" in failed else set(failed)
                levels = {j["id"]: judge_levels.get("ALL", judge_levels.get(j["id"],
                                                                            j["max_level"]))
                          for j in scoring.get("judge_items", [])}
                failed_modules: set[str] = set()
            else:
                delivery, failed, levels, failed_modules = _pattern(task, rng, spec["skill"])
            timed_out = (not delivery and (task["id"], combo) == ("supply-chain-tc-059",
                                                                  "deepseek-harness-standard"))
            if not delivery and not timed_out and deep is None and rng.random() < 0.4:
                timed_out = True
            size = SIZE[task["difficulty"]] * (1.6 if task["interaction"] == "multi-turn" else 1)
            input_tokens = int(spec["tokens"] * size * rng.lognormvariate(0, 0.3))
            timeout = task["budgets"]["timeout_s"]
            duration = timeout if timed_out else min(
                timeout - 1, round(240 * size * rng.lognormvariate(0, 0.35), 1))
            record: dict[str, Any] = {
                "task": task["id"], "run": run, "seed": rng.randrange(1, 2**31),
                "status": "valid",
            }
            key = (version, combo, task["id"], run)
            if key in INCOMPLETE:
                cause, retries, note = INCOMPLETE[key]
                record.update({"status": "incomplete", "cause": cause, "retries": retries})
            elif rng.random() < 0.05:
                record["retries"] = 1
            record["delivery"] = delivery
            record["fatal"] = [{"id": i["id"], "pass": i["id"] not in failed}
                               for i in scoring["rule_items"] if i.get("fatal")]
            record["rules"] = [
                {"id": i["id"], "pass": i["id"] not in failed}
                for i in scoring["rule_items"]
                if not i.get("fatal") and i.get("module") not in failed_modules
            ]
            if failed_modules:
                record["modules_failed"] = sorted(failed_modules)
            if scoring["mode"] == "dual-channel":
                judged = [j for j in scoring["judge_items"] if j.get("module") not in
                          failed_modules]
                if record["status"] == "incomplete" and record.get("cause") == "judge-invalid":
                    record["judge"] = []
                    record["judge_valid"] = False
                else:
                    record["judge"] = [
                        {"id": j["id"], "level": levels[j["id"]],
                         "evidence": list(j.get("evidence", []))[:2],
                         "rationale": _rationale(levels[j["id"]], j["max_level"])}
                        for j in judged
                    ]
                    record["judge_valid"] = True
            record["input_tokens"] = input_tokens
            record["output_tokens"] = int(input_tokens * rng.uniform(0.03, 0.08))
            record["duration_s"] = duration
            turns_base = 14 * size * (0.8 if combo == "lingee" else 1.0)
            record["turns"] = max(1, int(turns_base * rng.lognormvariate(0, 0.3)))
            if record["status"] == "valid":
                ftype = _failure_type(task, delivery, failed | {
                    i["id"] for i in scoring["rule_items"] if i.get("module") in failed_modules
                }, levels, timed_out)
                if ftype:
                    record["failure_type"] = ftype
            note = DEEP_NOTES.get((task["id"], combo)) if deep is not None else None
            if key in INCOMPLETE:
                note = INCOMPLETE[key][2]
            if note:
                record["note"] = note
            out.append(record)
    return out


def _rationale(level: int, max_level: int) -> str:
    if level >= max_level:
        return "Criterion met; the designated evidence supports it."
    if level == 0:
        return "Criterion not met, or the artifacts lack the required evidence."
    return f"Partly met: level {level} of {max_level}."


# ---------------------------------------------------------------------------- writing


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def _yaml(data: dict[str, Any]) -> str:
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    return "# Illustrative example; generated by results/make_example.py — do not edit.\n" + text


def files(version: str) -> dict[str, str]:
    """Relative path (under results/) → text, for one version."""
    cat = catalog(version)
    out = {
        f"{version}/release.yaml": _yaml(release_manifest(version)),
        f"{version}/tasks.yaml": _yaml(cat),
    }
    for combo in VERSION_COMBINATIONS[version]:
        base = f"{version}/bundles/{combo}"
        out[f"{base}/bundle.yaml"] = _yaml(bundle(version, combo, cat["tasks"]))
        lines = [json.dumps({"format_version": 1})]
        lines += [json.dumps(r, ensure_ascii=False, separators=(",", ":"))
                  for r in runs(version, combo, cat["tasks"])]
        out[f"{base}/runs.jsonl"] = "\n".join(lines) + "\n"
    return out


def all_files() -> dict[str, str]:
    out: dict[str, str] = {}
    for version in VERSION_COMBINATIONS:
        out.update(files(version))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="results folder to write into")
    args = parser.parse_args()
    for rel, text in all_files().items():
        path = args.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(path)


if __name__ == "__main__":
    main()
