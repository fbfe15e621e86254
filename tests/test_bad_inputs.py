"""The bad-input corpus: each case breaks one thing in a copy of the example release.

Every case must make ``validate`` exit 1 without a traceback and print a problem line that
names the file (and line where the format has one), the field and what was expected.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from edit import edit_runs, line_of, replace

pytestmark = pytest.mark.slow  # validates and builds every bad input

REPO = Path(__file__).resolve().parents[1]
V1 = "results/v1.0"
TASKS = f"{V1}/tasks.yaml"
RELEASE = f"{V1}/release.yaml"
LINGEE = f"{V1}/bundles/lingee"
DUAL = f"{V1}/bundles/deepseek-harness-dual"
CARD = "harnesscards/lingee-2.3.yaml"
FA20 = "finance-fa-20"
IMG = "IMG-multi-invoice-batch-recognition-L2"


@dataclass(frozen=True)
class Case:
    name: str
    mutate: Callable[[Path], Any]
    expect: Callable[[Path], str] | str


def at(rel: str, needle: str, rest: str) -> Callable[[Path], str]:
    """Expect ``rel:<line of needle>: rest`` (the line read after the mutation)."""
    return lambda root: f"{rel}:{line_of(root / rel, needle)}: {rest}"


def run_line(rel: str, task: str, run: int, rest: str) -> Callable[[Path], str]:
    def expect(root: Path) -> str:
        needle = '"task":"' + task + '","run":' + str(run) + ","
        return f"{rel}:{line_of(root / rel, needle)}: {rest}"

    return expect


def runs_of(rel: str, change: Callable[[list[dict[str, Any]]], None]) -> Callable[[Path], None]:
    return lambda root: edit_runs(root / rel / "runs.jsonl", change)


def first(task: str, run: int = 1) -> Callable[[list[dict[str, Any]]], dict[str, Any]]:
    def pick(records: list[dict[str, Any]]) -> dict[str, Any]:
        return next(r for r in records if r["task"] == task and r["run"] == run)

    return pick


def set_in(tid: str, index: int, /, **fields: Any) -> Callable[[list[dict[str, Any]]], None]:
    return lambda records: first(tid, index)(records).update(fields)


def text(rel: str, old: str, new: str) -> Callable[[Path], None]:
    return lambda root: replace(root / rel, old, new)


def write(rel: str, content: str | bytes) -> Callable[[Path], None]:
    def go(root: Path) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")

    return go


FA20_RUN_1 = b'"task":"' + FA20.encode() + b'","run":1,'


def bytes_in(rel: str, old: bytes, new: bytes) -> Callable[[Path], None]:
    """Replace the first ``old`` in a file's bytes (which need not stay UTF-8)."""

    def go(root: Path) -> None:
        raw = (root / rel).read_bytes()
        assert old in raw, f"{old!r} not in {rel}"
        (root / rel).write_bytes(raw.replace(old, new, 1))

    return go


def bytes_line(path: Path, needle: bytes = FA20_RUN_1) -> int:
    """1-based number of the first line of a file's bytes that holds ``needle``."""
    raw = path.read_bytes()
    return raw.count(b"\n", 0, raw.index(needle)) + 1


def drop_runs_of(task: str) -> Callable[[list[dict[str, Any]]], None]:
    def change(records: list[dict[str, Any]]) -> None:
        records[:] = [r for r in records if r["task"] != task]

    return change


def duplicate(task: str) -> Callable[[list[dict[str, Any]]], None]:
    return lambda records: records.append(dict(first(task)(records)))


def judge_level(level: int) -> Callable[[list[dict[str, Any]]], None]:
    return lambda records: first(FA20)(records)["judge"][0].update(level=level)


def fatal_under_rules(records: list[dict[str, Any]]) -> None:
    record = first(IMG)(records)
    record["rules"].append(record["fatal"].pop())


def drop_item(records: list[dict[str, Any]]) -> None:
    first(FA20)(records)["rules"].pop(1)


