"""The EnterpriseClawBench-shaped example root: every file parses against the data contract,
the root has the shape issue 19 asks for (computed from its files), the script that writes it
writes the same bytes again, and the engine's figures agree with figures recomputed here from
the run records.

"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any, TypeVar

import pandas as pd
import pytest
from blanks import blanks, written
from pydantic import BaseModel

from generator.check import check_inputs
from generator.disclosure.fingerprint import fingerprint
from generator.load import load_inputs
from generator.load.validate import validate_as
from generator.load.yamlfile import read_yaml
from generator.models import Bundle, Catalog, HarnessCard, Release, Task
from generator.models.profile import Board, Dimensions, Grid, Resources
from generator.models.runs import JudgeVerdict, RunRecord, RunsHeader
from generator.models.views import Agreement, Effect, Scatter, Sets, Transfer
from generator.score.results import CombinationScores, Report, ScopeResult
from generator.score.version import ScoredVersion

pytestmark = pytest.mark.slow  # builds the ClawBench-shaped example's site

REPO = Path(__file__).resolve().parent.parent
ROOT = REPO / "examples" / "enterpriseclawbench"
SCRIPT = REPO / "examples" / "make_enterpriseclawbench.py"
M = TypeVar("M", bound=BaseModel)
CLOSE = 1e-6  # the report keeps six decimals


def _parse(model: type[M], path: Path, root: Path) -> M:
    parsed = read_yaml(path, path.relative_to(root).as_posix())
    assert isinstance(parsed, tuple), parsed
    result = validate_as(model, *parsed)
    assert isinstance(result, model), result
    return result


def _lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    RunsHeader.model_validate_json(lines[0])
    return lines[1:]


@dataclass(frozen=True)
class Root:
    release: Release
    catalog: Catalog
    bundles: dict[str, Bundle]
    runs: dict[str, list[RunRecord]]
    cards: dict[str, HarnessCard]
    #: (bundle, rater id) → its verdict lines.
    verdicts: dict[tuple[str, str], list[dict[str, Any]]]

    @property
    def tasks(self) -> dict[str, Task]:
        return {t.id: t for t in self.catalog.tasks}

    def metric(self, metric: str) -> Any:
        return next(m for m in self.release.metrics if m.id == metric)

    def baselines(self) -> dict[str, Bundle]:
        return {k: b for k, b in self.bundles.items() if b.condition is None}

    def treatments(self) -> dict[str, Bundle]:
        return {k: b for k, b in self.bundles.items() if b.condition is not None}

    def in_set(self, task_set: str) -> set[str]:
        return {t.id for t in self.catalog.tasks if task_set in t.sets}


def load_root(root: Path) -> Root:
    (version,) = sorted(p for p in (root / "results").iterdir() if p.is_dir())
    bundles, runs, verdicts = {}, {}, {}
    for folder in sorted((version / "bundles").iterdir()):
        bundle = _parse(Bundle, folder / "bundle.yaml", root)
        bundles[folder.name] = bundle
        runs[folder.name] = [RunRecord.model_validate_json(x) for x in _lines(folder / bundle.runs)]
        for rater in bundle.raters:
            lines = [json.loads(x) for x in _lines(folder / rater.verdicts)]
            verdicts[(folder.name, rater.id)] = lines
    cards = {
        p.stem: _parse(HarnessCard, p, root) for p in sorted((root / "harnesscards").iterdir())
    }
    return Root(
        _parse(Release, version / "release.yaml", root),
        _parse(Catalog, version / "tasks.yaml", root),
        bundles,
        runs,
        cards,
        verdicts,
    )


@pytest.fixture(scope="module")
def root() -> Root:
    return load_root(ROOT)


def _values(task: Task, facet: str) -> tuple[str, ...]:
    value = task.facets[facet]
    return value if isinstance(value, tuple) else (value,)


def _channel(task: Task) -> str:
    (channel,) = {j.channel for j in task.scoring.judge_items}
    assert channel is not None
    return channel


# ---------------------------------------------------------------------------- the files


def test_the_script_writes_the_committed_root_byte_for_byte(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(tmp_path)], check=True, stdout=subprocess.DEVNULL
    )
    written = {p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file()}
    committed = {p.relative_to(ROOT) for p in ROOT.rglob("*") if p.is_file()}
    assert written == committed
    for rel in sorted(written):
        assert (tmp_path / rel).read_bytes() == (ROOT / rel).read_bytes(), rel


def test_one_illustrative_version_of_one_domain(root: Root) -> None:
    release = root.release
    assert release.illustrative
    assert release.notice is not None
    assert "synthetic" in release.notice
    assert root.catalog.release == release.version
    assert {b.release for b in root.bundles.values()} == {release.version}
    (domain,) = release.domains
    assert {t.domain for t in root.catalog.tasks} == {domain.id}
    assert 25 <= len(root.catalog.tasks) <= 35
    counts = Counter(t.group for t in root.catalog.tasks)
    assert (counts["public"], counts["held-out"]) == (
        release.groups.public,
        release.groups.held_out,
    )
    assert 0 < counts["public"] < counts["held-out"], "most tasks held out, a few public"


def test_role_class_is_single_and_deliverable_type_multi_valued(root: Root) -> None:
    (domain,) = root.release.domains
    facets = {f.id: f for f in root.release.profile.facets}
    assert set(domain.facets) == set(facets) == {"role", "deliverable"}
    assert not facets["role"].multi
    assert facets["deliverable"].multi
    used: dict[str, Counter[str]] = defaultdict(Counter)
    for task in root.catalog.tasks:
        assert isinstance(task.facets["role"], str)
        for facet in facets:
            values = _values(task, facet)
            assert len(values) == len(set(values))
            assert set(values) <= {v.id for v in facets[facet].values}
            used[facet].update(values)
    for facet in facets.values():
        assert set(used[facet.id]) == {v.id for v in facet.values}, "every value has a task"
    widths = Counter(len(_values(t, "deliverable")) for t in root.catalog.tasks)
    assert set(widths) == {1, 2}, "some tasks ask for two deliverable types"


def test_lite_is_part_of_full_and_full_is_every_task(root: Root) -> None:
    (domain,) = root.release.domains
    assert [s.id for s in domain.task_sets] == ["lite", "full"]
    lite, full = root.in_set("lite"), root.in_set("full")
    assert full == set(root.tasks)
    assert lite < full
    assert len(lite) > len(full) / 2
    roles = {v.id for v in root.release.profile.facets[0].values}
    assert {root.tasks[t].facets["role"] for t in lite} == roles, "Lite covers every role"


def test_held_out_withholding_is_exercised_per_set_and_facet_value(root: Root) -> None:
    floor = root.release.groups.min_held_out_aggregate
    counts = []
    for task_set in ("lite", "full"):
        held = [root.tasks[t] for t in root.in_set(task_set) if root.tasks[t].group == "held-out"]
        assert len(held) >= floor, "each set's held-out group is shown"
        per_value = Counter((f, v) for t in held for f in t.facets for v in _values(t, f))
        counts += list(per_value.values())
    assert any(n < floor for n in counts), "some facet value withheld"
    assert any(n >= floor for n in counts), "some facet value shown"


def test_every_task_has_five_classed_rules_and_five_weighted_dimensions_on_one_channel(
    root: Root,
) -> None:
    profile = root.release.profile
    classes = sorted(c.id for c in profile.rule_classes)
    dimensions = sorted(d.id for d in profile.dimensions)
    assert len(classes) == len(dimensions) == 5
    assert {c.id for c in profile.channels} == {"text", "visual"}
    weights = set()
    for task in root.catalog.tasks:
        scoring = task.scoring
        assert scoring.mode == "dual-channel"
        assert scoring.rule_weight is not None
        assert 0 < scoring.rule_weight < 1
        assert sorted(str(i.rule_class) for i in scoring.rule_items) == classes
        assert not any(i.fatal for i in scoring.rule_items)
        assert sorted(str(j.dimension) for j in scoring.judge_items) == dimensions
        assert not any(j.overall for j in scoring.judge_items)
        weights.add(tuple(sorted((str(j.dimension), j.weight) for j in scoring.judge_items)))
        # Text for a document or code, visual for a page, deck, sheet, PDF or image.
        primary = _values(task, "deliverable")[0]
        assert _channel(task) == ("text" if primary in ("document", "code") else "visual")
    (dimension_weights,) = weights
    assert len({w for _, w in dimension_weights}) > 1, "dimensions weigh differently"
    assert Counter(_channel(t) for t in root.catalog.tasks).keys() == {"text", "visual"}


def test_cost_in_cny_and_runtime_are_declared_and_recorded(root: Root) -> None:
    cost = next(m for m in root.release.metrics if m.currency is not None)
    assert (cost.currency, cost.kind, cost.direction) == ("CNY", "resource", "lower")
    assert cost.measured
    assert cost.comparable, "money compares across models"
    assert root.metric("duration_s").direction == "lower"
    assert not root.metric("total_tokens").comparable
    runs = 0
    for folder, bundle in root.bundles.items():
        assert bundle.pricing is not None
        assert bundle.pricing.currency == cost.currency, folder
        for r in root.runs[folder]:
            (value,) = [m.value for m in r.measures if m.id == cost.id]
            assert value >= 0
            assert r.duration_s is not None
            runs += 1
    assert runs == sum(len(r) for r in root.runs.values()) > 0  # every bundle's every run


def test_harness_by_model_with_two_cells_not_evaluated_outside_deepagents(root: Root) -> None:
    axes = [a.id for a in root.release.profile.axes]
    assert axes == ["harness", "model"]
    cells = [tuple(b.combination.axes[a] for a in axes) for b in root.baselines().values()]
    assert len(cells) == len(set(cells)), "each harness × model cell once"
    harnesses, models = {h for h, _ in cells}, {m for _, m in cells}
    assert (len(harnesses), len(models)) == (4, 3)
    missing = {(h, m) for h in harnesses for m in models} - set(cells)
    assert len(missing) == 2
    assert all(h != "DeepAgents" for h, _ in missing)
    channels = {c.id for c in root.release.profile.channels}
    assert len(root.bundles) == 14  # ten baselines and four treatments
    assert root.release.disclosure_floor
    for bundle in root.bundles.values():
        assert set(bundle.channels) == channels
        assert bundle.combination.model.name == bundle.combination.axes["model"]
        card = root.cards[bundle.combination.harnesscard]
        assert card.harness.name == bundle.combination.axes["harness"]
        for ref in root.release.disclosure_floor:
            layer, field = ref.split(".")
            assert "value" in getattr(card.layers, layer).model_dump()[field], ref


def test_only_deepagents_runs_the_full_set(root: Root) -> None:
    release, lite = root.release, root.in_set("lite")
    assert release.runs_per_task == 2
    assert len(root.baselines()) == 10  # 4 harnesses × 3 models, two cells not evaluated
    for folder, bundle in root.baselines().items():
        full = bundle.combination.axes["harness"] == "DeepAgents"
        if full:
            assert not bundle.not_covered
        else:
            (skipped,) = bundle.not_covered
            assert (skipped.task_set, skipped.subdivision) == ("full", None)
            assert skipped.reason
        runs = Counter(r.task for r in root.runs[folder])
        expected = set(root.tasks) if full else lite
        assert set(runs) == expected, folder
        assert set(runs.values()) == {release.runs_per_task}
        short = any(
            sum(r.task == t and r.status == "valid" for r in root.runs[folder])
            < release.runs_per_task
            for t in expected
        )
        assert bundle.evaluation == ("incomplete" if short else "complete")
    total = sum(len(r) for r in root.runs.values())
    assert 200 <= total <= 1000, "a few hundred runs: builds in seconds"


def test_the_skill_experiment_is_a_controlled_one(root: Root) -> None:
    (experiment,) = root.release.profile.experiments
    sources, targets = set(experiment.sources), set(experiment.targets)
    assert len(sources) == 10
    assert len(targets) == 5
    assert not sources & targets
    assert sources | targets <= root.in_set("lite")
    groups = Counter(root.tasks[t].group for t in targets)
    assert groups["public"] >= 1
    assert groups["held-out"] >= root.release.groups.min_held_out_aggregate
    treatments = root.treatments()
    places = {
        tuple(b.combination.axes.items()): (folder, b) for folder, b in root.baselines().items()
    }
    consumers = set()
    for folder, bundle in treatments.items():
        assert bundle.condition is not None
        assert bundle.condition.experiment == experiment.id
        baseline_folder, baseline = places[tuple(bundle.combination.axes.items())]
        consumers.add(baseline_folder)
        card = root.cards[bundle.combination.harnesscard]
        assert fingerprint(card, bundle) == fingerprint(card, baseline), "only the condition"
        assert bundle.channels == baseline.channels
        assert bundle.pricing == baseline.pricing
        runs = Counter(r.task for r in root.runs[folder])
        assert set(runs) == targets
        assert set(runs.values()) == {root.release.runs_per_task}
        assert {r.task for r in root.runs[baseline_folder]} >= targets
    levels = [lv.id for lv in experiment.levels]
    conditions = [b.condition.level for b in treatments.values() if b.condition is not None]
    assert len(consumers) == 2
    assert sorted(conditions) == sorted(levels * len(consumers))


def test_second_raters_rate_runs_the_judge_scored(root: Root) -> None:
    kinds: dict[str, set[str]] = defaultdict(set)
    for (folder, rater), lines in root.verdicts.items():
        bundle = root.bundles[folder]
        kind = next(r.kind for r in bundle.raters if r.id == rater)
        runs = {(r.task, r.run): r for r in root.runs[folder]}
        assert lines
        for line in lines:
            assert set(line) == {"task", "run", "judge"}
            run = runs[(line["task"], line["run"])]
            assert run.status == "valid"
            assert run.judge_valid
            rated = [JudgeVerdict.model_validate(v) for v in line["judge"]]
            task = root.tasks[run.task]
            assert sorted(v.id for v in rated) == sorted(j.id for j in task.scoring.judge_items)
            top = {j.id: j.max_level for j in task.scoring.judge_items}
            assert all(0 <= v.level <= top[v.id] for v in rated)
            kinds[kind].add(_channel(task))
    assert kinds == {"human": {"text", "visual"}, "judge": {"text", "visual"}}
    assert set(root.baselines()) > {f for f, _ in root.verdicts}, "some bundles only"


def test_views_declare_the_report(root: Root) -> None:
    views = root.release.profile.views
    (experiment,) = root.release.profile.experiments
    kinds = Counter(type(v) for v in views)
    assert set(kinds) == {
        Grid,
        Effect,
        Scatter,
        Board,
        Dimensions,
        Resources,
        Sets,
        Agreement,
        Transfer,
    }
    grids = [v for v in views if isinstance(v, Grid)]
    assert any((g.metric, g.rows, g.columns) == ("task_score", "harness", "model") for g in grids)
    (effect,) = [v for v in views if isinstance(v, Effect)]
    assert (effect.within, effect.across) == ("model", "harness")
    (scatter,) = [v for v in views if isinstance(v, Scatter)]
    assert root.metric(scatter.x).currency is not None
    assert scatter.log_x
    boards = [v for v in views if isinstance(v, Board)]
    facets_on_rows = {f for b in boards for row in b.rows for f in row.facets}
    assert facets_on_rows == {"role", "deliverable"}
    (resources,) = [v for v in views if isinstance(v, Resources)]
    assert all(root.metric(m).kind == "resource" for m in resources.metrics)
    assert {"duration_s", scatter.x} <= set(resources.metrics)
    (transfer,) = [v for v in views if isinstance(v, Transfer)]
    assert transfer.experiment == experiment.id


# ---------------------------------------------------------------------------- the engine


@pytest.fixture(scope="module")
def read_root() -> Path:
    """The root as committed: every declaration of it is read."""
    return ROOT


@pytest.fixture(scope="module")
def report(read_root: Path, claw_scored: ScoredVersion) -> Report:
    inputs, problems = load_inputs(read_root)
    assert problems == []
    assert [p for p in check_inputs(inputs) if p.severity != "notice"] == []
    return claw_scored.reports["workplace"]


def test_a_public_task_of_a_set_a_bundle_left_out_is_not_covered_for_it(
    root: Root, report: Report
) -> None:
    """A public task only in the full set has no runs from a bundle that ran Lite: its
    per-task row says "not covered", not "no valid runs" (14 rows said the latter)."""
    lite = root.in_set("lite")
    seen = 0
    for row in report.tasks:
        full = root.baselines()[row.combination].combination.axes["harness"] == "DeepAgents"
        if not full and row.task not in lite:
            assert row.status == "not-covered", row
            seen += 1
        else:
            assert row.status != "not-covered", row
    assert seen, "the example has public tasks outside Lite"
    assert len(report.tasks) > seen
    ran = {(folder, r.task) for folder, runs in root.runs.items() for r in runs}
    for row in report.tasks:  # "no valid runs" only where the bundle ran the task
        assert row.status != "no-valid-runs" or (row.combination, row.task) in ran, row


def test_the_root_loads_and_checks_clean(report: Report) -> None:
    """Every file reads and every rule between files holds (the report fixture asserts it)."""
    assert report.domain == "workplace"


def test_the_site_builds_a_page_per_view(read_root: Path, claw_site: Path) -> None:
    out = claw_site
    release = load_root(read_root).release
    assert release.profile.views
    for view in release.profile.views:
        assert (out / release.version / "views" / f"{view.id}.html").is_file(), view.id
    domain = release.domains[0]
    pages = out / release.version / domain.id
    first, other = domain.task_sets[0], domain.task_sets[1]
    home = (pages / "index.html").read_text(encoding="utf-8")
    assert f"of its {first.title} set" in home
    assert "never pooled" in (pages / f"set-{other.id}.html").read_text(encoding="utf-8")
    multi = next(f for f in release.profile.facets if f.multi)
    shown = sorted(pages.glob(f"{multi.id}-*.html"))
    assert shown
    for page in shown:  # a task counts in each of its values, and the page says so
        assert "counts in each of its values" in page.read_text(encoding="utf-8")


def _credit(task: Task, run: RunRecord) -> dict[str, float]:
    """What one valid run scores, from its verdicts: S, R, J, each dimension's g/G and each rule
    class's share passed (a run without its deliverable scores 0, its Judge items 0)."""
    scoring = task.scoring
    passed = {v.id: v.passed for v in run.rules}
    levels = {v.id: v.level for v in run.judge}
    rules, items = scoring.rule_items, scoring.judge_items
    r = sum(i.weight * passed[i.id] for i in rules) / sum(i.weight for i in rules)
    g = {j.id: levels.get(j.id, 0.0) / j.max_level for j in items}
    j = sum(i.weight * g[i.id] for i in items) / sum(i.weight for i in items)
    w = scoring.rule_weight
    assert w is not None
    out = {
        "task_score": (w * r + (1 - w) * j) if run.delivery else 0.0,
        "rule_score": r,
        "judge_score": j,
    }
    out |= {f"dimension:{i.dimension}": g[i.id] for i in items}
    for channel in {str(i.channel) for i in items}:  # the weighted mean on each channel
        mine = [i for i in items if i.channel == channel]
        out[f"channel:{channel}"] = sum(i.weight * g[i.id] for i in mine) / sum(
            i.weight for i in mine
        )
    by_class: dict[str, list[bool]] = defaultdict(list)
    for i in rules:
        by_class[str(i.rule_class)].append(passed[i.id])
    out |= {f"class:{c}": fmean(v) for c, v in by_class.items()}
    out |= {f"measure:{m.id}": m.value for m in run.measures}
    out["duration_s"] = float(run.duration_s or 0.0)
    out["success"] = float(
        run.delivery
        and all(passed.values())
        and all(levels.get(i.id, 0) >= i.passing_level for i in items)
    )
    return out


