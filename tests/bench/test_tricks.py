"""bench/tricks.py: each switch turns off something the build really uses."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest
from synthetic import script

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "tricks.py"

#: trick -> the module attribute its switch replaces
TARGETS = {
    "evidence-beside-scoring": ("generator.build", "ThreadPoolExecutor"),
    "gc-freeze": ("generator.site.build", "gc"),
    "shared-navigation": ("generator.pages", "replace"),
    "page-worker": ("generator.site.build", "PARTS"),
    "arrow-runs": ("generator.load.jsonlines", "read_fast"),
    "bulk-tables": ("generator.pages.blocks.bulk", "downloads"),
}


@pytest.fixture(scope="module")
def tricks() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))  # tricks.py imports bench/run.py as ``run``
    return script(SCRIPT, "bench_tricks")


def test_every_trick_is_named_with_what_it_replaces(tricks: ModuleType) -> None:
    assert set(tricks.TRICKS) == set(TARGETS)


@pytest.mark.parametrize("trick", sorted(TARGETS))
def test_each_switch_replaces_a_name_the_build_uses(
    tricks: ModuleType, trick: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module_name, attribute = TARGETS[trick]
    module = importlib.import_module(module_name)
    before = getattr(module, attribute)  # fails when the build no longer has it
    for name, value in list(vars(module).items()):  # every name restored after the test: a
        monkeypatch.setattr(module, name, value)  # switch may replace more than its target
    switch, stage = tricks.TRICKS[trick]
    switch()
    assert getattr(module, attribute) is not before
    assert stage.endswith("_s")
