"""Terminal-Bench run folders → a release root: import → validate --strict → build, on a
fixture in Terminal-Bench's run layout (``<run>/results.json``, ``run_metadata.json``)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.importers.source import SourceError
from generator.importers.terminal_bench import read_terminal_bench, run_of_trial
from generator.models.base import NOT_RECORDED

RUN = (
    Path(__file__).resolve().parent.parent / "fixtures" / "terminal-bench" / "2026-11-20__10-00-00"
)


def test_trials_become_runs_and_a_crash_is_no_wrong_answer() -> None:
    imported = read_terminal_bench([RUN], None)
    (bundle,) = imported.bundles
    assert (bundle.combination, bundle.harness, bundle.model, bundle.model_provider) == (
        "terminus-anthropic-claude-sonnet-4-20250514",
        "terminus",
        "claude-sonnet-4-20250514",
        "anthropic",
    )
    assert bundle.runs_per_task == 2
    runs = {(r.task, r.run): r for r in bundle.runs}
    assert runs[("fix-git", 2)].failure_type == "agent_timeout"  # the agent's: a failure
    crash = runs[("build-pov-ray", 2)]  # the harness's: no verdict, never a 0
    assert (crash.status, crash.cause) == ("incomplete", "unknown_agent_error")
    unresolved = runs[("build-pov-ray", 1)]
    assert (unresolved.failure_type, unresolved.input_tokens) == ("unresolved", None)  # 0 and 0
    assert runs[("hello-world", 1)].duration_s == 20.5
    assert imported.components["tasks"] == "0.1.1"
    assert imported.benchmark == "terminal-bench-core"


def test_the_site_scores_each_task_by_its_resolved_trials(tmp_path: Path) -> None:
    """The Task Score is the mean over tasks of the share of each task's trials with a
    verdict that the tests resolved, computed here from the fixture's own trials."""
    root, runner = tmp_path / "root", CliRunner()
    args = ["import", "terminal-bench", str(RUN), "--root", str(root), "--version", "v1.0"]
    result = runner.invoke(cli, [*args, "--consent", "TB", "--consent-date", "2026-11-21"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(cli, ["validate", "--root", str(root), "--strict"]).exit_code == 0
    built = runner.invoke(cli, ["build", "--root", str(root), "--out", str(tmp_path / "s")])
    assert built.exit_code == 0, built.output
    trials = json.loads((RUN / "results.json").read_text(encoding="utf-8"))["results"]
    verdicts: dict[str, list[bool]] = {}
    for trial in trials:
        if trial["is_resolved"] is not None and trial["failure_mode"] != "unknown_agent_error":
            verdicts.setdefault(trial["task_id"], []).append(trial["is_resolved"])
    expected = sum(sum(v) / len(v) for v in verdicts.values()) / len(verdicts)
    (board,) = (tmp_path / "s" / "v1.0").glob("*-leaderboard.json")
    (row,) = json.loads(board.read_text(encoding="utf-8"))["rows"]
    assert row["task_score"] == pytest.approx(expected, abs=5e-7)
    release = (root / "results/v1.0/release.yaml").read_text(encoding="utf-8")
    assert "id: unknown_agent_error" in release  # an incomplete cause the profile declares


def test_a_run_without_metadata_leaves_agent_and_model_not_recorded(tmp_path: Path) -> None:
    """Some published runs have no run_metadata.json: the agent and the model are then not
    recorded, and the run folder names the combination; the runs are read all the same."""
    run = tmp_path / "cursor-run"
    shutil.copytree(RUN, run)
    (run / "run_metadata.json").unlink()
    (bundle,) = read_terminal_bench([run], None).bundles
    assert (bundle.combination, bundle.title) == ("cursor-run", "cursor-run")
    assert (bundle.harness, bundle.model, bundle.model_provider) == (
        NOT_RECORDED,
        NOT_RECORDED,
        None,
    )
    (with_meta,) = read_terminal_bench([RUN], None).bundles
    unplaced = [replace(r, source=None) for r in bundle.runs]
    assert unplaced == [replace(r, source=None) for r in with_meta.runs]


def test_a_trial_without_a_task_is_named(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SourceError, match="holds no Terminal-Bench run"):
        read_terminal_bench([empty], None)
    with pytest.raises(SourceError, match="is not of the expected kind"):
        run_of_trial({"task_id": "t", "is_resolved": "yes"}, 1, "results.json: t")


def _copy(tmp: Path, name: str, trial: dict[str, object] | None = None, **meta: object) -> Path:
    """The fixture's run, its first trial and its metadata changed as given."""
    run = tmp / name
    shutil.copytree(RUN, run)
    for file, change in (("results.json", trial), ("run_metadata.json", meta)):
        if change:
            data = json.loads((run / file).read_text(encoding="utf-8"))
            (data["results"][0] if file == "results.json" else data).update(change)
            (run / file).write_text(json.dumps(data), encoding="utf-8")
    return run


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output, result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("trial", "said"),
    [
        ({"trial_started_at": "yesterday"}, "results[0].trial_started_at: 'yesterday' is not"),
        ({"agent_started_at": 12345}, "hello-world trial 1: agent_started_at: 12345 is not"),
        ({"agent_started_at": "2026-11-20T10:00:05"}, "one has a time zone and one not"),
        ({"task_id": "fix/git"}, "task_id 'fix-git' and 'fix/git' both make the id 'fix-git'"),
        ({"trial_name": 7}, "trial_name: 7 is not of the expected kind"),
    ],
)
def test_a_hostile_trial_is_named_and_nothing_written(
    tmp_path: Path, trial: dict[str, object], said: str
) -> None:
    run = _copy(tmp_path, "run", trial)
    root = tmp_path / "root"
    code, out = _cli("import", "terminal-bench", str(run), "--root", str(root), "--version", "v1")
    assert code == 1
    assert f"{run / 'results.json'}: " in out
    assert said in out
    assert not root.exists()


def test_unreadable_metadata_or_no_trial_is_named(tmp_path: Path) -> None:
    run = _copy(tmp_path, "run")
    (run / "run_metadata.json").write_text("[1, 2]", encoding="utf-8")
    args = ["import", "terminal-bench", str(run), "--root", str(tmp_path / "r"), "--version", "v1"]
    code, out = _cli(*args)
    assert code == 1
    assert f"{run / 'run_metadata.json'}: expected Terminal-Bench's run metadata" in out
    shutil.copy(RUN / "run_metadata.json", run / "run_metadata.json")
    (run / "results.json").write_text('{"results": []}', encoding="utf-8")
    code, out = _cli(*args)
    assert code == 1
    assert f"{run / 'results.json'}: its 'results' list holds no trial" in out


def _imports_and_validates(root: Path, *sources: Path) -> None:
    args = ["import", "terminal-bench", *map(str, sources), "--root", str(root), "--version", "v1"]
    code, out = _cli(*args, "--consent", "TB", "--consent-date", "2026-11-21")
    assert code == 0, out
    code, out = _cli("validate", "--root", str(root), "--strict")
    assert code == 0, out


def test_attempts_beyond_the_metadata_are_runs_the_release_prescribes(tmp_path: Path) -> None:
    """n_attempts 1 but trials '2-of-2' (or an attempt '5-of-2'): every trial a run within
    runs_per_task, so that validate accepts what the import wrote."""
    _imports_and_validates(tmp_path / "a", _copy(tmp_path, "a", n_attempts=1))
    odd = _copy(tmp_path, "b", {"trial_name": "hello-world.5-of-2.2026-11-20__10-00-00"})
    (bundle,) = read_terminal_bench([odd], None).bundles
    assert sorted(r.run for r in bundle.runs if r.task == "hello-world") == [1, 2]
    _imports_and_validates(tmp_path / "b", odd)


def test_run_folders_of_one_agent_and_model_are_one_bundle(tmp_path: Path) -> None:
    """A leaderboard submission: several run folders of one agent and model, their runs one
    after another in one bundle."""
    runs = tmp_path / "submission"
    first, second = _copy(runs, "run1"), _copy(runs, "run2", {"is_resolved": False})
    (bundle,) = read_terminal_bench([runs], None).bundles
    assert bundle.runs_per_task == 4
    hello = {r.run: r for r in bundle.runs if r.task == "hello-world"}
    assert sorted(hello) == [1, 2, 3, 4]
    assert (hello[1].passed, hello[3].passed) == (True, False)  # run1's first, run2's first
    _imports_and_validates(tmp_path / "root", first, second)


def test_a_value_the_bundle_format_refuses_is_named_in_the_source(tmp_path: Path) -> None:
    """Negative token counts read as integers, and the runs file would refuse them: the
    problem names results.json and the trial, not the runs file about to be written."""
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    results = json.loads((run / "results.json").read_text(encoding="utf-8"))
    results["results"][0]["total_input_tokens"] = -5
    (run / "results.json").write_text(json.dumps(results), encoding="utf-8")
    root = tmp_path / "root"
    args = ["import", "terminal-bench", str(run), "--root", str(root), "--version", "v1.0"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code != 0
    assert f"{run / 'results.json'}: " in result.output
    assert "input_tokens" in result.output
    assert "runs.jsonl" not in result.output
    assert not root.exists(), "nothing is written"