def _recomputed(root: Root, folder: str, tasks: list[Task]) -> dict[str, float]:
    """Each figure as the mean over tasks of the mean over the task's valid runs; success as
    the share of valid runs."""
    per_task: list[dict[str, float]] = []
    successes: list[float] = []
    for task in tasks:
        runs = [r for r in root.runs[folder] if r.task == task.id and r.status == "valid"]
        if not runs:
            continue
        credits = [_credit(task, r) for r in runs]
        per_task.append({k: fmean(c[k] for c in credits) for k in credits[0]})
        successes += [c["success"] for c in credits]
    keys = dict.fromkeys(k for t in per_task for k in t)  # a channel: over the tasks it judges
    out = {k: fmean(t[k] for t in per_task if k in t) for k in keys}
    out["success"] = fmean(successes)
    return out


def _in_scope(task: Task, scope: ScopeResult) -> bool:
    """Whether the task lies in the scope: its group, its facet values, and its task set (the
    domain's first set, Lite, unless the scope names another)."""
    group = scope.scope.group
    in_set = (scope.scope.task_set or "lite") in task.sets
    return (
        in_set
        and (group == "all" or task.group == group)
        and all(value in _values(task, facet) for facet, value in scope.scope.facets)
    )


def _reported(scores: CombinationScores) -> dict[str, float]:
    """The combination's published figures (those the privacy gate withheld are absent)."""
    assert scores.task_score is not None
    assert scores.efficiency is not None
    shown = {
        "task_score": scores.task_score,
        "rule_score": scores.rule_score,
        "judge_score": scores.judge_score,
        "success": scores.success_rate,
    }
    out = {name: e.value for name, e in shown.items() if e is not None}
    if scores.efficiency.duration_s is not None:
        out["duration_s"] = scores.efficiency.duration_s
    out |= {f"dimension:{d}": e.value for d, e in scores.dimensions.items()}
    out |= {f"channel:{c}": e.value for c, e in scores.channels.items()}
    out |= {f"class:{c}": e.value for c, e in scores.rule_classes.items()}
    out |= {f"measure:{m}": e.value for m, e in scores.measures.items()}
    return out


