"""The per-record form of the run rules, as they were before they ran on columns.

Kept as the reference the column checks in :mod:`generator.check.runs` are tested against
(tests/check/runs/test_check.py): one record at a time, obviously in the right order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from outcome_oracle import JUDGED, run_outcome

from generator.errors import Problem, did_you_mean
from generator.load import LoadedBundle
from generator.models import Catalog, Release, RunRecord, Task
from generator.models.profile import RUN_FIELDS
from generator.models.runs import JudgeVerdict, RuleVerdict

_SHOWN = 10
_COUNTS = ("input_tokens", "output_tokens", "duration_s", "turns")


def _item_problems(
    task: Task, record: RunRecord, continuous: bool = False
) -> Iterator[tuple[str, str]]:
    """(field, message) for each item-level problem of one record (``continuous``: the
    release allows levels between the whole ones)."""
    scoring = task.scoring
    fatal_ids = {i.id for i in scoring.rule_items if i.fatal}
    rule_ids = {i.id for i in scoring.rule_items if not i.fatal}
    judge_items = {j.id: j for j in scoring.judge_items}
    modules = {m.id for m in scoring.modules}
    module_of = {i.id: i.module for i in scoring.rule_items}
    module_of.update({j.id: j.module for j in scoring.judge_items})
    failed = set(record.modules_failed)
    for i, module in enumerate(record.modules_failed):
        if module not in modules:
            yield (
                f"modules_failed[{i}]",
                (
                    f"{module!r} is not a module of {task.id}; expected "
                    f"one of {sorted(modules) or 'none declared'}"
                ),
            )
    lists: list[tuple[str, Sequence[RuleVerdict | JudgeVerdict], set[str], str]] = [
        ("fatal", record.fatal, fatal_ids, "a fatal rule item"),
        ("rules", record.rules, rule_ids, "an ordinary rule item"),
        ("judge", record.judge, set(judge_items), "a judge item"),
    ]
    for name, verdicts, allowed, kind in lists:
        counts = Counter(v.id for v in verdicts)
        for i, verdict in enumerate(verdicts):
            if verdict.id not in allowed:
                other = (
                    " (it is a fatal item: list it under 'fatal')"
                    if verdict.id in fatal_ids
                    else " (it is an ordinary item: list it under 'rules')"
                    if verdict.id in rule_ids
                    else ""
                )
                near = "" if other else did_you_mean(verdict.id, sorted(allowed))
                yield (
                    f"{name}[{i}].id",
                    (
                        f"{verdict.id!r} is not {kind} of {task.id}{other}; "
                        f"expected one of {sorted(allowed) or 'none'}{near}"
                    ),
                )
            elif counts[verdict.id] > 1:
                yield f"{name}[{i}].id", f"{verdict.id!r} appears {counts[verdict.id]} times"
            elif (module_of.get(verdict.id) or "") in failed and _scores(verdict):
                yield (
                    f"{name}[{i}]",
                    (
                        f"{verdict.id!r} belongs to failed module "
                        f"{module_of[verdict.id]!r} but is recorded as passing; "
                        "items of a failed module score 0 (§4.2)"
                    ),
                )
        if record.status == "valid":
            absent = sorted(
                a
                for a in allowed - set(counts)
                if module_of.get(a) is None or module_of[a] not in failed
            )
            judged = scoring.mode in JUDGED and record.judge_valid is True
            if absent and (name != "judge" or judged):
                yield (
                    name,
                    (
                        f"missing verdicts for {', '.join(absent)}; a valid run records "
                        "every item (or names its module in modules_failed)"
                    ),
                )
    for i, verdict in enumerate(record.judge):
        item = judge_items.get(verdict.id)
        if item is None:
            continue
        if verdict.level > item.max_level:
            yield (
                f"judge[{i}].level",
                (
                    f"{_number(verdict.level)} is above {item.id}'s maximum; "
                    f"expected 0..{item.max_level}"
                ),
            )
        elif not float(verdict.level).is_integer() and not continuous:
            yield (
                f"judge[{i}].level",
                f"{_number(verdict.level)} is between levels; expected a whole level "
                f"0..{item.max_level}; this release does not allow continuous levels",
            )
        stray = [e for e in verdict.evidence if item.evidence and e not in item.evidence]
        if stray:
            yield (
                f"judge[{i}].evidence",
                (
                    f"cites {stray}, not designated for {item.id}; "
                    f"expected from {list(item.evidence)}"
                ),
            )


def _number(value: float) -> str:
    """A level as a runs file may write it: 5 and 5.0 both read "5"."""
    whole = float(value).is_integer() and abs(value) < 2**53
    return str(int(value)) if whole else repr(float(value))


def _range(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"{_number(low)}..{_number(high)}"
    if low is not None:
        return f"at least {_number(low)}"
    return "any number" if high is None else f"at most {_number(high)}"


def _measure_problems(
    release: Release, task: Task, record: RunRecord, unrecorded: tuple[str, ...]
) -> Iterator[tuple[str, str]]:
    """The record's counts and measures against the release's declared metrics (a count
    the bundle says its source did not record may be left out)."""
    declared = [m.id for m in release.metrics if m.id in RUN_FIELDS and not m.measured]
    for count in _COUNTS:
        needed_by = [m for m in declared if count in RUN_FIELDS[m]]
        valid = record.status == "valid"
        if needed_by and valid and getattr(record, count) is None and count not in unrecorded:
            yield (
                count,
                f"missing; the release reports {', '.join(needed_by)}, so every run records "
                f"{count} (expected a number of at least 0; or, where the source of the "
                "results did not record it, name it in the bundle's counts_not_recorded)",
            )
    metrics = {m.id: m for m in release.metrics}
    allowed = sorted(m.id for m in release.metrics if m.measured)
    counts = Counter(m.id for m in record.measures)
    for i, measure in enumerate(record.measures):
        if measure.id not in allowed:
            hint = (
                " (the engine computes it; a run does not record it)"
                if measure.id in metrics
                else did_you_mean(measure.id, allowed)
            )
            yield (
                f"measures[{i}].id",
                f"{measure.id!r} is not a measured metric of {release.version}; "
                + (f"expected one of {allowed}" if allowed else "it declares none")
                + hint,
            )
            continue
        if counts[measure.id] > 1:
            yield f"measures[{i}].id", f"{measure.id!r} appears {counts[measure.id]} times"
        low, high = metrics[measure.id].bounds.low, metrics[measure.id].bounds.high
        if (low is not None and measure.value < low) or (high is not None and measure.value > high):
            yield (
                f"measures[{i}].value",
                f"{_number(measure.value)} is outside {measure.id}'s range; expected "
                f"{_range(low, high)}",
            )
    scoring = task.scoring
    delivered = record.delivery and all(v.passed for v in record.fatal)
    valid = record.status == "valid"
    if scoring.mode == "measure" and valid and delivered and scoring.measure not in counts:
        yield (
            "measures",
            f"no value for {scoring.measure!r}, the metric {task.id} scores in; a valid "
            "run that passed D with no fatal item failed records it (only a failed run "
            f"scores the task's failure_value, {_number(scoring.failure_value or 0.0)})",
        )


def _success(task: Task, record: RunRecord) -> bool:
    """Success of a valid run: the oracle's, or for the modes without ordinary rule items
    (judge-only, measure) straight from §4.2(3): D, every fatal and ordinary rule item, and
    with a Judge channel a valid Judge result with every Judge item at its pass level."""
    scoring = task.scoring
    if scoring.mode in ("rule-only", "dual-channel"):
        return run_outcome(task, record).success
    failed = set(record.modules_failed)
    passed = {v.id for v in (*record.rules, *record.fatal) if v.passed}
    rules = all(i.id in passed and i.module not in failed for i in scoring.rule_items)
    judge = True
    if scoring.mode == "judge-only":
        levels = {v.id: v.level for v in record.judge}
        judge = record.judge_valid is True and all(
            j.module not in failed and levels.get(j.id, 0) >= j.passing_level
            for j in scoring.judge_items
        )
    return record.delivery and rules and judge


def _scores(verdict: RuleVerdict | JudgeVerdict) -> bool:
    return verdict.passed if isinstance(verdict, RuleVerdict) else verdict.level > 0


def _record_problems(
    release: Release, task: Task, record: RunRecord, unrecorded: tuple[str, ...] = ()
) -> Iterator[tuple[str, str]]:
    enums = release.enumerations
    if record.run > release.runs_per_task:
        yield (
            "run",
            (
                f"{record.run} exceeds the prescribed {release.runs_per_task} runs per task; "
                "expected 1..runs_per_task (retries are not extra runs)"
            ),
        )
    if record.status == "incomplete":
        causes = sorted(c.id for c in enums.incomplete_causes)
        if record.cause is None:
            yield "cause", f"an incomplete run needs a cause; expected one of {causes}"
        elif record.cause not in causes:
            yield "cause", f"{record.cause!r} is not a declared cause; expected one of {causes}"
    elif record.cause is not None:
        yield "cause", "a valid run has no cause; set status 'incomplete' or remove cause"
    failure_types = sorted(f.id for f in enums.failure_types)
    if record.failure_type is not None and record.failure_type not in failure_types:
        yield (
            "failure_type",
            (
                f"{record.failure_type!r} is not a declared failure type; expected "
                f"one of {failure_types}"
            ),
        )
    mode = task.scoring.mode
    dual = mode in JUDGED
    if not dual and (record.judge or record.judge_valid is not None):
        named = "a measure task" if mode == "measure" else mode
        yield "judge", f"{task.id} is {named}; a run records no judge result (judge_valid null)"
    yield from _measure_problems(release, task, record, unrecorded)
    zeroed = not record.delivery or any(not v.passed for v in record.fatal)
    if dual and record.status == "valid" and record.judge_valid is not True and not zeroed:
        yield (
            "judge_valid",
            (
                f"a {mode} run without a valid Judge result is "
                "evaluation-incomplete, not rule-only (§4.3(3)); expected status "
                "'incomplete' with a cause (only a run already zeroed by D or a "
                "fatal item may lack its Judge result)"
            ),
        )
        return
    problems = list(_item_problems(task, record, release.profile.continuous_levels))
    yield from problems
    if problems or record.status != "valid":
        return
    succeeded = _success(task, record)
    if not succeeded and record.failure_type is None:
        yield (
            "failure_type",
            (
                "the run did not succeed, so it needs a failure type; expected one "
                f"of {failure_types}"
            ),
        )
    if succeeded and record.failure_type is not None:
        yield (
            "failure_type",
            (
                f"{record.failure_type!r}, but the run succeeded; a successful "
                "run has no failure type"
            ),
        )


def check_runs_reference(
    release: Release,
    catalog: Catalog,
    loaded: LoadedBundle,
    records: Sequence[RunRecord],
    lines: Sequence[int],
) -> Iterator[Problem]:
    """Problems of each record, then the bundle's completeness against its declaration."""
    bundle = loaded.bundle.model
    path = loaded.runs_path
    tasks = {t.id: t for t in catalog.tasks}
    excluded = {(s.domain, s.subdivision) for s in bundle.not_covered}

    def not_covered(task: Task) -> bool:
        return (task.domain, None) in excluded or (task.domain, task.subdivision) in excluded

    first_line: dict[tuple[str, int], int] = {}
    clean = True
    valid: Counter[str] = Counter()
    for record, line in zip(records, lines, strict=True):
        found: list[tuple[str, str]] = []
        task = tasks.get(record.task)
        key = (record.task, record.run)
        if task is None:
            near = did_you_mean(record.task, list(tasks))
            found.append(("task", f"{record.task!r} is not a task of {release.version}{near}"))
        elif key in first_line:
            found.append(
                (
                    "run",
                    f"duplicate record for task {record.task!r} run {record.run} "
                    f"(first on line {first_line[key]}); one record per "
                    "(combination, task, run)",
                )
            )
        elif not_covered(task):
            found.append(
                (
                    "task",
                    f"{record.task!r} lies in a scope the bundle declares not "
                    "covered; remove the run or the declaration",
                )
            )
        else:
            found.extend(_record_problems(release, task, record, bundle.counts_not_recorded))
        first_line.setdefault(key, line)
        for field, message in found:
            yield Problem(path, line, field, message)
        clean = clean and not found
        if not found and record.status == "valid":
            valid[record.task] += 1
    if not clean or not loaded.runs_clean:
        return  # counts would be wrong; the problems above say why
    covered = [t for t in catalog.tasks if not not_covered(t)]
    short = [(t.id, valid[t.id]) for t in covered if valid[t.id] < release.runs_per_task]
    bsrc = loaded.bundle.source
    eval_line = bsrc.line("evaluation")
    if bundle.evaluation == "complete" and short:
        shown = ", ".join(f"{tid} ({n} valid)" for tid, n in short[:_SHOWN])
        more = f" and {len(short) - _SHOWN} more" if len(short) > _SHOWN else ""
        yield Problem(
            bsrc.path,
            eval_line,
            "evaluation",
            f"marked complete, but {len(short)} of {len(covered)} covered tasks lack "
            f"the prescribed {release.runs_per_task} valid runs: {shown}{more}; "
            "expected evaluation: incomplete (coverage is then disclosed, §4.2)",
        )
    if bundle.evaluation == "incomplete" and not short and covered:
        yield Problem(
            bsrc.path,
            eval_line,
            "evaluation",
            f"marked incomplete, but every covered task has {release.runs_per_task} valid runs",
            "warning",
        )
