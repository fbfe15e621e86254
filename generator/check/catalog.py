"""Rules between a task catalog, its release, and the deep-dive narratives."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath

from generator.check.release import repeated
from generator.errors import Problem
from generator.load import Loaded, LoadedBundle
from generator.models import Catalog, DeepDive, Release


def _ids(values: Sequence[object]) -> set[str]:
    return {str(getattr(v, "id")) for v in values}  # noqa: B009


def check_catalog(loaded_release: Loaded[Release], loaded: Loaded[Catalog]) -> Iterator[Problem]:
    release, catalog, src = loaded_release.model, loaded.model, loaded.source
    path = src.path
    if catalog.release != release.version:
        yield Problem(
            path,
            src.line("release"),
            "release",
            f"{catalog.release!r} differs from the release version {release.version!r}",
        )
    for what, ids in (
        ("families", [f.id for f in catalog.families]),
        ("tasks", [t.id for t in catalog.tasks]),
    ):
        dupes = repeated(ids)
        if dupes:
            yield Problem(path, src.line(what), what, f"repeated ids: {', '.join(dupes)}")
    domains = {d.id: d for d in release.domains}
    enums = release.enumerations
    families = {f.id: f for f in catalog.families}
    for i, fam in enumerate(catalog.families):
        if fam.domain not in domains:
            yield Problem(
                path,
                src.line("families", i, "domain"),
                f"families[{i}].domain",
                f"{fam.domain!r} is not a domain of the release; expected one of {sorted(domains)}",
            )
    refs = {
        "scenario_category": _ids(enums.scenario_categories),
        "operation_type": _ids(enums.operation_types),
        "difficulty": _ids(enums.difficulty_tiers),
        "risk_level": _ids(enums.risk_levels),
        "exception_class": _ids(enums.exception_classes),
        "key_process_chain": _ids(enums.key_process_chains),
    }
    for i, task in enumerate(catalog.tasks):

        def at(field: str, i: int = i) -> tuple[int | None, str]:
            return src.line("tasks", i, field), f"tasks[{i}].{field}"

        domain = domains.get(task.domain)
        if domain is None:
            yield Problem(
                path,
                *at("domain"),
                f"{task.domain!r} is not a domain of the release; "
                f"expected one of {sorted(domains)}",
            )
        elif task.subdivision not in _ids(domain.subdivisions):
            yield Problem(
                path,
                *at("subdivision"),
                f"{task.subdivision!r} is not a {domain.subdivision_label} of "
                f"{domain.id}; expected one of {sorted(_ids(domain.subdivisions))}",
            )
        family = families.get(task.family)
        if family is None:
            yield Problem(path, *at("family"), f"{task.family!r} is not a declared family")
        elif family.domain != task.domain:
            yield Problem(
                path,
                *at("family"),
                f"family {family.id!r} belongs to domain "
                f"{family.domain!r}, the task to {task.domain!r}",
            )
        for field, allowed in refs.items():
            value = getattr(task, field)
            if value is not None and value not in allowed:
                expected = ", ".join(sorted(allowed)) or "none declared in the release"
                yield Problem(
                    path,
                    *at(field),
                    f"{value!r} is not declared in the release's "
                    f"enumerations; expected one of: {expected}",
                )
        if (
            domain is not None
            and not domain.business_views
            and (task.key_process_chain or task.functional_boundary)
        ):
            yield Problem(
                path,
                *at("key_process_chain"),
                "key-process chains and functional "
                f"boundaries are reported only for domains with business_views; "
                f"{domain.id} has none",
                "warning",
            )
    counts: Counter[str] = Counter(t.group for t in catalog.tasks)
    declared = {"public": release.groups.public, "held-out": release.groups.held_out}
    for group, number in declared.items():
        if counts[group] != number:
            yield Problem(
                loaded_release.source.path,
                loaded_release.source.line("groups", group.replace("-", "_")),
                f"groups.{group.replace('-', '_')}",
                f"declares {number} tasks but the catalog has {counts[group]}",
            )
    used = {t.family for t in catalog.tasks}
    for i, fam in enumerate(catalog.families):
        if fam.id not in used:
            yield Problem(
                path,
                src.line("families", i),
                f"families[{i}]",
                f"family {fam.id!r} has no tasks",
                "warning",
            )


def check_deep_dives(
    loaded_release: Loaded[Release],
    catalog: Loaded[Catalog],
    dives: Sequence[Loaded[DeepDive]],
    bundles: Sequence[LoadedBundle],
) -> Iterator[Problem]:
    release, rsrc = loaded_release.model, loaded_release.source
    tasks = {t.id: t for t in catalog.model.tasks}
    combinations = {b.bundle.model.combination.id for b in bundles}
    written = {}
    for dive in dives:
        model, src = dive.model, dive.source
        written[model.task] = dive
        stem = PurePosixPath(src.path).stem
        if model.task != stem:
            yield Problem(
                src.path,
                src.line("task"),
                "task",
                f"{model.task!r} differs from the file name {stem!r}",
            )
        task = tasks.get(model.task)
        if task is None:
            yield Problem(
                src.path,
                src.line("task"),
                "task",
                f"{model.task!r} is not a task of {release.version}",
            )
        elif task.group != "public":
            yield Problem(
                src.path,
                src.line("task"),
                "task",
                f"{model.task!r} is held-out; deep dives cover public tasks only (§4.4)",
            )
        if model.task not in release.deep_dives:
            yield Problem(
                src.path,
                None,
                "",
                f"{model.task!r} is not listed in the release's deep_dives",
                "warning",
            )
        for key in sorted(set(model.differences) - combinations):
            yield Problem(
                src.path,
                src.line("differences", key),
                f"differences.{key}",
                f"{key!r} is not a combination of {release.version}; expected one of "
                f"{sorted(combinations)}",
            )
    for i, task_id in enumerate(release.deep_dives):
        if task_id not in tasks:
            yield Problem(
                rsrc.path,
                rsrc.line("deep_dives", i),
                f"deep_dives[{i}]",
                f"{task_id!r} is not a task of {release.version}",
            )
        elif tasks[task_id].group != "public":
            yield Problem(
                rsrc.path,
                rsrc.line("deep_dives", i),
                f"deep_dives[{i}]",
                f"{task_id!r} is held-out; deep dives cover public tasks only (§4.4)",
            )
        if task_id not in written:
            yield Problem(
                rsrc.path,
                rsrc.line("deep_dives", i),
                f"deep_dives[{i}]",
                f"no narrative file {PurePosixPath(rsrc.path).parent}/deepdives/{task_id}.yaml",
            )
