"""Rules of facets whose values overlap and of task sets (generator/check/facets.py)."""

from __future__ import annotations

import copy
from typing import Any

from builders import FACETS, bundle, profiled, task

from generator.check.facets import (
    check_overlapping_facets,
    check_sets_declared,
    check_sets_left_out,
    check_task_facets_and_sets,
)
from generator.load import Loaded, LoadedBundle
from generator.load.records import columns_from_records
from generator.load.source import Source
from generator.models import Bundle, Release, Task

TYPES = {
    "id": "types",
    "title": "Deliverable type",
    "multi": True,
    "values": [{"id": "html", "title": "HTML"}, {"id": "pdf", "title": "PDF"}],
}
SETS = [{"id": "lite", "title": "Lite"}, {"id": "full", "title": "Full"}]


def _release(cells: list[str] | None = None, rows: list[dict[str, Any]] | None = None) -> Release:
    """The builders' profiled release with a multi-valued facet cutting QA and task sets."""
    data = profiled(facets=[*FACETS, TYPES]).model_dump(mode="json", exclude_none=True)
    qa = next(d for d in data["domains"] if d["id"] == "qa")
    qa["facets"] = ["capability", "difficulty", "types"]
    qa["task_sets"] = SETS
    if cells is not None:
        qa["aggregate"] = {"over": "cells", "facets": cells}
    if rows is not None:
        board = {"kind": "board", "id": "b", "title": "B", "per": "method", "columns": "backbone"}
        data["profile"]["views"] = [{**board, "rows": rows}]
    return Release.model_validate(data)


def _messages(problems: Any) -> list[str]:
    return [f"{p.field}: {p.message}" for p in problems]


def test_overlapping_values_cut_no_cells_and_pair_with_no_facet() -> None:
    assert _messages(check_overlapping_facets(_release(), Source("r"))) == []
    (cells,) = _messages(check_overlapping_facets(_release(["difficulty", "types"]), Source("r")))
    at = [d.id for d in _release().domains].index("qa")
    assert cells.startswith(f"domains[{at}].aggregate.facets: ['types'] allow several values")
    alone = [{"domain": "qa", "facets": {"types": "html"}}]
    assert _messages(check_overlapping_facets(_release(rows=alone), Source("r"))) == []
    paired = [{"domain": "qa", "facets": {"types": "html", "difficulty": "easy"}}]
    (row,) = _messages(check_overlapping_facets(_release(rows=paired), Source("r")))
    assert row.startswith("profile.views[0].rows[0].facets: ['types'] allow several values")


def _qa(types: Any, sets: list[str] | None = None) -> Task:
    data = task("q1", "qa", sub=None)  # type: ignore[arg-type]
    data.pop("subdivision")
    data["facets"] = {"capability": "ie", "difficulty": "easy", "types": types}
    if sets is not None:
        data["sets"] = sets
    return Task.model_validate(data)


def _task_messages(one: Task, model: Release | None = None) -> list[str]:
    return _messages(check_task_facets_and_sets(model or _release(), one, Source("t"), 0))


def test_a_task_holds_several_values_only_of_a_multi_valued_facet() -> None:
    assert _task_messages(_qa(["html", "pdf"], ["lite", "full"])) == []
    assert _task_messages(_qa("html", ["full"])) == []
    (twice,) = _task_messages(_qa(["html", "html"], ["full"]))
    assert "'types': expected its values once each; got ['html', 'html']" in twice
    data = _qa("html", ["full"]).model_dump(mode="json", exclude_none=True)
    data["facets"]["difficulty"] = ["easy", "hard"]
    (single,) = _task_messages(Task.model_validate(data))
    assert "'difficulty' holds one value per task; got ['easy', 'hard']" in single


def test_a_task_names_its_sets_where_its_domain_has_sets() -> None:
    (missing,) = _task_messages(_qa("html"))
    assert missing.startswith("tasks[0].sets: missing: qa publishes its task sets")
    (typo,) = _task_messages(_qa("html", ["ful"]))
    assert "'ful' is not a task set of qa" in typo
    assert "did you mean 'full'" in typo
    office = Task.model_validate({**task("o1"), "sets": ["lite"]})
    (none,) = _task_messages(office)
    assert "none: office declares no task sets" in none


def test_task_sets_are_declared_once_and_left_out_by_name() -> None:
    assert _messages(check_sets_declared(_release(), Source("r"))) == []
    data = _release().model_dump(mode="json", exclude_none=True)
    at = [d["id"] for d in data["domains"]].index("qa")
    data["domains"][at]["task_sets"] = [*SETS, copy.deepcopy(SETS[0])]
    (twice,) = _messages(check_sets_declared(Release.model_validate(data), Source("r")))
    assert twice == f"domains[{at}].task_sets: repeated ids: ['lite']"

    def left_out(task_set: str) -> list[str]:
        data = bundle("a").model_dump(mode="json", by_alias=True, exclude_none=True)
        data["not_covered"] = [{"domain": "qa", "task_set": task_set, "reason": "budget"}]
        loaded = LoadedBundle(
            "a",
            Loaded(Bundle.model_validate(data), Source("b.yaml")),
            columns_from_records([], []),
            "runs.jsonl",
        )
        return _messages(check_sets_left_out(_release(), loaded))

    assert left_out("full") == []
    (wrong,) = left_out("fulll")
    assert wrong.startswith("not_covered[0].task_set: 'fulll' is not a task set of qa")
