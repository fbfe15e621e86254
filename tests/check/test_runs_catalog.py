"""The catalog's items as the run checks use them (:func:`generator.check.runs.catalog_items`),
built once per catalog and passed to the checks of each bundle."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from builders import read_records

from generator.check.runs import catalog_items, check_runs
from generator.load import load_inputs
from generator.load.records import columns_from_records

REPO = Path(__file__).resolve().parents[2]


def test_module_items_are_the_items_each_task_declares_in_each_module() -> None:
    inputs, _ = load_inputs(REPO)
    for version in inputs.releases:
        assert version.catalog is not None
        catalog = version.catalog.model
        items = catalog_items(catalog)
        index = items.index
        expected = {
            (code, module.id): sorted(
                index.table[code, index.id_code[i.id]]
                for i in (*t.scoring.rule_items, *t.scoring.judge_items)
                if i.module == module.id
            )
            for code, t in enumerate(catalog.tasks)
            for module in t.scoring.modules
        }
        found = {key: sorted(keys.tolist()) for key, keys in items.module_items.items()}
        assert found == {key: keys for key, keys in expected.items() if keys}
        assert any(found.values())


def test_items_passed_in_give_the_problems_of_items_built_here() -> None:
    """One catalog_items for all bundles reports what each bundle's own would, here on a
    bundle whose records name failed modules and repeat items."""
    inputs, _ = load_inputs(REPO)
    version = next(v for v in inputs.releases if v.folder == "v1.0")
    assert version.release is not None
    assert version.catalog is not None
    release, catalog = version.release.model, version.catalog.model
    items = catalog_items(catalog)
    for loaded in version.bundles:
        records = read_records(REPO / loaded.runs_path)
        records[0] = records[0].model_copy(
            update={"rules": (*records[0].rules, records[0].rules[0]), "modules_failed": ("x",)}
        )
        lines = list(range(2, len(records) + 2))
        damaged = dataclasses.replace(loaded, runs=columns_from_records(records, lines))
        shared = list(check_runs(release, catalog, damaged, items))
        assert shared == list(check_runs(release, catalog, damaged))
        assert shared
