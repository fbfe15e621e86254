"""Rules inside one release manifest.

:func:`check_release` reads as its rules: the version names its folder, every list of ids
names each id once (the lists as data), the disclosure floor names HarnessCard fields, and
each deep dive is listed once. The declared profile (metrics, facets, views) has its own
rules in :mod:`generator.check.profile`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from generator.errors import Problem
from generator.load import Loaded
from generator.models import Release
from generator.models.harnesscard import MINIMUM_FIELDS


def repeated(ids: Iterable[str]) -> list[str]:
    """Ids that occur more than once, sorted."""
    return sorted(k for k, n in Counter(ids).items() if n > 1)


def check_release(folder: str, loaded: Loaded[Release]) -> Iterator[Problem]:
    """Every rule inside one release manifest, in this order."""
    yield from _named_as_its_folder(folder, loaded)
    yield from _ids_once(loaded)
    yield from _floor_fields(loaded)
    yield from _deep_dives_once(loaded)


def _named_as_its_folder(folder: str, loaded: Loaded[Release]) -> Iterator[Problem]:
    """One release per folder, named by its version (§7.2: versions are never mixed)."""
    release, src = loaded.model, loaded.source
    if release.version != folder:
        yield Problem(
            src.path,
            src.line("version"),
            "version",
            f"{release.version!r} differs from its folder name {folder!r}; "
            "one release per folder, named by its version",
        )


def _declared_ids(release: Release) -> Iterator[tuple[tuple[str | int, ...], str, str, list[str]]]:
    """Each list of ids the release declares: (where, field, what its repeats are called,
    the ids): the domains (§2.2), each domain's subdivisions and each enumeration (§2.5.2)."""
    yield ("domains",), "domains", "repeated domain ids", [d.id for d in release.domains]
    for i, domain in enumerate(release.domains):
        where: tuple[str | int, ...] = ("domains", i, "subdivisions")
        yield (
            where,
            f"domains[{i}].subdivisions",
            "repeated ids",
            [s.id for s in domain.subdivisions],
        )
    for name in type(release.enumerations).model_fields:
        ids = [v.id for v in getattr(release.enumerations, name)]
        yield ("enumerations", name), f"enumerations.{name}", "repeated ids", ids


def _ids_once(loaded: Loaded[Release]) -> Iterator[Problem]:
    """Every declared id is declared once (:func:`_declared_ids`)."""
    src = loaded.source
    for where, field, what, ids in _declared_ids(loaded.model):
        dupes = repeated(ids)
        if dupes:
            yield Problem(src.path, src.line(*where), field, f"{what}: {dupes}")


def _floor_fields(loaded: Loaded[Release]) -> Iterator[Problem]:
    """The disclosure floor names minimum fields of the seven-layer HarnessCard (§5.1.2)."""
    src = loaded.source
    known = {f"{name}.{field}" for name, fields in MINIMUM_FIELDS.items() for field in fields}
    for i, ref in enumerate(loaded.model.disclosure_floor):
        if ref not in known:
            yield Problem(
                src.path,
                src.line("disclosure_floor", i),
                f"disclosure_floor[{i}]",
                f"{ref!r} is not a minimum HarnessCard field; expected 'layer.field', "
                "e.g. 'execution.sandboxing'",
            )


def _deep_dives_once(loaded: Loaded[Release]) -> Iterator[Problem]:
    """Each deep-dive task is listed once (§5.2)."""
    src = loaded.source
    dupes = repeated(loaded.model.deep_dives)
    if dupes:
        yield Problem(src.path, src.line("deep_dives"), "deep_dives", f"repeated tasks: {dupes}")


def check_one_benchmark(releases: Sequence[Loaded[Release]]) -> Iterator[Problem]:
    """One root publishes one benchmark: a release whose benchmark code differs from the
    first release's (in folder order) is an error naming both."""
    if not releases:
        return
    first = releases[0]
    code, name = first.model.benchmark.code, first.model.benchmark.name
    for loaded in releases[1:]:
        other = loaded.model.benchmark
        if other.code != code:
            yield Problem(
                loaded.source.path,
                loaded.source.line("benchmark", "code"),
                "benchmark.code",
                f"{other.code!r} ({other.name}) differs from {code!r} ({name}) of "
                f"{first.source.path}; one root publishes the releases of one benchmark, "
                "so put each benchmark's releases under a root of its own",
            )
