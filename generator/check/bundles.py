"""Rules between a result bundle, its release and the HarnessCards."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from generator.check.release import repeated
from generator.disclosure import below_floor
from generator.errors import Problem
from generator.load import Loaded, LoadedBundle
from generator.models import HarnessCard, Release


def check_card(card_id: str, loaded: Loaded[HarnessCard]) -> Iterator[Problem]:
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
    release = loaded_release.model
    bundle, src = loaded.bundle.model, loaded.bundle.source
    path = src.path
    combo = bundle.combination
    if bundle.release != release.version:
        yield Problem(
            path,
            src.line("release"),
            "release",
            f"{bundle.release!r} differs from the release it sits in "
            f"({release.version!r}); a bundle belongs to exactly one version",
        )
    if combo.id != loaded.folder:
        yield Problem(
            path,
            src.line("combination", "id"),
            "combination.id",
            f"{combo.id!r} differs from the bundle folder name {loaded.folder!r}",
        )
    card = cards.get(combo.harnesscard)
    if card is None and combo.harnesscard in broken_cards:
        pass  # the card's own problems are reported where it is
    elif card is None:
        yield Problem(
            path,
            src.line("combination", "harnesscard"),
            "combination.harnesscard",
            f"no HarnessCard harnesscards/{combo.harnesscard}.yaml "
            f"(available: {', '.join(sorted(cards)) or 'none'})",
        )
    else:
        modes = sorted(m.id for m in card.model.modes)
        line = src.line("combination", "harness_mode")
        if modes and combo.harness_mode not in modes:
            shown = "missing" if combo.harness_mode is None else repr(combo.harness_mode)
            yield Problem(
                path,
                line,
                "combination.harness_mode",
                f"{shown}; card {card.model.id!r} declares modes {modes}, pick one",
            )
        if not modes and combo.harness_mode is not None:
            yield Problem(
                path,
                line,
                "combination.harness_mode",
                f"{combo.harness_mode!r}, but card {card.model.id!r} declares no modes",
            )
    if card is not None:
        withheld = below_floor(card.model, release.disclosure_floor)
        if withheld:
            yield Problem(
                path,
                src.line("combination", "harnesscard"),
                "combination.harnesscard",
                f"card {card.model.id!r} withholds {', '.join(withheld)}, which the "
                f"{release.version} disclosure floor requires disclosed; its scores "
                "are labelled as below the floor",
                "warning",
            )
    config = bundle.configuration
    if config.runs_per_task != release.runs_per_task:
        yield Problem(
            path,
            src.line("configuration", "runs_per_task"),
            "configuration.runs_per_task",
            f"{config.runs_per_task} differs from the release's prescribed {release.runs_per_task}",
        )
    ours = config.pipeline_components.model_dump()
    theirs = release.components.model_dump()
    for name in theirs:
        if ours[name] != theirs[name]:
            yield Problem(
                path,
                src.line("configuration", "pipeline_components", name),
                f"configuration.pipeline_components.{name}",
                f"{ours[name]!r} differs from the release's {theirs[name]!r}; runs "
                "must be scored with the release's components (§7.2)",
            )
    domains = {d.id: d for d in release.domains}
    seen: set[tuple[str, str | None]] = set()
    for i, scope in enumerate(bundle.not_covered):
        field = f"not_covered[{i}]"
        domain = domains.get(scope.domain)
        if domain is None:
            yield Problem(
                path,
                src.line("not_covered", i, "domain"),
                f"{field}.domain",
                f"{scope.domain!r} is not a domain; expected one of {sorted(domains)}",
            )
        elif scope.subdivision is not None and scope.subdivision not in {
            s.id for s in domain.subdivisions
        }:
            yield Problem(
                path,
                src.line("not_covered", i, "subdivision"),
                f"{field}.subdivision",
                f"{scope.subdivision!r} is not a {domain.subdivision_label} of {domain.id}",
            )
        key = (scope.domain, scope.subdivision)
        if key in seen:
            yield Problem(path, src.line("not_covered", i), field, "repeats an earlier scope")
        seen.add(key)
    if not bundle.consent.granted:
        yield Problem(
            path,
            src.line("consent", "granted"),
            "consent.granted",
            "false: not published (§7.2) — no page, table, chart, download or search entry "
            "will show this combination or its runs",
            "notice",
        )
