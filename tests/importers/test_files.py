"""Writing an import into a root: all or nothing, the same bytes again, a differing bundle
replaced only when asked, an existing release checked rather than rewritten."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from importtools import imported

from generator.cli import cli
from generator.errors import InvalidInput
from generator.importers.files import Options, code_of, plan, write


def _options(root: Path, **changes: object) -> Options:
    base = Options(
        root=root, version="v1", fmt="toy", consent_by="Lab", consent_date=dt.date(2026, 11, 22)
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_an_import_validates_and_writes_the_same_bytes_again(tmp_path: Path) -> None:
    options = _options(tmp_path)
    states = write(plan(imported(), options), options)
    assert [s.state for s in states] == ["written"] * 7  # release, catalog, card, 2 × 2
    valid = CliRunner().invoke(cli, ["validate", "--root", str(tmp_path), "--strict"])
    assert valid.exit_code == 0, valid.output
    before = _tree(tmp_path)
    again = write(plan(imported(), options), options)
    assert [s.state for s in again] == ["kept"] * 3 + ["unchanged"] * 4
    assert _tree(tmp_path) == before


def test_a_differing_bundle_is_replaced_only_when_asked(tmp_path: Path) -> None:
    write(plan(imported(), _options(tmp_path)), _options(tmp_path))
    before = _tree(tmp_path)
    changed = _options(tmp_path, consent_by="Someone else")
    with pytest.raises(InvalidInput) as caught:
        write(plan(imported(), changed), changed)
    assert [p.path for p in caught.value.problems] == [
        "results/v1/bundles/solver-alpha/bundle.yaml",
        "results/v1/bundles/solver-beta/bundle.yaml",
    ]
    assert "expected --replace" in caught.value.problems[0].message
    assert _tree(tmp_path) == before  # nothing written
    forced = _options(tmp_path, consent_by="Someone else", replace=True)
    states = {s.path: s.state for s in write(plan(imported(), forced), forced)}
    assert states["results/v1/bundles/solver-alpha/bundle.yaml"] == "replaced"
    assert states["results/v1/bundles/solver-alpha/runs.jsonl"] == "unchanged"


def test_the_consent_date_of_an_earlier_import_is_kept(tmp_path: Path) -> None:
    write(plan(imported(), _options(tmp_path)), _options(tmp_path))
    undated = _options(tmp_path, consent_date=None)
    assert {s.state for s in write(plan(imported(), undated), undated)} <= {"kept", "unchanged"}


def test_an_existing_release_is_checked_not_rewritten(tmp_path: Path) -> None:
    write(plan(imported(models=1), _options(tmp_path)), _options(tmp_path))
    more_runs = replace(imported(), bundles=(replace(imported().bundles[1], runs_per_task=3),))
    with pytest.raises(InvalidInput) as caught:
        plan(more_runs, _options(tmp_path))
    (problem,) = caught.value.problems
    assert (problem.path, problem.field) == ("results/v1/release.yaml", "runs_per_task")
    assert problem.line is not None
    new_cause = replace(imported(), causes={"cancelled": "Cancelled"})
    with pytest.raises(InvalidInput, match="1 error"):
        plan(new_cause, _options(tmp_path))


def test_a_value_the_model_refuses_is_named_at_its_field(tmp_path: Path) -> None:
    hot = replace(imported(models=1).bundles[0], configuration={"temperature": 7.0})
    with pytest.raises(InvalidInput) as caught:
        plan(replace(imported(), bundles=(hot,)), _options(tmp_path))
    problems = caught.value.problems  # one per form the field allows: a number, not recorded
    assert {p.path for p in problems} == {"results/v1/bundles/solver-alpha/bundle.yaml"}
    assert all(p.field.startswith("configuration.temperature") for p in problems)
    assert "less than or equal to 2" in problems[0].message
    assert not (tmp_path / "results").exists()


def test_one_combination_may_be_renamed() -> None:
    root = Path("unused")
    with pytest.raises(InvalidInput) as caught:
        plan(imported(), _options(root, combination="mine"))
    assert "import them one by one" in caught.value.problems[0].message
    files = dict(plan(imported(models=1), _options(root, combination="mine")))
    assert "results/v1/bundles/mine/bundle.yaml" in files
    assert code_of("Terminal-Bench 2.0") == "terminal-bench-2-0"


def test_a_new_release_refuses_combinations_of_different_runs_per_task(tmp_path: Path) -> None:
    """The release prescribes one number of runs per task; a bundle of another number would
    be written and then refused by validate."""
    source = imported()
    first, second = source.bundles
    uneven = replace(
        source, bundles=(first, replace(second, runs_per_task=first.runs_per_task + 1))
    )
    with pytest.raises(InvalidInput) as caught:
        plan(uneven, _options(tmp_path))
    (problem,) = caught.value.problems
    assert "ran different numbers of runs per task" in problem.message
    assert f"{second.combination}: {first.runs_per_task + 1}" in problem.message
    assert list(tmp_path.iterdir()) == [], "nothing is written"
