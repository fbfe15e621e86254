"""Section 3, evidence: a Judge verdict cites only the evidence designated for its item
(§4.3(2): the Judge receives only the fixed evidence of the item it rates)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd

from generator.check.runs.columns import Found, ItemChecks, Labels


def check_evidence(checks: ItemChecks, found: Found) -> None:
    """Report each Judge verdict (of an open record, naming a Judge item) whose citations
    include evidence not designated for its item."""
    evidence = checks.runs.loaded.runs.evidence
    judge = checks.judge
    if not len(evidence) or not judge.any():
        return
    stray = _stray(checks, judge, evidence)
    verdicts, index = checks.runs.verdicts, checks.runs.catalog.index
    for i, cites in sorted(stray.items()):
        found.item(
            int(verdicts.row[i]),
            f"judge[{verdicts.pos[i]}].evidence",
            f"cites {cites}, not designated for {verdicts.id[i]}; expected from "
            f"{list(index.evidence[verdicts.item[i]])}",
        )


def _stray(checks: ItemChecks, judge: np.ndarray, evidence: pd.DataFrame) -> dict[int, list[str]]:
    """Per Judge verdict (its position among all verdicts), the ids it cites that its item,
    which designates some, does not designate."""
    verdicts = checks.runs.verdicts
    chosen = np.flatnonzero(judge)
    where = _cited_by(verdicts.row[chosen], verdicts.pos[chosen], evidence)
    cited = Labels(evidence["id"])
    # evidence of a Judge verdict whose item designates some: is the id among them?
    item = np.where(where >= 0, verdicts.item[chosen[np.maximum(where, 0)]], -1)
    looked = np.flatnonzero((item >= 0) & checks.runs.catalog.designates[np.maximum(item, 0)])
    items, at = np.unique(item[looked], return_inverse=True)
    designated = checks.runs.catalog.index.evidence
    inside = np.array(
        [[name in designated[k] for name in cited.names] + [False] for k in items.tolist()],
        dtype=bool,
    ).reshape(len(items), len(cited.names) + 1)
    stray: dict[int, list[str]] = defaultdict(list)
    for e in looked[~inside[at.ravel(), cited.codes[looked]]].tolist():
        stray[int(chosen[where[e]])].append(str(cited[e]))
    return stray


def _cited_by(rows: np.ndarray, pos: np.ndarray, evidence: pd.DataFrame) -> np.ndarray:
    """Per cited evidence id: which of the verdicts at (``rows``, ``pos``) cites it (-1:
    none of them)."""
    e_pos = evidence["pos"].to_numpy()
    width = max(int(pos.max(initial=0)), int(e_pos.max())) + 1
    verdict_at = pd.Index(rows.astype(np.int64) * width + pos)
    e_key = evidence["row"].to_numpy().astype(np.int64) * width + e_pos
    where: np.ndarray = verdict_at.get_indexer(e_key)
    return where
