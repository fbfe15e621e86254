"""Authored text of a deep dive (§5.2): the parts that run data cannot produce."""

from __future__ import annotations

from pydantic import Field

from generator.models.base import Id, Markdown, Versioned


class DeepDive(Versioned):
    """``results/<version>/deepdives/<task>.yaml``.

    The task card, overview, scoring reconstruction and efficiency parts are generated from
    the catalog and the runs; only trajectory nodes and interpretation are written by hand.
    Do not type scores here: the page shows the computed ones.
    """

    task: Id = Field(description="The public task this deep dive analyses; equals the file name.")
    trajectory_nodes: Markdown = Field(
        description="Key trajectory nodes: localization, clarification, execution, delivery."
    )
    interpretation: Markdown = Field(
        description="Success factors, failure modes and their business implications."
    )
    differences: dict[Id, Markdown] = Field(
        default_factory=dict,
        description="Optional notes on key differences, by combination id.",
    )
