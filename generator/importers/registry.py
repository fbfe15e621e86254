"""The plug-in point: importers are found through the Python entry-point group
:data:`GROUP`, so a benchmark can ship its own without changing the generator.

An entry point names an object with a ``title`` (one line: what it reads) and a ``read``
function ``read(sources, scorer) -> Imported``: the source files or folders given on the
command line, and the scorer (or reward) to take the outcome from, ``None`` for the
source's only one. It raises :class:`generator.importers.source.SourceError` for input it
cannot read, naming the file and what was expected. The generator's own importers are
registered the same way, in ``pyproject.toml``::

    [project.entry-points."lg_bench_site.importers"]
    inspect = "generator.importers.inspect_logs:IMPORTER"
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Protocol, runtime_checkable

from generator.importers.source import Imported

GROUP = "lg_bench_site.importers"


@runtime_checkable
class Importer(Protocol):
    """What an entry point of :data:`GROUP` names."""

    @property
    def title(self) -> str: ...

    def read(self, sources: Sequence[Path], scorer: str | None) -> Imported: ...


@dataclass(frozen=True)
class BuiltIn:
    """An importer written as a title and a function (the generator's own are)."""

    title: str
    reader: Callable[[Sequence[Path], str | None], Imported]

    def read(self, sources: Sequence[Path], scorer: str | None) -> Imported:
        """Read the sources into what they record."""
        return self.reader(sources, scorer)


def registered() -> dict[str, EntryPoint]:
    """The importers installed, by format name (sorted)."""
    found = {ep.name: ep for ep in entry_points(group=GROUP)}
    return dict(sorted(found.items()))


def load(name: str) -> Importer:
    """The importer of a format; ``LookupError`` naming the installed ones, ``TypeError``
    when the entry point names something that is no importer."""
    known = registered()
    if name not in known:
        raise LookupError(f"no importer {name!r} is installed; installed: {sorted(known)}")
    found = known[name].load()
    if not isinstance(found, Importer):
        raise TypeError(
            f"the entry point {name!r} of {GROUP} ({known[name].value}) is not an importer: "
            "expected an object with a title and read(sources, scorer)"
        )
    return found
