"""Methodology and the publishing guide: the release's own statistics settings, the measured
coverage as a table, and a schema file per input format."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from pagetools import shown

from generator.models.schema import json_schemas
from generator.pages import VersionContext
from generator.pages.methodology.guide import (
    MEASURED,
    ORDER,
    coverage_table,
    measured_coverage,
    methodology_page,
    publishing_page,
)
from generator.score.results import OUTPUT_MODELS


def _coverage() -> dict[str, Any]:
    figure = {"rate": 0.951, "mc_se": 0.0123, "hits": 285, "trials": 300}
    return {
        "settings": [
            {"setting": "T=20", "figures": {"baseline: x": figure, "coverage: Task Score": figure}},
            {"setting": "T=5", "figures": {"power: d": figure, "coverage: Task Score": figure}},
        ]
    }


def test_the_coverage_table_has_a_row_per_figure_in_reading_order() -> None:
    coverage = _coverage()
    table = coverage_table(coverage)
    assert table.columns == ("Figure", "T=20", "T=5")
    names = [r.record["figure"] for r in table.rows]
    assert sorted(names) == sorted({n for s in coverage["settings"] for n in s["figures"]})
    ranks = [next(i for i, p in enumerate(ORDER) if n.startswith(p)) for n in names]
    assert ranks == sorted(ranks)  # coverage first, the baseline last
    by_name = {r.record["figure"]: r for r in table.rows}
    assert [c.text for c in by_name["power: d"].cells] == ["power: d", "—", "0.951 ± 0.012"]
    measured = coverage["settings"][1]["figures"]["power: d"]
    assert {k: by_name["power: d"].record[f"T=5: {k}"] for k in measured} == measured
    assert set(measured) == set(MEASURED) == {"rate", "mc_se", "hits", "trials"}
    assert all(by_name["power: d"].record[f"T=20: {k}"] is None for k in MEASURED)
    versioned = coverage_table(coverage, "v9.9")
    header, first = versioned.to_csv().splitlines()[:2]
    assert header.lstrip("\ufeff").startswith("version,figure,")
    assert first.startswith("v9.9,")
    assert "{" not in versioned.to_csv(), "every cell a plain value"


def test_the_methodology_states_the_release_s_settings(contexts: list[VersionContext]) -> None:
    ctx = contexts[0]
    for stats in (
        ctx.release.statistics,
        ctx.release.statistics.model_copy(
            update={"bootstrap_samples": 12345, "seed": 987, "min_tasks_to_order": 17}
        ),
    ):
        release = ctx.release.model_copy(update={"statistics": stats})
        text = " ".join(shown(methodology_page(replace(ctx, release=release))).split())
        assert f"({stats.bootstrap_samples:,} replicates, seed {stats.seed})" in text
        assert f"at least {stats.min_tasks_to_order} common tasks" in text
        assert f"Reported k: {', '.join(map(str, release.reliability_k))}." in text


def test_the_methodology_shows_the_measured_coverage(contexts: list[VersionContext]) -> None:
    coverage = measured_coverage()
    page = methodology_page(contexts[0])
    if coverage is None:
        assert page.tables == ()
        return
    (table,) = page.tables
    assert table.to_json() == coverage_table(coverage, contexts[0].version).to_json()
    assert json.loads(table.to_json())["rows"]


def test_the_publishing_guide_carries_every_schema(contexts: list[VersionContext]) -> None:
    page = publishing_page(contexts[0])
    schemas = json_schemas(OUTPUT_MODELS)
    assert sorted(page.extra_files) == sorted(f"schemas/{n}" for n in schemas)
    for name, schema in schemas.items():
        assert json.loads(page.extra_files[f"schemas/{name}"]) == json.loads(json.dumps(schema))
        assert name in page.markdown
