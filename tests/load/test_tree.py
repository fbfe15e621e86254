"""Finding input files: symbolic links may move files around inside the root, never out of it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyarrow as pa

from generator.load import load_inputs

LINGEE = "results/v1.0/bundles/lingee"


def _errors(root: Path) -> list[str]:
    _, problems = load_inputs(root)
    return [str(p) for p in problems if p.severity == "error"]


def test_links_that_stay_inside_the_root_are_followed(example: Path) -> None:
    bundle = example / LINGEE
    store = example / "store"
    store.mkdir()
    shutil.move(bundle / "runs.jsonl", store / "lingee.jsonl")
    (bundle / "runs.jsonl").symlink_to(Path("../../../../store/lingee.jsonl"))
    inputs, problems = load_inputs(example)
    assert [p for p in problems if p.severity == "error"] == []
    loaded = next(b for b in inputs.releases[0].bundles if b.folder == "lingee")
    assert len(loaded.runs) > 0, "the linked runs file was read"


def test_runs_may_live_in_a_subfolder_of_the_bundle(example: Path) -> None:
    bundle = example / LINGEE
    (bundle / "runs").mkdir()
    shutil.move(bundle / "runs.jsonl", bundle / "runs" / "part.jsonl")
    yaml = bundle / "bundle.yaml"
    yaml.write_text(yaml.read_text().replace("runs: runs.jsonl", "runs: runs/part.jsonl"))
    assert _errors(example) == []


def test_a_link_loop_is_refused_not_followed(example: Path) -> None:
    loop = example / "harnesscards" / "loop.yaml"
    loop.symlink_to(loop)
    errors = _errors(example)
    assert errors == [
        "harnesscards/loop.yaml: is a symbolic link that leads outside the input root; "
        "refused (every input file must lie inside the root)"
    ]


def test_a_linked_top_folder_outside_the_root_is_refused(example: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    shutil.move(example / "harnesscards", elsewhere)
    (example / "harnesscards").symlink_to(elsewhere)
    assert _errors(example) == [
        "harnesscards: is a symbolic link that leads outside the input root; "
        "refused (every input file must lie inside the root)"
    ]


def test_arrow_allocates_from_the_c_allocator_after_loading() -> None:
    """Arrow's own pool keeps what it freed while parsing (hundreds of MB at a million
    runs); memory from the system pool is given back after each stage."""
    load_inputs(Path(__file__).resolve().parents[2])
    assert pa.default_memory_pool().backend_name == "system"
