"""Where a value came from: a file and a map from data paths to line numbers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Source:
    """A loaded file's path (relative to the root, POSIX) and its line map."""

    path: str
    lines: Mapping[Loc, int] = field(default_factory=dict)
    #: Why the full YAML reader read the file rather than the fast one (None: it did not).
    full_reader: str | None = None

    def line(self, *loc: str | int) -> int | None:
        """Line of the deepest part of ``loc`` that the file has, or None."""
        for end in range(len(loc), -1, -1):
            found = self.lines.get(tuple(loc[:end]))
            if found is not None:
                return found
        return None


def dotted(loc: Loc) -> str:
    """Render a data path as ``tasks[7].scoring.rule_weight``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out
