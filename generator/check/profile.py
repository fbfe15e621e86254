"""Rules of a release's declared profile: what it declares refers to what it declares.

:func:`check_profile` (one release) reads as its rules: metrics, ids declared once, each
domain's outcome, facets and cells, the enumerations its required task fields draw from, and
each view. :func:`check_task_profile` holds one task to the profile (its fields, facets and
scoring metric); :func:`check_bundle_profile` one bundle (its axes, tags and carried state).
A release that declares nothing new is Lingee Bench, and passes as before (§2.6, §4.2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from generator.check.facets import check_overlapping_facets, check_sets_declared
from generator.check.release import repeated
from generator.check.views import check_view
from generator.errors import Problem, did_you_mean
from generator.load import Loaded, LoadedBundle
from generator.load.source import Source
from generator.models import Release, Task
from generator.models.catalog import JudgeItem, RuleItem
from generator.models.profile import BUSINESS_METRICS, CORE_METRICS, KNOWN_METRICS

Say = Callable[[str, str], Problem]

#: A required task field drawing from an enumeration → that enumeration (§2.5.2).
FIELD_ENUMERATIONS = {
    "scenario_category": "scenario_categories",
    "operation_type": "operation_types",
    "difficulty": "difficulty_tiers",
    "risk_level": "risk_levels",
}


def check_profile(loaded: Loaded[Release]) -> Iterator[Problem]:
    """Every rule of one release's profile, in this order."""
    release, src = loaded.model, loaded.source
    yield from _metrics(release, src)
    yield from _profile_ids(release, src)
    yield from _domains(release, src)
    yield from check_overlapping_facets(release, src)
    yield from check_sets_declared(release, src)
    yield from _enumerations_for_fields(release, src)
    for i, view in enumerate(release.profile.views):
        for where, message in check_view(release, view):
            line = src.line("profile", "views", i, where)
            yield Problem(src.path, line, f"profile.views[{i}].{where}", message)


def _metrics(release: Release, src: Source) -> Iterator[Problem]:
    """The engine's core metrics are declared (each with its direction, §4.2); the business
    views' where a domain reports them; any other id is a metric the runs measure."""
    declared = [m.id for m in release.metrics]
    needed = [*CORE_METRICS]
    if any(d.business_views for d in release.domains):
        needed += BUSINESS_METRICS
    missing = [m for m in needed if m not in declared]
    unknown = [
        m.id for m in release.metrics if m.id not in KNOWN_METRICS and not (m.measured or m.of)
    ]
    measured_known = [m.id for m in release.metrics if m.id in KNOWN_METRICS and m.measured]
    unmeasured_money = [m.id for m in release.metrics if m.currency and not m.measured]
    currencies = sorted({m.currency for m in release.metrics if m.currency})
    found = (
        (missing, f"direction not declared for {missing}; every computed metric needs one"),
        (
            unknown,
            f"unknown metric ids {unknown}; expected ids from: {', '.join(KNOWN_METRICS)}, "
            "'measured: true' for a metric each run records in its measures, or "
            "'of: task_score' for the Task Score under another title and scale",
        ),
        (measured_known, f"{measured_known} are computed by the engine, not measured"),
        (
            unmeasured_money,
            f"{unmeasured_money} are money: each run records what it cost, so declare them "
            "'measured: true'",
        ),
        (
            currencies[1:],
            f"money in several currencies {currencies}: no figure combines currencies, so a "
            "release declares its money in one",
        ),
        (repeated(declared), f"repeated metric ids: {repeated(declared)}"),
    )
    for wrong, message in found:
        if wrong:
            yield Problem(src.path, src.line("metrics"), "metrics", message)


def _profile_ids(release: Release, src: Source) -> Iterator[Problem]:
    """Facets (and each facet's values), axes, tags, dimensions and views are each declared
    once."""
    profile = release.profile
    lists: list[tuple[tuple[str | int, ...], list[str]]] = [
        (("facets",), [f.id for f in profile.facets]),
        (("axes",), [a.id for a in profile.axes]),
        (("tags",), [t.id for t in profile.tags]),
        (("dimensions",), [d.id for d in profile.dimensions]),
        (("rule_classes",), [c.id for c in profile.rule_classes]),
        (("channels",), [c.id for c in profile.channels]),
        (("views",), [v.id for v in profile.views]),
    ]
    lists += [
        (("facets", i, "values"), [v.id for v in f.values]) for i, f in enumerate(profile.facets)
    ]
    for where, ids in lists:
        dupes = repeated(ids)
        if dupes:
            field = "profile." + ".".join(f"[{p}]" if isinstance(p, int) else p for p in where)
            yield Problem(
                src.path,
                src.line("profile", *where),
                field.replace(".[", "["),
                f"repeated ids: {dupes}",
            )