def test_the_engines_figures_are_those_of_the_run_records(read_root: Path, report: Report) -> None:
    """Every figure of every combination in every scope it is scored in, recomputed from the
    run records; every combination is scored somewhere, and a combination of each harness over
    all tasks."""
    root = load_root(read_root)
    compared: dict[str, set[str]] = defaultdict(set)
    for scope in report.scopes:
        tasks = [t for t in root.catalog.tasks if _in_scope(t, scope)]
        assert scope.tasks == len(tasks), scope.title
        for scores in scope.combinations:
            if scores.status != "scored":
                continue
            reported, recomputed = _reported(scores), _recomputed(root, scores.combination, tasks)
            assert set(reported) <= set(recomputed)
            assert {k.split(":")[0] for k in reported} >= {"dimension", "class", "measure"}
            if scope.scope.whole:  # every channel, shown or withheld by the privacy gate
                withheld = {
                    f"channel:{w.removeprefix('channels.')}"
                    for w in scores.withheld or ()
                    if w.startswith("channels.")
                }
                assert {k for k in reported if k.startswith("channel:")} | withheld == {
                    f"channel:{c.id}" for c in root.release.profile.channels
                }
            for figure, value in reported.items():
                tolerance = CLOSE * max(1.0, abs(value))
                assert abs(value - recomputed[figure]) <= tolerance, (scope.title, figure)
            compared[scores.combination].add(scope.scope.group)
    assert set(compared) == set(root.baselines())  # treatments: in their experiment only
    assert any("all" in groups for groups in compared.values())