def outside_link(rel: str, target_is_dir: bool = False) -> Callable[[Path], None]:
    """Make ``rel`` a symbolic link to a file or folder outside the root."""

    def go(root: Path) -> None:
        target = root.parent / "outside"
        target.mkdir(exist_ok=True)
        if not target_is_dir:
            target = target / "secret.yaml"
            target.write_text("format_version: 1\nsecret: do not publish\n", encoding="utf-8")
        link = root / rel
        if link.is_dir():
            shutil.rmtree(link)
        else:
            link.unlink(missing_ok=True)
        link.symlink_to(target)

    return go


def runs_line(rel: str, number: int, content: str) -> Callable[[Path], None]:
    """Replace line ``number`` of a runs file."""

    def go(root: Path) -> None:
        path = root / rel
        lines = path.read_text(encoding="utf-8").splitlines()
        lines[number - 1] = content
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    return go


def trailing_comma(rel: str, task: str, run: int) -> Callable[[Path], None]:
    """Write a comma before the closing brace of one run record."""

    def go(root: Path) -> None:
        path = root / rel
        needle = '"task":"' + task + '","run":' + str(run) + ","
        lines = path.read_text(encoding="utf-8").splitlines()
        number = line_of(path, needle)
        lines[number - 1] = lines[number - 1][:-1] + ",}"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    return go


def trailing_comma_expected(rel: str, task: str, run: int) -> Callable[[Path], str]:
    """The file's line and the column within it: the closing brace, the comma before it."""

    def expect(root: Path) -> str:
        needle = '"task":"' + task + '","run":' + str(run) + ","
        number = line_of(root / rel, needle)
        width = len((root / rel).read_text(encoding="utf-8").splitlines()[number - 1])
        return (
            f"{rel}:{number}: invalid JSON at column {width}: Expecting property name enclosed "
            f"in double quotes (a trailing comma at column {width - 1}: remove it)"
        )

    return expect


def tasks_of(rel: str) -> set[str]:
    return {t["id"] for t in yaml.safe_load((REPO / rel).read_text(encoding="utf-8"))["tasks"]}


def ordinary_items(task: str) -> list[str]:
    """The ordinary rule items a v1.0 task declares, sorted."""
    tasks = yaml.safe_load((REPO / TASKS).read_text(encoding="utf-8"))["tasks"]
    scoring = next(t for t in tasks if t["id"] == task)["scoring"]
    return sorted(i["id"] for i in scoring["rule_items"] if not i.get("fatal"))


def _deep_dives(root: Path) -> list[str]:
    return list(yaml.safe_load((root / RELEASE).read_text(encoding="utf-8"))["deep_dives"])


#: A task of v1.1 that v1.0 does not have.
ONLY_V11 = sorted(tasks_of("results/v1.1/tasks.yaml") - tasks_of(TASKS))[0]


ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(8)
)