def _domains(release: Release, src: Source) -> Iterator[Problem]:
    """A domain scores in one outcome metric: the task score, or a measured metric; it is
    cut by declared facets, and its cells by some of those (§4.2)."""
    allowed = {m.id for m in release.metrics if m.measured or m.of} | {"task_score"}
    facets = {f.id for f in release.profile.facets}
    for i, domain in enumerate(release.domains):
        at = ("domains", i)
        if domain.outcome not in allowed:
            yield Problem(
                src.path,
                src.line(*at, "outcome"),
                f"domains[{i}].outcome",
                f"{domain.outcome!r} is neither 'task_score', a metric 'of: task_score' nor "
                f"a measured metric of the release; expected one of {sorted(allowed)}",
            )
        for j, facet in enumerate(domain.facets):
            if facet not in facets:
                yield Problem(
                    src.path,
                    src.line(*at, "facets", j),
                    f"domains[{i}].facets[{j}]",
                    f"{facet!r} is not a facet of the release{did_you_mean(facet, facets)}",
                )
        stray = [f for f in domain.aggregate.facets if f not in domain.facets]
        if stray:
            yield Problem(
                src.path,
                src.line(*at, "aggregate", "facets"),
                f"domains[{i}].aggregate.facets",
                f"{stray} do not cut {domain.id}; cells are cut by the domain's own facets "
                f"{list(domain.facets)}",
            )


def _enumerations_for_fields(release: Release, src: Source) -> Iterator[Problem]:
    """A task field the release requires draws from an enumeration it declares (§2.5.2)."""
    for field, name in FIELD_ENUMERATIONS.items():
        if field in release.profile.task_fields and not getattr(release.enumerations, name):
            yield Problem(
                src.path,
                src.line("enumerations"),
                f"enumerations.{name}",
                f"empty, but every task must give a {field} (profile.task_fields); declare "
                f"the values, or leave {field} out of task_fields",
            )


def check_task_profile(release: Release, task: Task, src: Source, index: int) -> Iterator[Problem]:
    """One task against the profile: the fields it must give, its facets and the metric it
    scores in (its domain's outcome: no aggregate over different measures, §4.2)."""

    def problem(field: str, message: str) -> Problem:
        return Problem(
            src.path, src.line("tasks", index, field), f"tasks[{index}].{field}", message
        )

    for field in release.profile.task_fields:
        if getattr(task, field) is None:
            yield problem(
                field, "missing: this release requires it of every task (profile.task_fields)"
            )
    domain = release.find_domain(task.domain)
    if domain is None:
        return  # reported by the catalog's own rules
    if not domain.subdivisions and task.subdivision is not None:
        yield problem("subdivision", f"{domain.id} declares no subdivisions; remove it")
    if domain.subdivisions and task.subdivision is None:
        allowed = [s.id for s in domain.subdivisions]
        yield problem(
            "subdivision",
            f"missing: a {domain.subdivision_label} of {domain.id}; expected one of {allowed}",
        )
    facets = {f.id: f for f in release.profile.facets}
    for facet in domain.facets:
        value = task.facets.get(facet)
        allowed = [v.id for v in facets[facet].values] if facet in facets else []
        if value is None:
            yield problem(
                "facets",
                f"no value for {facet!r}, which cuts {domain.id}; expected one of {allowed}",
            )
        elif facet in facets:
            for one in (value,) if isinstance(value, str) else value:
                if one not in allowed:
                    yield problem(
                        "facets", f"{one!r} is not a value of {facet!r}; expected one of {allowed}"
                    )
    for facet in sorted(set(task.facets) - set(domain.facets)):
        yield problem(
            "facets", f"{facet!r} does not cut {domain.id}; its facets: {list(domain.facets)}"
        )
    yield from _task_metric(release, task, domain.outcome, problem)


