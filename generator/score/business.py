"""The four business views of §4.2 of one combination in one scope: the risk-weighted
score, key-process success (overall and per chain), the fatal-error rate and
functional-boundary correctness, each where the privacy gate admitted its figure."""

from __future__ import annotations

from collections.abc import Mapping

from generator.score.intervals import Figure, Interval
from generator.score.outputs import estimate_of, rate_of
from generator.score.plan import Plan
from generator.score.results import BusinessViews
from generator.score.table import ScopeView

#: Each business view's figure (:func:`~generator.score.figures.figures`).
VIEWS = {
    "risk_weighted_score": "risk",
    "key_process_success": "key_process",
    "fatal_error_rate": "fatal",
    "boundary_correctness": "boundary",
}


def business_views(
    view: ScopeView,
    plan: Plan,
    figs: Mapping[str, Figure],
    values: Mapping[str, float],
    found: Mapping[str, Interval],
) -> BusinessViews:
    """Risk-weighted score, key-process success, fatal-error rate, boundary correctness,
    each where the privacy gate admitted its figure (else listed as withheld, §4.4)."""
    held = bool((view.columns["group"] == "held-out").any())
    withheld = [name for name, fig in VIEWS.items() if held and fig not in figs]
    has_fatal = view.columns["n_fatal"] > 0
    risk = fatal = None
    if plan.data.any() and "risk" in figs:
        risk = estimate_of(values["risk"], figs["risk"].tasks, found["risk"])
    if has_fatal.any() and "fatal" in figs:
        fatal = rate_of(figs["fatal"], found["fatal"])
    return BusinessViews(
        risk_weighted_score=risk,
        key_process_success=rate_of(figs["key_process"], found["key_process"])
        if "key_process" in figs
        else None,
        key_process_chains={
            name[6:]: got
            for name in figs
            if name.startswith("chain:") and (got := rate_of(figs[name], found[name])) is not None
        },
        fatal_error_rate=fatal,
        boundary_correctness=rate_of(figs["boundary"], found["boundary"])
        if "boundary" in figs
        else None,
        withheld=withheld,
    )
