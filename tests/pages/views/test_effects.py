"""The effect view against the report of the EnterpriseBench-shaped example: every value of the
compared axis under each value of the fixed one ('not evaluated' where no combination sits),
the engine's own paired differences and nothing across comparison groups, and the answer (the
largest difference per value, in favour of the better) on top."""

from __future__ import annotations

from itertools import combinations as combinations_of
from itertools import product

from pagetools import declaring, shown

from generator.models.views import Effect
from generator.pages import VersionContext
from generator.pages.views.effects import effect_blocks, effect_metric, effect_page, flip
from generator.pages.views.parts import (
    NOT_EVALUATED,
    axis_values,
    combinations,
    shown_scope,
    slug,
)


def _view(
    ctx: VersionContext, domain: str, within: str, across: str
) -> tuple[VersionContext, Effect]:
    """An effect of ``across`` within ``within``, and the context whose release declares it
    (the report names the leaders of a declared effect only)."""
    view = Effect(
        kind="effect", id="e", title="Effect", domain=domain, within=within, across=across
    )
    return declaring(ctx, view), view


def test_every_place_is_its_combination_or_not_evaluated(enterprise: VersionContext) -> None:
    ctx, view = _view(enterprise, "qa", "backbone", "method")
    scope, blocks = effect_blocks(ctx, view)
    assert scope is not None
    infos = list(combinations(ctx).values())
    place = {(c.axes[view.within], c.axes[view.across]): c.id for c in infos}
    withins, acrosses = axis_values(infos, view.within), axis_values(infos, view.across)
    assert [b.value for b in blocks] == withins
    empty = 0
    page = effect_page(ctx, view)
    tables = {t.id: t for t in page.tables}
    for b, a in product(blocks, acrosses):
        p = next(p for p in b.places if p.value == a)
        assert p.combination == place.get((b.value, a))
        row = next(r for r in tables[f"e-{slug(b.value)}"].rows if r.record["method"] == a)
        record = row.record
        if p.combination is None:
            empty += 1
            assert record["status"] == NOT_EVALUATED
            assert [c.text for c in row.cells[1:]] == [NOT_EVALUATED] * (len(row.cells) - 1)
            continue
        c = next(c for c in scope.combinations if c.combination == p.combination)
        assert p.figure == c.task_score
        assert record["task_score"] == (c.task_score.value if c.task_score else None)
        assert record["rank"] == c.rank
    assert empty  # the example leaves places empty


def test_the_differences_are_the_engine_s_within_a_block(enterprise: VersionContext) -> None:
    ctx, view = _view(enterprise, "qa", "backbone", "method")
    scope, blocks = effect_blocks(ctx, view)
    assert scope is not None
    page = effect_page(ctx, view)
    tables = {t.id: t for t in page.tables}
    seen = 0
    for b in blocks:
        mine = {p.combination for p in b.places if p.combination}
        expected = [d for d in scope.differences if {d.a, d.b} <= mine]
        assert list(b.pairs) == expected
        if not expected:
            continue
        pairs = tables[f"e-{slug(b.value)}-pairs"]
        assert [(r.record["a"], r.record["b"]) for r in pairs.rows] == [
            (d.a, d.b) for d in expected
        ]
        assert [r.record["difference"] for r in pairs.rows] == [d.value for d in expected]
        assert b.leader is not None
        for row in tables[f"e-{slug(b.value)}"].rows:
            k = row.record["combination"]
            if k is None or k == b.leader.combination:
                assert row.record["difference"] is None
                continue
            d = next(d for d in expected if {d.a, d.b} == {k, b.leader.combination})
            read = d if d.a == b.leader.combination else flip(d)
            assert (row.record["difference"], row.record["difference_low"]) == (
                read.value,
                read.low,
            )
            assert row.record["significant"] == d.significant
            seen += 1
    assert seen


def test_each_block_s_leader_is_the_report_s(enterprise: VersionContext) -> None:
    """The combination each other is set against is the one the report names: the first of
    the block by best rank, then by the figure in the metric's direction."""
    ctx, view = _view(enterprise, "qa", "backbone", "method")
    scope, blocks = effect_blocks(ctx, view)
    assert scope is not None
    (found,) = [e for e in scope.effects if e.view == view.id]
    sign = 1.0 if effect_metric(ctx, view).higher else -1.0
    compared = 0
    for b in blocks:
        ranked = [p for p in b.places if p.scores and p.figure and p.figure.value is not None]
        if not ranked:
            assert b.leader is None
            assert b.value not in found.leaders
            continue
        assert b.leader is not None
        assert b.leader.combination == found.leaders[b.value]
        for p in ranked:
            assert p.scores is not None
            assert p.figure is not None
            assert b.leader.scores is not None
            assert (b.leader.scores.rank or 10**6) <= (p.scores.rank or 10**6)
            if b.leader.scores.rank == p.scores.rank:
                assert b.leader.figure is not None
                assert sign * float(b.leader.figure.value or 0) >= sign * float(p.figure.value)
            compared += 1
    assert compared > 0


