"""A scope's usage table (§4.2(2), §4.2(3)): reliability@k, and a column per count the
release declares or a row has a figure of — never a column of dashes."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.load import load_inputs
from generator.pages import VersionContext, version_context
from generator.pages.domain.usage import USAGE_COUNTS, usage_counts, usage_table
from generator.score.version import score_version


@pytest.fixture(scope="module")
def minimal(repo_root: Path) -> VersionContext:
    """examples/minimal: tokens and duration declared, recorded by no run; turns neither."""
    loaded, problems = load_inputs(repo_root / "examples" / "minimal")
    assert not [p for p in problems if p.severity == "error"]
    (release,) = loaded.releases
    return version_context(score_version(release), loaded.cards)


def test_a_count_is_a_column_where_declared_or_given(ctx: VersionContext) -> None:
    assert [name for name, _, _ in USAGE_COUNTS] == ["total_tokens", "duration_s", "turns"]
    assert len(ctx.reports) == 2
    for report in ctx.reports.values():
        scope = report.scopes[0]
        scored = [c for c in scope.combinations if c.status == "scored"]
        counts = usage_counts(ctx, scored)
        for name, header, _ in USAGE_COUNTS:
            given = any(c.efficiency and getattr(c.efficiency, name) is not None for c in scored)
            assert (name in counts) == (ctx.release.metric(name) is not None or given)
            table = usage_table(ctx, scope, "t")
            assert table is not None
            assert (header in table.columns) == (name in counts)


def test_a_count_nobody_declared_nor_recorded_has_no_column(minimal: VersionContext) -> None:
    scope = minimal.reports["main"].scopes[0]
    table = usage_table(minimal, scope, "t")
    assert table is not None
    assert table.columns == (
        "Combination",
        "reliability@1/2/3",
        "Tokens\u00a0/\u00a0task",
        "Duration\u00a0(s)",
    )
    assert [c.text for c in table.rows[0].cells[2:]] == ["not recorded", "not recorded"]
    assert "turns" not in table.note
    assert "Tokens and duration: means per task" in table.note
    assert "turns" in {f for r in table.rows for f in r.record}  # the download keeps it
