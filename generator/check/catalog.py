"""Rules between a task catalog, its release, and the deep-dive narratives.

:func:`check_catalog` reads as its sections: the catalog's version and ids, its families,
each task (:data:`TASK_RULES`, one small rule each), the release's group counts and unused
families. :func:`check_deep_dives` checks each narrative file, then the release's list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from generator.check.channels import check_task_channels
from generator.check.facets import check_task_facets_and_sets
from generator.check.profile import check_task_profile
from generator.check.release import repeated
from generator.errors import Problem, Severity, did_you_mean
from generator.load import Loaded, LoadedBundle
from generator.load.source import Source
from generator.models import Catalog, DeepDive, Release, Task
from generator.models.catalog import Family
from generator.models.release import Domain

#: A task's field that names a value of the release's enumerations -> that enumeration
#: (§2.5.2, §2.6: the metadata that slices the statistics draws from closed vocabularies).
TASK_ENUMERATIONS = {
    "scenario_category": "scenario_categories",
    "operation_type": "operation_types",
    "difficulty": "difficulty_tiers",
    "risk_level": "risk_levels",
    "exception_class": "exception_classes",
    "key_process_chain": "key_process_chains",
}


def _ids(values: Sequence[object]) -> set[str]:
    return {str(getattr(v, "id")) for v in values}  # noqa: B009


@dataclass(frozen=True)
class TaskInRelease:
    """One task of the catalog, where it is written, and what its release declares."""

    index: int
    task: Task
    source: Source
    domains: Mapping[str, Domain]
    families: Mapping[str, Family]
    allowed: Mapping[str, set[str]]  # per field of TASK_ENUMERATIONS, the declared ids

    def problem(self, field: str, message: str, severity: Severity = "error") -> Problem:
        """A problem at the task's ``field``."""
        line = self.source.line("tasks", self.index, field)
        return Problem(self.source.path, line, f"tasks[{self.index}].{field}", message, severity)


def check_catalog(loaded_release: Loaded[Release], loaded: Loaded[Catalog]) -> Iterator[Problem]:
    """Every rule between a catalog and its release, in this order."""
    release, catalog, src = loaded_release.model, loaded.model, loaded.source
    yield from _of_its_release(release, loaded)
    yield from _unique_ids(loaded)
    yield from _families_in_domains(release, loaded)
    domains = {d.id: d for d in release.domains}
    families = {f.id: f for f in catalog.families}
    enums = release.enumerations
    allowed = {f: _ids(getattr(enums, e)) for f, e in TASK_ENUMERATIONS.items()}
    for i, task in enumerate(catalog.tasks):
        one = TaskInRelease(i, task, src, domains, families, allowed)
        for rule in TASK_RULES:
            yield from rule(one)
        yield from check_task_profile(release, task, src, i)
        yield from check_task_channels(release, task, src, i)
        yield from check_task_facets_and_sets(release, task, src, i)
    yield from _group_counts(loaded_release, catalog)
    yield from _families_used(loaded)


def _of_its_release(release: Release, loaded: Loaded[Catalog]) -> Iterator[Problem]:
    """A catalog is frozen with its release: it names the release's version (§7.2)."""
    catalog, src = loaded.model, loaded.source
    if catalog.release != release.version:
        yield Problem(
            src.path,
            src.line("release"),
            "release",
            f"{catalog.release!r} differs from the release version {release.version!r}",
        )


def _unique_ids(loaded: Loaded[Catalog]) -> Iterator[Problem]:
    """Families and tasks are each named once (§2.3)."""
    catalog, src = loaded.model, loaded.source
    for what, ids in (
        ("families", [f.id for f in catalog.families]),
        ("tasks", [t.id for t in catalog.tasks]),
    ):
        dupes = repeated(ids)
        if dupes:
            yield Problem(src.path, src.line(what), what, f"repeated ids: {', '.join(dupes)}")


