"""Terminal-Bench run folders → a release root: import → validate --strict → build, on a
fixture in Terminal-Bench's run layout (``<run>/results.json``, ``run_metadata.json``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.importers.source import SourceError
from generator.importers.terminal_bench import read_terminal_bench, run_of_trial

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


def test_a_trial_without_a_task_or_metadata_is_named(tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(RUN, run)
    (run / "run_metadata.json").unlink()
    with pytest.raises(SourceError, match=r"run_metadata\.json") as caught:
        read_terminal_bench([run], None)
    assert "missing" in caught.value.message
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SourceError, match="holds no Terminal-Bench run"):
        read_terminal_bench([empty], None)
    with pytest.raises(SourceError, match="is not of the expected kind"):
        run_of_trial({"task_id": "t", "is_resolved": "yes"}, 1, "results.json: t")
