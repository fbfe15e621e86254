"""The page context's fast conversions against their literal, record-by-record versions."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from builders import catalog, release, run, task, version
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.load import Inputs, LoadedRelease
from generator.load.runcolumns import LISTS
from generator.models import RunRecord
from generator.pages.context import _by_task, _by_task_records, _cited

TEXT = st.one_of(st.none(), st.sampled_from(["t1", "t2", "nan", "", "é"]), st.text(max_size=4))


def _same(a: Any, b: Any) -> bool:
    """Equal values of the same type (NaN equals NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


@st.composite
def frames(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(0, 30))
    tasks = draw(st.lists(st.sampled_from(["b", "a", "c", "10"]), min_size=n, max_size=n))
    text = draw(st.sampled_from(["str", "string"]))
    return pd.DataFrame(
        {
            "combination": pd.Series(draw(st.lists(TEXT, min_size=n, max_size=n)), dtype=text),
            "task": pd.Series(tasks, dtype="str"),
            "run": pd.Series(draw(st.lists(st.integers(-5, 2**40), min_size=n, max_size=n))),
            "score": pd.Series(
                draw(st.lists(st.floats(allow_infinity=False), min_size=n, max_size=n)),
                dtype=float,
            ),
            "valid": pd.Series(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool),
            "turns": pd.Series(draw(st.lists(st.integers(0, 9), min_size=n, max_size=n))).astype(
                np.int32
            ),
        }
    )


@settings(max_examples=200, deadline=None)
@given(frames())
def test_by_task_equals_records_grouped_one_by_one(frame: pd.DataFrame) -> None:
    got, want = _by_task(frame), _by_task_records(frame)
    assert list(got) == list(want)  # tasks in order of first appearance
    for name, records in want.items():
        assert len(got[name]) == len(records)
        for g, w in zip(got[name], records, strict=True):
            assert list(g) == list(w)
            assert all(_same(g[k], w[k]) for k in w), (g, w)


def test_by_task_of_other_dtypes_falls_back_to_records() -> None:
    frame = pd.DataFrame({"task": ["a", "b", "a"], "ids": [("x",), (), ("y", "z")]})
    assert _by_task(frame) == {
        "a": [{"task": "a", "ids": ("x",)}, {"task": "a", "ids": ("y", "z")}],
        "b": [{"task": "b", "ids": ()}],
    }


def _cited_literal(
    loaded: LoadedRelease, published: set[str]
) -> dict[str, dict[tuple[str, str], list[str]]]:
    """The evidence ids valid runs cite, walked evidence row by evidence row."""
    cited: dict[tuple[str, str, str], set[str]] = {}
    for bundle in loaded.bundles:
        combo = bundle.bundle.model.combination.id
        columns = bundle.runs
        if combo not in published:
            continue
        verdicts = columns.verdicts
        items = {
            (int(r), int(p)): str(i)
            for r, k, p, i in zip(
                verdicts["row"], verdicts["kind"], verdicts["pos"], verdicts["id"], strict=True
            )
            if k == LISTS["judge"]
        }
        for row, pos, eid in zip(
            columns.evidence["row"], columns.evidence["pos"], columns.evidence["id"], strict=True
        ):
            item = items.get((int(row), int(pos)))
            if item is None or columns.runs["status"].iloc[row] != "valid":
                continue
            task = str(columns.runs["task"].iloc[row])
            cited.setdefault((task, combo, item), set()).add(str(eid))
    out: dict[str, dict[tuple[str, str], list[str]]] = {}
    for (task, combo, item), ids in sorted(cited.items()):
        out.setdefault(task, {})[(combo, item)] = sorted(ids)
    return out


def _cited_run(task: str, index: int, evidence: list[list[str]], valid: bool = True) -> RunRecord:
    record = run(task, index, judge=tuple(2 for _ in evidence), valid=valid)
    judge = [
        j.model_copy(update={"evidence": e}) for j, e in zip(record.judge, evidence, strict=True)
    ]
    return record.model_copy(update={"judge": judge})


def test_cited_equals_a_literal_walk_on_the_example(inputs: Inputs) -> None:
    for loaded in inputs.releases:
        published = {b.bundle.model.combination.id for b in loaded.bundles}
        want = _cited_literal(loaded, published)
        assert want  # the example cites evidence
        got = _cited(loaded, published)
        assert list(got) == list(want)
        assert all(list(got[t].items()) == list(want[t].items()) for t in want)
        fewer = set(sorted(published)[1:])
        assert _cited(loaded, fewer) == _cited_literal(loaded, fewer)


def test_cited_keeps_valid_runs_sorts_and_removes_repeats() -> None:
    tasks = [task("b", judge=(4, 4)), task("a", judge=(4, 4))]
    runs = {
        "q": [
            _cited_run("b", 1, [["E9", "E10"], ["E2"]]),
            _cited_run("b", 2, [["E10"], []]),
            _cited_run("a", 1, [["E1"], ["E1", "E3"]], valid=False),
            _cited_run("a", 2, [[], ["E7"]]),
        ],
        "p": [_cited_run("a", 1, [["E5"], []])],
        "z": [_cited_run("a", 1, [["E6"], []])],
    }
    loaded = version(release(runs_per_task=2), catalog(tasks), runs)
    want = {
        "a": {("p", "J1"): ["E5"], ("q", "J2"): ["E7"]},
        "b": {("q", "J1"): ["E10", "E9"], ("q", "J2"): ["E2"]},
    }
    got = _cited(loaded, {"p", "q"})
    assert got == want == _cited_literal(loaded, {"p", "q"})
    assert [list(v) for v in got.values()] == [list(v) for v in want.values()]
    assert _cited(loaded, set()) == {}
