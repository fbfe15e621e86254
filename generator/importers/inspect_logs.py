"""Inspect AI logs (``.eval`` and ``.json``, files or folders) → what they record.

Read through Inspect's public API (``inspect_ai.log.list_eval_logs`` and
``read_eval_log``), installed with the ``inspect`` extra. An Inspect task is a domain, its
samples the tasks, its epochs the runs; one bundle per solver (or agent) and model. The
outcome is the named scorer's value: pass/fail where every value is C, I or N (or a
boolean), a number otherwise (Inspect's ``value_to_float``). A sample that ended in an
error, or that the log lacks (a cancelled evaluation), is an evaluation-incomplete run
with its cause, never a 0. The field-by-field mapping is in ``docs/import-inspect.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from generator.importers.inspect_samples import (
    CAUSES,
    Scored,
    failure_title,
    outcome_of,
    run_of,
    values_of,
)
from generator.importers.registry import BuiltIn
from generator.importers.source import (
    Imported,
    ImportedBundle,
    ImportedTask,
    SourceError,
    as_id,
    day_of,
)

EXTRA = "pip install -e '.[inspect]' (or pip install inspect_ai)"


def _api() -> Any:
    try:
        import inspect_ai.log as api
    except ImportError:
        raise SourceError("inspect", f"Inspect AI is not installed; {EXTRA}") from None
    return api


def log_files(sources: Sequence[Path]) -> list[str]:
    """Every Inspect log the sources name: a file, or the logs under a folder (sorted)."""
    api = _api()
    found: list[str] = []
    for source in sources:
        if source.is_dir():
            inside = sorted(info.name for info in api.list_eval_logs(str(source)))
            if not inside:
                raise SourceError(
                    str(source),
                    "holds no Inspect log as Inspect lists them (.eval files, or .json logs "
                    "named as Inspect names them); give a renamed log as a file",
                )
            found += inside
        elif source.is_file():
            found.append(str(source))
        else:
            raise SourceError(str(source), "no such file or folder")
    return sorted(dict.fromkeys(found))


def _shown(name: str) -> str:
    return name.removeprefix("file://")


def read_logs(files: Sequence[str]) -> list[Any]:
    """Each log, in full; a :class:`SourceError` for a file Inspect cannot read, or whose
    samples were not logged."""
    api = _api()
    logs = []
    for name in files:
        try:
            log = api.read_eval_log(name)
        except Exception as exc:  # Inspect's reader raises its own and pydantic's errors
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise SourceError(
                _shown(name), f"not an Inspect log Inspect can read: {first}"
            ) from None
        if log.samples is None:
            raise SourceError(
                _shown(name),
                "records no samples (written with log_samples=False); the import needs each "
                "sample's score",
            )
        logs.append(log)
    return logs


def harness_of(log: Any) -> str:
    """The solver (or agent) that ran: the one named, else the plan's steps."""
    if log.eval.solver:
        return str(log.eval.solver)
    steps = [step.solver for step in log.plan.steps]
    return " → ".join(steps) if steps else "generate"


def scorer_of(logs: Sequence[Any], scorer: str | None) -> str:
    """The scorer the outcome comes from: the one named, else the logs' only one."""
    names: list[str] = sorted(
        {str(name) for log in logs for s in log.samples for name in (s.scores or {})}
    )
    if scorer is not None:
        if scorer not in names:
            raise SourceError("--scorer", f"{scorer!r} scored no sample; expected one of {names}")
        return scorer
    if len(names) != 1:
        raise SourceError(
            "--scorer", f"the logs have the scorers {names}; name the one to import with --scorer"
        )
    return names[0]


def _configuration(log: Any) -> dict[str, Any]:
    config = log.eval.model_generate_config
    out: dict[str, Any] = {
        "temperature": config.temperature,
        "top_p": config.top_p,
        "max_output_tokens": config.max_tokens,
    }
    reasoning = [
        f"{key} {getattr(config, key)}"
        for key in ("reasoning_effort", "reasoning_tokens")
        if getattr(config, key, None) is not None
    ]
    out["reasoning_mode"] = "; ".join(reasoning) or None
    return {key: value for key, value in out.items() if value is not None}


def _budgets(log: Any) -> dict[str, Any]:
    config = log.eval.config
    out = {
        "timeout_s": config.time_limit,
        "max_tokens": config.token_limit,
        "max_retries": config.retry_on_error,
    }
    return {key: value for key, value in out.items() if value is not None}


def _card(log: Any) -> dict[str, Any]:
    spec = log.eval
    entry = (
        f"{spec.task_file}@{spec.task}"
        if spec.task_file
        else (spec.task_registry_name or spec.task)
    )
    out: dict[str, Any] = {
        "execution.evaluation_entry_point": f"inspect eval {entry}",
        "observability.trajectory_format": "Inspect AI evaluation log",
    }
    if spec.sandbox is not None:
        out["execution.sandboxing"] = f"Inspect sandbox: {spec.sandbox.type}"
    if spec.config.time_limit is not None:
        out["execution.task_timeout"] = f"{spec.config.time_limit} s"
    return out