def test_no_held_out_task_is_reported_one_by_one(read_root: Path, report: Report) -> None:
    root = load_root(read_root)
    rows = report.tasks
    assert rows
    assert {root.tasks[r.task].group for r in rows} == {"public"}
    for row in rows:
        if row.score is None:
            continue
        expected = _recomputed(root, row.combination, [root.tasks[row.task]])
        assert abs(row.score - expected["task_score"]) <= CLOSE, (row.task, row.combination)


def test_s_r_and_j_are_never_all_three_published_over_held_out_tasks(
    root: Root, report: Report
) -> None:
    """Every task shares one rule weight and can zero a run (its core delivery), so over
    held-out tasks S, R and J together would tell what the zeroed runs would have scored:
    with S and R published, J reads withheld (docs/untrusted-input.md says so)."""
    assert len({t.scoring.rule_weight for t in root.catalog.tasks}) == 1
    scopes = [s for s in report.scopes if s.scope.group != "public"]
    both = [
        c
        for s in scopes
        for c in s.combinations
        if c.task_score is not None and c.rule_score is not None
    ]
    assert both  # the rule is exercised
    assert all(c.judge_score is None and "judge_score" in c.withheld for c in both)


# ---------------------------------------------------------------------------- the shapes


def _lite(root: Root) -> list[Task]:
    return [t for t in root.catalog.tasks if "lite" in t.sets]


