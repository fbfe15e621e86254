"""Rules between a result bundle, its release and the HarnessCards.

:func:`check_bundle` reads as its rules, each a small function below: the bundle belongs to
its release and folder, names a HarnessCard (and one of its modes) that meets the release's
disclosure floor, was run as the release prescribes, declares real scopes as not covered,
and says whether it may be published.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from generator.check.channels import check_bundle_channels
from generator.check.facets import check_sets_left_out
from generator.check.profile import check_bundle_profile
from generator.check.release import repeated
from generator.disclosure import below_floor
from generator.errors import Problem
from generator.load import Loaded, LoadedBundle
from generator.models import HarnessCard, Release


def check_card(card_id: str, loaded: Loaded[HarnessCard]) -> Iterator[Problem]:
    """A HarnessCard is named by its file and declares each mode once (§5.1.2)."""
    card, src = loaded.model, loaded.source
    if card.id != card_id:
        yield Problem(
            src.path, src.line("id"), "id", f"{card.id!r} differs from the file name {card_id!r}"
        )
    dupes = repeated(m.id for m in card.modes)
    if dupes:
        yield Problem(src.path, src.line("modes"), "modes", f"repeated mode ids: {dupes}")


def check_bundle(
    loaded_release: Loaded[Release],
    loaded: LoadedBundle,
    cards: Mapping[str, Loaded[HarnessCard]],
    broken_cards: frozenset[str] = frozenset(),
) -> Iterator[Problem]:
    """Every rule between one bundle, its release and the cards, in this order."""
    release = loaded_release.model
    named = loaded.bundle.model.combination.harnesscard
    card = cards.get(named)
    yield from _in_its_release(release, loaded)
    yield from _named_as_its_folder(loaded)
    if card is None and named not in broken_cards:  # a broken card is reported where it is
        yield from _card_not_found(loaded, cards)
    if card is not None:
        yield from _mode_of_the_card(loaded, card.model)
        yield from _card_meets_the_floor(release, loaded, card.model)
    for rule in RUN_RULES:
        yield from rule(release, loaded)
    yield from check_bundle_profile(release, loaded)
    yield from check_bundle_channels(release, loaded)
    yield from check_sets_left_out(release, loaded)


def _in_its_release(release: Release, loaded: LoadedBundle) -> Iterator[Problem]:
    """A bundle belongs to exactly one version, the one it sits in (§5.1.3, §7.2)."""
    bundle, src = loaded.bundle.model, loaded.bundle.source
    if bundle.release != release.version:
        yield Problem(
            src.path,
            src.line("release"),
            "release",
            f"{bundle.release!r} differs from the release it sits in "
            f"({release.version!r}); a bundle belongs to exactly one version",
        )


def _named_as_its_folder(loaded: LoadedBundle) -> Iterator[Problem]:
    """A combination is named by its bundle folder (§5.1.1)."""
    combo, src = loaded.bundle.model.combination, loaded.bundle.source
    if combo.id != loaded.folder:
        yield Problem(
            src.path,
            src.line("combination", "id"),
            "combination.id",
            f"{combo.id!r} differs from the bundle folder name {loaded.folder!r}",
        )


def _card_not_found(
    loaded: LoadedBundle, cards: Mapping[str, Loaded[HarnessCard]]
) -> Iterator[Problem]:
    """Every evaluated combination files its HarnessCard (§5.1.2)."""
    combo, src = loaded.bundle.model.combination, loaded.bundle.source
    yield Problem(
        src.path,
        src.line("combination", "harnesscard"),
        "combination.harnesscard",
        f"no HarnessCard harnesscards/{combo.harnesscard}.yaml "
        f"(available: {', '.join(sorted(cards)) or 'none'})",
    )


def _mode_of_the_card(loaded: LoadedBundle, card: HarnessCard) -> Iterator[Problem]:
    """A combination picks one of its card's modes exactly when the card declares modes, so
    its score traces to one configuration (§5.1.2, §5.1.3)."""
    combo, src = loaded.bundle.model.combination, loaded.bundle.source
    modes = sorted(m.id for m in card.modes)
    line = src.line("combination", "harness_mode")
    if modes and combo.harness_mode not in modes:
        shown = "missing" if combo.harness_mode is None else repr(combo.harness_mode)
        yield Problem(
            src.path,
            line,
            "combination.harness_mode",
            f"{shown}; card {card.id!r} declares modes {modes}, pick one",
        )
    if not modes and combo.harness_mode is not None:
        yield Problem(
            src.path,
            line,
            "combination.harness_mode",
            f"{combo.harness_mode!r}, but card {card.id!r} declares no modes",
        )


def _card_meets_the_floor(
    release: Release, loaded: LoadedBundle, card: HarnessCard
) -> Iterator[Problem]:
    """A card that withholds (or did not record) a field of the release's disclosure floor is
    a warning: its scores are labelled as below the floor (§5.1.2)."""
    src = loaded.bundle.source
    withheld = below_floor(card, release.disclosure_floor)
    if withheld:
        yield Problem(
            src.path,
            src.line("combination", "harnesscard"),
            "combination.harnesscard",
            f"card {card.id!r} does not disclose {', '.join(withheld)}, which the "
            f"{release.version} disclosure floor requires disclosed; its scores "
            "are labelled as below the floor",
            "warning",
        )


def _prescribed_runs(release: Release, loaded: LoadedBundle) -> Iterator[Problem]:
    """Every task runs the release's prescribed number of independent times (§4.2(3),
    §5.1.3)."""
    config, src = loaded.bundle.model.configuration, loaded.bundle.source
    if config.runs_per_task != release.runs_per_task:
        yield Problem(
            src.path,
            src.line("configuration", "runs_per_task"),
            "configuration.runs_per_task",
            f"{config.runs_per_task} differs from the release's prescribed {release.runs_per_task}",
        )


def _release_components(release: Release, loaded: LoadedBundle) -> Iterator[Problem]:
    """Runs are scored with the release's pipeline components, each at its version (§7.2)."""
    src = loaded.bundle.source
    ours = loaded.bundle.model.configuration.pipeline_components.model_dump()
    theirs = release.components.model_dump()
    for name in theirs:
        if ours[name] != theirs[name]:
            yield Problem(
                src.path,
                src.line("configuration", "pipeline_components", name),
                f"configuration.pipeline_components.{name}",
                f"{ours[name]!r} differs from the release's {theirs[name]!r}; runs "
                "must be scored with the release's components (§7.2)",
            )


