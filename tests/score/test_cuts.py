"""The parts of a domain shown as scopes (generator/score/cuts.py), and the held-out
withholding applied to each partition, on a domain cut by two facets."""

from __future__ import annotations

from typing import Any

import pytest
from builders import catalog, profiled, run, task, version

from generator.score.cuts import cut_column, cut_columns, domain_cuts
from generator.score.report import build_report


def _qa(tid: str, capability: str, difficulty: str, group: str = "public") -> dict[str, Any]:
    data = task(tid, "qa", group=group)
    del data["subdivision"]
    data["facets"] = {"capability": capability, "difficulty": difficulty}
    return data


def test_the_cuts_of_a_domain_in_order() -> None:
    release = profiled()
    qa = next(d for d in release.domains if d.id == "qa")
    cuts = domain_cuts(qa, release)
    assert [(c.column, c.value) for c in cuts] == [
        (None, None),
        ("facet:capability", "ie"),
        ("facet:difficulty", "easy"),
        ("facet:difficulty", "hard"),
        ("facet:capability,difficulty", "ie,easy"),
        ("facet:capability,difficulty", "ie,hard"),
    ]
    assert cuts[4].fields == {"facets": (("capability", "ie"), ("difficulty", "easy"))}
    assert cuts[4].title == "IE · Easy"
    assert cuts[2].title == "Easy (difficulty)"
    office = next(d for d in release.domains if d.id == "office")
    assert [c.fields for c in domain_cuts(office, release)] == [
        {},
        {"subdivision": "a"},
        {"subdivision": "b"},
    ]


def test_a_pair_of_facets_is_one_column() -> None:
    import pandas as pd

    tasks = pd.DataFrame({"facet:capability": ["ie", "ie"], "facet:difficulty": ["easy", "hard"]})
    release = profiled()
    qa = next(d for d in release.domains if d.id == "qa")
    out = cut_columns(tasks, domain_cuts(qa, release))
    assert out[cut_column(["capability", "difficulty"])].tolist() == ["ie,easy", "ie,hard"]


def test_each_facet_value_is_a_scope_and_held_out_figures_come_from_one_partition() -> None:
    """Six easy tasks (five held out) and three hard ones (one held out). The first facet
    (capability) is the partition that publishes held-out figures: its one value holds all
    six. The second (difficulty) shows its public groups only: its easy held-out group, five
    tasks, passes its own partition's rule, yet the six less the five is the hard task."""
    tasks = [_qa(f"e{i}", "ie", "easy", "held-out" if i < 5 else "public") for i in range(6)]
    tasks += [_qa(f"h{i}", "ie", "hard", "held-out" if i == 0 else "public") for i in range(3)]
    runs = [run(t["id"], r) for t in tasks for r in (1, 2)]
    rel = profiled()
    data = rel.model_dump(mode="json", exclude_none=True)
    data["groups"] = {"public": 3, "held_out": 6}
    report = build_report(
        version(type(rel).model_validate(data), catalog(tasks), {"p": runs}), "qa"
    )
    by_key = {(s.scope.facets, s.scope.group): s for s in report.scopes}
    easy, hard = (("difficulty", "easy"),), (("difficulty", "hard"),)
    assert by_key[(easy, "public")].tasks == 1
    assert by_key[(hard, "all")].withheld is not None
    assert by_key[(hard, "held-out")].withheld is not None
    assert "one partition of this domain only (capability)" in (
        by_key[(easy, "held-out")].withheld or ""
    )
    assert by_key[((), "held-out")].withheld is None  # six held-out tasks in all
    assert by_key[((("capability", "ie"),), "held-out")].withheld is None
    assert by_key[(hard, "public")].withheld is None
    scored = by_key[(hard, "public")].combinations[0]
    assert scored.task_score is not None
    assert scored.task_score.tasks == 2


def test_a_task_counts_in_each_of_its_values_of_a_multi_valued_facet() -> None:
    """Twelve tasks, ten held out, of deliverable types that overlap: a type's scope holds
    every task of that type whatever its other types, its figure is their mean (computed here
    from the runs); the held-out figure of a type is shown where no group of fewer than the
    minimum could be isolated with the domain's, and withheld where it could."""
    from generator.models import Release

    types = {
        "id": "types",
        "title": "Deliverable type",
        "multi": True,
        "values": [{"id": v, "title": v.upper()} for v in ("html", "pdf", "doc")],
    }
    data = profiled().model_dump(mode="json", exclude_none=True)
    data["profile"]["facets"] = [*data["profile"]["facets"], types]
    qa = next(d for d in data["domains"] if d["id"] == "qa")
    qa["facets"] = ["capability", "difficulty", "types"]
    data["groups"] = {"public": 2, "held_out": 10, "min_held_out_aggregate": 3}
    layout = ["html"] * 5 + [["html", "pdf"]] * 3 + ["pdf"] * 2 + [["pdf", "doc"]] * 2
    tasks = []
    for i, held in enumerate(layout):
        t = _qa(f"t{i:02}", "ie", "easy", "public" if i in (0, 8) else "held-out")
        t["facets"]["types"] = held
        tasks.append(t)
    runs = [run(t["id"], r, passed=(i + r) % 3) for i, t in enumerate(tasks) for r in (1, 2)]
    report = build_report(version(Release.model_validate(data), catalog(tasks), {"p": runs}), "qa")
    by_key = {(s.scope.facets, s.scope.group): s for s in report.scopes}

    def holds(t: dict[str, Any], v: str) -> bool:
        value = t["facets"]["types"]
        return v == value or (isinstance(value, list) and v in value)

    for v in ("html", "pdf"):
        scope = by_key[((("types", v),), "all")]
        mine = [t["id"] for t in tasks if holds(t, v)]
        assert scope.withheld is None
        (c,) = scope.combinations
        assert c.task_score is not None
        assert c.task_score.tasks == len(mine)
        per_task = [
            sum(min(r.rules[0].passed + r.rules[1].passed, 2) / 2 for r in runs if r.task == i) / 2
            for i in mine
        ]
        assert c.task_score.value == pytest.approx(sum(per_task) / len(per_task))
    # html: 7 held-out tasks, the rest of the domain 3 — atoms of 7 and 3, shown
    assert by_key[((("types", "html"),), "held-out")].withheld is None
    # pdf after html: atoms {html only: 4}, {html and pdf: 3}, {pdf only: 3} — shown
    assert by_key[((("types", "pdf"),), "held-out")].withheld is None
    # doc: its 2 held-out tasks are a group smaller than the minimum
    doc = by_key[((("types", "doc"),), "held-out")].withheld or ""
    assert "2 held-out task(s), fewer than the 3" in doc
    assert ((("types", "doc"),), "public") not in by_key  # doc has no public task