def _composites(root: Root, tasks: list[Task]) -> dict[tuple[str, str], float]:
    """(harness, model) → composite of its baseline bundle over the tasks, from the runs."""
    return {
        (b.combination.axes["harness"], b.combination.axes["model"]): _recomputed(
            root, folder, tasks
        )["task_score"]
        for folder, b in root.baselines().items()
    }


def test_the_runs_show_the_summarys_harness_and_model_shapes(root: Root) -> None:
    """Codex × GPT-5.5 leads on Lite; each Anthropic model scores lowest under Hermes, well
    below its other harnesses; Hermes × Sonnet costs most (on Lite, the set every combination
    ran)."""
    lite = _lite(root)
    scores = _composites(root, lite)
    assert max(scores, key=scores.__getitem__) == ("Codex", "GPT-5.5")
    anthropic = {b.combination.model.name for b in root.bundles.values()} - {"GPT-5.5"}
    assert anthropic == {"Haiku 4.5", "Sonnet 4.6"}
    for model in anthropic:
        others = [s for (h, m), s in scores.items() if m == model and h != "Hermes"]
        assert scores[("Hermes", model)] < min(others) - 0.1, model
    costs = {
        (b.combination.axes["harness"], b.combination.axes["model"]): _recomputed(
            root, folder, lite
        )["measure:cost_cny"]
        for folder, b in root.baselines().items()
    }
    assert max(costs, key=costs.__getitem__) == ("Hermes", "Sonnet 4.6")