def _task_metric(release: Release, task: Task, outcome: str, problem: Say) -> Iterator[Problem]:
    """A measure task scores in its domain's measured outcome, a value in its range; every
    other task in the task score."""
    scoring = task.scoring
    if scoring.mode == "measure":
        if scoring.measure != outcome:
            yield problem(
                "scoring",
                f"measure {scoring.measure!r} differs from {task.domain}'s outcome {outcome!r}; "
                "every task of a domain scores in its one outcome metric (no aggregate over "
                "different measures or units)",
            )
        metric = next((m for m in release.metrics if m.id == scoring.measure), None)
        value = scoring.failure_value
        if metric is not None and value is not None:
            bounds = metric.bounds
            if (bounds.low is not None and value < bounds.low) or (
                bounds.high is not None and value > bounds.high
            ):
                yield problem("scoring", f"failure_value {value} lies outside {metric.id}'s range")
    elif release.outcome(task.domain).measured:
        yield problem(
            "scoring",
            f"mode {scoring.mode!r}, but {task.domain} scores in the measure {outcome!r}; "
            "expected mode 'measure' (no aggregate over different measures or units)",
        )
    declared: tuple[tuple[str, Sequence[RuleItem | JudgeItem], str, set[str], str], ...] = (
        (
            "rule item",
            scoring.rule_items,
            "rule_class",
            ids(release.profile.rule_classes),
            "rule class",
        ),
        (
            "judge item",
            scoring.judge_items,
            "dimension",
            ids(release.profile.dimensions),
            "dimension",
        ),
    )
    for kind, items, field, known, what in declared:
        for item in items:
            named = getattr(item, field)
            if named is not None and named not in known:
                yield problem(
                    "scoring",
                    f"{kind} {item.id}: {named!r} is not a {what} of the release"
                    + did_you_mean(named, known),
                )


def ids(values: Sequence[Any]) -> set[str]:
    """The ids of declared values."""
    return {str(v.id) for v in values}


def check_bundle_profile(release: Release, loaded: LoadedBundle) -> Iterator[Problem]:
    """A bundle sits on the release's axes, carries its tags, and carries state across tasks
    only where the release allows it (§4.2(3))."""
    bundle, src = loaded.bundle.model, loaded.bundle.source
    combo = bundle.combination
    axes = [a.id for a in release.profile.axes]
    missing = [a for a in axes if a not in combo.axes]
    extra = sorted(set(combo.axes) - set(axes))
    where = (src.path, src.line("combination", "axes"), "combination.axes")
    if missing:
        yield Problem(*where, f"no value on the release's axes {missing}")
    if extra:
        yield Problem(*where, f"{extra} are not axes of the release; expected {axes or 'none'}")
    tags = {t.id for t in release.profile.tags}
    for tag in combo.tags:
        if tag not in tags:
            line = src.line("combination", "tags")
            yield Problem(
                src.path, line, "combination.tags", f"{tag!r} is not a tag of the release"
            )
    currency = next((m.currency for m in release.metrics if m.currency), None)
    if currency is not None and (bundle.pricing is None or bundle.pricing.currency != currency):
        given = "none" if bundle.pricing is None else f"prices in {bundle.pricing.currency}"
        yield Problem(
            src.path,
            src.line("pricing"),
            "pricing",
            f"{given}; this release counts money in {currency}, so every bundle discloses its "
            f"pricing in {currency}: currency, source and date",
        )
    if bundle.carried_state is not None and release.profile.carried_state == "refused":
        yield Problem(
            src.path,
            src.line("carried_state"),
            "carried_state",
            "this method carries state across tasks, but the release's runs must be independent "
            "(§4.2(3)); the release refuses such bundles (profile.carried_state: refused)",
        )


def check_axes_once(release: Release, bundles: Sequence[LoadedBundle]) -> Iterator[Problem]:
    """Two combinations never share a place on the release's axes (a grid cell holds one);
    a treatment bundle's place includes its condition, so it shares its baseline's axes."""
    if not release.profile.axes:
        return
    seen: dict[tuple[str, ...], str] = {}
    for loaded in sorted(bundles, key=lambda b: b.bundle.model.combination.id):
        combo = loaded.bundle.model.combination
        condition = loaded.bundle.model.condition
        key = tuple(combo.axes.get(a.id, "") for a in release.profile.axes)
        key += () if condition is None else (condition.experiment, condition.level)
        if key in seen:
            src = loaded.bundle.source
            yield Problem(
                src.path,
                src.line("combination", "axes"),
                "combination.axes",
                f"{dict(combo.axes)} is also the place of {seen[key]!r}; each combination "
                "has a place of its own on the release's axes",
            )
        seen.setdefault(key, combo.id)
