"""The scatter view's page against the report of the EnterpriseBench-shaped example: tokens get
a chart and a frontier per tokenizer, the frontier and the span of the chart said in words,
a long table folded, a point a log axis cannot draw named."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

from pagetools import declaring, plots, shown

from generator.models.views import Scatter
from generator.pages import VersionContext
from generator.pages.blocks.measures import scaled
from generator.pages.views.parts import combinations
from generator.pages.views.scatter import (
    FOLD_AFTER,
    frontier_sentences,
    off_the_log_axis,
    scatter_page,
    spread,
)
from generator.pages.views.scatter_points import scatter_data


def _declared(ctx: VersionContext, x: str, **more: object) -> tuple[VersionContext, Scatter]:
    """A scatter of ``x`` on the QA domain, and the context whose release declares it (the
    report carries the frontier of a declared scatter only)."""
    resource = ctx.release.metric(x)
    assert resource is not None
    assert resource.kind == "resource"
    fields = {"kind": "scatter", "id": "s", "title": "Scatter", "domain": "qa", "x": x}
    view = Scatter.model_validate(fields | more)
    return declaring(ctx, view), view


def _money_like(ctx: VersionContext) -> str:
    """A measured resource compared across models (as money is)."""
    return next(
        m.id for m in ctx.release.metrics if m.measured and m.kind == "resource" and m.comparable
    )


def test_tokens_get_a_chart_and_a_frontier_per_tokenizer(enterprise: VersionContext) -> None:
    ctx, tokens = _declared(enterprise, "total_tokens")
    priced, money = _declared(enterprise, _money_like(enterprise))
    infos = combinations(ctx)
    data = scatter_data(ctx, tokens)
    tokenizers = {infos[p.combination.combination].tokenizer for p in data.points}
    assert len(tokenizers) > 1
    for p in data.points:
        assert infos[p.combination.combination].tokenizer in p.group
    page = scatter_page(ctx, tokens)
    assert len(plots(shown(page))) == len(tokenizers)
    assert "tokenizer" in page.tables[0].note
    assert len(frontier_sentences(ctx, data)) == len({p.group for p in data.points})
    one = scatter_page(priced, money)
    assert len(plots(shown(one))) == 1
    assert "tokenizer" not in one.tables[0].note
    groups = {p.group for p in scatter_data(priced, money).points}
    assert len(frontier_sentences(priced, scatter_data(priced, money))) == len(groups)


def test_a_long_table_is_folded_under_the_chart(enterprise: VersionContext) -> None:
    ctx, view = _declared(enterprise, _money_like(enterprise))
    page = scatter_page(ctx, view)
    rows = len(page.tables[0].rows)
    assert ("<details" in page.markdown) == (rows > FOLD_AFTER)


def test_the_page_says_what_the_chart_spans(enterprise: VersionContext) -> None:
    ctx, view = _declared(enterprise, _money_like(enterprise))
    data = scatter_data(ctx, view)
    said = spread(data)
    low = min(data.points, key=lambda p: float(p.x.value or 0))
    high = max(data.points, key=lambda p: float(p.y.value or 0))
    assert scaled(data.x, low.x.value, None, None) in said
    assert scaled(data.y, high.y.value, None, None) in said
    assert said in shown(scatter_page(ctx, view))


def test_a_point_at_zero_is_said_to_be_off_a_log_axis(enterprise: VersionContext) -> None:
    ctx, view = _declared(enterprise, _money_like(enterprise), log_x=True)
    data = scatter_data(ctx, view)
    assert off_the_log_axis(data) == ""
    first = data.points[0]
    free = first.x.model_copy(update={"value": 0.0, "low": 0.0})
    moved = replace(data, points=(replace(first, x=free), *data.points[1:]))
    said = off_the_log_axis(moved)
    assert first.combination.combination in said
    rest = data.points[1:]
    assert rest
    assert all(p.combination.combination not in said for p in rest)


def test_the_span_of_tokens_is_said_per_tokenizer(enterprise: VersionContext) -> None:
    ctx, view = _declared(enterprise, "total_tokens")
    data = scatter_data(ctx, view)
    infos = combinations(ctx)
    said = spread(data)
    tokenizers = {infos[p.combination.combination].tokenizer for p in data.points}
    assert tokenizers == {"deepseek-v3", "glm-5", "o200k"}
    for tok in tokenizers:
        mine = [p for p in data.points if infos[p.combination.combination].tokenizer == tok]
        least = min(float(p.x.value or 0) for p in mine)
        assert f"tokenizer {tok} from {scaled(data.x, least, None, None)}" in said


def test_money_is_one_frontier_across_models(enterprise: VersionContext) -> None:
    """The example's calls read as a cost in CNY: one frontier, said to compare models."""
    x = _money_like(enterprise)
    metrics = tuple(
        m.model_copy(update={"currency": "CNY", "unit": None}) if m.id == x else m
        for m in enterprise.release.metrics
    )
    priced = dataclasses.replace(
        enterprise, release=enterprise.release.model_copy(update={"metrics": metrics})
    )
    priced, view = _declared(priced, x, log_x=True)
    data = scatter_data(priced, view)
    assert data.scope is not None
    if len(data.scope.comparison_groups) < 2:  # no setting varies by design: one frontier
        assert {p.group for p in data.points} == {""}
    page = scatter_page(priced, view)
    assert "money in CNY, compared across models" in shown(page)
    assert "Money in CNY" in page.tables[0].note
    (plot,) = plots(shown(page))
    assert "CNY" in plot.layout["xaxis"]["title"]["text"]
    assert len(frontier_sentences(priced, data)) == len({p.group for p in data.points})