def test_the_full_set_orders_the_combinations_it_holds_as_lite_does(root: Root) -> None:
    lite, full = _composites(root, _lite(root)), _composites(root, list(root.catalog.tasks))
    both = [
        (b.combination.axes["harness"], b.combination.axes["model"])
        for b in root.baselines().values()
        if not b.not_covered
    ]
    assert len(both) >= 3
    assert sorted(both, key=lite.__getitem__) == sorted(both, key=full.__getitem__)


def test_the_runs_show_the_summarys_role_and_dimension_shapes(root: Root) -> None:
    """Marketing and finance/operations are the hardest role classes; grounded accuracy is the
    weakest dimension and communication the strongest (means over the baseline bundles)."""
    by_role: dict[str, list[float]] = defaultdict(list)
    dimensions: dict[str, list[float]] = defaultdict(list)
    for folder in root.baselines():
        covered = [root.tasks[t] for t in {r.task for r in root.runs[folder]}]
        for role in {str(t.facets["role"]) for t in covered}:
            tasks = [t for t in covered if t.facets["role"] == role]
            by_role[role].append(_recomputed(root, folder, tasks)["task_score"])
        figures = _recomputed(root, folder, covered)
        for d in root.release.profile.dimensions:
            dimensions[d.id].append(figures[f"dimension:{d.id}"])
    roles = sorted(by_role, key=lambda r: fmean(by_role[r]))
    assert set(roles[:2]) == {"marketing", "finance-ops"}
    order = sorted(dimensions, key=lambda d: fmean(dimensions[d]))
    assert (order[0], order[-1]) == ("grounded-accuracy", "communication")