CASES = [
    # --- syntax and encoding
    Case("malformed-yaml", text(RELEASE, "title: Lingee", "title: [Lingee"), f"{RELEASE}:"),
    Case(
        "tab-in-indentation",
        text(f"{LINGEE}/bundle.yaml", "  top_p: 0.95", "\ttop_p: 0.95"),
        lambda root: (
            f"{LINGEE}/bundle.yaml:{line_of(root / LINGEE / 'bundle.yaml', chr(9) + 'top_p')}: "
            "invalid YAML: while scanning a plain scalar found a tab character that violates "
            f"indentation; line {line_of(root / LINGEE / 'bundle.yaml', chr(9) + 'top_p')} has "
            "a tab character in its indentation: YAML indents with spaces only"
        ),
    ),
    Case(
        "bad-indent",
        text(f"{LINGEE}/bundle.yaml", "  top_p: 0.95", " top_p: 0.95"),
        lambda root: (
            f"{LINGEE}/bundle.yaml:{line_of(root / LINGEE / 'bundle.yaml', ' top_p')}: invalid "
            "YAML: while parsing a block mapping did not find expected key; check the "
            f"indentation: line {line_of(root / LINGEE / 'bundle.yaml', ' top_p')} is indented "
            "by 1 space(s), the line above by 2"
        ),
    ),
    # --- free text: what no display shows, what reorders a line, what leaves the site
    Case(
        "control-character-in-a-title",
        text(
            f"{V1}/bundles/opencode/bundle.yaml",
            "title: OpenCode × GLM-5.3-Flash",
            'title: "OpenCode\\a </title><script>alert(document.domain)</script>"',
        ),
        at(
            f"{V1}/bundles/opencode/bundle.yaml",
            'title: "OpenCode',
            "combination.title: holds a control character, U+0007, at character 9; expected "
            "text without control characters (tab and line breaks are allowed)",
        ),
    ),
    Case(
        "bidi-override-in-a-task-title",
        text(TASKS, "title: Invoice recognition", 'title: "Invoice \\u202Erecognition"'),
        at(
            TASKS,
            'title: "Invoice',
            "families[0].title: holds a bidirectional override or isolate, U+202E "
            "RIGHT-TO-LEFT OVERRIDE, at character 9;",
        ),
    ),
    Case(
        "remote-image-in-card-notes",
        text(CARD, "notes: |\n", "notes: |\n  Ours. ![pixel](https://tracker.example/p.gif)\n"),
        at(
            CARD,
            "notes: |",
            "notes: line 1 of the text has an image to 'https://tracker.example/p.gif', "
            "outside the site; expected links and images only to pages and files of the site",
        ),
    ),
    Case("empty-file", write(TASKS, ""), f"{TASKS}: file is empty; expected a YAML mapping"),
    Case(
        "not-utf8", write(CARD, b"format_version: 1\nid: \xff\xfe\n"), f"{CARD}:2: not UTF-8 text"
    ),
    Case(
        "runs-not-utf8",
        bytes_in(f"{LINGEE}/runs.jsonl", FA20_RUN_1, FA20_RUN_1 + b'"note":"caf\xe9",'),
        lambda root: (
            f"{LINGEE}/runs.jsonl:{bytes_line(root / LINGEE / 'runs.jsonl')}: not UTF-8 text"
        ),
    ),
    Case(
        "two-documents",
        lambda root: (root / CARD).write_text(
            (root / CARD).read_text() + "---\nformat_version: 1\n"
        ),
        f"{CARD}:",
    ),
    Case(
        "duplicate-yaml-key",
        text(RELEASE, "runs_per_task: 3", "runs_per_task: 3\nruns_per_task: 4"),
        at(RELEASE, "runs_per_task: 4", "runs_per_task: duplicate key"),
    ),
    Case(
        "alias-bomb",
        write(f"{V1}/deepdives/{FA20}.yaml", ALIAS_BOMB),
        "(an alias expanding too far?)",
    ),
    Case(
        "judge-model-departs-from-the-controlled-evaluator",
        text(f"{LINGEE}/bundle.yaml", "judge_model: GLM-5.3", "judge_model: GPT-4.1"),
        at(
            f"{LINGEE}/bundle.yaml",
            "judge_model: GPT-4.1",
            'evaluator.judge_model: "GPT-4.1" departs from "GLM-5.3", the setting of 4 of 5 '
            "combinations: evaluator is a controlled factor of this release (Evaluator; §4.1)",
        ),
    ),
    Case(
        "environment-snapshot-departs-from-the-controlled-one",
        lambda root: replace(
            root / f"{DUAL}/bundle.yaml",
            "environment_snapshot: erp-sandbox-2026.10.2",
            "environment_snapshot: erp-sandbox-2026.11.0",
        ),
        at(
            f"{DUAL}/bundle.yaml",
            "environment_snapshot: erp-sandbox-2026.11.0",
            'environment_snapshot: "erp-sandbox-2026.11.0" departs from "erp-sandbox-2026.10.2"',
        ),
    ),
    Case(
        "two-benchmarks-in-one-root",
        text("results/v1.1/release.yaml", "  code: lg-bench", "  code: other-bench"),
        at(
            "results/v1.1/release.yaml",
            "code: other-bench",
            "benchmark.code: 'other-bench' (Lingee Bench) differs from 'lg-bench' (Lingee Bench) "
            f"of {RELEASE}; one root publishes the releases of one benchmark",
        ),
    ),
    Case("top-level-list", write(CARD, "- format_version: 1\n"), f"{CARD}:1: expected a mapping"),
    Case(
        "invalid-json-line",
        lambda root: replace(root / LINGEE / "runs.jsonl", '"run":2,', '"run":2,,'),
        at(f"{LINGEE}/runs.jsonl", '"run":2,,', "invalid JSON"),
    ),
    Case(
        "duplicate-json-key",
        lambda root: replace(root / LINGEE / "runs.jsonl", '"run":3,', '"run":3,"run":3,'),
        at(f"{LINGEE}/runs.jsonl", '"run":3,"run":3,', "invalid JSON: duplicate key 'run'"),
    ),
    Case(
        "nan-in-json",
        lambda root: replace(
            root / LINGEE / "runs.jsonl", '"duration_s":', '"duration_s":NaN,"x":'
        ),
        "invalid JSON: NaN is not a number",
    ),
    Case(
        "runs-without-header",
        lambda root: (root / LINGEE / "runs.jsonl").write_text(
            "\n".join((root / LINGEE / "runs.jsonl").read_text().splitlines()[1:]) + "\n"
        ),
        f"{LINGEE}/runs.jsonl:1: the first line must be the header",
    ),
    Case(
        "empty-runs-file",
        write(f"{LINGEE}/runs.jsonl", ""),
        f"{LINGEE}/runs.jsonl: file is empty; expected the header",
    ),
    # --- format versions
    Case(
        "future-format-version",
        text(CARD, "format_version: 1", "format_version: 2"),
        f"{CARD}:4: format_version: 2 is newer than this generator reads (1)",
    ),
    Case(
        "missing-format-version",
        text(TASKS, "format_version: 1\n", ""),
        f"{TASKS}:2: format_version: is missing; expected format_version: 1",
    ),
    Case(
        "future-runs-header",
        text(f"{LINGEE}/runs.jsonl", '{"format_version": 1}', '{"format_version": 7}'),
        f"{LINGEE}/runs.jsonl:1: format_version: 7 is newer than this generator reads",
    ),
    # --- types, ranges, missing fields
    Case(
        "wrong-type",
        text(RELEASE, "runs_per_task: 3", "runs_per_task: three"),
        at(
            RELEASE,
            "runs_per_task: three",
            "runs_per_task: 'three' is not allowed: input should be a valid integer",
        ),
    ),
    Case(
        "missing-field",
        text(RELEASE, "freeze_date: 2026-10-12\n", ""),
        f"{RELEASE}:2: freeze_date: is required but missing",
    ),
    Case(
        "unknown-field",
        text(f"{LINGEE}/bundle.yaml", "temperature:", "temprature:"),
        at(
            f"{LINGEE}/bundle.yaml",
            "temprature",
            "configuration.temprature: is not a field of this format",
        ),
    ),
    Case(
        "nan-in-yaml",
        text(TASKS, "rule_weight: 0.5", "rule_weight: .nan"),
        at(
            TASKS,
            "rule_weight: .nan",
            "tasks[0].scoring.rule_weight: nan is not allowed: input should be a finite number",
        ),
    ),
    Case(
        "huge-number",
        text(TASKS, "max_steps: 150", "max_steps: 1e999"),
        at(TASKS, "max_steps: 1e999", "tasks[0].budgets.max_steps:"),
    ),
    Case(
        "negative-tokens",
        runs_of(LINGEE, set_in(FA20, 1, input_tokens=-5)),
        run_line(
            f"{LINGEE}/runs.jsonl",
            FA20,
            1,
            "input_tokens: -5 is not allowed: input should be greater than or equal to 0",
        ),
    ),
    Case(
        "duration-whose-mean-overflows",
        runs_of(LINGEE, set_in(FA20, 1, duration_s=1.7e308)),
        run_line(
            f"{LINGEE}/runs.jsonl",
            FA20,
            1,
            "duration_s: 1.7e+308 is not allowed: input should be less than or equal to "
            "1000000000000000; numbers lie within ±10^15",
        ),
    ),
    Case(
        "freeze-date-past-the-build-timestamps",
        text(RELEASE, "freeze_date: 2026-10-12", "freeze_date: 9999-12-31"),
        at(
            RELEASE,
            "freeze_date: 9999",
            "freeze_date: 9999-12-31 is not allowed: input should be less than or equal to "
            "2099-12-31; dates run from 1970-01-01 to 2099-12-31",
        ),
    ),
    Case(
        "freeze-date-before-the-build-timestamps",
        text(RELEASE, "freeze_date: 2026-10-12", "freeze_date: 0001-01-01"),
        at(
            RELEASE,
            "freeze_date: 0001",
            "freeze_date: 0001-01-01 is not allowed: input should be greater than or equal to "
            "1970-01-01",
        ),
    ),
    Case(
        "run-dates-out-of-range",
        text(f"{LINGEE}/bundle.yaml", "end: 2026-10-27", "end: 2100-01-01"),
        at(f"{LINGEE}/bundle.yaml", "end: 2100", "run_dates.end: 2100-01-01 is not allowed"),
    ),
    Case(
        "rule-weight-out-of-range",
        text(TASKS, "rule_weight: 0.5", "rule_weight: 1.5"),
        at(
            TASKS,
            "rule_weight: 1.5",
            "tasks[0].scoring.rule_weight: 1.5 is not allowed: "
            "input should be less than or equal to 1",
        ),
    ),
    Case(
        "dual-without-weight",
        text(TASKS, "    rule_weight: 0.5\n", ""),
        "tasks[0].scoring: a dual-channel task needs rule_weight between 0 and 1",
    ),
    Case(
        "unquoted-version",
        text(CARD, 'version: "2.3.1"', "version: 2.3"),
        at(
            CARD,
            "version: 2.3",
            "harness.version: 2.3 is not allowed: input should be a valid string; the unquoted "
            'value was read as a number: put it in quotes, e.g. "2.3"',
        ),
    ),
    Case(
        "unquoted-date-as-text",
        text(f"{LINGEE}/bundle.yaml", "version: '2026-09-30'", "version: 2026-09-30"),
        at(
            f"{LINGEE}/bundle.yaml",
            "version: 2026-09-30",
            "combination.model.version: 2026-09-30 is not allowed: input should be a valid "
            'string; the unquoted value was read as a date: put it in quotes, e.g. "2026-09-30"',
        ),
    ),
    Case(
        "impossible-date",
        text(RELEASE, "freeze_date: 2026-10-12", "freeze_date: 2026-13-45"),
        at(
            RELEASE,
            "freeze_date:",
            "freeze_date: '2026-13-45' is not valid: month must be in 1..12",
        ),
    ),
    Case(
        "k-above-runs",
        text(RELEASE, "- 3\ngroups", "- 4\ngroups"),
        "reliability_k [4] exceed runs_per_task 3",
    ),
    # --- HarnessCard
    Case(
        "card-missing-field",
        lambda root: replace(
            root / CARD,
            next(line for line in (root / CARD).read_text().splitlines() if "sandboxing:" in line)
            + "\n",
            "",
        ),
        "layers.execution.sandboxing: is required but missing; every HarnessCard field is "
        "disclosed ({value: ...}), withheld ({withheld: reason}) or not recorded",
    ),
    Case(
        "card-field-neither",
        text(CARD, "max_steps: {value: 150}", "max_steps: {limit: 150}"),
        at(
            CARD,
            "max_steps: {limit",
            "layers.execution.max_steps: expected {value: ...} (disclosed), "
            "{withheld: reason} or not recorded",
        ),
    ),
    Case(
        "card-withheld-without-reason",
        text(
            CARD,
            'anomaly_detection: {withheld: "Heuristics',
            'anomaly_detection: {withheld: "", x: "Heuristics',
        ),
        "layers.verification.anomaly_detection",
    ),
    Case(
        "card-id-mismatch",
        text(CARD, "id: lingee-2.3", "id: lingee-9"),
        f"{CARD}:5: id: 'lingee-9' differs from the file name 'lingee-2.3'",
    ),
    Case(
        "missing-card",
        text(f"{LINGEE}/bundle.yaml", "harnesscard: lingee-2.3", "harnesscard: lingee-3.0"),
        at(
            f"{LINGEE}/bundle.yaml",
            "harnesscard:",
            "combination.harnesscard: no HarnessCard harnesscards/lingee-3.0.yaml",
        ),
    ),
    Case(
        "undeclared-mode",
        text(f"{DUAL}/bundle.yaml", "harness_mode: dual", "harness_mode: turbo"),
        "combination.harness_mode: 'turbo'; card 'deepseek-harness-1.4' declares modes",
    ),
    # --- versions and components
    Case(
        "bundle-version-mismatch",
        text(f"{LINGEE}/bundle.yaml", "release: v1.0", "release: v1.1"),
        f"{LINGEE}/bundle.yaml:3: release: 'v1.1' differs from the release it sits in",
    ),
    Case(
        "component-mismatch",
        text(f"{LINGEE}/bundle.yaml", "protocol: '1.0'", "protocol: '2.0'"),
        at(
            f"{LINGEE}/bundle.yaml",
            "protocol: '2.0'",
            "configuration.pipeline_components.protocol: '2.0' differs from the release's '1.0'",
        ),
    ),
    Case(
        "release-folder-mismatch",
        text(RELEASE, "version: v1.0", "version: v1.0.1"),
        at(RELEASE, "version: v1.0.1", "version: 'v1.0.1' differs from its folder name 'v1.0'"),
    ),
    Case(
        "runs-per-task-mismatch",
        text(f"{LINGEE}/bundle.yaml", "runs_per_task: 3", "runs_per_task: 5"),
        "configuration.runs_per_task: 5 differs from the release's prescribed 3",
    ),
    # --- catalog references
    Case(
        "unknown-domain",
        text(
            TASKS,
            "domain: enterprise\n  subdivision: finance",
            "domain: sales\n  subdivision: finance",
        ),
        "'sales' is not a domain of the release",
    ),
    Case(
        "unknown-subdivision",
        text(TASKS, "subdivision: finance", "subdivision: hr"),
        "'hr' is not a dimension of enterprise",
    ),
    Case(
        "unknown-enumeration",
        text(TASKS, "difficulty: L2", "difficulty: L9"),
        at(
            TASKS,
            "difficulty: L9",
            "tasks[0].difficulty: 'L9' is not declared in the release's enumerations",
        ),
    ),
    Case(
        "group-count-mismatch",
        text(RELEASE, "public: 20", "public: 21"),
        at(RELEASE, "public: 21", "groups.public: declares 21 tasks but the catalog has 20"),
    ),
    Case(
        "repeated-task-id",
        text(
            TASKS, "id: DRV-contract-clause-crosscheck-L2", "id: IMG-single-invoice-recognition-L1"
        ),
        "tasks: repeated ids: IMG-single-invoice-recognition-L1",
    ),
    Case(
        "held-out-deep-dive",
        text(RELEASE, f"- {FA20}", "- finance-ap-33"),
        "'finance-ap-33' is held-out; deep dives cover public tasks only",
    ),
    Case(
        "mistyped-deep-dive-task",
        text(RELEASE, f"- {FA20}", "- finance-fa-2"),
        lambda root: (
            f"{RELEASE}:{line_of(root / RELEASE, '- finance-fa-2')}: "
            f"deep_dives[{_deep_dives(root).index('finance-fa-2')}]: 'finance-fa-2' is not a "
            "task of v1.0; did you mean 'finance-fa-20'?"
        ),
    ),
    Case(
        "missing-narrative",
        lambda root: (root / V1 / "deepdives" / f"{FA20}.yaml").unlink(),
        f"no narrative file {V1}/deepdives/{FA20}.yaml",
    ),
    # --- run records
    Case(
        "unknown-task",
        runs_of(LINGEE, set_in(FA20, 2, task="finance-zz-99")),
        "task: 'finance-zz-99' is not a task of v1.0",
    ),
    Case(
        "mistyped-task",
        runs_of(LINGEE, set_in(FA20, 2, task="finance-fa20")),
        run_line(
            f"{LINGEE}/runs.jsonl",
            "finance-fa20",
            2,
            "task: 'finance-fa20' is not a task of v1.0; did you mean 'finance-fa-20'?",
        ),
    ),
    Case(
        "task-of-another-version",
        runs_of(LINGEE, set_in(FA20, 2, task=ONLY_V11)),
        run_line(
            f"{LINGEE}/runs.jsonl",
            ONLY_V11,
            2,
            f"task: {ONLY_V11!r} is not a task of v1.0: it is a task of v1.1",
        ),
    ),
    Case(
        "mistyped-item",
        runs_of(LINGEE, lambda rs: first(FA20)(rs)["rules"][0].update(id="R1")),
        run_line(
            f"{LINGEE}/runs.jsonl",
            FA20,
            1,
            "rules[0].id: 'R1' is not an ordinary rule item of finance-fa-20; expected one of "
            f"{ordinary_items(FA20)}; did you mean 'R01'?",
        ),
    ),
    Case(
        "trailing-comma-in-runs-line",
        trailing_comma(f"{LINGEE}/runs.jsonl", FA20, 1),
        trailing_comma_expected(f"{LINGEE}/runs.jsonl", FA20, 1),
    ),
    Case(
        "unknown-item",
        runs_of(LINGEE, lambda rs: first(FA20)(rs)["rules"][0].update(id="R99")),
        run_line(
            f"{LINGEE}/runs.jsonl",
            FA20,
            1,
            "rules[0].id: 'R99' is not an ordinary rule item of finance-fa-20",
        ),
    ),
    Case(
        "fatal-item-under-rules",
        runs_of(LINGEE, fatal_under_rules),
        "(it is a fatal item: list it under 'fatal')",
    ),
    Case(
        "missing-item",
        runs_of(LINGEE, drop_item),
        run_line(f"{LINGEE}/runs.jsonl", FA20, 1, "rules: missing verdicts for R02"),
    ),
    Case(
        "level-above-max",
        runs_of(LINGEE, judge_level(5)),
        run_line(
            f"{LINGEE}/runs.jsonl",
            FA20,
            1,
            "judge[0].level: 5 is above J01's maximum; expected 0..4",
        ),
    ),
    Case(
        "duplicate-run",
        runs_of(LINGEE, duplicate(FA20)),
        "run: duplicate record for task 'finance-fa-20' run 1",
    ),
    Case(
        "run-index-too-high",
        runs_of(LINGEE, set_in(FA20, 3, run=4)),
        "run: 4 exceeds the prescribed 3 runs per task",
    ),
    Case(
        "complete-but-missing-runs",
        runs_of(LINGEE, drop_runs_of(FA20)),
        at(
            f"{LINGEE}/bundle.yaml",
            "evaluation:",
            "evaluation: marked complete, but 1 of 34 "
            "covered tasks lack the prescribed 3 valid runs: finance-fa-20 (0 valid)",
        ),
    ),
    Case(
        "judge-invalid-marked-valid",
        runs_of(LINGEE, set_in(FA20, 1, judge_valid=False)),
        "judge_valid: a dual-channel run without a valid Judge result is "
        "evaluation-incomplete, not rule-only",
    ),
    Case(
        "incomplete-without-cause",
        runs_of(LINGEE, set_in(FA20, 1, status="incomplete")),
        "cause: an incomplete run needs a cause",
    ),
    Case(
        "failed-run-without-type",
        runs_of(DUAL, set_in(IMG, 1, failure_type=None)),
        run_line(f"{DUAL}/runs.jsonl", IMG, 1, "failure_type: the run did not succeed"),
    ),
    Case(
        "successful-run-with-type",
        runs_of(LINGEE, set_in(FA20, 1, failure_type="semantic-quality")),
        "failure_type: 'semantic-quality', but the run succeeded",
    ),
    Case(
        "undeclared-failure-type",
        runs_of(DUAL, set_in(IMG, 1, failure_type="bad-luck")),
        "failure_type: 'bad-luck' is not a declared failure type",
    ),
    Case(
        "undesignated-evidence",
        runs_of(
            LINGEE,
            lambda rs: first("KBR-refund-reversal-chain-tracing-L4")(rs)["judge"][0].update(
                evidence=["E9"]
            ),
        ),
        "judge[0].evidence: cites ['E9'], not designated for J01",
    ),
    Case(
        "unknown-module",
        runs_of(LINGEE, set_in(FA20, 1, modules_failed=["turn-9"])),
        "modules_failed[0]: 'turn-9' is not a module of finance-fa-20",
    ),
    Case(
        "run-in-not-covered-scope",
        text(
            f"{LINGEE}/bundle.yaml",
            "runs: runs.jsonl",
            "not_covered:\n- domain: enterprise\n  subdivision: "
            "finance\n  reason: test\nruns: runs.jsonl",
        ),
        "lies in a scope the bundle declares not covered",
    ),
    # --- file references and the file system (symbolic links may not leave the root)
    Case(
        "runs-absolute-path",
        text(f"{LINGEE}/bundle.yaml", "runs: runs.jsonl", "runs: /etc/passwd"),
        at(f"{LINGEE}/bundle.yaml", "runs: /etc", "runs: '/etc/passwd' is absolute"),
    ),
    Case(
        "runs-climbs-out",
        text(f"{LINGEE}/bundle.yaml", "runs: runs.jsonl", "runs: ../opencode/runs.jsonl"),
        "runs: '../opencode/runs.jsonl' climbs out with '..'",
    ),
    Case(
        "runs-backslash",
        text(f"{LINGEE}/bundle.yaml", "runs: runs.jsonl", "runs: 'sub\\runs.jsonl'"),
        "uses '\\'; separate folders with '/'",
    ),
    Case(
        "runs-symlink-out",
        outside_link(f"{LINGEE}/runs.jsonl"),
        f"{LINGEE}/runs.jsonl: is a symbolic link that leads outside the input root",
    ),
    Case(
        "bundle-folder-symlink-out",
        outside_link(f"{V1}/bundles/intruder", target_is_dir=True),
        f"{V1}/bundles/intruder: is a symbolic link that leads outside the input root",
    ),
    Case(
        "card-symlink-out",
        outside_link("harnesscards/intruder.yaml"),
        "harnesscards/intruder.yaml: is a symbolic link that leads outside the input root",
    ),
    Case(
        "deep-dive-symlink-out",
        outside_link(f"{V1}/deepdives/{FA20}.yaml"),
        f"{V1}/deepdives/{FA20}.yaml: is a symbolic link that leads outside the input root",
    ),
    # --- resource limits
    Case(
        "json-nested-too-deeply",
        runs_line(f"{LINGEE}/runs.jsonl", 2, "[" * 100_000 + "]" * 100_000),
        f"{LINGEE}/runs.jsonl:2: invalid JSON: nested too deeply",
    ),
    Case(
        "json-number-overflows",
        lambda root: replace(
            root / LINGEE / "runs.jsonl", '"run":1,"seed":', '"run":1,"seed":1e400,"x":'
        ),
        "invalid JSON: '1e400' is out of range for a number",
    ),
    Case(
        "yaml-nested-too-deeply",
        write(CARD, "format_version: 1\nid: " + "[" * 5_000 + "]" * 5_000 + "\n"),
        f"{CARD}:2: invalid YAML: while increasing flow level exceeded maximum nesting depth",
    ),
    Case(
        "yaml-number-with-100k-digits",
        text(TASKS, "max_steps: 150", "max_steps: " + "9" * 100_000),
        at(TASKS, "max_steps: 999", "tasks[0].budgets.max_steps: a number with too many digits"),
    ),
    Case(
        "runs-line-too-long",
        runs_line(f"{LINGEE}/runs.jsonl", 3, '{"task": "' + "x" * (9 * 1024 * 1024) + '"}'),
        f"{LINGEE}/runs.jsonl:3: line longer than 8,388,608 bytes",
    ),
    Case(
        "terminal-escape-in-key",
        text(CARD, "format_version: 1", 'format_version: 1\n"\\e[31mred\\u202e": 1'),
        "\\u001b[31mred\\u202e: is not a field of this format",
    ),
]


def _digest(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def previous_site(site: Path) -> tuple[Path, dict[str, str]]:
    """The example site as a previous build, with the digest of every file."""
    return site, _digest(site)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_is_rejected_with_location(
    case: Case, example: Path, run_cli: Any, previous_site: tuple[Path, dict[str, str]]
) -> None:
    case.mutate(example)
    result = run_cli("validate", "--root", str(example))
    expected = case.expect(example) if callable(case.expect) else case.expect
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert expected in result.output, result.output
    assert result.output.rstrip().splitlines()[-1].startswith("Error: input is invalid:")
    # The same input makes a build fail with the same report, and the previous site stays.
    site, before = previous_site
    built = run_cli("build", "--root", str(example), "--out", str(site))
    assert built.exit_code == 1, built.output
    assert expected in built.output
    assert _digest(site) == before


def test_corpus_is_large_and_distinct() -> None:
    assert len(CASES) >= 60
    assert len({c.name for c in CASES}) == len(CASES)
