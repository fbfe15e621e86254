"""Harbor jobs (Terminal-Bench 2's harness) → what their trials record.

A job folder holds ``<trial>/result.json`` per trial: ``task_name``, ``trial_name``,
``agent_info`` (name, version, ``model_info`` name and provider), ``agent_result``
(``n_input_tokens``, cache included, and ``n_output_tokens``), ``verifier_result``
(``rewards``, e.g. ``{"reward": 1.0}``), ``exception_info`` and the time stamps. One bundle
per agent and model; a task's trials are its runs, in the order they started. A reward of
1 or 0 passes or fails (another reward is a number); a trial without a verifier result is
evaluation-incomplete, its exception's type the cause.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.importers.source import (
    ImportedBundle,
    ImportedRun,
    Outcome,
    SourceError,
    as_id,
    day_of,
    distinct_ids,
    read_json,
    seconds_between,
)

STAMPS = ("started_at", "finished_at")


def _trial_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*/result.json") if p.is_file())


def is_harbor_job(folder: Path) -> bool:
    """Whether the folder holds Harbor trial results."""
    return bool(_trial_files(folder))


def _load(path: Path) -> dict[str, Any]:
    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("task_name"), str):
        raise SourceError(str(path), "expected a Harbor trial result with a task_name")
    return data


def _part(data: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    """The object at ``key`` (empty when absent); a :class:`SourceError` when it is none."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise SourceError(where, f"{key}: {value!r} is not an object; expected Harbor's {key}")
    return value


def _rewards(trial: dict[str, Any]) -> dict[str, float] | None:
    verdict = trial.get("verifier_result")
    if not isinstance(verdict, dict):
        return None
    rewards = verdict.get("rewards")
    if isinstance(rewards, dict):
        return {str(k): float(v) for k, v in rewards.items() if isinstance(v, int | float)}
    reward = verdict.get("reward")
    return {"reward": float(reward)} if isinstance(reward, int | float) else None


def _reward_key(trials: list[dict[str, Any]], scorer: str | None, where: str) -> str:
    keys = sorted({k for t in trials for k in (_rewards(t) or {})})
    if scorer is not None:
        if scorer not in keys:
            raise SourceError(
                "--scorer", f"{scorer!r} is no reward of {where}; expected one of {keys}"
            )
        return scorer
    if len(keys) > 1:
        raise SourceError("--scorer", f"the trials of {where} give the rewards {keys}; name one")
    return keys[0] if keys else "reward"


def _run(trial: dict[str, Any], run: int, key: str, binary: bool, where: str) -> ImportedRun:
    task = as_id(trial["task_name"], "task_name", where)
    usage = _part(trial, "agent_result", where)
    execution = _part(trial, "agent_execution", where)
    counts: dict[str, Any] = {
        "source": where,
        "input_tokens": usage.get("n_input_tokens"),
        "output_tokens": usage.get("n_output_tokens"),
        "duration_s": seconds_between(
            execution.get("started_at"),
            execution.get("finished_at"),
            f"{where}: agent_execution.started_at",
        ),
    }
    exception = trial.get("exception_info") or {}
    kind = str(exception.get("exception_type") or "") if isinstance(exception, dict) else ""
    reward = (_rewards(trial) or {}).get(key)
    if reward is None:
        cause = as_id(kind, "exception_type", where) if kind else "no-verdict"
        return ImportedRun(task, run, "incomplete", cause=cause, **counts)
    if not binary:
        return ImportedRun(task, run, "valid", value=reward, **counts)
    passed = reward == 1.0
    failure = None if passed else (as_id(kind, "exception_type", where) if kind else "unresolved")
    return ImportedRun(task, run, "valid", passed=passed, failure_type=failure, **counts)


def harbor_trials(
    folder: Path, scorer: str | None
) -> tuple[list[ImportedBundle], dict[str, str | None], Outcome]:
    """The job's bundles (one per agent and model), its dataset and its outcome."""
    trials = [(path, _load(path)) for path in _trial_files(folder)]
    key = _reward_key([t for _, t in trials], scorer, str(folder))
    values = {r.get(key) for _, t in trials for r in [_rewards(t) or {}] if key in r}
    binary = values <= {0.0, 1.0}
    outcome = (
        Outcome("pass-fail", "resolved", "Resolved", "The task's tests passed")
        if binary
        else Outcome(
            "measure",
            as_id(key, "reward", str(folder)),
            f"Reward ({key})",
            f"The verifier's {key}",
            low=None,
            high=None,
        )
    )
    groups: dict[tuple[str, str, str, str], list[tuple[Path, dict[str, Any]]]] = {}
    for path, trial in trials:
        info = _part(trial, "agent_info", str(path))
        model_info = _part(info, "model_info", f"{path}: agent_info")
        ident = (
            str(info.get("name") or "not recorded"),
            str(info.get("version") or ""),
            str(model_info.get("name") or "not recorded"),
            str(model_info.get("provider") or ""),
        )
        groups.setdefault(ident, []).append((path, trial))
    bundles = []
    for (agent, version, model, provider), members in sorted(groups.items()):
        by_task: dict[str, list[tuple[Path, dict[str, Any]]]] = {}
        for member in members:
            by_task.setdefault(member[1]["task_name"], []).append(member)
        distinct_ids(by_task, "task_name", str(folder))
        runs = []
        for _, group in sorted(by_task.items()):
            ordered = sorted(group, key=lambda m: (str(m[1].get("started_at")), str(m[0])))
            runs += [_run(t, n, key, binary, str(p)) for n, (p, t) in enumerate(ordered, 1)]
        stamps = [(t.get(k), f"{p}: {k}") for p, t in members for k in STAMPS]
        days = sorted(d for d in (day_of(s, where) for s, where in stamps) if d)
        if not days:
            raise SourceError(str(folder), "no trial records when it ran (started_at)")
        bundles.append(
            ImportedBundle(
                combination=as_id(f"{agent}-{model}", "combination", str(folder)),
                title=f"{agent} × {model}",
                harness=agent,
                harness_version=version or None,
                model=model,
                model_provider=provider or None,
                runs_per_task=max(len(g) for g in by_task.values()),
                first_day=days[0],
                last_day=days[-1],
                runs=tuple(runs),
            )
        )
    return bundles, {"name": None, "version": None}, outcome