def test_nothing_is_compared_across_comparison_groups(enterprise: VersionContext) -> None:
    """The Consulting judge follows the backbone: two combinations judged by different models
    are never paired; the page says so rather than making a difference up."""
    scope = shown_scope(enterprise, "consulting", {})
    assert scope is not None
    assert len(scope.comparison_groups) > 1
    group = {k: i for i, names in enumerate(scope.comparison_groups) for k in names}
    apart, kept_apart, led = 0, 0, 0
    for within, across in (("method", "backbone"), ("backbone", "method")):
        ctx, view = _view(enterprise, "consulting", within, across)
        _, blocks = effect_blocks(ctx, view)
        for b in blocks:
            scored = sorted(p.combination for p in b.places if p.combination in group)
            for a, other in combinations_of(scored, 2):
                paired = any({d.a, d.b} == {a, other} for d in b.pairs)
                assert paired == (group[a] == group[other])
                apart += group[a] != group[other]
        for b in blocks:
            if b.leader is None or b.leader.combination is None:
                continue
            lead = group[b.leader.combination]
            mine = {p.combination for p in b.places if p.combination in group}
            assert b.apart == {k for k in mine if group[k] != lead}
            led += 1
        if any(b.apart for b in blocks):
            kept_apart += 1
            assert "not compared: another comparison group" in shown(effect_page(ctx, view))
    assert apart
    assert kept_apart
    assert led


def test_the_answer_is_each_block_s_largest_difference_for_the_better(
    enterprise: VersionContext,
) -> None:
    answered = 0
    for domain in ("qa", "beer-game"):
        ctx, view = _view(enterprise, domain, "backbone", "method")
        metric = effect_metric(ctx, view)
        assert metric == ctx.release.outcome(domain)
        _, blocks = effect_blocks(ctx, view)
        text = shown(effect_page(ctx, view))
        for b in blocks:
            d = b.largest(metric.higher)
            if d is None:
                assert not b.pairs
                continue
            assert abs(d.value) == max(abs(p.value) for p in b.pairs)
            assert (d.value >= 0) == metric.higher  # read in favour of the better
            names = {p.combination: p.value for p in b.places}
            assert f"{b.value}: {names[d.a]} − {names[d.b]}" in text
            answered += 1
    assert answered == 6  # the blocks with a difference, over both domains


def test_a_release_without_places_on_the_axes_says_there_is_nothing_to_compare(
    small: VersionContext,
) -> None:
    assert not small.release.profile.axes
    ctx, view = _view(small, small.release.domains[0].id, "model", "harness")
    _, blocks = effect_blocks(ctx, view)
    assert blocks == []
    page = effect_page(ctx, view)
    assert page.tables == ()
    assert "nothing to compare" in shown(page)


def test_the_composite_stands_beside_its_channels(clawbench: VersionContext) -> None:
    """Where the compared figure is the score that combines Judge channels, each channel's
    figure stands beside it, as the scope has it."""
    from generator.pages.views.effects import block_spec

    (view,) = [v for v in clawbench.release.profile.views if isinstance(v, Effect)]
    metric = effect_metric(clawbench, view)
    scope, blocks = effect_blocks(clawbench, view)
    assert scope is not None
    assert blocks
    channels = [c.title for c in clawbench.release.profile.channels]
    cells = 0
    for block in blocks:
        spec = block_spec(clawbench, view, metric, block, scope.channels_withheld)
        heads = [c.header for c in spec.columns]
        for title in channels:
            (column,) = [c for c in spec.columns if c.header.startswith(f"{title} judge")]
            for place in block.places:
                if place.scores is not None and place.scores.channels:
                    name = column.header.split()[0].lower()
                    e = place.scores.channels.get(name)
                    if e is None:  # the privacy gate refused it: the cell says so
                        assert f"channels.{name}" in (place.scores.withheld or [])
                        assert "withheld" in column.cell(place).text
                        continue
                    assert f" · {e.tasks}" in column.cell(place).text
                    cells += 1
        assert heads.index(f"{channels[0]} judge [95%\u00a0CI] · tasks") > 1
    assert cells > 0