def test_the_runs_show_the_summarys_skill_and_rater_shapes(root: Root) -> None:
    """Skills by GPT-5.5 raise the consumers' composite on the targets on average, skills by
    Haiku 4.5 lower it; human experts score the visual channel above the Judge, out of its
    order, and the text channel close to it."""
    (experiment,) = root.release.profile.experiments
    targets = [root.tasks[t] for t in experiment.targets]
    places = {tuple(b.combination.axes.items()): f for f, b in root.baselines().items()}
    change: dict[str, list[float]] = defaultdict(list)
    for folder, bundle in root.treatments().items():
        assert bundle.condition is not None
        baseline = places[tuple(bundle.combination.axes.items())]
        treated = _recomputed(root, folder, targets)["task_score"]
        change[bundle.condition.level].append(
            treated - _recomputed(root, baseline, targets)["task_score"]
        )
    assert fmean(change["gpt-5.5"]) > 0 > fmean(change["haiku-4.5"])
    pairs: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for (folder, rater), lines in root.verdicts.items():
        if rater != "human-experts":
            continue
        runs = {(r.task, r.run): r for r in root.runs[folder]}
        for line in lines:
            task = root.tasks[line["task"]]
            run = runs[(task.id, line["run"])]
            verdicts = tuple(JudgeVerdict.model_validate(v) for v in line["judge"])
            rated = run.model_copy(update={"judge": verdicts})
            judged = _credit(task, run)["judge_score"]
            pairs[_channel(task)].append((judged, _credit(task, rated)["judge_score"]))
    bias = {c: fmean(h - j for j, h in p) for c, p in pairs.items()}
    rho = {c: _spearman(p) for c, p in pairs.items()}
    assert bias["visual"] > bias["text"] + 0.1
    assert rho["text"] > 0.5 > 0 > rho["visual"]


