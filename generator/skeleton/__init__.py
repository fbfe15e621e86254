"""``python -m generator init DIR --benchmark NAME``: a minimal input root for a new benchmark.

It writes a short ``release.yaml`` (one domain, the profile that asks tasks for nothing beyond
their id, title, family, group and scoring), ``tasks.yaml`` with two example tasks, one bundle
of example runs whose every configuration setting is "not recorded", a HarnessCard whose every
field is "not recorded", and a continuous-integration workflow that validates and builds. The
root validates and builds as written (its notice says the tasks and runs are examples), so a
publisher replaces one part at a time and sees the site after each.

Two kinds: ``pass-fail`` (each task one check: its Task Score is its pass rate) and
``scored`` (each task several checks: a run scores the share it passed). The files are
templates (``*.j2`` beside this module); every value that comes from the command line is
written by the YAML serializer, never pasted in.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import click
import jinja2
import yaml
from pydantic import ValidationError

from generator.models.base import FORMAT_VERSION, ID_PATTERN, NOT_RECORDED
from generator.models.harnesscard import MINIMUM_FIELDS
from generator.models.release import Benchmark

KINDS = ("pass-fail", "scored")
RUNS = 3
HERE = Path(__file__).resolve().parent

#: Each example task's checks, and whether each of its runs passed each check, by kind.
EXAMPLES: dict[str, list[dict[str, Any]]] = {
    "pass-fail": [
        {"id": "example-task-1", "title": "Example task 1", "checks": [[1], [1], [0]]},
        {"id": "example-task-2", "title": "Example task 2", "checks": [[0], [1], [0]]},
    ],
    "scored": [
        {
            "id": "example-task-1",
            "title": "Example task 1",
            "checks": [[1, 1, 0], [1, 1, 1], [1, 0, 0]],
        },
        {
            "id": "example-task-2",
            "title": "Example task 2",
            "checks": [[0, 1, 0], [1, 1, 0], [0, 0, 0]],
        },
    ],
}


def _scalar(value: Any) -> str:
    """One value as YAML writes it, on one line (text double-quoted and escaped)."""
    style = '"' if isinstance(value, str) else None
    text = yaml.safe_dump(value, allow_unicode=True, default_style=style, width=10**9)
    return text.removesuffix("\n...\n").strip()


def code_of(name: str) -> str:
    """The benchmark's code from its name: lower-case letters and digits joined by '-', at
    most 64 characters ("Terminal-Bench 2.0": "terminal-bench-2-0"); "benchmark" when none
    is left."""
    return "-".join(re.findall(r"[a-z0-9]+", name.lower()))[:64].strip("-") or "benchmark"


def _comment(text: str) -> str:
    """Text for a YAML comment: on one line, every line break (and every character that
    breaks one) a space."""
    return " ".join(re.split(r"[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]+", text))


def _tasks(kind: str) -> list[dict[str, Any]]:
    out = []
    for task in EXAMPLES[kind]:
        width = len(task["checks"][0])
        items = (
            [{"id": "passed", "title": "The task's check passed"}]
            if width == 1
            else [{"id": f"check-{i + 1}", "title": f"Check {i + 1}"} for i in range(width)]
        )
        out.append({**task, "items": items})
    return out


def _runs(tasks: list[dict[str, Any]]) -> str:
    """The runs file: its header, then one line per run (a run that failed a check did not
    succeed, and names its failure type)."""
    lines = [json.dumps({"format_version": FORMAT_VERSION})]
    for task in tasks:
        for n, checks in enumerate(task["checks"], 1):
            rules = [
                {"id": i["id"], "pass": bool(c)} for i, c in zip(task["items"], checks, strict=True)
            ]
            record = {
                "task": task["id"],
                "run": n,
                "status": "valid",
                "delivery": True,
                "rules": rules,
                "failure_type": None if all(checks) else "failed",
            }
            lines.append(json.dumps(record, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def _card(name: str, day: dt.date) -> str:
    """The HarnessCard of the example agent: every minimum field not recorded."""
    card: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "id": "example-agent",
        "harness": {"name": "Example agent", "version": NOT_RECORDED, "vendor": NOT_RECORDED},
        "card_date": day,
        "layers": {
            layer: dict.fromkeys(fields, NOT_RECORDED) for layer, fields in MINIMUM_FIELDS.items()
        },
    }
    head = (
        f"# The HarnessCard of the example agent of {_comment(name)}, written by "
        "`python -m generator init`.\n# Each field is disclosed ({value: ...}), withheld "
        "({withheld: reason}) or not recorded.\n"
    )
    return head + yaml.safe_dump(card, sort_keys=False, allow_unicode=True, width=92)


def skeleton(
    name: str, kind: str, version: str, day: dt.date, code: str | None = None
) -> dict[str, str]:
    """Every file of the root, by its path under the root."""
    tasks = _tasks(kind)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # YAML, not HTML: every value from outside goes through _scalar
    )
    env.filters["y"] = _scalar
    env.filters["comment"] = _comment
    values = {
        "name": name,
        "code": code or code_of(name),
        "version": version,
        "day": day.isoformat(),
        "runs": RUNS,
        "ks": list(range(1, RUNS + 1)),
        "tasks": tasks,
        "outcome": "Pass rate" if kind == "pass-fail" else "Task Score",
        "failed": "The task was not passed" if kind == "pass-fail" else "A check failed",
        "description": (
            "Each task passes or fails; a combination's figure is its pass rate over the tasks."
            if kind == "pass-fail"
            else "Each task has several checks; a run scores the share of them it passed."
        ),
        "notice": (
            "**Written by `python -m generator init`.** The two tasks, the agent and its runs "
            "are examples: replace them with your own, then set `illustrative: false` and "
            "remove this notice."
        ),
        "boundaries": (
            f"A score belongs to one combination of agent and model on one version of {name}; "
            "scores are not compared across versions."
        ),
    }
    bundle = f"results/{version}/bundles/example-agent"
    return {
        f"results/{version}/release.yaml": env.get_template("release.yaml.j2").render(values),
        f"results/{version}/tasks.yaml": env.get_template("tasks.yaml.j2").render(values),
        f"{bundle}/bundle.yaml": env.get_template("bundle.yaml.j2").render(values),
        f"{bundle}/runs.jsonl": _runs(tasks),
        "harnesscards/example-agent.yaml": _card(name, day),
        ".github/workflows/release-site.yml": env.get_template("workflow.yml.j2").render(values),
    }


def write_skeleton(root: Path, files: dict[str, str]) -> list[Path]:
    """Write ``files`` under ``root``; nothing is written when any of them exists, or a
    folder one of them needs is a file."""
    present = [root / p for p in files if (root / p).exists()]
    blocked = {
        folder
        for p in files
        for folder in (root / p).parents
        if folder.exists() and not folder.is_dir()
    }
    if present or blocked:
        raise FileExistsError(", ".join(str(p) for p in sorted({*present, *blocked})))
    written = []
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


@click.command("init")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--benchmark", "name", required=True, help="The benchmark's name, e.g. 'My Bench'.")
@click.option(
    "--kind",
    type=click.Choice(KINDS),
    default=KINDS[0],
    show_default=True,
    help="pass-fail: each task passes or fails; scored: a run scores the share of checks passed.",
)
@click.option("--version", default="v1.0", show_default=True, help="The first release's version.")
@click.option("--code", default=None, help="The benchmark's code (default: from its name).")
@click.option(
    "--freeze-date",
    type=click.DateTime(["%Y-%m-%d"]),
    default=None,
    help="The day the task set was frozen (default: today).",
)
def init(
    folder: Path, name: str, kind: str, version: str, code: str | None, freeze_date: Any
) -> None:
    """Write a minimal input root for a new benchmark into FOLDER: a release, two example
    tasks, one bundle of example runs, a HarnessCard and a CI workflow. It validates and
    builds as written; replace the examples one part at a time."""
    try:
        Benchmark(name=name, code=code or code_of(name))
    except ValidationError as exc:
        what = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise click.BadParameter(what, param_hint="--benchmark/--code") from None
    if not re.fullmatch(ID_PATTERN, version):
        raise click.BadParameter(f"{version!r} is not a version id", param_hint="--version")
    day = freeze_date.date() if freeze_date else dt.date.today()
    try:
        written = write_skeleton(folder, skeleton(name, kind, version, day, code))
    except FileExistsError as exc:
        raise click.UsageError(f"{exc} exists: init never overwrites a file") from None
    for path in written:
        click.echo(path)
    click.echo(
        f"next: python -m generator validate --root {folder}, then build --root {folder}",
        err=True,
    )
