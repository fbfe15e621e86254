"""Run-record rules that are easy to get wrong: Judge validity and zeroed runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from edit import edit_runs

DS = "results/v1.0/bundles/deepseek-harness-standard/runs.jsonl"
TASK = "supply-chain-tc-059"  # DeepSeek timed out: D fails on every run


def _strip_judge(records: list[dict[str, Any]]) -> None:
    for r in records:
        if r["task"] == TASK:
            r["judge"] = []
            r["judge_valid"] = False


def test_zeroed_run_may_lack_its_judge_result(example: Path, run_cli: Any) -> None:
    edit_runs(example / DS, _strip_judge)
    result = run_cli("validate", "--root", str(example))
    assert result.exit_code == 0, result.output


def test_delivered_run_needs_its_judge_result(example: Path, run_cli: Any) -> None:
    def change(records: list[dict[str, Any]]) -> None:
        _strip_judge(records)
        for r in records:
            if r["task"] == TASK:
                r["delivery"] = True

    edit_runs(example / DS, change)
    result = run_cli("validate", "--root", str(example))
    assert result.exit_code == 1
    assert (
        "judge_valid: a dual-channel run without a valid Judge result is "
        "evaluation-incomplete" in result.output
    )
