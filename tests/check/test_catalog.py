"""Rules between a task catalog, its release and the deep dives (generator/check/catalog.py):
a good catalog passes, each break is one problem at its field and line."""

from __future__ import annotations

from typing import Any

from builders import bundle, catalog, release, task

from generator.check.catalog import check_catalog, check_deep_dives
from generator.errors import Problem
from generator.load import Loaded, LoadedBundle
from generator.load.records import columns_from_records
from generator.load.source import Source
from generator.models import Catalog, DeepDive, Release

TASKS = "results/v0.1/tasks.yaml"
RELEASE = "results/v0.1/release.yaml"


def _release(**extra: Any) -> Loaded[Release]:
    extra.setdefault("groups", {"public": 2, "held_out": 1})
    lines = {("groups", "public"): 50, ("groups", "held_out"): 51, ("deep_dives", 0): 60}
    return Loaded(release(**extra), Source(RELEASE, lines))


def _tasks() -> list[dict[str, Any]]:
    return [
        task("t1"),
        task("t2", domain="erp", sub="x", chain="chain", boundary=True),
        task("t3", group="held-out"),
    ]


def _catalog(tasks: list[dict[str, Any]], **change: Any) -> Loaded[Catalog]:
    """The catalog of ``tasks``, its first task changed as ``change`` says (unvalidated: the
    cross-file checks see what a file could hold)."""
    model = catalog(tasks)
    first = model.tasks[0].model_copy(update=change)
    model = model.model_copy(update={"tasks": (first, *model.tasks[1:])})
    lines = {
        ("tasks", i, field): 100 + 10 * i + k
        for i in range(5)
        for k, field in enumerate(
            ["domain", "subdivision", "family", "risk_level", "difficulty", "key_process_chain"]
        )
    }
    lines[("families", 0, "domain")] = 20
    return Loaded(model, Source(TASKS, lines))


def _check(tasks: list[dict[str, Any]], **change: Any) -> list[Problem]:
    return list(check_catalog(_release(), _catalog(tasks, **change)))


def test_a_good_catalog_passes() -> None:
    assert _check(_tasks()) == []


def test_task_references_must_resolve_in_the_release() -> None:
    cases = {
        "domain": ("nowhere", 100, "'nowhere' is not a domain of the release"),
        "subdivision": ("zz", 101, "'zz' is not a category of office"),
        "risk_level": ("extreme", 103, "'extreme' is not declared in the release's enumerations"),
        "difficulty": ("brutal", 104, "'brutal' is not declared in the release's enumerations"),
    }
    for field, (value, line, says) in cases.items():
        problems = _check(_tasks(), **{field: value})
        errors = [p for p in problems if p.severity == "error"]
        assert [(p.path, p.line, p.field) for p in errors][:1] == [
            (TASKS, line, f"tasks[0].{field}")
        ]
        assert says in errors[0].message, field


def test_a_task_sits_in_its_family_s_domain() -> None:
    problems = _check(_tasks(), family="fam-erp")
    assert [(p.line, p.field) for p in problems if p.severity == "error"] == [
        (102, "tasks[0].family")
    ]
    assert "family 'fam-erp' belongs to domain 'erp', the task to 'office'" in problems[0].message
    problems = _check(_tasks(), family="unknown")
    assert any(p.message == "'unknown' is not a declared family" for p in problems)


def test_group_counts_must_match_the_release() -> None:
    tasks = _tasks()
    tasks[2]["group"] = "public"
    problems = _check(tasks)
    assert [(p.path, p.line, p.field) for p in problems] == [
        (RELEASE, 50, "groups.public"),
        (RELEASE, 51, "groups.held_out"),
    ]
    assert problems[0].message == "declares 2 tasks but the catalog has 3"
    assert problems[1].message == "declares 1 tasks but the catalog has 0"


def test_business_view_attributes_outside_business_view_domains_warn() -> None:
    problems = _check(_tasks(), key_process_chain="chain")  # office has no business views
    assert [(p.field, p.severity) for p in problems] == [("tasks[0].key_process_chain", "warning")]


def test_repeated_ids_and_unused_families() -> None:
    tasks = _tasks()
    tasks.append(dict(tasks[0]))
    loaded = Loaded(catalog(tasks), Source(TASKS, {("tasks",): 9}))
    problems = list(check_catalog(_release(groups={"public": 3, "held_out": 1}), loaded))
    assert [(p.line, p.field, p.message) for p in problems] == [(9, "tasks", "repeated ids: t1")]
    model = catalog(_tasks())
    extra = model.families[0].model_copy(update={"id": "idle"})
    model = model.model_copy(update={"families": (*model.families, extra)})
    problems = list(check_catalog(_release(), Loaded(model, Source(TASKS))))
    assert [(p.field, p.severity) for p in problems] == [
        (f"families[{len(model.families) - 1}]", "warning")
    ]


def _dive(task_id: str, stem: str | None = None, **extra: Any) -> Loaded[DeepDive]:
    model = DeepDive.model_validate(
        {
            "format_version": 1,
            "task": task_id,
            "trajectory_nodes": "n",
            "interpretation": "i",
            **extra,
        }
    )
    path = f"results/v0.1/deepdives/{stem or task_id}.yaml"
    return Loaded(model, Source(path, {("task",): 2}))


def _bundles(*combos: str) -> list[LoadedBundle]:
    return [
        LoadedBundle(c, Loaded(bundle(c), Source("b.yaml")), columns_from_records([], []), "r")
        for c in combos
    ]


def _dives(listed: tuple[str, ...], dives: list[Loaded[DeepDive]]) -> list[Problem]:
    return list(
        check_deep_dives(_release(deep_dives=listed), _catalog(_tasks()), dives, _bundles("p", "q"))
    )


def test_a_listed_and_written_deep_dive_on_a_public_task_passes() -> None:
    assert _dives(("t1",), [_dive("t1", differences={"p": "note"})]) == []


def test_deep_dives_cover_public_tasks_that_exist() -> None:
    problems = _dives(("t3",), [_dive("t3")])
    assert [(p.path, p.line, p.field) for p in problems] == [
        ("results/v0.1/deepdives/t3.yaml", 2, "task"),
        (RELEASE, 60, "deep_dives[0]"),
    ]
    assert all("held-out; deep dives cover public tasks only (§4.4)" in p.message for p in problems)
    problems = _dives(("t9",), [])
    assert [p.message for p in problems] == [
        "'t9' is not a task of v0.1",
        "no narrative file results/v0.1/deepdives/t9.yaml",
    ]


def test_a_deep_dive_file_is_named_listed_and_refers_to_known_combinations() -> None:
    problems = _dives(("t1",), [_dive("t1", stem="other")])
    assert any(p.message == "'t1' differs from the file name 'other'" for p in problems)
    problems = _dives((), [_dive("t1")])
    assert [(p.severity, p.message) for p in problems] == [
        ("warning", "'t1' is not listed in the release's deep_dives")
    ]
    problems = _dives(("t1",), [_dive("t1", differences={"zz": "?"})])
    assert [p.field for p in problems] == ["differences.zz"]
    assert "expected one of ['p', 'q']" in problems[0].message
