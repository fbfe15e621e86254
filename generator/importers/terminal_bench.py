"""Terminal-Bench runs and Harbor jobs → what they record.

A Terminal-Bench run folder holds ``results.json`` (a ``results`` list of trials: task id,
trial name, resolved or not, failure mode, token counts, time stamps) and
``run_metadata.json`` (agent, model, attempts, dataset); a Harbor job folder holds one
``<trial>/result.json`` per trial (:mod:`generator.importers.harbor`). A task is a task, a
trial a run. A trial the tests resolved passes; one they did not fails, its failure mode
(or "unresolved") its failure type. A trial without a verdict, or whose failure lies with
the harness rather than the agent (:data:`HARNESS_MODES`: the agent could not be installed
or crashed, the tests timed out or could not be read), is evaluation-incomplete with its
mode as cause: never a 0. The mapping is in ``docs/import-terminal-bench.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from generator.importers.harbor import harbor_trials, is_harbor_job
from generator.importers.registry import BuiltIn
from generator.importers.source import (
    Imported,
    ImportedBundle,
    ImportedRun,
    ImportedTask,
    Outcome,
    SourceError,
    as_id,
    day_of,
    distinct_ids,
    read_json,
    seconds_between,
)
from generator.models.base import NOT_RECORDED

#: Failure modes that say the harness, not the agent, kept the trial from a verdict.
HARNESS_MODES = frozenset(
    {"unknown_agent_error", "agent_installation_failed", "test_timeout", "parse_error", "unknown"}
)
#: Failure modes that say nothing failed.
NO_MODE = frozenset({"unset", "none", ""})
OUTCOME = Outcome("pass-fail", "resolved", "Resolved", "The task's tests passed")


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = data.get(key)
    if value is not None and not isinstance(value, kind):
        raise SourceError(where, f"{key}: {value!r} is not of the expected kind")
    return value


def _trials(path: Path) -> list[dict[str, Any]]:
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise SourceError(
            str(path), "expected Terminal-Bench's results: an object with a 'results' list"
        )
    trials: list[dict[str, Any]] = data["results"]
    if not trials:
        raise SourceError(str(path), "its 'results' list holds no trial; expected one at least")
    for i, trial in enumerate(trials):
        if not isinstance(trial, dict) or not isinstance(trial.get("task_id"), str):
            raise SourceError(f"{path}: results[{i}]", "expected a trial with a task_id")
    return trials


def _attempt(name: str | None) -> tuple[int, int] | None:
    """The attempt and attempts of a trial name such as ``hello-world.2-of-3.run-id``."""
    found = re.search(r"(?:^|\.)(\d+)-of-(\d+)(?:\.|$)", name or "")
    return (int(found.group(1)), int(found.group(2))) if found else None


def run_of_trial(trial: dict[str, Any], run: int, where: str) -> ImportedRun:
    """One Terminal-Bench trial as a run."""
    task = as_id(trial["task_id"], "task_id", where)
    resolved = _field(trial, "is_resolved", bool, where)
    mode = str(_field(trial, "failure_mode", str, where) or "unset")
    tokens_in = _field(trial, "total_input_tokens", int, where)
    tokens_out = _field(trial, "total_output_tokens", int, where)
    if tokens_in == 0 and tokens_out == 0:  # installed agents write 0 when they do not count
        tokens_in = tokens_out = None
    counts: dict[str, Any] = {
        "source": where,
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "duration_s": seconds_between(
            trial.get("agent_started_at"), trial.get("agent_ended_at"), f"{where}: agent_started_at"
        ),
    }
    if resolved is None or mode in HARNESS_MODES:
        cause = as_id(mode, "failure_mode", where) if mode not in NO_MODE else "no-verdict"
        return ImportedRun(task, run, "incomplete", cause=cause, **counts)
    failure = None if resolved else (mode if mode not in NO_MODE else "unresolved")
    return ImportedRun(
        task,
        run,
        "valid",
        passed=resolved,
        failure_type=as_id(failure, "failure_mode", where) if failure else None,
        **counts,
    )


def _runs(trials: list[dict[str, Any]], where: str) -> tuple[list[ImportedRun], int]:
    """The runs of a run folder's trials, numbered by attempt (else by start), and the
    attempts per task."""
    by_task: dict[str, list[dict[str, Any]]] = {}
    for trial in trials:
        by_task.setdefault(trial["task_id"], []).append(trial)
    distinct_ids(by_task, "task_id", where)
    runs, most = [], 1
    for task, group in sorted(by_task.items()):
        attempts = [_attempt(_field(t, "trial_name", str, where)) for t in group]
        firsts = [a[0] for a in attempts if a is not None and 1 <= a[0] <= a[1]]
        if len(firsts) == len(group) == len(set(firsts)):
            numbered = list(zip(firsts, group, strict=True))
            most = max(most, *(a[1] for a in attempts if a))
        else:
            ordered = sorted(
                group, key=lambda t: (str(t.get("trial_started_at")), str(t.get("trial_name")))
            )
            numbered = list(enumerate(ordered, 1))
        most = max(most, len(group))
        runs += [run_of_trial(t, n, f"{where}: {task} trial {n}") for n, t in numbered]
    most = max(most, *(r.run for r in runs))
    return runs, most


def tb_run(folder: Path) -> tuple[ImportedBundle, dict[str, str | None]]:
    """A Terminal-Bench run folder as a bundle, and its dataset (name, version)."""
    results = folder / "results.json"
    trials = _trials(results)
    meta_path = folder / "run_metadata.json"
    # Without it (some published runs lack it), the agent and the model are not recorded,
    # and the run folder names the combination (or --combination does).
    meta = read_json(meta_path) if meta_path.is_file() else {}
    if not isinstance(meta, dict):
        raise SourceError(str(meta_path), "expected Terminal-Bench's run metadata: an object")
    agent = _field(meta, "agent_name", str, str(meta_path)) or NOT_RECORDED
    model = _field(meta, "model_name", str, str(meta_path)) or NOT_RECORDED
    runs, most = _runs(trials, str(results))
    attempts = max(_field(meta, "n_attempts", int, str(meta_path)) or 1, most)
    stamps = [
        (t.get(k), f"{results}: results[{i}].{k}")
        for i, t in enumerate(trials)
        for k in ("trial_started_at", "trial_ended_at")
    ]
    stamps += [(meta.get(k), f"{meta_path}: {k}") for k in ("start_time", "end_time")]
    days = sorted(d for d in (day_of(s, where) for s, where in stamps) if d)
    if not days:
        raise SourceError(str(results), "no trial records when it ran (trial_started_at)")
    provider, _, name = model.partition("/")
    named = f"{agent}-{model}" if meta else folder.name
    bundle = ImportedBundle(
        combination=as_id(named, "combination", str(meta_path)),
        title=f"{agent} × {model}" if meta else folder.name,
        harness=agent,
        harness_version=None,
        model=name or model,
        model_provider=provider if name else None,
        runs_per_task=attempts,
        first_day=days[0],
        last_day=days[-1],
        runs=tuple(runs),
    )
    dataset = {"name": meta.get("dataset_name"), "version": meta.get("dataset_version")}
    return bundle, dataset


def _folders(sources: Sequence[Path]) -> list[Path]:
    found = []
    for source in sources:
        if source.is_file():
            source = source.parent
        if (source / "results.json").is_file() or is_harbor_job(source):
            found.append(source)
            continue
        inside = sorted(p for p in source.iterdir() if (p / "results.json").is_file())
        if not inside:
            raise SourceError(
                str(source),
                "holds no Terminal-Bench run (results.json) or Harbor job (<trial>/result.json)",
            )
        found += inside
    return sorted(dict.fromkeys(found))


def merged(bundles: list[ImportedBundle]) -> list[ImportedBundle]:
    """The bundles of one agent and model from several run folders or jobs as one, in the
    order of their folders: the runs of each later one follow those of the earlier (a
    leaderboard submission is several runs of one attempt each)."""
    out: dict[tuple[str | None, ...], ImportedBundle] = {}
    for bundle in bundles:
        key = (
            bundle.combination,
            bundle.harness,
            bundle.harness_version,
            bundle.model,
            bundle.model_provider,
        )
        first = out.get(key)
        if first is None:
            out[key] = bundle
            continue
        later = tuple(replace(r, run=r.run + first.runs_per_task) for r in bundle.runs)
        out[key] = replace(
            first,
            runs=first.runs + later,
            runs_per_task=first.runs_per_task + bundle.runs_per_task,
            first_day=min(first.first_day, bundle.first_day),
            last_day=max(first.last_day, bundle.last_day),
        )
    return list(out.values())


def read_terminal_bench(sources: Sequence[Path], scorer: str | None) -> Imported:
    """What the Terminal-Bench runs and Harbor jobs under ``sources`` record."""
    bundles: list[ImportedBundle] = []
    datasets: list[dict[str, str | None]] = []
    outcome = OUTCOME
    for folder in _folders(sources):
        if (folder / "results.json").is_file():
            bundle, dataset = tb_run(folder)
            if bundles and outcome != OUTCOME:
                raise SourceError(
                    str(folder),
                    "scores pass/fail, the other sources do not; "
                    "import sources of one outcome together",
                )
            bundles += [bundle]
        else:
            found, dataset, read = harbor_trials(folder, scorer)
            if bundles and read != outcome:
                raise SourceError(
                    str(folder),
                    f"scores in {read.title}, the other sources in {outcome.title}; "
                    "import sources of one outcome together",
                )
            bundles += found
            outcome = read
        datasets.append(dataset)
    bundles = merged(bundles)
    tasks = sorted({r.task for b in bundles for r in b.runs})
    names = sorted({str(d["name"]) for d in datasets if d.get("name")})
    versions = sorted({str(d["version"]) for d in datasets if d.get("version")})
    benchmark = names[0] if len(names) == 1 else "Terminal-Bench"
    runs = [r for b in bundles for r in b.runs]
    return Imported(
        benchmark=benchmark,
        tool="Terminal-Bench",
        outcome=outcome,
        domains={"terminal": benchmark},
        tasks=tuple(ImportedTask(t, t, "terminal") for t in tasks),
        bundles=tuple(bundles),
        causes={c: _title(c, "incomplete") for c in sorted({r.cause for r in runs if r.cause})},
        failures={
            f: _title(f, "failure")
            for f in sorted({r.failure_type for r in runs if r.failure_type})
        },
        components={"tasks": versions[0] if len(versions) == 1 else None},
        scorer={"tests": None},
    )


def _title(mode: str, kind: str) -> str:
    if mode == "unresolved":
        return "The task's tests did not pass"
    if mode == "no-verdict":
        return "The trial ended without a verdict of the tests"
    what = "kept the trial from a verdict" if kind == "incomplete" else "and the tests failed"
    return f"Failure mode {mode} ({what})"


IMPORTER = BuiltIn("Terminal-Bench runs (results.json) and Harbor jobs", read_terminal_bench)
