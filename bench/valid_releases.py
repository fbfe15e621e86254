"""Whole releases that should be valid, drawn by hypothesis and written as input roots: the
strategy behind ``bench/valid_builds.py`` and ``tests/test_valid_builds.py``.

A release starts from one of four bases: the Lingee example (``results/``), a synthetic
Lingee release of drawn size (``bench/make_release.py``: few tasks, held-out groups below
the minimum, many runs), and the two profile examples (``examples/enterprisebench``,
``examples/enterpriseclawbench``). It then takes drawn edits meant to keep it valid:

- ``counts``: a count (turns, duration, tokens) left out of every run, recorded on every
  run, on every run of one bundle only, or on some runs only; a bundle that leaves out a
  count the release reports names it in ``counts_not_recorded``;
- ``undeclare_tokens``: the token metrics taken out of the release (where no view names
  them), so that it declares none, their counts then drawn as above;
- ``strings``: a free-text rationale and note of its own on every verdict and run;
- ``dates``: every date of every file at the first or the last day a date may be;
- ``values``: durations, tokens and measured values at the largest or the smallest value
  they may take, on some runs;
- ``min_held_out``: the release's ``groups.min_held_out_aggregate``;
- ``not_recorded``: "not recorded" (the source does not say) in the model, agent and
  generation settings of one bundle, or in every recordable setting of every bundle, every
  HarnessCard field and every run's seed.

Whether validate accepts what comes out is not assumed: the property is that what it
accepts, build publishes, and what it refuses it refuses with located problems.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

import make_release  # noqa: E402

from generator.models.base import FIRST_DATE, LAST_DATE, MAX_FLOAT, MAX_INT  # noqa: E402
from generator.models.profile import RUN_FIELDS, TOKEN_METRICS  # noqa: E402

BASES = ("example", "synthetic", "enterprisebench", "enterpriseclawbench")
#: The counts a run may record, and how a drawn release records those it need not.
COUNTS = ("input_tokens", "output_tokens", "duration_s", "turns")
MODES = ("keep", "none", "all", "one-bundle", "some-runs")
#: Runs of the synthetic base with many runs: more than 4,096 distinct strings a column.
MANY_RUNS = 900


@dataclass(frozen=True)
class Choices:
    """Everything drawn for one release: its base, the synthetic base's size, the edits."""

    base: str
    size: dict[str, int] = field(default_factory=dict)
    counts: dict[str, str] = field(default_factory=dict)
    undeclare_tokens: bool = False
    strings: bool = False
    dates: str | None = None
    values: str | None = None
    min_held_out: int | None = None
    not_recorded: str | None = None


@st.composite
def releases(draw: st.DrawFn) -> Choices:
    """A base and its edits (see the module's docstring)."""
    base = draw(st.sampled_from(BASES))
    size: dict[str, int] = {}
    if base == "synthetic":
        many = draw(st.sampled_from([False, False, False, True]))
        size = {
            "tasks_general": draw(st.integers(1, 6)),
            "tasks_enterprise": draw(st.integers(1, 6)),
            "combinations": 1 if many else draw(st.integers(1, 3)),
            "runs": MANY_RUNS if many else draw(st.integers(1, 3)),
            "rules": draw(st.integers(2, 6)),
            "judges": draw(st.integers(1, 3)),
            "seed": draw(st.integers(0, 1000)),
        }
        if many:
            size.update(tasks_general=3, tasks_enterprise=2)
    return Choices(
        base=base,
        size=size,
        counts={c: draw(st.sampled_from(MODES)) for c in COUNTS},
        undeclare_tokens=draw(st.booleans()),
        strings=draw(st.booleans()),
        dates=draw(st.sampled_from([None, "first", "last"])),
        values=draw(st.sampled_from([None, "huge", "tiny"])),
        min_held_out=draw(st.sampled_from([None, 2, 3, 5, 8])),
        not_recorded=draw(st.sampled_from([None, "one-bundle", "every-bundle"])),
    )


# ---------------------------------------------------------------------------- writing


def write(choices: Choices, root: Path) -> None:
    """Write the drawn release under ``root`` (results/ and harnesscards/)."""
    _base(choices, root)
    for release in sorted(root.glob("results/*/release.yaml")):
        metrics = _edit_release(choices, release)
        declared = {f for m in metrics if m in RUN_FIELDS for f in RUN_FIELDS[m]}
        bundles = sorted(release.parent.glob("bundles/*/runs.jsonl"))
        for n, runs in enumerate(bundles):
            _edit_runs(choices, runs, n == 0, declared, metrics)
            if choices.not_recorded == "every-bundle" or (choices.not_recorded and n == 0):
                _not_recorded(runs.parent / "bundle.yaml", choices.not_recorded)
    if choices.not_recorded == "every-bundle":
        for card in sorted(root.glob("harnesscards/*.yaml")):
            _card_not_recorded(card)
    if choices.dates:
        day = str(FIRST_DATE if choices.dates == "first" else LAST_DATE)
        for path in sorted(root.rglob("*.yaml")):
            text = path.read_text(encoding="utf-8")
            path.write_text(_DATE.sub(lambda m: m.group(1) + day, text), encoding="utf-8")


def _base(choices: Choices, root: Path) -> None:
    if choices.base == "synthetic":
        make_release.write_release(root, **choices.size)
        return
    source = REPO if choices.base == "example" else REPO / "examples" / choices.base
    skip = shutil.ignore_patterns("*.py")
    shutil.copytree(source / "results", root / "results", ignore=skip)
    shutil.copytree(source / "harnesscards", root / "harnesscards")


