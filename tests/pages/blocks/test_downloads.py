"""Downloads that say what they are: names carry benchmark, version and domain, records
carry the version and the scope their rows are of, and number fields hold numbers only."""

from __future__ import annotations

import csv
import io
import json
from pathlib import PurePosixPath

import pytest

from generator.pages import Page, VersionContext, version_pages
from generator.pages.blocks.downloads import (
    TASK_FIELDS,
    described,
    download_name,
    judge_fields,
    scope_about,
    task_about,
)
from generator.pages.blocks.tables import BOM, Row, Table
from generator.pages.domain.results import scope_spec, scope_table


@pytest.fixture(scope="module")
def pages(contexts: list[VersionContext]) -> dict[str, list[Page]]:
    return {ctx.version: version_pages(ctx)[0] for ctx in contexts}


def _records(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text.removeprefix(BOM))))


def test_every_download_is_named_for_its_version_and_its_records_carry_it(
    contexts: list[VersionContext], pages: dict[str, list[Page]]
) -> None:
    names: list[str] = []
    for ctx in contexts:
        prefix = f"{ctx.release.benchmark.code}-{ctx.version}-"
        for page in pages[ctx.version]:
            for path, text in page.downloads().items():
                name = PurePosixPath(path).name
                assert name.startswith(prefix), path
                names.append(name)
                if name.endswith(".csv"):
                    assert text.startswith(BOM)
                    assert text.encode("utf-8")[:3] == b"\xef\xbb\xbf"
                    records = _records(text)
                    assert all(r.get("version") == ctx.version for r in records), path
                    assert not any(  # a nested value written as Python's repr of it
                        v.startswith(("{'", "['")) for r in records for v in r.values() if v
                    ), path
    assert len(names) == len(set(names)), "a download name repeats on the site"


def test_domain_tables_carry_version_domain_sub_division_and_group(
    contexts: list[VersionContext], pages: dict[str, list[Page]]
) -> None:
    checked = 0
    for ctx in contexts:
        for report in ctx.reports.values():
            # the domain's pages: its headline page and those one click away
            layers = [p for p in pages[ctx.version] if p.path.startswith(f"{report.domain}/")]
            named = {t.name: t for page in layers for t in page.tables}
            for scope in report.scopes:
                if scope.withheld:
                    continue
                s = scope.scope
                parts = (s.domain, s.subdivision or "", s.group, "scores")
                table = named[download_name(ctx, *parts)]
                assert report.domain in table.name
                want = {"version": ctx.version} | {
                    k: "" if v is None else v for k, v in scope_about(scope)
                }
                records = _records(table.to_csv())
                assert len(records) == len(scope.combinations)
                for record in records:
                    assert {k: record[k] for k in want} == want
                    checked += 1
    assert checked > 0


def test_the_judge_coverage_is_a_number_and_its_reason_a_column_of_its_own(
    contexts: list[VersionContext],
) -> None:
    seen = {"tasks": 0, "notes": 0}
    for ctx in contexts:
        for report in ctx.reports.values():
            for scope in report.scopes:
                if scope.withheld:
                    continue
                table = scope_table(ctx, scope, "t", 1)
                records = json.loads(table.to_json())["rows"]
                scored = [c for c in scope.combinations if c.status == "scored"]
                by_combo = {r["combination"]: r for r in records}
                for c in scored:
                    record = by_combo[c.combination]
                    assert "judge_coverage" not in record
                    tasks = None if c.judge_score is None else c.judge_score.tasks
                    assert record["judge_tasks"] == tasks
                    assert tasks is None or isinstance(tasks, int)
                    withheld = (c.judge_coverage or "").startswith("withheld")
                    assert (record["judge_note"] == c.judge_coverage) == withheld
                    assert (record["judge_note"] is None) == (not withheld)
                    seen["tasks"] += tasks is not None
                    seen["notes"] += withheld
    assert seen["tasks"], "the example has a Judge score"
    assert seen["notes"], "the example has a withheld Judge score"
    spec = scope_spec(contexts[0], 1)
    declared = {f.name: f for f in spec.fields}
    assert {f.name for f in judge_fields()} <= set(declared)
    assert declared["judge_tasks"].type == "integer"


def test_number_fields_of_every_table_hold_numbers_only(
    contexts: list[VersionContext], pages: dict[str, list[Page]]
) -> None:
    names = ("judge_tasks", "valid_tasks", "task_score", "rank")
    checked = dict.fromkeys(names, 0)
    for ctx in contexts:
        for page in pages[ctx.version]:
            for table in page.tables:
                if table.prepared is not None:
                    continue
                records = json.loads(table.to_json())["rows"]
                for name in names:
                    for value in (r[name] for r in records if r.get(name) is not None):
                        assert isinstance(value, int | float), (table.name, name, value)
                        checked[name] += 1
    assert all(checked[name] for name in names), checked  # each field is a number somewhere


def test_task_tables_carry_the_task_and_its_scope_bulk_written_or_not(
    contexts: list[VersionContext], pages: dict[str, list[Page]]
) -> None:
    checked, json_records, csv_records = 0, 0, 0
    for ctx in contexts:
        for page in pages[ctx.version]:
            folder, _, stem = page.path.partition("/")
            if folder not in ("tasks", "deep-dives") or stem == "index.md":
                continue
            task = ctx.tasks[page.stem]
            want = {"version": ctx.version} | dict(task_about(task))
            for table in page.tables:
                assert table.name.startswith(download_name(ctx, task.domain))
                assert task.id in table.name
                for record in json.loads(table.to_json())["rows"]:
                    assert list(record)[: len(want)] == ["version", *TASK_FIELDS]
                    assert {k: record[k] for k in want} == want
                    json_records += 1
                for record in _records(table.to_csv()):
                    assert record["task"] == task.id
                    assert record["domain"] == task.domain
                    csv_records += 1
                checked += table.prepared is not None and bool(table.total)
    assert checked, "bulk-written tables were checked"
    assert json_records == csv_records > 0  # the two downloads hold the same records


def test_described_names_and_leads_with_the_version(contexts: list[VersionContext]) -> None:
    ctx = contexts[-1]
    table = Table("x", "c", (), (Row((), {"a": 1}),))
    (named,) = described(ctx, [table], ("one", "", "two"), (("domain", "d"),))
    assert named.name == f"{ctx.release.benchmark.code}-{ctx.version}-one-two-x"
    assert named.about == (("version", ctx.version), ("domain", "d"))
    assert json.loads(named.to_json())["rows"] == [{"version": ctx.version, "domain": "d", "a": 1}]


def test_a_result_card_s_rows_name_their_combination(
    contexts: list[VersionContext], pages: dict[str, list[Page]]
) -> None:
    cards, rows = 0, 0
    for ctx in contexts:
        for combo in ctx.frame.bundles:
            cards += 1
            (page,) = [p for p in pages[ctx.version] if p.path == f"combinations/{combo}.md"]
            assert page.tables
            for table in page.tables:
                assert table.name.startswith(download_name(ctx, "combination", combo))
                for record in json.loads(table.to_json())["rows"]:
                    assert (record["version"], record["combination"]) == (ctx.version, combo)
                    rows += 1
    assert cards == 8  # five combinations in v1.0, three in v1.1
    assert rows > cards
