"""The rules between run records, the task catalog and the bundle, section by section."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from generator.check.runs.catalog import CatalogItems, catalog_items
from generator.check.runs.columns import Found, run_checks
from generator.check.runs.completeness import check_completeness
from generator.check.runs.fields import check_fields
from generator.check.runs.items import check_items
from generator.check.runs.keys import check_keys
from generator.check.runs.measures import check_measures
from generator.check.runs.outcome import check_outcome
from generator.errors import Problem
from generator.load import LoadedBundle
from generator.memory import release_unused_memory
from generator.models import Catalog, Release


def check_runs(
    release: Release,
    catalog: Catalog,
    loaded: LoadedBundle,
    items: CatalogItems | None = None,
    elsewhere: Mapping[str, str] | None = None,
) -> Iterator[Problem]:
    """Problems of each record, then the bundle's completeness against its declaration.

    ``items``: the catalog's :func:`catalog_items`, when checking several bundles of one
    catalog (built here otherwise); ``elsewhere``: the tasks of the other versions, by id,
    with the version each belongs to (named when a record uses one).
    """
    release_unused_memory()  # what the previous bundle's checks left behind (at 10x ~300 MB)
    runs = run_checks(release, catalog_items(catalog) if items is None else items, loaded)
    found = Found()
    keyed = check_keys(runs, found, elsewhere or {})
    open_ = check_fields(runs, keyed, found)
    check_measures(runs, keyed, found)
    check_outcome(check_items(runs, open_, found), found)
    lines = runs.records.line
    for row, problems in found.by_row.items():
        for field, message in problems:
            yield Problem(loaded.runs_path, int(lines[row]), field, message)
    if not found.by_row and loaded.runs_clean:  # else counts would be wrong
        yield from check_completeness(runs)
