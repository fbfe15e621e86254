"""Rules between run records, the task catalog and the bundle (§4.2–4.3), on whole columns.

The rules are checked for all records of a bundle at once; only records that break one get a
message written for them. Each record is judged in this order, as a reader would fix it, one
module per section:

1. :mod:`~generator.check.runs.keys`: the task is known, the (task, run) pair is new, and the
   task lies in a covered scope;
2. :mod:`~generator.check.runs.fields`: the record's own fields: run index, cause, failure
   type, Judge result of the task's mode; a dual-channel or judge-only run without a valid
   Judge result stops here (§4.3(3)); :mod:`~generator.check.runs.measures`: the counts
   the release's metrics need and the measures it declares (each once, within its range,
   and a measure task's own value on a delivered run);
3. :mod:`~generator.check.runs.items`: its item verdicts: modules, item ids per list,
   repeats, failed modules, missing verdicts (:mod:`~generator.check.runs.missing`), Judge
   levels (whole unless the release allows continuous ones) and evidence
   (:mod:`~generator.check.runs.evidence`);
4. :mod:`~generator.check.runs.outcome`: for a clean valid record, whether its failure type
   agrees with its outcome (§4.2(3));

then, when no record has a problem, the bundle's declared evaluation against its valid runs
(:mod:`~generator.check.runs.completeness`). Each section reads named columns
(:mod:`~generator.check.runs.columns`) and the catalog's items, derived once per catalog
(:mod:`~generator.check.runs.catalog`).
"""

from __future__ import annotations

from generator.check.runs.catalog import CatalogItems, catalog_items
from generator.check.runs.check import check_runs
from generator.check.runs.items import repeat_counts

__all__ = ["CatalogItems", "catalog_items", "check_runs", "repeat_counts"]