def _not_covered_scopes(release: Release, loaded: LoadedBundle) -> Iterator[Problem]:
    """A scope marked as not covered is a domain (or one of its subdivisions) of the release,
    named once (§5.3: not covered, with reasons, never scored as zero)."""
    src = loaded.bundle.source
    domains = {d.id: d for d in release.domains}
    seen: set[tuple[str, str | None]] = set()
    for i, scope in enumerate(loaded.bundle.model.not_covered):
        field = f"not_covered[{i}]"
        domain = domains.get(scope.domain)
        if domain is None:
            yield Problem(
                src.path,
                src.line("not_covered", i, "domain"),
                f"{field}.domain",
                f"{scope.domain!r} is not a domain; expected one of {sorted(domains)}",
            )
        elif scope.subdivision is not None and scope.subdivision not in {
            s.id for s in domain.subdivisions
        }:
            yield Problem(
                src.path,
                src.line("not_covered", i, "subdivision"),
                f"{field}.subdivision",
                f"{scope.subdivision!r} is not a {domain.subdivision_label} of {domain.id}",
            )
        key = (scope.domain, scope.subdivision)
        if key in seen:
            yield Problem(src.path, src.line("not_covered", i), field, "repeats an earlier scope")
        seen.add(key)


def _consent(release: Release, loaded: LoadedBundle) -> Iterator[Problem]:
    """Results are not published without the submitter's consent (§7.2): a notice."""
    src = loaded.bundle.source
    if not loaded.bundle.model.consent.granted:
        yield Problem(
            src.path,
            src.line("consent", "granted"),
            "consent.granted",
            "false: not published (§7.2) — no page, table, chart, download or search entry "
            "will show this combination or its runs",
            "notice",
        )


#: The rules on how the bundle was run and what it covers, after those on its card.
RUN_RULES: tuple[Callable[[Release, LoadedBundle], Iterator[Problem]], ...] = (
    _prescribed_runs,
    _release_components,
    _not_covered_scopes,
    _consent,
)
