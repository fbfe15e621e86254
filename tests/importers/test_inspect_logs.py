"""Inspect AI logs → a release root, on logs Inspect itself wrote (an offline evaluation
with its mock model): import → validate --strict → build, and the site's figures equal
Inspect's own metrics where they are the same statistic."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_eval import EPOCHS, FAILING, QUESTIONS

from generator.cli import cli
from generator.importers.inspect_logs import harness_of, log_files, read_inspect
from generator.importers.source import SourceError


def _import(root: Path, logs: Path, *extra: str) -> Any:
    args = ["import", "inspect", str(logs), "--root", str(root), "--version", "v1.0"]
    args += ["--consent", "Arith maintainers", "--consent-date", "2026-12-01", *extra]
    return CliRunner().invoke(cli, args)


def _published(root: Path, tmp: Path) -> dict[str, dict[str, Any]]:
    """validate --strict, then build: the leaderboard rows of the built site by model."""
    runner = CliRunner()
    valid = runner.invoke(cli, ["validate", "--root", str(root), "--strict"])
    assert valid.exit_code == 0, valid.output
    site = tmp / "site"
    built = runner.invoke(cli, ["build", "--root", str(root), "--out", str(site), "--strict"])
    assert built.exit_code == 0, built.output
    (board,) = sorted((site / "v1.0").glob("*-leaderboard.json"))
    rows = json.loads(board.read_text(encoding="utf-8"))["rows"]
    return {row["model"]: row for row in rows}


def _metric(log: Any, scorer: str, metric: str) -> float:
    (score,) = [s for s in log.results.scores if s.name == scorer]
    return float(score.metrics[metric].value)


def test_the_sites_accuracy_is_inspects(
    inspect_logs: tuple[Path, list[Any]], tmp_path: Path
) -> None:
    """Pass/fail (match: C or I): each model's Task Score on the built site is Inspect's
    accuracy, the mean over samples of each sample's mean over its epochs; the errored
    epoch counts in neither."""
    folder, logs = inspect_logs
    result = _import(tmp_path / "root", folder)
    assert result.exit_code == 1
    assert "name the one to import with --scorer" in result.output  # match and closeness
    result = _import(tmp_path / "root", folder, "--scorer", "match")
    assert result.exit_code == 0, result.output
    rows = _published(tmp_path / "root", tmp_path)
    assert len(rows) == len(logs) == 2
    for log in logs:
        model = str(log.eval.model).split("/")[1]
        assert rows[model]["task_score"] == pytest.approx(
            _metric(log, "match", "accuracy"), abs=5e-7
        )
        assert rows[model]["tasks"] == QUESTIONS


def test_a_numeric_scorer_is_a_measured_metric(
    inspect_logs: tuple[Path, list[Any]], tmp_path: Path
) -> None:
    """A scorer of numbers: the domain's outcome is the measured metric, and its figure is
    Inspect's mean (of each sample's mean over epochs)."""
    folder, logs = inspect_logs
    result = _import(tmp_path / "root", folder, "--scorer", "closeness")
    assert result.exit_code == 0, result.output
    release = (tmp_path / "root/results/v1.0/release.yaml").read_text(encoding="utf-8")
    assert "outcome: closeness" in release
    assert "measured: true" in release
    rows = _published(tmp_path / "root", tmp_path)
    assert len(rows) == len(logs) == 2
    for log in logs:
        model = str(log.eval.model).split("/")[1]
        assert rows[model]["task_score"] == pytest.approx(
            _metric(log, "closeness", "mean"), abs=5e-7
        )


def test_an_error_is_an_incomplete_run_and_reimport_writes_the_same_bytes(
    inspect_logs: tuple[Path, list[Any]], tmp_path: Path
) -> None:
    folder, _ = inspect_logs
    root = tmp_path / "root"
    assert _import(root, folder, "--scorer", "match").exit_code == 0
    files = sorted(p for p in root.rglob("*") if p.is_file())
    before = {p: p.read_bytes() for p in files}
    again = _import(root, folder, "--scorer", "match")
    assert again.exit_code == 0
    assert {p: p.read_bytes() for p in files} == before
    assert "written" not in again.output.replace("unchanged", "")
    (bundle,) = list(root.glob("results/v1.0/bundles/*alpha*/runs.jsonl"))
    runs = [json.loads(line) for line in bundle.read_text(encoding="utf-8").splitlines()[1:]]
    assert len(runs) == QUESTIONS * EPOCHS
    (lost,) = [r for r in runs if r["status"] == "incomplete"]
    assert (lost["task"], lost["run"], lost["cause"]) == (*FAILING, "error")
    assert "rules" not in lost
    assert "the sandbox went away" in lost["note"]
    assert all(
        r["input_tokens"] >= 20 and r["output_tokens"] == 2 for r in runs if r["status"] == "valid"
    )
    text = (root / "results/v1.0/bundles").joinpath(bundle.parent.name, "bundle.yaml").read_text()
    assert "evaluation: incomplete" in text
    assert "temperature: not recorded" in text


def test_a_cancelled_evaluations_missing_samples_are_incomplete(
    inspect_logs: tuple[Path, list[Any]], tmp_path: Path
) -> None:
    """A log Inspect wrote for a cancelled evaluation lacks samples: each lacking epoch is an
    incomplete run, cause 'cancelled', not a 0."""
    _folder, logs = inspect_logs
    log = read_eval_log(logs[0].location)
    log.samples = [s for s in log.samples if s.id != "q5"]
    log.status = "cancelled"
    cut = tmp_path / "cut" / "cancelled.eval"
    cut.parent.mkdir()
    write_eval_log(log, str(cut))
    imported = read_inspect([cut], "match")
    (bundle,) = imported.bundles
    lost = [r for r in bundle.runs if r.task == "q5"]
    assert [(r.status, r.cause) for r in lost] == [("incomplete", "cancelled")] * EPOCHS
    assert imported.causes["cancelled"].startswith("The evaluation was cancelled")


def test_a_file_inspect_cannot_read_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "broken.json"
    bad.write_text('{"version": 2, "status": "success"', encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        read_inspect([bad], None)
    assert caught.value.where == str(bad)
    result = CliRunner().invoke(
        cli, ["import", "inspect", str(bad), "--root", str(tmp_path / "r"), "--version", "v1"]
    )
    assert result.exit_code == 1
    assert f"{bad}: not an Inspect log Inspect can read" in result.output
    assert "Traceback" not in result.output


def test_a_folder_lists_its_logs_and_the_harness_is_the_plan(
    inspect_logs: tuple[Path, list[Any]], tmp_path: Path
) -> None:
    folder, logs = inspect_logs
    assert len(log_files([folder])) == 2
    assert harness_of(logs[0]) == "flaky → generate"
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SourceError, match="holds no Inspect log"):
        log_files([empty])
    shutil.copy(log_files([folder])[0].removeprefix("file://"), tmp_path / "copy.eval")
    with pytest.raises(SourceError, match="a second log of arith"):
        read_inspect([folder, tmp_path / "copy.eval"], "match")


def test_without_inspect_installed_the_extra_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)  # import fails as if absent
    with pytest.raises(SourceError, match=r"pip install -e '\.\[inspect\]'"):
        read_inspect([tmp_path], None)
