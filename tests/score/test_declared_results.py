"""What the declared views decide, as the report carries it
(generator/score/declared_results.py): a scope no view shows leaves it out of its JSON; one
that a board or a scatter shows carries its ranks or frontier and reads back from its JSON."""

from __future__ import annotations

import json

from generator.score.declared_results import (
    BoardRanks,
    FrontierPoint,
    RankRange,
    ScatterFrontier,
)
from generator.score.results import ScopeResult
from generator.score.scope import Scope


def test_a_scope_no_view_shows_leaves_the_views_out_of_its_json() -> None:
    scope = ScopeResult(scope=Scope(version="v", domain="d"), title="D", tasks=3)
    data = json.loads(scope.model_dump_json())
    assert not {"views", "boards", "scatters", "best_first", "unordered"} & set(data)


def test_a_view_s_decisions_read_back_from_the_json() -> None:
    ranks = BoardRanks(
        board="b", table="x", ranks=[RankRange(combination="a", rank=1, rank_worst=2)]
    )
    points = [
        FrontierPoint(combination="a", frontier="tokenizer t", pareto=True),
        FrontierPoint(combination="c", frontier="tokenizer t", pareto=None),
    ]
    frontier = ScatterFrontier(view="s", x="cost", y="task_score", points=points)
    scope = ScopeResult(
        scope=Scope(version="v", domain="d"),
        title="D",
        tasks=3,
        views=True,
        boards=[ranks],
        scatters=[frontier],
    )
    data = json.loads(scope.model_dump_json())
    assert data["views"] is True
    assert data["scatters"][0]["points"][1]["pareto"] is None
    assert ScopeResult.model_validate(data) == scope
