"""The plug-in point: importers are entry points of one group, the built-in ones too."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from generator.importers import registry
from generator.importers.registry import GROUP, Importer, load, registered


def test_the_built_in_importers_are_registered_through_the_group() -> None:
    found = registered()
    assert {"inspect", "terminal-bench"} <= set(found)
    assert found["inspect"].value == "generator.importers.inspect_logs:IMPORTER"
    assert isinstance(load("terminal-bench"), Importer)


def test_a_benchmark_ships_its_own_importer(monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry point another package installs is found like the built-in ones; one that
    names no importer is refused with the group named."""
    extra = [
        EntryPoint("toy", "generator.importers.terminal_bench:IMPORTER", GROUP),
        EntryPoint("broken", "generator.importers.source:Outcome", GROUP),
    ]
    monkeypatch.setattr(registry, "entry_points", lambda group: extra if group == GROUP else [])
    assert list(registered()) == ["broken", "toy"]
    assert load("toy").title.startswith("Terminal-Bench")
    with pytest.raises(TypeError, match=r"lg_bench_site\.importers"):
        load("broken")
    with pytest.raises(LookupError, match=r"installed: \['broken', 'toy'\]"):
        load("inspect")
