"""What is decided of a domain's scopes beside their figures (generator/score/declared.py),
against hand-made scopes: the order best first, a scope too small to order, the scope a
view shows, a board's rank ranges within its tables, a scatter's Pareto frontiers."""

from __future__ import annotations

import pytest
from builders import release

from generator.models import Release
from generator.models.views import Board, Scatter
from generator.score.declared import (
    best_first,
    board_ranks,
    board_tables,
    decided,
    effect_leaders,
    scatter_frontier,
    unordered,
    view_scopes,
)
from generator.score.results import (
    CombinationInfo,
    CombinationScores,
    Coverage,
    Difference,
    Efficiency,
    Estimate,
    ScopeResult,
)
from generator.score.scope import Scope


def _diff(a: str, b: str, value: float) -> Difference:
    return Difference(
        a=a,
        b=b,
        value=value,
        low=value - 0.1,
        high=value + 0.1,
        tasks=10,
        significant=True,
        judged=True,
    )


def _scope(
    names: list[str], diffs: list[Difference] = (), group: str = "all", **more: object
) -> ScopeResult:
    scored = [CombinationScores(combination=n, status="scored") for n in names]
    scope = Scope(version="v", domain="office", group=group)
    fields = {"scope": scope, "title": "Office", "tasks": 10, "combinations": scored}
    return ScopeResult.model_validate(fields | {"differences": list(diffs)} | more)


# ---------------------------------------------------------------- the order of a scope's tables


def test_the_order_of_a_scope_reads_the_direction() -> None:
    """The figure in the metric's direction first, then best rank, an unscored one last."""

    def combo(name: str, value: float | None, rank: int | None = 1) -> CombinationScores:
        e = Estimate(value=value, low=None, high=None, tasks=2) if value is not None else None
        return CombinationScores(combination=name, status="scored", task_score=e, rank=rank)

    found = [combo("dear", 9.0), combo("cheap", 2.0), combo("none", None, None)]
    scope = _scope([]).model_copy(update={"combinations": found})
    assert best_first(scope, higher=False) == ["cheap", "dear", "none"]
    assert best_first(scope, higher=True) == ["dear", "cheap", "none"]
    tied = [combo("b", 0.5, 2), combo("a", 0.5, 2), combo("c", 0.5, 1)]
    assert best_first(scope.model_copy(update={"combinations": tied}), True) == ["c", "a", "b"]


def test_a_scope_over_too_few_tasks_says_why_it_orders_nothing() -> None:
    assert unordered(_scope(["a"]).model_copy(update={"tasks": 3}), 5) == (
        "over 3 task(s), fewer than the 5 an order needs"
    )
    assert unordered(_scope(["a"]), 5) is None  # ten tasks


# ---------------------------------------------------------------- the scope a view shows


def _published(names: dict[str, str], group: str) -> ScopeResult:
    combos = [CombinationScores(combination=n, status=s) for n, s in names.items()]  # type: ignore[arg-type]
    return _scope([], group=group).model_copy(update={"combinations": combos})


def test_a_view_shows_all_tasks_unless_the_public_ones_publish_more() -> None:
    every = _published({"a": "scored", "b": "withheld"}, "all")
    public = _published({"a": "scored", "b": "scored"}, "public")
    held = _published({"a": "scored", "b": "scored"}, "held-out")
    assert view_scopes([every, public, held]) == {public.scope.key}
    alike = _published({"a": "scored", "b": "scored"}, "all")
    assert view_scopes([alike, public, held]) == {alike.scope.key}  # the first of equals
    refused = alike.model_copy(update={"withheld": "too few held-out tasks"})
    assert view_scopes([refused, public]) == {public.scope.key}
    assert view_scopes([refused]) == set()


def test_each_part_of_the_domain_has_its_own_view_scope() -> None:
    """The whole domain and each facet cut apart; never a sub-division."""
    whole = _published({"a": "scored"}, "all")
    cut = whole.model_copy(
        update={"scope": whole.scope.model_copy(update={"facets": (("role", "pm"),)})}
    )
    sub = whole.model_copy(update={"scope": whole.scope.model_copy(update={"subdivision": "a"})})
    assert view_scopes([whole, cut, sub]) == {whole.scope.key, cut.scope.key}


# ---------------------------------------------------------------- a board's rank ranges


