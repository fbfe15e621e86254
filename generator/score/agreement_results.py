"""The engine's output for rater agreement: how far a second rater (another judge, or
humans) agrees with each bundle's Judge, per Judge channel, pooled over one domain's rated
runs (:mod:`generator.score.agreement`). Part of ``report --format json``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from generator.score.estimates import Result


class AgreementFigure(Result):
    """One agreement figure over the rated runs, with its interval over resampled tasks."""

    value: float | None = Field(
        description="The figure; null when it is undefined (a rank correlation where one "
        "rater gives every run the same score)."
    )
    low: float | None = Field(
        description="Lower end of its interval at the release's confidence level; null "
        "without an interval."
    )
    high: float | None = Field(description="Upper end of its interval; null without one.")


class RaterAgreement(Result):
    """A second rater against the Judge on one channel of one domain: over the runs both
    rated, each run's channel score by each (the weighted mean of g/G over the task's Judge
    items on the channel, a judged overall apart), compared run by run."""

    rater: str = Field(description="The rater's id.")
    title: str = Field(description="Who rated, e.g. 'Human experts'.")
    kind: Literal["judge", "human"] = Field(description="'judge' (a model) or 'human'.")
    channel: str = Field(description="The Judge channel compared.")
    channel_title: str = Field(description="Display name of the channel.")
    runs: int = Field(description="Runs both the Judge and the rater scored on the channel.")
    tasks: int = Field(description="Tasks those runs belong to: the units resampled.")
    held_out_tasks: int = Field(description="Of those tasks, how many are held-out.")
    spearman: AgreementFigure | None = Field(
        default=None, description="Spearman's rank correlation ρ of the two scores over runs."
    )
    mae: AgreementFigure | None = Field(
        default=None, description="Mean absolute error |rater − Judge| over runs, on 0–1."
    )
    difference: AgreementFigure | None = Field(
        default=None,
        description="Mean signed difference rater − Judge over runs, on 0–1 (negative: the "
        "rater scores lower).",
    )
    interval_note: str | None = Field(
        default=None, description="Why the figures have no interval, if they have none."
    )
    withheld: str | None = Field(
        default=None, description="Why no figure is shown, if none is (§4.4)."
    )
