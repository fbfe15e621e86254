"""Rules of facets whose values overlap and of task sets (§4.2, §4.4).

A facet that allows several values per task (``multi``: e.g. the deliverable types a task asks
for) is no partition: it cuts no cells and pairs with no other facet. Every other facet holds
one value per task. A domain's task sets (e.g. Lite and Full) are named by each of its tasks,
and a bundle leaves out only sets its domain declares.
"""

from __future__ import annotations

from collections.abc import Iterator

from generator.check.release import repeated
from generator.errors import Problem, did_you_mean
from generator.load import LoadedBundle
from generator.load.source import Source
from generator.models import Release, Task
from generator.models.views import Board, Sets


def check_overlapping_facets(release: Release, src: Source) -> Iterator[Problem]:
    """A facet whose values overlap cuts no cells and is paired with no other facet: the
    parts of cells and pairs must not overlap (§4.2)."""
    multi = {f.id for f in release.profile.facets if f.multi}
    if not multi:
        return
    for i, domain in enumerate(release.domains):
        named = sorted(multi & set(domain.aggregate.facets))
        if named:
            yield Problem(
                src.path,
                src.line("domains", i, "aggregate", "facets"),
                f"domains[{i}].aggregate.facets",
                f"{named} allow several values per task, so their values overlap and cannot "
                "be cells; expected facets that hold one value per task",
            )
    for i, view in enumerate(release.profile.views):
        if not isinstance(view, Board):
            continue
        for j, row in enumerate(view.rows):
            if len(row.facets) > 1 and multi & set(row.facets):
                yield Problem(
                    src.path,
                    src.line("profile", "views", i, "rows", j, "facets"),
                    f"profile.views[{i}].rows[{j}].facets",
                    f"{sorted(multi & set(row.facets))} allow several values per task and "
                    "are shown one value at a time; expected a row with that facet alone",
                )


def check_task_facets_and_sets(
    release: Release, task: Task, src: Source, index: int
) -> Iterator[Problem]:
    """A facet that allows one value gets one, a facet that allows several gets each at most
    once; the task names the sets of its domain it belongs to, where the domain has sets."""

    def problem(field: str, message: str) -> Problem:
        return Problem(
            src.path, src.line("tasks", index, field), f"tasks[{index}].{field}", message
        )

    multi = {f.id for f in release.profile.facets if f.multi}
    for facet, value in task.facets.items():
        if not isinstance(value, str) and facet not in multi:
            yield problem("facets", f"{facet!r} holds one value per task; got {list(value)}")
        elif not isinstance(value, str) and (not value or repeated(list(value))):
            yield problem("facets", f"{facet!r}: expected its values once each; got {list(value)}")
    domain = release.find_domain(task.domain)
    if domain is None:
        return
    sets = [s.id for s in domain.task_sets]
    if sets and not task.sets:
        yield problem(
            "sets", f"missing: {domain.id} publishes its task sets {sets}; name the task's"
        )
    for one in task.sets:
        if one not in sets:
            expected = f"one of {sets}" if sets else f"none: {domain.id} declares no task sets"
            yield problem(
                "sets",
                f"{one!r} is not a task set of {domain.id}; expected {expected}"
                + did_you_mean(one, sets),
            )
    if repeated(list(task.sets)):
        yield problem("sets", f"repeated sets: {repeated(list(task.sets))}")


def check_sets_left_out(release: Release, loaded: LoadedBundle) -> Iterator[Problem]:
    """A bundle leaves out only task sets its domain declares."""
    bundle, src = loaded.bundle.model, loaded.bundle.source
    domains = {d.id: d for d in release.domains}
    for i, left in enumerate(bundle.not_covered):
        domain = domains.get(left.domain)
        if left.task_set is None or domain is None:
            continue
        sets = [s.id for s in domain.task_sets]
        if left.task_set not in sets:
            yield Problem(
                src.path,
                src.line("not_covered", i, "task_set"),
                f"not_covered[{i}].task_set",
                f"{left.task_set!r} is not a task set of {domain.id}; expected one of {sets}"
                + did_you_mean(left.task_set, sets),
            )


def check_sets_declared(release: Release, src: Source) -> Iterator[Problem]:
    """Each domain declares each of its task sets once; a sets view compares a domain that
    publishes two sets or more."""
    domains = {d.id: d for d in release.domains}
    for i, view in enumerate(release.profile.views):
        if (
            isinstance(view, Sets)
            and view.domain in domains
            and len(domains[view.domain].task_sets) < 2
        ):
            yield Problem(
                src.path,
                src.line("profile", "views", i, "domain"),
                f"profile.views[{i}].domain",
                f"{view.domain} publishes fewer than two task sets; a sets view compares a "
                "domain's task sets",
            )
    for i, domain in enumerate(release.domains):
        twice = repeated(s.id for s in domain.task_sets)
        if twice:
            yield Problem(
                src.path,
                src.line("domains", i, "task_sets"),
                f"domains[{i}].task_sets",
                f"repeated ids: {twice}",
            )
