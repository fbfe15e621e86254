"""The views a release declares: its results laid out as boards, grids, dimension tables,
resource tables, scatters, harness effects, experiments, rater agreement and task-set
comparisons, each by one renderer of :mod:`generator.pages` (§4.2, §5.3).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from generator.models.base import Bool, Contract, Id, Text


class Slice(Contract):
    """A board row: one domain, optionally cut to facet values."""

    domain: Id = Field(description="The domain of the row.")
    facets: dict[Id, Id] = Field(
        default_factory=dict, description="Facet id → value the row keeps; empty: all tasks."
    )
    title: Text | None = Field(default=None, description="Row label; default from the values.")


class Board(Contract):
    """Scopes of several domains juxtaposed, never totalled, one table per value of an axis."""

    kind: Literal["board"] = Field(description="The kind of view: 'board'.")
    id: Id
    title: Text = Field(description="Title of the board, e.g. 'Results by backbone'.")
    per: Id = Field(description="The axis whose every value gets a board of its own.")
    columns: Id = Field(description="The axis whose values are the board's columns.")
    rows: tuple[Slice, ...] = Field(min_length=1, description="The rows, each in its own metric.")
    total: Bool = Field(
        default=False,
        description="Always false: a board juxtaposes domains in their own units and "
        "directions and never totals them (§4.2, §5.3).",
    )

    @model_validator(mode="after")
    def _no_total(self) -> Board:
        if self.total:
            raise ValueError(
                "a board never has a total row or column: its rows are different domains, "
                "units and directions, and no number combines domains (§4.2, §5.3)"
            )
        return self


class Grid(Contract):
    """One metric of one domain over two axes; a cell without a combination is 'not evaluated'."""

    kind: Literal["grid"] = Field(description="The kind of view: 'grid'.")
    id: Id
    title: Text = Field(description="Title of the grid.")
    domain: Id = Field(description="The domain whose scores fill the grid.")
    metric: Id = Field(default="task_score", description="The metric in the cells.")
    rows: Id = Field(description="The axis of the rows.")
    columns: Id = Field(description="The axis of the columns.")


class Dimensions(Contract):
    """The judged dimensions of one domain per combination, and a judged overall apart."""

    kind: Literal["dimensions"] = Field(description="The kind of view: 'dimensions'.")
    id: Id
    title: Text = Field(description="Title of the view.")
    domain: Id = Field(description="The domain whose Judge items are shown by dimension.")


class Resources(Contract):
    """Resource measures per combination (calls, tokens per task, overhead)."""

    kind: Literal["resources"] = Field(description="The kind of view: 'resources'.")
    id: Id
    title: Text = Field(description="Title of the view.")
    domain: Id = Field(description="The domain whose runs are counted.")
    metrics: tuple[Id, ...] = Field(min_length=1, description="The resource metrics shown.")


class Scatter(Contract):
    """One point per combination: a resource (e.g. cost) against the outcome, with the
    frontier of combinations no other beats on both (within a tokenizer for tokens)."""

    kind: Literal["scatter"] = Field(description="The kind of view: 'scatter'.")
    id: Id
    title: Text = Field(description="Title of the chart.")
    domain: Id = Field(description="The domain whose combinations are drawn.")
    x: Id = Field(description="The resource metric on the horizontal axis, e.g. a cost.")
    y: Id = Field(default="task_score", description="The outcome metric on the vertical axis.")
    log_x: Bool = Field(
        default=False, description="true: a logarithmic horizontal axis (costs spanning decades)."
    )


class Effect(Contract):
    """One value of an axis across the values of another, e.g. one model under each harness,
    with paired differences and their intervals."""

    kind: Literal["effect"] = Field(description="The kind of view: 'effect'.")
    id: Id
    title: Text = Field(description="Title of the view, e.g. 'Harness effect'.")
    domain: Id = Field(description="The domain whose scores are compared.")
    metric: Id = Field(default="task_score", description="The metric compared.")
    within: Id = Field(description="The axis held fixed, e.g. the model.")
    across: Id = Field(description="The axis compared, e.g. the harness.")


class Transfer(Contract):
    """An experiment's paired changes: each level (e.g. a skill's creator) × each consumer."""

    kind: Literal["transfer"] = Field(description="The kind of view: 'transfer'.")
    id: Id
    title: Text = Field(description="Title of the view.")
    experiment: Id = Field(description="The release's experiment shown.")


class Agreement(Contract):
    """Agreement of the second raters with the Judge, per channel: rank correlation and mean
    absolute error, with intervals."""

    kind: Literal["agreement"] = Field(description="The kind of view: 'agreement'.")
    id: Id
    title: Text = Field(description="Title of the view.")
    domain: Id = Field(description="The domain whose rated runs are compared.")


class Sets(Contract):
    """A domain's task sets compared (e.g. Lite against Full): each set's order of the
    combinations evaluated on both, and their rank agreement with its interval; never pooled."""

    kind: Literal["sets"] = Field(description="The kind of view: 'sets'.")
    id: Id
    title: Text = Field(description="Title of the view.")
    domain: Id = Field(description="The domain whose task sets are compared.")
    metric: Id = Field(default="task_score", description="The metric compared.")


View = Annotated[
    Board | Grid | Dimensions | Resources | Scatter | Effect | Transfer | Agreement | Sets,
    Field(discriminator="kind"),
]
