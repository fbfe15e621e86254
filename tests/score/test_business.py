"""The business views as the privacy gate leaves them (generator/score/business.py)."""

from __future__ import annotations

import numpy as np

from generator.score.business import VIEWS, business_views
from generator.score.intervals import Interval, figure, rate
from generator.score.plan import Plan
from generator.score.scope import Scope
from generator.score.table import ScopeView


def _view(group: str) -> ScopeView:
    columns = {
        "group": np.array([group] * 3, dtype=object),
        "n_fatal": np.array([1, 0, 0]),
    }
    scope = Scope(version="v0.1", domain="office", group="all")
    return ScopeView(scope, np.arange(3), columns, 0)


def _plan() -> Plan:
    yes = np.ones(3, dtype=bool)
    return Plan(None, yes, yes, yes, yes, None)


def test_a_view_the_gate_refused_is_named_withheld_over_held_out_tasks_only() -> None:
    mask = np.ones(3, dtype=bool)
    figs = {
        "risk": figure(np.array([0.5, 0.5, 1.0]), mask, np.full(3, 2)),
        "fatal": rate(np.array([1, 0, 0]), np.array([2, 2, 2]), mask),
    }
    found = {name: Interval(0.1, 0.9, "tasks") for name in figs}
    values = {"risk": 2 / 3}
    held = business_views(_view("held-out"), _plan(), figs, values, found)
    assert held.risk_weighted_score is not None
    assert held.fatal_error_rate is not None
    assert held.key_process_success is None
    assert set(held.withheld) == set(VIEWS) - {"risk_weighted_score", "fatal_error_rate"}
    public = business_views(_view("public"), _plan(), figs, values, found)
    assert public.withheld == []
