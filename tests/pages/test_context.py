"""The page context's cited evidence against a literal, evidence-by-evidence walk."""

from __future__ import annotations

import dataclasses

from builders import bundle, catalog, release, run, task, version

from generator.load import Inputs, LoadedRelease
from generator.models import RunRecord
from generator.pages.context import cited_evidence
from generator.protocol.items import LISTS


def _cited_literal(
    loaded: LoadedRelease, published: set[str]
) -> dict[str, dict[tuple[str, str], list[str]]]:
    """The evidence ids valid runs cite, walked evidence row by evidence row."""
    cited: dict[tuple[str, str, str], set[str]] = {}
    for one in loaded.bundles:
        combo = one.bundle.model.combination.id
        columns = one.runs
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


def _published(loaded: LoadedRelease) -> set[str]:
    """The combinations whose bundles grant consent to publish (§7.2)."""
    return {b.bundle.model.combination.id for b in loaded.bundles if b.bundle.model.consent.granted}


def _withdrawn(loaded: LoadedRelease, combo: str) -> LoadedRelease:
    """``loaded`` with the consent of ``combo``'s bundle withdrawn."""
    bundles = []
    for b in loaded.bundles:
        if b.bundle.model.combination.id == combo:
            model = b.bundle.model
            model = model.model_copy(
                update={"consent": model.consent.model_copy(update={"granted": False})}
            )
            b = dataclasses.replace(b, bundle=dataclasses.replace(b.bundle, model=model))
        bundles.append(b)
    return dataclasses.replace(loaded, bundles=tuple(bundles))


def _cited_run(task: str, index: int, evidence: list[list[str]], valid: bool = True) -> RunRecord:
    record = run(task, index, judge=tuple(2 for _ in evidence), valid=valid)
    judge = [
        j.model_copy(update={"evidence": e}) for j, e in zip(record.judge, evidence, strict=True)
    ]
    return record.model_copy(update={"judge": judge})


def test_cited_equals_a_literal_walk_on_the_example(inputs: Inputs) -> None:
    assert len(inputs.releases) == 2  # v1.0 and v1.1
    for loaded in inputs.releases:
        published = _published(loaded)
        want = _cited_literal(loaded, published)
        assert want  # the example cites evidence
        got = cited_evidence(loaded)
        assert list(got) == list(want)
        assert all(list(got[t].items()) == list(want[t].items()) for t in want)
        fewer = _withdrawn(loaded, sorted(published)[0])
        assert _published(fewer) == set(sorted(published)[1:])
        assert cited_evidence(fewer) == _cited_literal(fewer, _published(fewer))


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
    bundles = {"z": bundle("z", consent=False)}  # no consent: its citations stay out
    loaded = version(release(runs_per_task=2), catalog(tasks), runs, bundles)
    want = {
        "a": {("p", "J1"): ["E5"], ("q", "J2"): ["E7"]},
        "b": {("q", "J1"): ["E10", "E9"], ("q", "J2"): ["E2"]},
    }
    got = cited_evidence(loaded)
    assert got == want == _cited_literal(loaded, {"p", "q"})
    assert [list(v) for v in got.values()] == [list(v) for v in want.values()]
    nothing = _withdrawn(_withdrawn(loaded, "p"), "q")
    assert cited_evidence(nothing) == {}