def _spearman(pairs: list[tuple[float, float]]) -> float:
    """Spearman's rank correlation: Pearson's of the ranks (ties at their mean rank)."""
    ranks = pd.DataFrame(pairs, columns=["a", "b"]).rank()
    return float(ranks["a"].corr(ranks["b"]))


def test_the_skill_changes_are_those_of_the_run_records(read_root: Path, report: Report) -> None:
    """Each creator × consumer change is the mean over the targets of the treatment's task
    mean less its baseline's, recomputed from the run records; no held-out target has a
    per-task change; each change shown has its interval."""
    root = load_root(read_root)
    (experiment,) = root.release.profile.experiments
    (result,) = report.experiments
    assert result.targets == len(experiment.targets)
    assert set(experiment.sources).isdisjoint(experiment.targets)
    targets = [root.tasks[t] for t in experiment.targets]
    baselines = {
        (b.combination.axes["harness"], b.combination.axes["model"]): k
        for k, b in root.baselines().items()
    }
    shown = 0
    for cell in result.cells:
        if cell.withheld is not None:
            continue
        treatment = root.bundles[str(cell.treatment)]
        assert treatment.condition is not None
        assert treatment.condition.level == cell.level
        axes = treatment.combination.axes
        base = baselines[(axes["harness"], axes["model"])]
        assert cell.consumer == base
        diffs = [
            _recomputed(root, str(cell.treatment), [t])["task_score"]
            - _recomputed(root, base, [t])["task_score"]
            for t in targets
        ]
        assert cell.value is not None
        assert abs(cell.value - fmean(diffs)) <= CLOSE
        assert cell.low is not None
        assert cell.high is not None
        assert cell.low <= cell.value <= cell.high
        shown += 1
    assert shown == len(experiment.levels) * len({c.consumer for c in result.cells})
    assert {t.task for t in result.tasks} <= {t.id for t in targets if t.group == "public"}


def test_rater_agreement_is_that_of_the_verdicts(read_root: Path, report: Report) -> None:
    """For each second rater and channel, the mean absolute error and the mean difference
    between its channel score and the Judge's, per run both rated, recomputed from the verdict
    files and the run records (the weighted mean g/G of the run's items on the channel)."""
    root = load_root(read_root)
    assert report.agreement
    for found in report.agreement:
        diffs = []
        for (folder, rater), lines in root.verdicts.items():
            if rater != found.rater or folder not in root.baselines():
                continue
            records = {(r.task, r.run): r for r in root.runs[folder] if r.status == "valid"}
            for line in lines:
                record = records.get((line["task"], line["run"]))
                task = root.tasks[line["task"]]
                items = [j for j in task.scoring.judge_items if j.channel == found.channel]
                if record is None or not items or not record.judge_valid:
                    continue
                judge = {v.id: v.level for v in record.judge}
                second = {v["id"]: v["level"] for v in line["judge"]}
                mass = sum(j.weight for j in items)

                def score(levels: dict[str, float], items: list[Any] = items) -> float:
                    return sum(j.weight * levels.get(j.id, 0.0) / j.max_level for j in items)

                diffs.append((score(second) - score(judge)) / mass)
        assert found.runs == len(diffs), (found.rater, found.channel)
        if found.withheld is not None:
            continue
        assert found.mae is not None
        assert found.difference is not None
        assert found.mae.value is not None
        assert found.difference.value is not None
        assert abs(found.mae.value - fmean(abs(d) for d in diffs)) <= CLOSE
        assert abs(found.difference.value - fmean(diffs)) <= CLOSE


def test_no_blank_cell_or_field(claw_site: Path) -> None:
    """No empty cell, no None/nan/null the inputs did not write (:mod:`blanks`)."""
    assert blanks(claw_site, written(ROOT)) == []
