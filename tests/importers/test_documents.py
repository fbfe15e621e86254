"""The documents an import writes validate as the models they are, say only what the
source says, and leave the rest "not recorded"."""

from __future__ import annotations

import datetime as dt

from importtools import imported

from generator.importers import documents
from generator.models import Bundle, Catalog, HarnessCard, Release
from generator.models.runs import RunRecord


def test_a_pass_fail_import_makes_a_valid_release_catalog_card_and_bundle() -> None:
    source = imported()
    release = Release.model_validate(documents.release(source, "v1", "toy", dt.date(2026, 11, 1)))
    assert release.runs_per_task == 2
    assert release.reliability_k == (1, 2)
    assert release.groups.public == 2
    assert [m.id for m in release.metrics][-4:] == [
        "input_tokens",
        "output_tokens",
        "total_tokens",
        "duration_s",
    ]
    assert release.components.data == "not recorded"
    catalog = Catalog.model_validate(documents.catalog(source, "v1"))
    assert [t.scoring.mode for t in catalog.tasks] == ["rule-only", "rule-only"]
    assert catalog.tasks[1].source == "from X"
    entry = source.bundles[0]
    card = HarnessCard.model_validate(documents.card(entry))
    assert card.layers.execution.sandboxing.value == "docker"  # type: ignore[union-attr]
    assert card.layers.execution.network_access == "not recorded"
    consent = {"granted": True, "by": "Lab", "date": "2026-11-22"}
    bundle = Bundle.model_validate(documents.bundle(source, entry, "v1", consent))
    assert bundle.configuration.temperature == 0.5
    assert bundle.configuration.top_p == "not recorded"
    assert bundle.budgets.timeout_s == 600
    assert bundle.evaluation == "incomplete"  # t2 has one valid run of two
    assert bundle.counts_not_recorded == ("turns",)  # the runs record no turns


def test_runs_are_lines_in_task_and_run_order_and_an_error_is_no_zero() -> None:
    source = imported()
    lines = documents.runs_lines(source, source.bundles[0]).splitlines()
    assert lines[0] == '{"format_version": 1}'
    records = [RunRecord.model_validate_json(line) for line in lines[1:]]
    assert [(r.task, r.run) for r in records] == [("t1", 1), ("t1", 2), ("t2", 1), ("t2", 2)]
    lost = records[3]
    assert (lost.status, lost.cause, lost.delivery, lost.rules) == (
        "incomplete",
        "error",
        False,
        (),
    )
    assert lost.input_tokens is None
    assert records[1].failure_type == "incorrect"
    assert records[1].rules[0].passed is False


def test_a_numeric_outcome_is_a_measured_metric_every_task_scores_in() -> None:
    source = imported("measure")
    release = Release.model_validate(documents.release(source, "v1", "toy", dt.date(2026, 11, 1)))
    assert release.domains[0].outcome == "score"
    metric = release.metric("score")
    assert metric is not None
    assert metric.measured
    assert metric.bounds.low is None
    catalog = Catalog.model_validate(documents.catalog(source, "v1"))
    assert {(t.scoring.mode, t.scoring.measure) for t in catalog.tasks} == {("measure", "score")}
    record = documents.run_record(source.bundles[0].runs[1], "measure", "score")
    assert record["measures"] == [{"id": "score", "value": 0.25}]
    assert "failure_type" not in record  # a scored measure run succeeded: no failure type
