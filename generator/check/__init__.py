"""Stage 2, check: rules that span files (references, versions, completeness)."""

from __future__ import annotations

from generator.check.bundles import check_bundle, check_card
from generator.check.catalog import check_catalog, check_deep_dives
from generator.check.experiments import check_experiments
from generator.check.factors import check_factors
from generator.check.profile import check_axes_once, check_profile
from generator.check.raters import check_rater_names, check_raters
from generator.check.release import check_one_benchmark, check_release
from generator.check.runs import catalog_items, check_runs
from generator.errors import Problem
from generator.load import Inputs


def check_inputs(inputs: Inputs) -> list[Problem]:
    """Every cross-file problem of the loaded inputs (parts that failed to load are skipped)."""
    problems: list[Problem] = []
    for card_id, card in sorted(inputs.cards.items()):
        problems += check_card(card_id, card)
    problems += check_one_benchmark([v.release for v in inputs.releases if v.release is not None])
    tasks = _tasks_by_version(inputs)
    for version in inputs.releases:
        if version.cached:
            continue  # checked by the build that made its pages; its files have not changed
        release = version.release
        if release is not None:
            problems += check_release(version.folder, release)
            problems += check_profile(release)
        catalog = version.catalog
        if release is not None and catalog is not None:
            problems += check_catalog(release, catalog)
            problems += check_deep_dives(release, catalog, version.deep_dives, version.bundles)
        if release is not None and not version.bundles:
            problems.append(
                Problem(
                    release.source.path,
                    None,
                    "",
                    "release has no result bundles (results/<version>/bundles/<combination>/)",
                    "warning",
                )
            )
        if release is not None:
            problems += check_factors(release, version.bundles)
            problems += check_axes_once(release.model, version.bundles)
            problems += check_experiments(release, catalog, version.bundles, inputs.cards)
        items = catalog_items(catalog.model) if catalog is not None and version.bundles else None
        for bundle in version.bundles:
            if release is None:
                continue
            problems += check_bundle(release, bundle, inputs.cards, inputs.broken_cards)
            if catalog is not None:
                elsewhere = {t: v for t, v in tasks.items() if v != release.model.version}
                problems += check_runs(release.model, catalog.model, bundle, items, elsewhere)
                problems += check_raters(release.model, catalog.model, bundle)
        problems += check_rater_names(version.bundles)
    return problems


def _tasks_by_version(inputs: Inputs) -> dict[str, str]:
    """Each task id of the loaded catalogs with the version it belongs to (the newest, when
    versions share an id: those are never reported as another version's)."""
    out: dict[str, str] = {}
    for version in sorted(inputs.releases, key=lambda v: v.folder):
        if version.catalog is not None and version.release is not None:
            out.update(
                dict.fromkeys(
                    (t.id for t in version.catalog.model.tasks), version.release.model.version
                )
            )
    return out


__all__ = ["check_inputs"]
