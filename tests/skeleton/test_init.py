"""``python -m generator init``: a new benchmark's root that validates and builds as written
(issue 27), whatever its name; ``examples/minimal`` is what it writes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from click.testing import Result

from generator.skeleton import KINDS, code_of, skeleton

REPO = Path(__file__).resolve().parents[2]
MINIMAL = REPO / "examples" / "minimal"
#: The arguments examples/minimal was written with.
MINIMAL_ARGS = ("--benchmark", "Minimal Bench", "--freeze-date", "2026-11-01")


@pytest.mark.parametrize("kind", KINDS)
def test_a_new_root_validates_and_builds_strictly(
    kind: str, tmp_path: Path, run_cli: Callable[..., Result]
) -> None:
    root = tmp_path / "bench"
    made = run_cli("init", str(root), "--benchmark", "Tiny Bench", "--kind", kind)
    assert made.exit_code == 0, made.output
    checked = run_cli("validate", "--root", str(root), "--strict")
    assert checked.exit_code == 0, checked.output
    assert "0 warning(s)" in checked.output
    built = run_cli("build", "--root", str(root), "--out", str(tmp_path / "site"), "--strict")
    assert built.exit_code == 0, built.output
    assert (tmp_path / "site" / "v1.0" / "index.html").is_file()


def test_any_name_is_written_by_the_serializer(
    tmp_path: Path, run_cli: Callable[..., Result]
) -> None:
    """Quotes, a colon, '#', '---', a YAML tag and non-Latin script stay the name's text."""
    name = "Bench: \"q\" 'a' #1 --- !!python/object 评测 «x»"
    root = tmp_path / "bench"
    assert run_cli("init", str(root), "--benchmark", name).exit_code == 0
    release = yaml.safe_load((root / "results" / "v1.0" / "release.yaml").read_text())
    assert release["benchmark"] == {"name": name, "code": code_of(name)}
    assert release["domains"][0]["title"] == name
    checked = run_cli("validate", "--root", str(root), "--strict")
    assert checked.exit_code == 0, checked.output


def test_a_name_of_several_lines_stays_in_its_comments(
    tmp_path: Path, run_cli: Callable[..., Result]
) -> None:
    """A line break (or a Unicode line separator) in the name never starts a line of YAML."""
    name = "My Bench\nversion: hacked\u2028format_version: 9"
    root = tmp_path / "bench"
    assert run_cli("init", str(root), "--benchmark", name).exit_code == 0
    checked = run_cli("validate", "--root", str(root), "--strict")
    assert checked.exit_code == 0, checked.output
    release = yaml.safe_load((root / "results" / "v1.0" / "release.yaml").read_text())
    assert release["benchmark"]["name"] == name
    assert release["version"] == "v1.0"


def test_init_writes_nothing_where_a_folder_it_needs_is_a_file(
    tmp_path: Path, run_cli: Callable[..., Result]
) -> None:
    root = tmp_path / "bench"
    root.mkdir()
    (root / "harnesscards").write_text("", encoding="utf-8")
    made = run_cli("init", str(root), "--benchmark", "B")
    assert made.exit_code == 2
    assert "init never overwrites a file" in made.output
    assert sorted(p.name for p in root.iterdir()) == ["harnesscards"]


def test_init_refuses_what_it_cannot_write(tmp_path: Path, run_cli: Callable[..., Result]) -> None:
    root = tmp_path / "bench"
    assert run_cli("init", str(root), "--benchmark", "B").exit_code == 0
    again = run_cli("init", str(root), "--benchmark", "B")
    assert again.exit_code == 2
    assert "init never overwrites a file" in again.output
    bad = run_cli("init", str(tmp_path / "other"), "--benchmark", "bell\a")
    assert bad.exit_code == 2
    assert "--benchmark" in bad.output
    assert not (tmp_path / "other").exists()
    assert code_of("评测") == "benchmark"
    assert code_of("Terminal-Bench 2.0") == "terminal-bench-2-0"


def test_the_workflow_validates_and_builds_strictly(tmp_path: Path) -> None:
    files = skeleton("B", "pass-fail", "v1.0", dt.date(2026, 11, 1))
    flow = yaml.safe_load(files[".github/workflows/release-site.yml"])
    steps = [s.get("run", "") for s in flow["jobs"]["site"]["steps"]]
    assert "python -m generator validate --strict --format github" in steps
    assert "python -m generator build --strict --out site" in steps


def test_the_minimal_example_is_what_init_writes() -> None:
    """examples/minimal, file for file and byte for byte (regenerate it with
    ``python -m generator init examples/minimal`` and the arguments above)."""
    files = skeleton("Minimal Bench", "pass-fail", "v1.0", dt.date(2026, 11, 1))
    present = {
        p.relative_to(MINIMAL).as_posix(): p.read_text(encoding="utf-8")
        for p in MINIMAL.rglob("*")
        if p.is_file()
    }
    assert present == files