def _families_in_domains(release: Release, loaded: Loaded[Catalog]) -> Iterator[Problem]:
    """A task family belongs to a domain of the release (§2.2, §2.3)."""
    src, domains = loaded.source, {d.id for d in release.domains}
    for i, fam in enumerate(loaded.model.families):
        if fam.domain not in domains:
            yield Problem(
                src.path,
                src.line("families", i, "domain"),
                f"families[{i}].domain",
                f"{fam.domain!r} is not a domain of the release; expected one of {sorted(domains)}",
            )


def _task_domain(one: TaskInRelease) -> Iterator[Problem]:
    """A task sits in a domain of the release and one of its subdivisions: a category of the
    general domain, a dimension of the enterprise domain (§2.2, §2.4.1, §2.5.2)."""
    task, domain = one.task, one.domains.get(one.task.domain)
    if domain is None:
        yield one.problem(
            "domain",
            f"{task.domain!r} is not a domain of the release; "
            f"expected one of {sorted(one.domains)}",
        )
    elif domain.subdivisions and task.subdivision not in _ids(domain.subdivisions):
        yield one.problem(
            "subdivision",
            f"{task.subdivision!r} is not a {domain.subdivision_label} of "
            f"{domain.id}; expected one of {sorted(_ids(domain.subdivisions))}",
        )


def _task_family(one: TaskInRelease) -> Iterator[Problem]:
    """Every task belongs to one declared task family, of the task's own domain (§2.3)."""
    task, family = one.task, one.families.get(one.task.family)
    if family is None:
        yield one.problem("family", f"{task.family!r} is not a declared family")
    elif family.domain != task.domain:
        yield one.problem(
            "family",
            f"family {family.id!r} belongs to domain "
            f"{family.domain!r}, the task to {task.domain!r}",
        )


def _task_enumerations(one: TaskInRelease) -> Iterator[Problem]:
    """The task's metadata names values its release declares (:data:`TASK_ENUMERATIONS`)."""
    for field, allowed in one.allowed.items():
        value = getattr(one.task, field)
        if value is not None and value not in allowed:
            expected = ", ".join(sorted(allowed)) or "none declared in the release"
            yield one.problem(
                field,
                f"{value!r} is not declared in the release's "
                f"enumerations; expected one of: {expected}",
            )


def _task_business_fields(one: TaskInRelease) -> Iterator[Problem]:
    """Key-process chains and functional boundaries feed the business views, which only a
    domain with business_views reports (§4.2): elsewhere they are a warning."""
    task, domain = one.task, one.domains.get(one.task.domain)
    if (
        domain is not None
        and not domain.business_views
        and (task.key_process_chain or task.functional_boundary)
    ):
        yield one.problem(
            "key_process_chain",
            "key-process chains and functional "
            f"boundaries are reported only for domains with business_views; "
            f"{domain.id} has none",
            "warning",
        )


#: The rules on each task, in the order they report.
TASK_RULES: tuple[Callable[[TaskInRelease], Iterator[Problem]], ...] = (
    _task_domain,
    _task_family,
    _task_enumerations,
    _task_business_fields,
)


def _group_counts(loaded_release: Loaded[Release], catalog: Catalog) -> Iterator[Problem]:
    """The catalog holds as many public and held-out tasks as the release declares (§2.3,
    §4.4)."""
    release, rsrc = loaded_release.model, loaded_release.source
    counts: Counter[str] = Counter(t.group for t in catalog.tasks)
    declared = {"public": release.groups.public, "held-out": release.groups.held_out}
    for group, number in declared.items():
        if counts[group] != number:
            yield Problem(
                rsrc.path,
                rsrc.line("groups", group.replace("-", "_")),
                f"groups.{group.replace('-', '_')}",
                f"declares {number} tasks but the catalog has {counts[group]}",
            )


