"""``python -m generator import``: its arguments, its messages and exit codes."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from generator.cli import cli

RUN = (
    Path(__file__).resolve().parent.parent / "fixtures" / "terminal-bench" / "2026-11-20__10-00-00"
)


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["import", *args])
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_an_unknown_format_or_id_is_a_usage_error(tmp_path: Path) -> None:
    code, out = _run("csv", str(RUN), "--root", str(tmp_path), "--version", "v1")
    assert code == 2
    assert "'csv' is no installed importer" in out
    assert "'inspect'" in out
    code, out = _run("terminal-bench", str(RUN), "--root", str(tmp_path), "--version", "v 1")
    assert code == 2
    assert "is not an id" in out


def test_without_consent_the_bundle_is_written_unpublished(tmp_path: Path) -> None:
    code, out = _run(
        "terminal-bench",
        str(RUN),
        "--root",
        str(tmp_path),
        "--version",
        "v1",
        "--combination",
        "terminus-sonnet",
        "--consent-date",
        "2026-11-21",
    )
    assert code == 0, out
    assert "notice: no --consent" in out
    bundle = tmp_path / "results/v1/bundles/terminus-sonnet/bundle.yaml"
    assert "granted: false" in bundle.read_text(encoding="utf-8")
    validated = CliRunner().invoke(cli, ["validate", "--root", str(tmp_path), "--strict"])
    assert validated.exit_code == 0, validated.output


def test_bad_source_is_named_with_exit_1(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "results.json").write_text('{"results": [{"task_id": 3}]}', encoding="utf-8")
    code, out = _run("terminal-bench", str(folder), "--root", str(tmp_path), "--version", "v1")
    assert code == 1
    assert f"{folder / 'results.json'}: results[0]: expected a trial with a task_id" in out
