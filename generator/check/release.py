"""Rules inside one release manifest."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from generator.errors import Problem
from generator.load import Loaded
from generator.models import KNOWN_METRICS, Release
from generator.models.harnesscard import MINIMUM_FIELDS


def repeated(ids: Iterable[str]) -> list[str]:
    """Ids that occur more than once, sorted."""
    return sorted(k for k, n in Counter(ids).items() if n > 1)


def check_release(folder: str, loaded: Loaded[Release]) -> Iterator[Problem]:
    release, src = loaded.model, loaded.source
    path = src.path
    if release.version != folder:
        yield Problem(
            path,
            src.line("version"),
            "version",
            f"{release.version!r} differs from its folder name {folder!r}; "
            "one release per folder, named by its version",
        )
    dupes = repeated(d.id for d in release.domains)
    if dupes:
        yield Problem(path, src.line("domains"), "domains", f"repeated domain ids: {dupes}")
    for i, domain in enumerate(release.domains):
        dupes = repeated(s.id for s in domain.subdivisions)
        if dupes:
            yield Problem(
                path,
                src.line("domains", i, "subdivisions"),
                f"domains[{i}].subdivisions",
                f"repeated ids: {dupes}",
            )
    for name in type(release.enumerations).model_fields:
        dupes = repeated(v.id for v in getattr(release.enumerations, name))
        if dupes:
            yield Problem(
                path,
                src.line("enumerations", name),
                f"enumerations.{name}",
                f"repeated ids: {dupes}",
            )
    declared = [m.id for m in release.metrics]
    unknown = sorted(set(declared) - set(KNOWN_METRICS))
    missing = [m for m in KNOWN_METRICS if m not in declared]
    dupes = repeated(declared)
    line = src.line("metrics")
    if unknown:
        yield Problem(
            path,
            line,
            "metrics",
            f"unknown metric ids {unknown}; expected ids from: {', '.join(KNOWN_METRICS)}",
        )
    if missing:
        yield Problem(
            path,
            line,
            "metrics",
            f"direction not declared for {missing}; every computed metric needs one",
        )
    if dupes:
        yield Problem(path, line, "metrics", f"repeated metric ids: {dupes}")
    known = {f"{name}.{field}" for name, fields in MINIMUM_FIELDS.items() for field in fields}
    for i, ref in enumerate(release.disclosure_floor):
        if ref not in known:
            yield Problem(
                path,
                src.line("disclosure_floor", i),
                f"disclosure_floor[{i}]",
                f"{ref!r} is not a minimum HarnessCard field; expected 'layer.field', "
                "e.g. 'execution.sandboxing'",
            )
    dupes = repeated(release.deep_dives)
    if dupes:
        yield Problem(path, src.line("deep_dives"), "deep_dives", f"repeated tasks: {dupes}")


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
