"""Rules of second raters (generator/check/raters.py): each rated line is a run of the
bundle with levels of its task's Judge items, each once, within 0..G, every item of a channel
it rates; ids unique in a bundle and one rater per id across bundles. Each problem names the
file, the line and the field, all of them in one pass."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import yaml
from builders import bundle, catalog
from rated import (
    judged_run,
    judged_task,
    loaded_bundle,
    rated_release,
    rater,
    with_raters,
)

from generator.check import check_inputs
from generator.check.raters import check_rater_names, check_raters
from generator.load import load_inputs
from generator.models import Release
from generator.models.runs import RatedRun

TASKS = [judged_task("t1"), judged_task("t2")]


def _line(task: str = "t1", run: int = 1, **levels: float) -> RatedRun:
    judge = [{"id": i, "level": g} for i, g in levels.items()]
    return RatedRun.model_validate({"task": task, "run": run, "judge": judge})


def _messages(lines: list[RatedRun], model: Release | None = None, clean: bool = True) -> list[str]:
    rng = random.Random(0)
    records = [judged_run(t["id"], i, rng) for t in TASKS for i in (1, 2)]
    loaded = loaded_bundle(with_raters(bundle("a"), rater()), records, {"humans": lines})
    if not clean:
        loaded = loaded.__class__(**{**loaded.__dict__, "runs_clean": False})
    found = check_raters(model or rated_release(), catalog(TASKS), loaded)
    return [str(p) for p in found]


ALL = {"J1": 4, "J2": 3, "J3": 9}


def test_a_complete_line_passes_and_an_overall_may_be_rated_or_not() -> None:
    assert _messages([_line(**ALL), _line(run=2, **ALL, J4=7), _line("t2", J3=2)]) == []


def test_every_problem_of_every_line_in_one_pass() -> None:
    shown = _messages(
        [
            _line(**ALL),  # line 2
            _line(run=3, **ALL),  # 3: not a run of the bundle
            _line("t9", **ALL),  # 4: not a task
            _line(run=2, J1=5, J2=2.5, J3=9, R1=1),  # 5: above G, between levels, a rule item
            _line("t2", J1=1, J3=1, J33=1),  # 6: partial text channel, unknown item
            _line(**ALL),  # 7: rated again
        ]
    )
    path = "bundles/a/humans.jsonl"
    assert shown == [
        f"{path}:3: run: run 3 of task t1 is not a run of the bundle: its runs file has no "
        "such record; a rater rates the bundle's own runs",
        f"{path}:4: task: 't9' is not a task of the catalog",
        f"{path}:5: judge[0].level: 5 is above J1's maximum; expected 0..4",
        f"{path}:5: judge[1].level: 2.5 is between levels; expected a whole level 0..4; this "
        "release does not allow continuous levels",
        f"{path}:5: judge[3].id: R1 is a rule item of task t1; a rater rates Judge items only "
        "(expected one of ['J1', 'J2', 'J3', 'J4'])",
        f"{path}:6: judge[2].id: 'J33' is not a Judge item of task t2; expected one of "
        "['J1', 'J2', 'J3', 'J4']; did you mean 'J3'?",
        f"{path}:6: judge: rates some Judge items of channel 'text' but not ['J2']; a rater "
        "rates every item of a channel it rates on a run, so that the channel's score is its "
        "own",
        f"{path}:7: run: run 1 of task t1 is rated again (first on line 2); each run is rated once",
    ]


def test_an_item_rated_twice() -> None:
    twice = RatedRun.model_validate(
        {"task": "t1", "run": 1, "judge": [{"id": "J3", "level": 1}, {"id": "J3", "level": 2}]}
    )
    (shown,) = _messages([twice])
    assert shown.endswith(":2: judge[1].id: item J3 is rated twice; each item once")


def test_continuous_levels_where_the_release_allows_them() -> None:
    continuous = rated_release()
    profile = continuous.profile.model_copy(update={"continuous_levels": True})
    line = _line(J1=2.5, J2=0.25, J3=9.5)
    assert _messages([line], continuous.model_copy(update={"profile": profile})) == []
    assert len(_messages([line])) == 3  # each level between two


def test_a_run_missing_from_a_runs_file_with_bad_lines_is_not_claimed() -> None:
    assert _messages([_line(run=3, **ALL)], clean=False) == []


def test_rater_ids_unique_in_a_bundle_and_one_rater_per_id() -> None:
    rng = random.Random(0)
    records = [judged_run("t1", 1, rng)]
    twice = with_raters(bundle("a"), rater(), rater())
    loaded = loaded_bundle(twice, records)
    shown = [str(p) for p in check_raters(rated_release(), catalog(TASKS), loaded)]
    assert shown == [
        "bundles/a/bundle.yaml: raters[1].id: rater 'humans' is listed twice; each rater of a "
        "bundle has its own id"
    ]
    other = loaded_bundle(with_raters(bundle("b"), rater(title="Crowd workers")), records)
    same = loaded_bundle(with_raters(bundle("c"), rater()), records)
    (problem,) = check_rater_names([loaded, same, other])
    assert str(problem) == (
        "bundles/b/bundle.yaml: raters[0]: rater 'humans' is 'Crowd workers' (human) here but "
        "'Human experts' (human) in bundles/a/bundle.yaml; one id names the same rater in "
        "every bundle"
    )


def _judged_record(root: Path) -> tuple[str, int, dict[str, int]]:
    """A run of the lingee bundle with Judge verdicts: its task, index and items' G."""
    tasks = yaml.safe_load((root / "results/v1.0/tasks.yaml").read_text(encoding="utf-8"))
    tops = {
        t["id"]: {j["id"]: j["max_level"] for j in t["scoring"].get("judge_items", [])}
        for t in tasks["tasks"]
    }
    runs = (root / "results/v1.0/bundles/lingee/runs.jsonl").read_text(encoding="utf-8")
    for line in runs.splitlines()[1:]:
        record: dict[str, Any] = json.loads(line)
        if record.get("judge") and record.get("judge_valid"):
            return record["task"], record["run"], tops[record["task"]]
    raise AssertionError("no judged run")


def test_validate_reads_and_checks_the_verdicts_file(example: Path) -> None:
    folder = example / "results/v1.0/bundles/lingee"
    task, index, tops = _judged_record(example)
    good = {"task": task, "run": index, "judge": [{"id": i, "level": g} for i, g in tops.items()]}
    first = next(iter(tops))
    bad = {**good, "judge": [{"id": first, "level": tops[first] + 1}, *good["judge"][1:]]}
    lines = ['{"format_version": 1}', json.dumps(good), "{oops", json.dumps(bad)]
    (folder / "raters").mkdir()
    (folder / "raters" / "humans.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    with (folder / "bundle.yaml").open("a", encoding="utf-8") as out:
        out.write(
            "raters:\n- id: humans\n  title: Human experts\n  kind: human\n"
            "  verdicts: raters/humans.jsonl\n"
        )
    inputs, problems = load_inputs(example)
    problems += check_inputs(inputs)
    shown = [str(p) for p in problems if p.severity != "notice"]
    path = "results/v1.0/bundles/lingee/raters/humans.jsonl"
    assert [s for s in shown if path in s] == [
        f"{path}:3: invalid JSON at column 2: Expecting property name enclosed in double quotes,"
        " near '{oops'",
        f"{path}:4: run: run {index} of task {task} is rated again (first on line 2); each run "
        "is rated once",
    ]
    assert [s for s in shown if "raters" in s and path not in s] == []  # not a stray file
