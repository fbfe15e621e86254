"""The EnterpriseBench-shaped example root: every file parses against the data contract, the
root has the shape issue 18 asks for (computed from its files), and the script that writes it
writes the same bytes again."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from pydantic import BaseModel

from generator.check import check_inputs
from generator.load import load_inputs
from generator.load.validate import validate_as
from generator.load.yamlfile import read_yaml
from generator.models import Bundle, Catalog, HarnessCard, Release
from generator.models.profile import RUN_FIELDS, Board, Dimensions, Grid, Resources
from generator.models.runs import RunRecord, RunsHeader

REPO = Path(__file__).resolve().parent.parent
ROOT = REPO / "examples" / "enterprisebench"
SCRIPT = REPO / "examples" / "make_enterprisebench.py"
M = TypeVar("M", bound=BaseModel)


def _parse(model: type[M], path: Path) -> M:
    parsed = read_yaml(path, path.relative_to(ROOT).as_posix())
    assert isinstance(parsed, tuple), parsed
    result = validate_as(model, *parsed)
    assert isinstance(result, model), result
    return result


@dataclass(frozen=True)
class Root:
    release: Release
    catalog: Catalog
    bundles: dict[str, Bundle]
    runs: dict[str, list[RunRecord]]
    cards: dict[str, HarnessCard]

    def tasks(self, domain: str) -> list[Any]:
        return [t for t in self.catalog.tasks if t.domain == domain]

    def domain(self, domain: str) -> Any:
        return next(d for d in self.release.domains if d.id == domain)

    def metric(self, metric: str) -> Any:
        return next(m for m in self.release.metrics if m.id == metric)

    def axis(self, bundle: Bundle, axis: str) -> str:
        return bundle.combination.axes[axis]


@pytest.fixture(scope="module")
def root() -> Root:
    (version,) = sorted(p for p in (ROOT / "results").iterdir() if p.is_dir())
    bundles, runs = {}, {}
    for folder in sorted((version / "bundles").iterdir()):
        bundle = _parse(Bundle, folder / "bundle.yaml")
        lines = (folder / bundle.runs).read_text(encoding="utf-8").splitlines()
        RunsHeader.model_validate_json(lines[0])
        bundles[folder.name] = bundle
        runs[folder.name] = [RunRecord.model_validate_json(line) for line in lines[1:]]
    cards = {p.stem: _parse(HarnessCard, p) for p in sorted((ROOT / "harnesscards").iterdir())}
    return Root(
        _parse(Release, version / "release.yaml"),
        _parse(Catalog, version / "tasks.yaml"),
        bundles,
        runs,
        cards,
    )


def test_the_script_writes_the_committed_root_byte_for_byte(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path)], check=True, stdout=subprocess.DEVNULL
    )
    written = {p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file()}
    committed = {p.relative_to(ROOT) for p in ROOT.rglob("*") if p.is_file()}
    assert written == committed
    for rel in sorted(written):
        assert (tmp_path / rel).read_bytes() == (ROOT / rel).read_bytes(), rel


def test_one_illustrative_version_of_its_own(root: Root) -> None:
    release = root.release
    assert release.illustrative
    assert release.notice is not None
    assert "synthetic" in release.notice
    assert root.catalog.release == release.version
    assert {b.release for b in root.bundles.values()} == {release.version}
    counts = Counter(t.group for t in root.catalog.tasks)
    assert (counts["public"], counts["held-out"]) == (
        release.groups.public,
        release.groups.held_out,
    )
    assert {d.id for d in release.domains} == {t.domain for t in root.catalog.tasks}


def test_bundles_and_cards_agree(root: Root) -> None:
    assert len(root.bundles) == 10  # 4 methods × 3 backbones, two cells not evaluated
    assert root.release.disclosure_floor
    for folder, bundle in root.bundles.items():
        assert bundle.combination.id == folder
        card = root.cards[bundle.combination.harnesscard]
        for ref in root.release.disclosure_floor:
            layer, field = ref.split(".")
            assert "value" in getattr(card.layers, layer).model_dump()[field], (folder, ref)
        assert bundle.configuration.runs_per_task == root.release.runs_per_task
        assert bundle.configuration.pipeline_components == root.release.components
    assert set(root.cards) == {c.id for c in root.cards.values()}


def test_methods_by_backbones_with_two_cells_not_evaluated(root: Root) -> None:
    axes = [a.id for a in root.release.profile.axes]
    assert axes == ["method", "backbone"]
    cells = [tuple(root.axis(b, a) for a in axes) for b in root.bundles.values()]
    methods, backbones = {m for m, _ in cells}, {b for _, b in cells}
    assert len(cells) == len(set(cells)), "each method × backbone cell once"
    assert (len(methods), len(backbones)) == (4, 3)
    assert len(methods) * len(backbones) - len(cells) == 2
    tags = {t.id for t in root.release.profile.tags}
    assert len(root.bundles) == len(cells) == 10
    for bundle in root.bundles.values():
        assert set(bundle.combination.axes) == set(axes)
        assert bundle.combination.tags
        assert set(bundle.combination.tags) <= tags
        assert bundle.combination.model.name == root.axis(bundle, "backbone")


def test_carried_state_declared_by_amem_and_gepa_only(root: Root) -> None:
    assert root.release.profile.carried_state == "labelled"
    carried = {root.axis(b, "method") for b in root.bundles.values() if b.carried_state}
    others = {root.axis(b, "method") for b in root.bundles.values() if not b.carried_state}
    assert carried == {"AMEM", "GEPA"}
    assert not carried & others
    carriers = [b for b in root.bundles.values() if b.carried_state]
    assert len(carriers) == 5  # the AMEM and GEPA bundles
    assert all(
        root.cards[b.combination.harnesscard].layers.context.persistent_memory.model_dump()
        != {"value": "None"}
        for b in carriers
    )


def test_the_consulting_judge_follows_the_backbone(root: Root) -> None:
    assert root.release.varying() == ("evaluator", "budgets")
    judge_of: dict[str, set[str]] = defaultdict(set)
    for bundle in root.bundles.values():
        judge = bundle.evaluator.judge_model
        assert judge != bundle.combination.model.name, "never judged by its own backbone"
        judge_of[root.axis(bundle, "backbone")].add(judge)
    assert all(len(judges) == 1 for judges in judge_of.values())
    assert len({j for judges in judge_of.values() for j in judges}) > 1


def test_qa_is_eight_cells_of_one_item_rule_only_tasks(root: Root) -> None:
    qa, profile = root.domain("qa"), root.release.profile
    assert qa.aggregate.over == "cells"
    assert qa.facets == qa.aggregate.facets
    declared = {f.id: {v.id for v in f.values} for f in profile.facets}
    cells: dict[tuple[str, ...], list[Any]] = defaultdict(list)
    for task in root.tasks("qa"):
        assert set(task.facets) == set(qa.facets)
        assert all(task.facets[f] in declared[f] for f in qa.facets)
        cells[tuple(task.facets[f] for f in qa.facets)].append(task)
        scoring = task.scoring
        assert scoring.mode == "rule-only"
        assert [i.fatal for i in scoring.rule_items] == [False]
        assert not scoring.judge_items
    assert len(cells) == 8
    for tasks in cells.values():
        assert len(tasks) >= 4
        assert {t.group for t in tasks} == {"public", "held-out"}


def test_held_out_withholding_is_exercised_per_facet(root: Root) -> None:
    floor = root.release.groups.min_held_out_aggregate
    held = [t for t in root.tasks("qa") if t.group == "held-out"]
    assert len(held) >= floor, "the domain's held-out group is shown"
    per_value = Counter((f, v) for t in held for f, v in t.facets.items())
    assert any(n < floor for n in per_value.values()), "some facet value withheld"
    assert any(n >= floor for n in per_value.values()), "some facet value shown"
    per_domain = Counter(t.domain for t in root.catalog.tasks if t.group == "held-out")
    assert set(per_domain) == {"qa"}


def test_consulting_is_judged_on_four_dimensions_and_an_overall(root: Root) -> None:
    dimensions = {d.id for d in root.release.profile.dimensions}
    assert root.release.profile.continuous_levels
    tasks = root.tasks("consulting")
    assert len(tasks) >= 6
    for task in tasks:
        items = task.scoring.judge_items
        assert task.scoring.mode == "judge-only"
        assert sorted(i.dimension for i in items if not i.overall) == sorted(dimensions)
        assert [i.dimension for i in items if i.overall] == [None]
        assert {i.max_level for i in items} == {10}
    ids = {t.id for t in tasks}
    levels = [
        j.level
        for runs in root.runs.values()
        for r in runs
        if r.task in ids and r.status == "valid"
        for j in r.judge
    ]
    assert any(level != int(level) for level in levels), "continuous levels in use"


@pytest.mark.parametrize(
    ("domain", "direction", "signed"), [("beer-game", "lower", False), ("edt", "higher", True)]
)
def test_measure_domains(root: Root, domain: str, direction: str, signed: bool) -> None:
    metric = root.metric(root.domain(domain).outcome)
    assert metric.measured
    assert metric.kind == "outcome"
    assert metric.direction == direction
    assert metric.bounds.signed == signed
    assert metric.scale is not None
    tasks = root.tasks(domain)
    assert len(tasks) == 2
    values, failed = [], 0
    for task in tasks:
        assert task.scoring.mode == "measure"
        assert task.scoring.measure == metric.id
        assert task.scoring.failure_value is not None
        for runs in root.runs.values():
            for r in runs:
                if r.task != task.id:
                    continue
                got = [m.value for m in r.measures if m.id == metric.id]
                failed += not got
                assert bool(got) == r.delivery
                values += got
    assert failed >= 1, "a failed run that records no value"
    assert (min(values) < 0) == signed, "a signed metric shows a negative value"
    worst = {t.scoring.failure_value for t in tasks}
    beyond = max if direction == "lower" else min
    assert beyond([*values, *worst]) in worst, "the failure value is worse than every run"


def test_every_covered_task_has_its_runs(root: Root) -> None:
    release = root.release
    assert release.runs_per_task == 2
    assert release.reliability_k == (1, 2)
    assert len(root.catalog.tasks) == 45
    for folder, bundle in root.bundles.items():
        skipped = {n.domain for n in bundle.not_covered}
        runs = Counter(r.task for r in root.runs[folder])
        for task in root.catalog.tasks:
            expected = 0 if task.domain in skipped else release.runs_per_task
            assert runs[task.id] == expected, (folder, task.id)
        indices = {r.run for r in root.runs[folder]}
        assert indices == set(range(1, release.runs_per_task + 1))
        short = any(
            sum(r.task == t.id and r.status == "valid" for r in root.runs[folder])
            < release.runs_per_task
            for t in root.catalog.tasks
            if t.domain not in skipped
        )
        assert bundle.evaluation == ("incomplete" if short else "complete")
    assert any(b.not_covered for b in root.bundles.values())
    assert any(r.status == "incomplete" for runs in root.runs.values() for r in runs)
    assert sum(len(r) for r in root.runs.values()) <= 1000, "small enough to build in seconds"


def test_measures_and_run_fields_follow_the_declarations(root: Root) -> None:
    declared = {m.id for m in root.release.metrics}
    measured = {m.id: m for m in root.release.metrics if m.measured}
    fields = {f for m in declared if m in RUN_FIELDS for f in RUN_FIELDS[m]}
    assert fields == {"input_tokens", "output_tokens"}
    checked = 0
    for runs in root.runs.values():
        for r in runs:
            ids = [m.id for m in r.measures]
            assert len(ids) == len(set(ids))
            for m in r.measures:
                bounds = measured[m.id].bounds
                assert bounds.low is None or m.value >= bounds.low
                checked += 1
            for field in ("input_tokens", "output_tokens", "duration_s", "turns"):
                assert (getattr(r, field) is not None) == (field in fields), field
    assert checked > 0  # measures are recorded and checked


def test_scores_differ_by_method_and_backbone(root: Root) -> None:
    ids = {t.id for t in root.tasks("qa")}
    means = {
        folder: sum(r.rules[0].passed for r in runs if r.task in ids and r.status == "valid")
        / sum(r.task in ids and r.status == "valid" for r in runs)
        for folder, runs in root.runs.items()
    }
    assert len(set(means.values())) == len(means)


def test_views_declare_tables_1_3_and_9(root: Root) -> None:
    views = root.release.profile.views
    boards = [v for v in views if isinstance(v, Board)]
    assert len(boards) == 1
    board = boards[0]
    assert (board.per, board.columns, board.total) == ("backbone", "method", False)
    qa = root.domain("qa")
    rows = [tuple(r.facets.get(f) for f in qa.facets) for r in board.rows if r.domain == "qa"]
    cells = {tuple(t.facets[f] for f in qa.facets) for t in root.tasks("qa")}
    assert sorted(rows) == sorted(cells)
    others = [r.domain for r in board.rows if r.domain != "qa"]
    assert sorted(others) == sorted(d.id for d in root.release.domains if d.id != "qa")
    grids = [v for v in views if isinstance(v, Grid)]
    assert any(
        (g.domain, g.metric, g.rows, g.columns) == ("qa", "task_score", "method", "backbone")
        for g in grids
    )
    assert [v.domain for v in views if isinstance(v, Dimensions)] == ["consulting"]
    (resources,) = [v for v in views if isinstance(v, Resources)]
    kinds = {root.metric(m).measured for m in resources.metrics}
    assert kinds == {True, False}, "a measured resource and a token count"
    assert [root.metric(m).kind for m in resources.metrics] == ["resource", "resource"]


def test_the_root_loads_and_checks_clean() -> None:
    """Every file reads (the bulk run reader included) and every rule between files holds."""
    inputs, problems = load_inputs(ROOT)
    assert problems == []
    assert [p for p in check_inputs(inputs) if p.severity != "notice"] == []