@pytest.mark.parametrize("higher", [True, False])
def test_ranks_follow_the_metric_s_direction(higher: bool) -> None:
    """a − b > 0, significant: a ranks first where higher is better, b where lower is."""
    scope = _scope(["a", "b", "c"], [_diff("a", "b", 0.5)])
    ranks = {
        n: (r.rank, r.rank_worst) for n, r in board_ranks(scope, ["a", "b", "c"], higher).items()
    }
    better, worse = ("a", "b") if higher else ("b", "a")
    assert ranks[better] == (1, 2)  # c, not ordered against either, may come first
    assert ranks[worse] == (2, 3)
    assert ranks["c"] == (1, 3)


def test_ranks_are_among_the_table_s_combinations_only() -> None:
    scope = _scope(["a", "b", "c"], [_diff("a", "c", 0.5), _diff("b", "c", 0.5)])
    found = board_ranks(scope, ["a", "b"], True)
    assert {n: (r.rank, r.rank_worst) for n, r in found.items()} == {"a": (1, 2), "b": (1, 2)}


def test_ranks_are_within_a_comparison_group() -> None:
    scope = _scope(["a", "b", "c"], [_diff("a", "b", 0.5)], comparison_groups=[["a", "b"], ["c"]])
    found = board_ranks(scope, ["a", "b", "c"], True)
    assert {n: (r.rank, r.rank_worst) for n, r in found.items()} == {
        "a": (1, 1),
        "b": (2, 2),
        "c": (1, 1),
    }


def _info(name: str, tokenizer: str = "tok", **axes: str) -> CombinationInfo:
    return CombinationInfo(
        id=name,
        title=name,
        harnesscard="h",
        harness_mode=None,
        model="m",
        tokenizer=tokenizer,
        evaluation="complete",
        axes=axes,
    )


BOARD = Board(
    kind="board",
    id="by-backbone",
    title="By backbone",
    per="backbone",
    columns="method",
    rows=({"domain": "office"},),  # type: ignore[arg-type]
)


def test_a_board_has_a_table_per_value_of_its_axis() -> None:
    infos = [
        _info("b", backbone="Y", method="m1"),
        _info("a", backbone="x", method="m2"),
        _info("c", backbone="x", method="m1"),
        _info("d", backbone="x"),  # no place on the column axis
    ]
    assert board_tables(BOARD, infos) == {"x": ["a", "c"], "Y": ["b"]}


def test_the_scopes_a_board_shows_carry_its_ranks_per_table() -> None:
    views = {"views": [BOARD.model_dump()]}
    declared = release(profile=views)
    infos = [_info("a", backbone="x", method="m1"), _info("b", backbone="x", method="m2")]
    shown = _scope(["a", "b"], [_diff("a", "b", 0.5)])
    held = _scope(["a", "b"], [_diff("a", "b", 0.5)], group="held-out")
    out = decided([shown, held], declared, infos)
    assert out[0].views is True
    (ranks,) = out[0].boards
    assert (ranks.board, ranks.table) == ("by-backbone", "x")
    assert [(r.combination, r.rank, r.rank_worst) for r in ranks.ranks] == [
        ("a", 1, 1),
        ("b", 2, 2),
    ]
    assert out[1].views is None
    assert out[1].boards == []
    assert out[0].best_first == ["a", "b"]
    assert decided(out, declared, infos) == out  # deciding again changes nothing


# ---------------------------------------------------------------- a scatter's frontiers


def _release(*views: Scatter) -> Release:
    metrics = [
        {"id": "cost", "title": "Cost", "direction": "lower", "measured": True, "role": "resource"},
        {"id": "total_tokens", "title": "Tokens", "direction": "lower"},
    ]
    return release(metrics=metrics, profile={"views": [v.model_dump() for v in views]})


def _point(
    name: str, score: float, cost: float, tokens: float | None = None, complete: bool = True
) -> CombinationScores:
    coverage = Coverage(
        scope_tasks=10,
        covered_tasks=10,
        valid_tasks=10,
        complete_tasks=10 if complete else 9,
        valid_runs=20,
        expected_runs=20,
        incomplete_runs=0,
        incomplete_causes={},
        complete=complete,
        not_covered=[],
    )
    efficiency = Efficiency(
        input_tokens=None, output_tokens=None, total_tokens=tokens, duration_s=None, turns=None
    )
    return CombinationScores(
        combination=name,
        status="scored",
        task_score=Estimate(value=score, low=None, high=None, tasks=10),
        measures={"cost": Estimate(value=cost, low=None, high=None, tasks=10)},
        efficiency=efficiency,
        coverage=coverage,
    )