def _families_used(loaded: Loaded[Catalog]) -> Iterator[Problem]:
    """A family without tasks covers no scenario (§2.3): a warning."""
    catalog, src = loaded.model, loaded.source
    used = {t.family for t in catalog.tasks}
    for i, fam in enumerate(catalog.families):
        if fam.id not in used:
            yield Problem(
                src.path,
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
    """Every deep-dive narrative file, then the release's list of deep dives (§5.2)."""
    release = loaded_release.model
    tasks = {t.id: t for t in catalog.model.tasks}
    combinations = {b.bundle.model.combination.id for b in bundles}
    for dive in dives:
        yield from _dive_named_as_its_file(dive)
        yield from _dive_on_a_public_task(release, tasks, dive)
        yield from _dive_listed(release, dive)
        yield from _dive_combinations(release, combinations, dive)
    written = {dive.model.task for dive in dives}
    for i, task_id in enumerate(release.deep_dives):
        yield from _listed_dive(loaded_release, tasks, written, i, task_id)


def _dive_named_as_its_file(dive: Loaded[DeepDive]) -> Iterator[Problem]:
    """A narrative file is named by its task (§5.2)."""
    model, src = dive.model, dive.source
    stem = PurePosixPath(src.path).stem
    if model.task != stem:
        yield Problem(
            src.path,
            src.line("task"),
            "task",
            f"{model.task!r} differs from the file name {stem!r}",
        )


def _held_out(task_id: str) -> str:
    return f"{task_id!r} is held-out; deep dives cover public tasks only (§4.4)"


def _dive_on_a_public_task(
    release: Release, tasks: Mapping[str, Task], dive: Loaded[DeepDive]
) -> Iterator[Problem]:
    """A deep dive analyses a public task of its version: held-out tasks are never shown
    (§4.4, §5.2)."""
    model, src = dive.model, dive.source
    task = tasks.get(model.task)
    if task is None:
        message = f"{model.task!r} is not a task of {release.version}"
        yield Problem(src.path, src.line("task"), "task", message + did_you_mean(model.task, tasks))
    elif task.group != "public":
        yield Problem(src.path, src.line("task"), "task", _held_out(model.task))


def _dive_listed(release: Release, dive: Loaded[DeepDive]) -> Iterator[Problem]:
    """A narrative the release does not list is a warning (§5.2)."""
    if dive.model.task not in release.deep_dives:
        yield Problem(
            dive.source.path,
            None,
            "",
            f"{dive.model.task!r} is not listed in the release's deep_dives",
            "warning",
        )


def _dive_combinations(
    release: Release, combinations: set[str], dive: Loaded[DeepDive]
) -> Iterator[Problem]:
    """A deep dive's key differences are those of the version's combinations (§5.2(2))."""
    model, src = dive.model, dive.source
    for key in sorted(set(model.differences) - combinations):
        yield Problem(
            src.path,
            src.line("differences", key),
            f"differences.{key}",
            f"{key!r} is not a combination of {release.version}; expected one of "
            f"{sorted(combinations)}",
        )


def _listed_dive(
    loaded_release: Loaded[Release],
    tasks: Mapping[str, Task],
    written: set[str],
    i: int,
    task_id: str,
) -> Iterator[Problem]:
    """A listed deep dive names a public task of the version and has its narrative file
    (§4.4, §5.2)."""
    release, rsrc = loaded_release.model, loaded_release.source
    where = (rsrc.path, rsrc.line("deep_dives", i), f"deep_dives[{i}]")
    if task_id not in tasks:
        near = did_you_mean(task_id, tasks)
        yield Problem(*where, f"{task_id!r} is not a task of {release.version}{near}")
    elif tasks[task_id].group != "public":
        yield Problem(*where, _held_out(task_id))
    if task_id not in written:
        folder = PurePosixPath(rsrc.path).parent
        yield Problem(*where, f"no narrative file {folder}/deepdives/{task_id}.yaml")
