"""The output of a domain's task sets compared, never pooled (:mod:`generator.score.sets`)."""

from __future__ import annotations

from pydantic import Field

from generator.score.estimates import Estimate, Result


class SetRank(Result):
    """One combination's figure and rank range in each of two task sets."""

    combination: str = Field(description="Combination id.")
    first: Estimate = Field(description="Its figure on the first set.")
    second: Estimate = Field(description="Its figure on the other set.")
    first_rank: int = Field(description="Its rank among these combinations on the first set.")
    second_rank: int = Field(description="Its rank among these combinations on the other set.")


class SetComparison(Result):
    """Two task sets of a domain compared, never pooled: the combinations evaluated on both,
    and the agreement of their orders (Spearman's rank correlation of their figures)."""

    first: str = Field(description="The domain's first task set (its own scopes).")
    second: str = Field(description="The other task set.")
    rows: list[SetRank] = Field(description="The combinations scored on both sets, best first.")
    rho: float | None = Field(default=None, description="Spearman's ρ of the two orders.")
    low: float | None = Field(default=None, description="Low end of ρ's interval.")
    high: float | None = Field(default=None, description="High end of ρ's interval.")
    tasks: int = Field(description="Tasks in either set, resampled for the interval.")
    withheld: str | None = Field(default=None, description="Why no comparison is shown.")
