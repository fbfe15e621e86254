"""Rules of a release's experiments and of their treatment bundles.

An experiment (``profile.experiments``) measures a condition (e.g. a skill injected, one
level per skill creator) on target tasks held apart from the source tasks the condition was
made from. A treatment bundle (one with a ``condition``) is compared with its baseline: the
ordinary bundle at the same place on the release's axes (without axes: the same HarnessCard
and model name). :func:`check_experiments` reports every problem in one pass: the
declarations (domain, tasks of that domain, sources and targets disjoint, levels once), each
condition (a declared experiment and level), each treatment's baseline (found, one, covering
the targets, with the same configuration fingerprint) and the targets its runs cover.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from generator.check.release import repeated
from generator.disclosure import fingerprint
from generator.disclosure.diff import configuration_fields, diff, field_label
from generator.errors import Problem, did_you_mean
from generator.load import Loaded, LoadedBundle
from generator.models import Catalog, HarnessCard, Release
from generator.models.views import Transfer
from generator.protocol.experiments import baselines, experiment_of, place

#: Differing fields named in a fingerprint mismatch, at most.
_SHOWN = 6


def check_experiments(
    loaded: Loaded[Release],
    catalog: Loaded[Catalog] | None,
    bundles: Sequence[LoadedBundle],
    cards: Mapping[str, Loaded[HarnessCard]],
) -> Iterator[Problem]:
    """Every rule of the release's experiments and of its treatment bundles, in one pass."""
    yield from _declarations(loaded, catalog)
    yield from _views(loaded)
    release = loaded.model
    found = baselines(release, [b.bundle.model for b in bundles])
    by_id = {b.bundle.model.combination.id: b for b in bundles}
    for b in bundles:
        if b.bundle.model.condition is not None:
            candidates = [by_id[c.combination.id] for c in found[b.bundle.model.combination.id]]
            yield from _treatment(release, b, candidates, cards)
    yield from _levels_once(release, bundles)


def _declarations(loaded: Loaded[Release], catalog: Loaded[Catalog] | None) -> Iterator[Problem]:
    """Each experiment: its domain is the release's, its sources and targets are tasks of
    that domain, none is both, and its ids (levels, sources, targets) are each given once."""
    release, src = loaded.model, loaded.source
    domains = [d.id for d in release.domains]
    tasks = {} if catalog is None else {t.id: t.domain for t in catalog.model.tasks}
    for i, e in enumerate(release.profile.experiments):

        def problem(field: str, message: str, i: int = i) -> Problem:
            line = src.line("profile", "experiments", i, field)
            return Problem(src.path, line, f"profile.experiments[{i}].{field}", message)

        if e.domain not in domains:
            yield problem(
                "domain",
                f"{e.domain!r} is not a domain of the release; expected one of {domains}"
                + did_you_mean(e.domain, domains),
            )
        for field, ids in (("sources", e.sources), ("targets", e.targets)):
            if repeated(ids):
                yield problem(field, f"repeated task ids: {repeated(ids)}")
            if catalog is None:
                continue
            unknown = [t for t in ids if t not in tasks]
            if unknown:
                yield problem(field, f"{unknown} are not tasks of the catalog")
            elsewhere = sorted({t for t in ids if t in tasks and tasks[t] != e.domain})
            if elsewhere and e.domain in domains:
                yield problem(field, f"{elsewhere} are not tasks of the domain {e.domain!r}")
        overlap = sorted(set(e.sources) & set(e.targets))
        if overlap:
            yield problem(
                "targets",
                f"{overlap} are both sources and targets; an experiment measures its condition "
                "only on tasks held apart from those it was made from (sources and targets "
                "are disjoint)",
            )
        levels = [v.id for v in e.levels]
        if repeated(levels):
            yield problem("levels", f"repeated level ids: {repeated(levels)}")
    named = repeated([e.id for e in release.profile.experiments])
    if named:
        line = src.line("profile", "experiments")
        yield Problem(src.path, line, "profile.experiments", f"repeated ids: {named}")


def _views(loaded: Loaded[Release]) -> Iterator[Problem]:
    """A transfer view shows an experiment the release declares."""
    release, src = loaded.model, loaded.source
    declared = [e.id for e in release.profile.experiments]
    for i, view in enumerate(release.profile.views):
        if isinstance(view, Transfer) and view.experiment not in declared:
            yield Problem(
                src.path,
                src.line("profile", "views", i, "experiment"),
                f"profile.views[{i}].experiment",
                f"{view.experiment!r} is not an experiment of the release; expected one of "
                f"{declared}" + did_you_mean(view.experiment, declared),
            )