#: A date after the key of a date field of the inputs (quoted or not).
_DATE = re.compile(
    r"^(\s*(?:- )?(?:freeze_date|start|end|date|card_date): )[\"']?\d{4}-\d{2}-\d{2}[\"']?$",
    re.MULTILINE,
)


def _edit_release(choices: Choices, path: Path) -> dict[str, dict[str, Any]]:
    """Apply the release's edits; return its declared metrics by id."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    changed = False
    if choices.undeclare_tokens:
        kept = [m for m in data["metrics"] if m["id"] not in TOKEN_METRICS]
        rest = json.dumps({k: v for k, v in data.items() if k != "metrics"}, default=str)
        if len(kept) < len(data["metrics"]) and not any(f'"{t}"' in rest for t in TOKEN_METRICS):
            data["metrics"], changed = kept, True
    if choices.min_held_out is not None:
        data.setdefault("groups", {})["min_held_out_aggregate"] = choices.min_held_out
        changed = True
    if changed:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
        path.write_text(text, encoding="utf-8")
    return {m["id"]: m for m in data["metrics"]}


def _edit_runs(
    choices: Choices,
    path: Path,
    first: bool,
    declared: set[str],
    metrics: dict[str, dict[str, Any]],
) -> None:
    """Apply the runs' edits to one bundle's runs file (``first``: the first bundle)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines[1:] if line.strip()]
    for i, record in enumerate(records):
        for count, mode in choices.counts.items():
            _record_count(record, count, mode, first, i)
        if choices.not_recorded == "every-bundle" and i % 2:
            record.pop("seed", None)
        if choices.strings:
            for verdict in record.get("judge", []):
                verdict["rationale"] = f"Free text {i}: {verdict['id']} in {path.parent.name}."
            record["note"] = f"Run {i} of {path.parent.name}, noted in its own words."
        if choices.values and i % 3 == 0:
            _extreme(record, choices.values, metrics)
    body = [lines[0], *(json.dumps(r, ensure_ascii=False) for r in records)]
    path.write_text("\n".join(body) + "\n", encoding="utf-8")
    left_out = sorted(c for c in declared & set(COUNTS) if any(r.get(c) is None for r in records))
    if left_out:
        _edit_yaml(path.parent / "bundle.yaml", lambda b: b.update(counts_not_recorded=left_out))


def _edit_yaml(path: Path, change: Any) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


#: The settings "not recorded" in one bundle (none a release holds fixed across bundles),
#: and in every bundle (each then the same in all of them).
ONE_BUNDLE = {
    "combination": ("agent_version",),
    "model": ("version", "provider", "tokenizer"),
    "configuration": ("temperature", "top_p", "max_output_tokens", "context_window"),
}
EVERY_BUNDLE = {
    **ONE_BUNDLE,
    "configuration": (*ONE_BUNDLE["configuration"], "compression_threshold", "reasoning_mode"),
    "budgets": ("timeout_s", "max_steps", "max_tokens", "max_retries", "retry_policy"),
    "clarification": ("simulated_user_script_version", "waiting_cap_s", "rules"),
    "evaluator": ("judge_model", "judge_model_version", "prompt_version", "voting"),
}


def _not_recorded(path: Path, how: str) -> None:
    """The bundle's settings of :data:`ONE_BUNDLE` or :data:`EVERY_BUNDLE` not recorded."""

    def change(bundle: dict[str, Any]) -> None:
        parts = {
            "combination": bundle["combination"],
            "model": bundle["combination"]["model"],
            **{k: bundle[k] for k in ("configuration", "budgets", "clarification", "evaluator")},
        }
        for part, names in (ONE_BUNDLE if how == "one-bundle" else EVERY_BUNDLE).items():
            parts[part].update(dict.fromkeys(names, "not recorded"))
        if how == "every-bundle":
            bundle["environment_snapshot"] = "not recorded"
            for evaluator in bundle.get("channels", {}).values():
                evaluator.update(dict.fromkeys(EVERY_BUNDLE["evaluator"], "not recorded"))

    _edit_yaml(path, change)


def _card_not_recorded(path: Path) -> None:
    """Every field of the HarnessCard not recorded."""

    def change(card: dict[str, Any]) -> None:
        for layer in card["layers"].values():
            for name in list(layer):
                if name != "additional":
                    layer[name] = "not recorded"

    _edit_yaml(path, change)


def _record_count(record: dict[str, Any], count: str, mode: str, first: bool, i: int) -> None:
    """Record or leave out an optional count, as ``mode`` says."""
    if mode == "keep":
        return
    wanted = mode == "all" or (mode == "one-bundle" and first) or (mode == "some-runs" and i % 2)
    if not wanted:
        record.pop(count, None)
    elif count not in record:
        record[count] = {"duration_s": 12.5 + i, "turns": 1 + i % 7}.get(count, 1000 + i)


def _extreme(record: dict[str, Any], how: str, metrics: dict[str, dict[str, Any]]) -> None:
    """The run's duration, input tokens and measured values at their largest or smallest."""
    huge = how == "huge"
    if "duration_s" in record:
        record["duration_s"] = MAX_FLOAT if huge else 5e-324
    if "input_tokens" in record:
        record["input_tokens"] = MAX_INT if huge else 0
    for measure in record.get("measures", []):
        bounds = metrics.get(measure["id"], {}).get("range") or {}
        low, high = bounds.get("low", 0.0), bounds.get("high")
        if huge:
            measure["value"] = float(high if high is not None else MAX_FLOAT)
        elif (low is None or low <= 5e-324) and (high is None or high >= 5e-324):
            measure["value"] = 5e-324
