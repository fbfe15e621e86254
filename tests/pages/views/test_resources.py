"""The resources view against the report of the EnterpriseBench-shaped example: resources per
combination, grouped by tokenizer, the mean over cells beside the mean over tasks."""

from __future__ import annotations

from generator.models.profile import Resources
from generator.pages import VersionContext
from generator.pages.views.parts import (
    combinations,
    shown_scope,
)
from generator.pages.views.resources import resources_page


def test_resources_per_combination_tokens_within_a_tokenizer(
    enterprise: VersionContext,
) -> None:
    view = next(v for v in enterprise.release.profile.views if isinstance(v, Resources))
    page = resources_page(enterprise, view)
    (table,) = page.tables
    scope = shown_scope(enterprise, view.domain, {})
    assert scope is not None
    scores = {c.combination: c for c in scope.combinations}
    infos = combinations(enterprise)
    records = [r.record for r in table.rows]
    assert sorted(r["combination"] for r in records) == sorted(scores)
    tokenizers = [r["tokenizer"] for r in records]
    assert tokenizers == sorted(tokenizers)  # grouped by tokenizer
    assert view.metrics == ("model_calls", "total_tokens")
    for r in records:
        c = scores[r["combination"]]
        assert r["tokenizer"] == infos[c.combination].tokenizer
        for m in view.metrics:
            if m in c.measures:
                assert r[m] == c.measures[m].value
                assert r[f"{m}_low"] == c.measures[m].low
            elif c.efficiency is not None:
                assert r[m] == getattr(c.efficiency, m)
    domain = next(d for d in enterprise.release.domains if d.id == view.domain)
    if domain.aggregate.over == "cells":  # the mean over cells beside the mean over tasks
        assert any(h.startswith("Mean over cells") for h in table.columns)
        for r in records:
            c = scores[r["combination"]]
            assert r["cell_mean"] == (c.cell_mean.value if c.cell_mean else None)
    tokens = [m for m in enterprise.release.metrics if m.id in view.metrics and not m.comparable]
    assert tokens
    assert "tokenizer" in table.note
    assert all(m.title in table.note for m in tokens)
