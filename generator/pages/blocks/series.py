"""Chart series and hover lines the efficiency page, the result cards and the scatter views
share: reliability@k curves, an estimate's hover lines, and how a Pareto frontier is drawn
and worded."""

from __future__ import annotations

from generator.models.base import NOT_RECORDED
from generator.pages.blocks.charts import Series
from generator.pages.blocks.text import estimate
from generator.score.results import EFFICIENCY_COUNTS, CombinationScores, Estimate, Reliability

#: Dash of each comparison group's frontier, so two groups' lines are told apart.
DASHES = ("dot", "dash", "dashdot", "longdash", "longdashdot")


def frontier_text(
    on: bool | None, c: CombinationScores, resource: str = "total_tokens", tokenizer: str = ""
) -> str:
    """How the Pareto frontier column and hover say a combination's place on the frontier
    of score against ``resource`` (``on``: on it, off it, or None: not compared), and why it
    was not compared (:func:`generator.score.ranking.compared_on_frontier`, the peers)."""
    if on is not None:
        return "yes" if on else "no"
    if tokenizer == NOT_RECORDED:
        return "not compared: tokenizer not recorded"
    cov = c.coverage
    if cov is None or not cov.complete or cov.not_covered:
        return "not compared: coverage differs"
    eff = c.efficiency
    if resource in EFFICIENCY_COUNTS and (
        eff is None or getattr(eff, resource) is None or resource in eff.recorded
    ):
        return "not compared: not recorded on every run"
    return "not compared: no other combination measured alike"


def estimate_lines(label: str, e: Estimate | Reliability) -> tuple[str, ...]:
    """An estimate's hover lines, in the tables' format; a note when its interval is over too
    few tasks to resample."""
    line = f"{label} {estimate(e.value, e.low, e.high)}"
    return (line, RUNS_NOTE) if e.interval == "runs" else (line,)


RUNS_NOTE = "interval: run-to-run noise only (too few tasks)"


def _all_succeed(k: int) -> str:
    return "k = 1: a task's run succeeds" if k == 1 else f"k = {k}: all {k} runs of a task succeed"


def reliability_series(name: str, rel: list[Reliability], style: tuple[str, str]) -> Series:
    """A reliability@k curve with its intervals and hover lines written in the tables' format."""
    return Series(
        name,
        tuple(float(r.k) for r in rel),
        tuple(float(r.value or 0) for r in rel),
        tuple(float(r.low or 0) for r in rel),
        tuple(float(r.high or 0) for r in rel),
        mode="lines+markers",
        color=style[0],
        symbol=style[1],
        hover=tuple(
            (name, *estimate_lines(f"reliability@{r.k}", r), _all_succeed(r.k)) for r in rel
        ),
    )