def _bundle(
    logs: list[Any], scored: Scored, task_ids: dict[tuple[str, str], str]
) -> ImportedBundle:
    """One combination (a solver and a model) over its logs, one per Inspect task."""
    first = logs[0]
    harness, model = harness_of(first), str(first.eval.model)
    provider, _, name = model.partition("/")
    epochs = sorted({log.eval.config.epochs or 1 for log in logs})
    if len(epochs) > 1:
        raise SourceError(
            _shown(first.location),
            f"{harness} × {model} ran {epochs} epochs in different tasks; a bundle runs "
            "each task the same number of times",
        )
    runs = []
    days = []
    for log in logs:
        domain = as_id(str(log.eval.task), "Inspect task", _shown(log.location))
        by_key = {(str(s.id), s.epoch): s for s in log.samples}
        ids = [str(i) for i in (log.eval.dataset.sample_ids or [])] or [
            str(s.id) for s in log.samples
        ]
        for sample_id in dict.fromkeys(ids):
            for epoch in range(1, epochs[0] + 1):
                sample = by_key.get((sample_id, epoch))
                task = task_ids[(domain, sample_id)]
                runs.append(run_of(task, epoch, sample, log, scored))
                if sample is not None:
                    days += [day_of(sample.started_at), day_of(sample.completed_at)]
        days += [
            day_of(log.stats.started_at),
            day_of(log.stats.completed_at),
            day_of(log.eval.created),
        ]
    known = sorted(d for d in days if d is not None)
    return ImportedBundle(
        combination=as_id(f"{harness}-{model}", "combination", _shown(first.location)),
        title=f"{harness} × {model}",
        harness=harness,
        harness_version=None,
        model=name or model,
        model_provider=provider if name else None,
        runs_per_task=epochs[0],
        first_day=known[0],
        last_day=known[-1],
        runs=tuple(runs),
        configuration=_configuration(first),
        budgets=_budgets(first),
        card=_card(first),
    )


def _tasks(
    logs: Sequence[Any],
) -> tuple[dict[str, str], dict[tuple[str, str], str], list[ImportedTask]]:
    """The domains (Inspect tasks), each sample's task id, and the tasks."""
    domains: dict[str, str] = {}
    ids: dict[tuple[str, str], str] = {}
    tasks: dict[str, ImportedTask] = {}
    for log in logs:
        where = _shown(log.location)
        domain = as_id(str(log.eval.task), "Inspect task", where)
        domains[domain] = str(log.eval.task_display_name or log.eval.task)
        samples = [str(i) for i in (log.eval.dataset.sample_ids or [])] + [
            str(s.id) for s in log.samples
        ]
        for sample in dict.fromkeys(samples):
            task = as_id(sample, "sample id", where)
            other = tasks.get(task)
            if other is not None and (other.domain != domain or ids.get((domain, sample)) != task):
                raise SourceError(
                    where,
                    f"sample {sample!r} of {domain} has the task id {task!r} of another "
                    "sample; import each Inspect task into its own version",
                )
            ids[(domain, sample)] = task
            dataset = f", dataset {log.eval.dataset.name}" if log.eval.dataset.name else ""
            tasks[task] = ImportedTask(
                task, sample, domain, f"Inspect task {log.eval.task}{dataset}, sample {sample}"
            )
    return dict(sorted(domains.items())), ids, list(tasks.values())


def read_inspect(sources: Sequence[Path], scorer: str | None) -> Imported:
    """What the Inspect logs under ``sources`` record, scored by ``scorer``."""
    logs = read_logs(log_files(sources))
    name = scorer_of(logs, scorer)
    scored = Scored(name, outcome_of(name, values_of(logs, name)))
    groups: dict[tuple[str, str], list[Any]] = {}
    for log in logs:
        key = (harness_of(log), str(log.eval.model))
        same = [g for g in groups.get(key, []) if g.eval.task == log.eval.task]
        if same:
            raise SourceError(
                _shown(log.location),
                f"a second log of {log.eval.task} by {key[0]} × {key[1]} (the first: "
                f"{_shown(same[0].location)}); import one log per task, solver and model",
            )
        groups.setdefault(key, []).append(log)
    domains, ids, tasks = _tasks(logs)
    bundles = tuple(_bundle(group, scored, ids) for _, group in sorted(groups.items()))
    versions = sorted({str(log.eval.packages.get("inspect_ai")) for log in logs})
    if len(versions) > 1:
        raise SourceError(
            "SOURCE",
            f"the logs were written by inspect_ai {versions}; a release's pipeline is "
            "one: import each into its own version",
        )
    task_versions = sorted({str(log.eval.task_version) for log in logs})
    named = [r for b in bundles for r in b.runs]
    return Imported(
        benchmark=next(iter(domains.values())) if len(domains) == 1 else "Inspect evaluations",
        tool="Inspect AI",
        outcome=scored.outcome,
        domains=domains,
        tasks=tuple(tasks),
        bundles=bundles,
        causes={c: CAUSES[c] for c in sorted({r.cause for r in named if r.cause})},
        failures={
            f: failure_title(f) for f in sorted({r.failure_type for r in named if r.failure_type})
        },
        components={"tasks": task_versions[0] if len(task_versions) == 1 else None},
        scorer={
            "inspect_ai": None if versions == ["None"] else versions[0],
            scored.outcome.metric: None,
        },
    )


IMPORTER = BuiltIn("Inspect AI logs (.eval or .json; files or folders)", read_inspect)
