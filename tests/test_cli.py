"""The command line as a user meets it: exit codes, messages, no tracebacks."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from generator.cli import NAMED_FULL_READ
from generator.errors import Problem, github_annotation
from generator.models import INPUT_MODELS


def _run_count(root: Path) -> int:
    return sum(
        len(path.read_text(encoding="utf-8").splitlines()) - 1
        for path in (root / "results").glob("*/bundles/*/runs.jsonl")
    )


def test_validate_accepts_the_example(repo_root: Path, run_cli: Any) -> None:
    result = run_cli("validate", "--root", str(repo_root))
    assert result.exit_code == 0, result.output
    versions = len([p for p in (repo_root / "results").iterdir() if p.is_dir()])
    bundles = len(list((repo_root / "results").glob("*/bundles/*/bundle.yaml")))
    cards = len(list((repo_root / "harnesscards").glob("*.yaml")))
    assert result.stdout == (
        f"valid: {versions} version(s), {bundles} bundle(s), {_run_count(repo_root):,} run(s), "
        f"{cards} HarnessCard(s); 0 warning(s)\n"
    )
    # the small files read by the full YAML reader are counted in one line; no warnings
    notices = result.stderr.splitlines()
    small = [n for n in notices if n.startswith("notice: ")]
    assert len(small) == 1, notices
    assert small[0].split("): ")[1].split(", ")[0].endswith(".yaml"), "it names the files"
    assert all(": notice: read by the full YAML reader: " in n for n in notices if n not in small)


def test_a_file_read_by_the_full_yaml_reader_says_so_once(example: Path, run_cli: Any) -> None:
    catalog = example / "results" / "v1.1" / "tasks.yaml"
    text = catalog.read_text(encoding="utf-8")
    assert len(text.encode()) >= NAMED_FULL_READ, "the example catalog is named on its own"
    catalog.write_text(text.replace("format_version: 1", "format_version: &v 1", 1))
    for args in ((), ("--strict",)):
        result = run_cli("validate", "--root", str(example), *args)
        assert result.exit_code == 0, result.output
        assert result.stdout.endswith("; 0 warning(s)\n")
        said = [n for n in result.stderr.splitlines() if n.startswith("results/v1.1/tasks.yaml")]
        assert len(said) == 1, said
        assert "notice: read by the full YAML reader" in said[0]
        assert "an anchor, alias or tag" in said[0]


def test_root_defaults_to_the_current_folder(
    repo_root: Path, run_cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo_root)
    result = run_cli("validate")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("valid: ")


def test_warning_passes_unless_strict(example: Path, run_cli: Any) -> None:
    (example / "results" / "v1.0" / "notes.txt").write_text("scratch", encoding="utf-8")
    warning = "results/v1.0/notes.txt: warning: not part of the input format; ignored"
    lenient = run_cli("validate", "--root", str(example))
    assert lenient.exit_code == 0
    assert warning in lenient.output
    assert "; 1 warning(s)" in lenient.output
    strict = run_cli("validate", "--root", str(example), "--strict")
    assert strict.exit_code == 1
    assert warning in strict.output
    assert strict.output.rstrip().endswith("Error: input is invalid: 0 error(s), 1 warning(s)")


def test_a_bundle_without_consent_is_a_notice_not_a_warning(example: Path, run_cli: Any) -> None:
    bundle = example / "results" / "v1.0" / "bundles" / "opencode" / "bundle.yaml"
    bundle.write_text(bundle.read_text().replace("granted: true", "granted: false"))
    for args in ((), ("--strict",)):
        result = run_cli("validate", "--root", str(example), *args)
        assert result.exit_code == 0, result.output
        assert result.stdout.endswith("; 0 warning(s), 1 notice\n")
        line = bundle.read_text().splitlines().index("  granted: false") + 1
        assert (
            f"results/v1.0/bundles/opencode/bundle.yaml:{line}: notice: consent.granted: "
            "false: not published"
        ) in result.stderr


def test_all_problems_in_one_pass(example: Path, run_cli: Any) -> None:
    (example / "harnesscards" / "opencode-0.9.yaml").write_text("format_version: 9\n")
    (example / "results" / "v1.1" / "tasks.yaml").write_text("")
    result = run_cli("validate", "--root", str(example))
    assert result.exit_code == 1
    assert "harnesscards/opencode-0.9.yaml:1: format_version: 9 is newer" in result.output
    assert "results/v1.1/tasks.yaml: file is empty" in result.output
    assert "Error: input is invalid: 2 error(s), 0 warning(s)" in result.output


def test_missing_results_folder(tmp_path: Path, run_cli: Any) -> None:
    result = run_cli("validate", "--root", str(tmp_path))
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        "results: folder not found; expected results/<version>/release.yaml under the root",
        "Error: input is invalid: 1 error(s), 0 warning(s)",
    ]


def test_root_must_be_a_folder(tmp_path: Path, run_cli: Any) -> None:
    result = run_cli("validate", "--root", str(tmp_path / "absent"))
    assert result.exit_code == 2
    assert "is not a folder" in result.output
    assert "Traceback" not in result.output


def test_unknown_command_is_a_usage_error(run_cli: Any) -> None:
    result = run_cli("publish")
    assert result.exit_code == 2
    assert "No such command 'publish'" in result.output


def test_help_lists_the_commands(run_cli: Any) -> None:
    result = run_cli("--help")
    assert result.exit_code == 0
    for command in ("validate", "schema"):
        assert f"  {command} " in result.output


def test_schema_writes_one_schema_per_input_kind(tmp_path: Path, run_cli: Any) -> None:
    out = tmp_path / "schemas"
    result = run_cli("schema", "--out", str(out))
    assert result.exit_code == 0, result.output
    written = sorted(p.name for p in out.iterdir())
    kinds = [*INPUT_MODELS, "report"]
    assert written == sorted(f"{kind}.v1.schema.json" for kind in kinds)
    assert result.output.splitlines() == [str(out / f"{kind}.v1.schema.json") for kind in kinds]
    for kind in kinds:
        path = out / f"{kind}.v1.schema.json"
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert schema["$schema"].endswith("2020-12/schema")
        assert schema["$id"] == path.name


def test_fingerprint_prints_each_bundle_s_and_recomputes_an_exported_record(
    example: Path, run_cli: Any, inputs: Any, tmp_path: Path
) -> None:
    from generator.disclosure import fingerprint, fingerprint_document

    want = {
        f"{v.folder}/{b.folder}": fingerprint(
            inputs.cards[b.bundle.model.combination.harnesscard].model, b.bundle.model
        )
        for v in inputs.releases
        for b in v.bundles
    }
    every = run_cli("fingerprint", "--root", str(example))
    assert every.exit_code == 0, every.output
    assert every.stdout.splitlines() == [f"{f}  {k}" for k, f in sorted(want.items())]
    one = run_cli("fingerprint", "--root", str(example), "--version", "v1.0", "--bundle", "lingee")
    assert one.stdout == f"{want['v1.0/lingee']}  v1.0/lingee\n"
    none = run_cli("fingerprint", "--root", str(example), "--bundle", "absent")
    assert none.exit_code == 2
    # an exported record: recomputed, checked against the fingerprint it states
    v10 = next(v for v in inputs.releases if v.folder == "v1.0")
    bundle = next(b for b in v10.bundles if b.folder == "lingee").bundle.model
    document = fingerprint_document(inputs.cards[bundle.combination.harnesscard].model, bundle)
    path = tmp_path / "lingee.configuration-record.json"
    path.write_text(json.dumps({"fingerprint": want["v1.0/lingee"], "fingerprinted": document}))
    good = run_cli("fingerprint", str(path))
    assert (good.exit_code, good.stdout) == (0, f"{want['v1.0/lingee']}  {path}\n")
    document["budgets"]["max_steps"] += 1
    path.write_text(json.dumps({"fingerprint": want["v1.0/lingee"], "fingerprinted": document}))
    bad = run_cli("fingerprint", str(path))
    assert bad.exit_code == 1
    assert f"differs from the recorded fingerprint {want['v1.0/lingee']}" in bad.stderr


def test_new_bundle_writes_a_template_that_validate_reports_as_not_filled_in(
    example: Path, run_cli: Any
) -> None:
    from generator.models.template import PLACEHOLDER

    made = run_cli("new-bundle", "--root", str(example), "--version", "v1.1", "my-agent")
    assert made.exit_code == 0, made.output
    folder = example / "results" / "v1.1" / "bundles" / "my-agent"
    assert made.stdout.splitlines() == [str(folder / "bundle.yaml"), str(folder / "runs.jsonl")]
    assert (folder / "runs.jsonl").read_text() == '{"format_version": 1}\n'
    text = (folder / "bundle.yaml").read_text(encoding="utf-8")
    left = [
        n for n, line in enumerate(text.splitlines(), 1) if line.split("#")[0].count(PLACEHOLDER)
    ]
    result = run_cli("validate", "--root", str(example))
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    rel = "results/v1.1/bundles/my-agent/bundle.yaml"
    said = [line for line in result.stderr.splitlines() if line.startswith(rel)]
    assert [int(line.split(":")[1]) for line in said] == left  # one per placeholder, its line
    assert all(": not filled in yet; expected: " in line for line in said)
    assert [line for line in result.stderr.splitlines() if line.startswith("results/")] == said
    again = run_cli("new-bundle", "--root", str(example), "--version", "v1.1", "my-agent")
    assert again.exit_code == 2
    assert "never overwrites" in again.output
    bad = run_cli("new-bundle", "--root", str(example), "--version", "v1.1", "../escape")
    assert bad.exit_code == 2
    assert "is not an id" in bad.output
    absent = run_cli("new-bundle", "--root", str(example), "--version", "v9.9", "my-agent")
    assert absent.exit_code == 2
    assert "'v9.9' is not a version folder" in absent.output
    assert not (example / "results" / "v9.9").exists()


def test_validate_writes_github_annotations_on_the_lines(example: Path, run_cli: Any) -> None:
    """--format github: each problem as a workflow command a pull request shows on its
    line, its path from the current folder, its field the title."""
    release = example / "results" / "v1.1" / "release.yaml"
    lines = release.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("runs_per_task:"))
    lines[at] = "runs_per_task: many"
    release.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("validate", "--root", str(example), "--format", "github")
    assert result.exit_code != 0
    (said,) = [n for n in result.stderr.splitlines() if n.startswith("::error ")]
    base = os.path.relpath(example.resolve(), Path.cwd()).replace(os.sep, "/")
    assert said.startswith(
        f"::error file={base}/results/v1.1/release.yaml,line={at + 1},title=runs_per_task::"
    )


def test_an_annotation_escapes_what_the_runner_reads() -> None:
    problem = Problem("a,b:c.yaml", 3, "x:y", "one\nline, 100%")
    assert github_annotation(problem) == (
        "::error file=a%2Cb%3Ac.yaml,line=3,title=x%3Ay::one\\u000aline, 100%25"
    )