def _scatter(x: str) -> Scatter:
    return Scatter(kind="scatter", id=f"s-{x}", title="S", domain="office", x=x)


def test_the_frontier_holds_the_points_no_other_beats() -> None:
    """b costs more for less; c is cheapest; d is not measured on every task."""
    points = [_point("a", 0.8, 5.0), _point("b", 0.7, 6.0), _point("c", 0.5, 1.0)]
    points.append(_point("d", 0.9, 1.0, complete=False))
    scope = _scope([]).model_copy(update={"combinations": points})
    view = _scatter("cost")
    infos = {c.combination: _info(c.combination) for c in points}
    found = scatter_frontier(scope, view, _release(view), infos)
    assert (found.view, found.x, found.y) == ("s-cost", "cost", "task_score")
    places = {p.combination: (p.frontier, p.pareto) for p in found.points}
    assert places == {"a": ("", True), "b": ("", False), "c": ("", True), "d": ("", None)}


def test_tokens_compare_within_a_tokenizer_and_a_frontier_needs_two() -> None:
    points = [_point("a", 0.8, 5.0, 100.0), _point("b", 0.7, 6.0, 200.0)]
    points += [_point("c", 0.5, 1.0, 50.0), _point("e", 0.1, 1.0)]  # e: no tokens recorded
    scope = _scope([]).model_copy(update={"combinations": points})
    view = _scatter("total_tokens")
    infos = {"a": _info("a", "t1"), "b": _info("b", "t1"), "c": _info("c", "t2")}
    infos["e"] = _info("e", "t1")
    found = scatter_frontier(scope, view, _release(view), infos)
    places = {p.combination: (p.frontier, p.pareto) for p in found.points}
    assert places == {
        "a": ("tokenizer t1", True),
        "b": ("tokenizer t1", False),
        "c": ("tokenizer t2", None),  # alone in its tokenizer: compared with none
        "e": ("tokenizer t1", None),
    }


def test_the_scope_a_scatter_shows_carries_its_frontier() -> None:
    view = _scatter("cost")
    points = [_point("a", 0.8, 5.0), _point("b", 0.7, 6.0)]
    scope = _scope([]).model_copy(update={"combinations": points})
    (out,) = decided([scope], _release(view), [_info("a"), _info("b")])
    (found,) = out.scatters
    assert found == scatter_frontier(
        scope, view, _release(view), {"a": _info("a"), "b": _info("b")}
    )


# ---------------------------------------------------------------- an effect's leaders


def test_an_effect_s_leader_is_the_first_by_rank_then_figure_then_place() -> None:
    """Under backbone x: a and b share rank 1, b scores higher; c ranks 2 with the highest
    score. Under y: d alone has a figure (e none). Under z: nobody is scored."""
    from generator.models.views import Effect

    def combo(name: str, value: float | None, rank: int | None) -> CombinationScores:
        e = None if value is None else Estimate(value=value, low=None, high=None, tasks=10)
        return CombinationScores(combination=name, status="scored", task_score=e, rank=rank)

    infos = [
        _info("a", backbone="x", method="m1"),
        _info("b", backbone="x", method="m2"),
        _info("c", backbone="x", method="m3"),
        _info("d", backbone="y", method="m1"),
        _info("e", backbone="y", method="m2"),
        _info("f", backbone="z", method="m1"),
    ]
    scores = [combo("a", 0.5, 1), combo("b", 0.6, 1), combo("c", 0.9, 2)]
    scores += [combo("d", 0.1, None), combo("e", None, None)]
    scope = _scope([]).model_copy(update={"combinations": scores})
    view = Effect(
        kind="effect", id="e", title="E", domain="office", within="backbone", across="method"
    )
    found = effect_leaders(scope, view, release(), infos)
    assert found.leaders == {"x": "b", "y": "d"}
    cheap = {"a": 1.0, "b": 2.0, "c": 0.5, "d": 3.0}  # lower is better; c ranks 2
    priced = [
        c.model_copy(
            update={"measures": {"cost": Estimate(value=v, low=None, high=None, tasks=10)}}
        )
        for c, v in ((c, cheap.get(c.combination)) for c in scores)
        if v is not None
    ]
    lower = release(metrics=[{"id": "cost", "title": "Cost", "direction": "lower"}])
    cost = view.model_copy(update={"metric": "cost"})
    found = effect_leaders(scope.model_copy(update={"combinations": priced}), cost, lower, infos)
    assert found.leaders == {"x": "a", "y": "d"}