def _treatment(
    release: Release,
    loaded: LoadedBundle,
    candidates: Sequence[LoadedBundle],
    cards: Mapping[str, Loaded[HarnessCard]],
) -> Iterator[Problem]:
    """A treatment's condition is declared, it has one baseline, its runs and the baseline's
    cover its targets, and it differs from the baseline only in the condition."""
    bundle, src = loaded.bundle.model, loaded.bundle.source
    assert bundle.condition is not None
    declared = [e.id for e in release.profile.experiments]
    experiment = experiment_of(release, bundle)
    if experiment is None:
        yield Problem(
            src.path,
            src.line("condition", "experiment"),
            "condition.experiment",
            f"{bundle.condition.experiment!r} is not an experiment of the release; expected "
            f"one of {declared}" + did_you_mean(bundle.condition.experiment, declared),
        )
        return
    levels = [v.id for v in experiment.levels]
    if bundle.condition.level not in levels:
        yield Problem(
            src.path,
            src.line("condition", "level"),
            "condition.level",
            f"{bundle.condition.level!r} is not a level of the experiment {experiment.id!r}; "
            f"expected one of {levels}" + did_you_mean(bundle.condition.level, levels),
        )
    missing = _missing(loaded, experiment.targets)
    if missing:
        yield Problem(
            loaded.runs_path,
            None,
            "task",
            f"no run of the targets {missing}; a treatment bundle runs every target task of "
            f"its experiment {experiment.id!r} (and only those)",
        )
    where = (src.path, src.line("condition"), "condition")
    at = dict(zip([a.id for a in release.profile.axes], place(release, bundle), strict=False))
    said = at or "the same HarnessCard and model name"
    if not candidates:
        yield Problem(
            *where,
            f"no baseline bundle: no bundle without a condition sits at its place ({said}); "
            "a treatment is measured against its baseline",
        )
        return
    if len(candidates) > 1:
        names = sorted(c.bundle.model.combination.id for c in candidates)
        yield Problem(*where, f"several baseline bundles at its place ({said}): {names}")
        return
    base = candidates[0]
    name = base.bundle.model.combination.id
    uncovered = _missing(base, experiment.targets)
    if uncovered:
        yield Problem(
            *where,
            f"its baseline {name!r} has no run of the targets {uncovered}; the baseline must "
            "cover every target task",
        )
    yield from _same_configuration(loaded, base, cards)


def _missing(loaded: LoadedBundle, targets: Sequence[str]) -> list[str]:
    """The targets the bundle has no run of."""
    ran = set(loaded.runs.runs["task"].astype(str))
    return [t for t in targets if t not in ran]


def _same_configuration(
    treatment: LoadedBundle, base: LoadedBundle, cards: Mapping[str, Loaded[HarnessCard]]
) -> Iterator[Problem]:
    """The treatment's configuration fingerprint is its baseline's: they differ only in
    the condition (which the fingerprint does not cover)."""
    t, b = treatment.bundle.model, base.bundle.model
    t_card = cards.get(t.combination.harnesscard)
    b_card = cards.get(b.combination.harnesscard)
    if t_card is None or b_card is None:
        return  # the missing card is reported by the bundle's own checks
    mine, theirs = fingerprint(t_card.model, t), fingerprint(b_card.model, b)
    if mine == theirs:
        return
    differing = diff(
        configuration_fields(b_card.model, b), configuration_fields(t_card.model, t)
    ).differing
    shown = "; ".join(
        f"{field_label(k)}: {ours!r} in the treatment, {base_value!r} in the baseline"
        for k, base_value, ours in differing[:_SHOWN]
    )
    more = f"; and {len(differing) - _SHOWN} more" if len(differing) > _SHOWN else ""
    src = treatment.bundle.source
    yield Problem(
        src.path,
        src.line("condition"),
        "condition",
        f"differs from its baseline {b.combination.id!r} in more than the condition: "
        f"configuration fingerprint {mine} against {theirs} ({shown or 'fields'}{more}); "
        "a treatment and its baseline differ only in the condition",
    )


def _levels_once(release: Release, bundles: Sequence[LoadedBundle]) -> Iterator[Problem]:
    """Without axes, a place holds one treatment per level (with axes, a combination's place
    already includes its condition: :func:`generator.check.profile.check_axes_once`)."""
    if release.profile.axes:
        return
    seen: dict[tuple[str, ...], str] = {}
    for loaded in sorted(bundles, key=lambda b: b.bundle.model.combination.id):
        bundle = loaded.bundle.model
        if bundle.condition is None:
            continue
        key = (*place(release, bundle), bundle.condition.experiment, bundle.condition.level)
        if key in seen:
            src = loaded.bundle.source
            yield Problem(
                src.path,
                src.line("condition"),
                "condition",
                f"the same condition at the same place as {seen[key]!r}; a baseline has one "
                "treatment per level",
            )
        seen.setdefault(key, bundle.combination.id)
