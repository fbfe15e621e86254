"""What the release's declared views decide of a domain's scopes
(:mod:`generator.score.declared`): a board's rank ranges within each of its tables, a
scatter's Pareto frontier, an effect's best combination per block. Each is carried by the
scope the view shows (a :class:`~generator.score.results.ScopeResult`'s ``boards``,
``scatters`` and ``effects``), so the pages only lay them out."""

from __future__ import annotations

from pydantic import Field

from generator.score.estimates import Result


class RankRange(Result):
    """A combination's rank range among the combinations of one board table."""

    combination: str = Field(description="Combination id.")
    rank: int = Field(
        description="Best rank the data allows among the table's combinations: 1 + the number "
        "of them significantly better."
    )
    rank_worst: int = Field(
        description="Worst rank the data allows: the table's combinations it is compared with "
        "(those of its comparison group) minus the number significantly worse."
    )


class BoardRanks(Result):
    """The rank ranges of a board row (this scope) in one of the board's tables: among the
    table's scored combinations, within each comparison group, as the scope's paired
    differences allow (§5.3). A row of a whole domain that aggregates over cells has none:
    its figure is the mean over cells, and paired differences are over tasks."""

    board: str = Field(description="Id of the board view.")
    table: str = Field(description="The value of the board's 'per' axis whose table this is.")
    ranks: list[RankRange] = Field(description="Each scored combination of the table, by id.")


class FrontierPoint(Result):
    """A combination's place on a scatter's Pareto frontier."""

    combination: str = Field(description="Combination id.")
    frontier: str = Field(
        description="The frontier it is compared on: its tokenizer where the resource is "
        "counted in each model's own ('tokenizer ID'), its comparison group where settings "
        "vary by design ('comparison group N'), joined by ', '; empty: the one frontier."
    )
    pareto: bool | None = Field(
        description="On the frontier: no other combination of its frontier is at least as "
        "good on both figures and better on one. Null when not compared: without both "
        "figures, measured on fewer than the scope's tasks, the resource not recorded on "
        "every valid run, or no other combination of its frontier compared."
    )


class ScatterFrontier(Result):
    """A scatter view's Pareto frontiers (§4.2(2)): its metric up against its resource across,
    among the combinations measured on every task of the scope; one frontier per tokenizer
    where the resource is counted in each model's own, per comparison group where settings
    vary by design."""

    view: str = Field(description="Id of the scatter view.")
    x: str = Field(description="The resource metric across, e.g. a cost.")
    y: str = Field(description="The metric up: the domain's outcome unless the view names one.")
    points: list[FrontierPoint] = Field(description="Each combination of the scope, by id.")


class EffectLeaders(Result):
    """An effect view's best combination under each value of its fixed axis: the one every
    other of the value is set against (its paired difference from it)."""

    view: str = Field(description="Id of the effect view.")
    leaders: dict[str, str] = Field(
        description="Value of the fixed axis → its best combination with a figure of the "
        "view's metric: the first by best rank, then by that figure in its direction, then "
        "by the value of the compared axis. A value without such a combination has none."
    )
