"""Read a YAML text with rapidyaml's C++ parser, or decline it to the full PyYAML path.

Input files are YAML as PyYAML reads it (YAML 1.1, :mod:`generator.load.yamlfile`).
rapidyaml reads YAML 1.2, and the two read some scalars differently: ``yes``, ``~``, ``0x1F``,
``1_000``, ``1:20``, ``.nan`` or ``2026-10-12`` are a bool, None, an int, a float or a date
to PyYAML and text to rapidyaml; ``1e5`` is a float to rapidyaml and text to PyYAML;
rapidyaml writes ``inf`` and ``nan`` as ``.inf`` and ``.nan``. :data:`DECLINE` lists every form
that may differ, and any text holding one, anywhere a scalar may start and end, goes to
the full path; so do anchors, aliases, tags, merge keys, flow collections (around which
rapidyaml is more lenient), document markers and directives, complex keys, keys that are
not text, lines over libyaml's key limit, a missing final line break, and characters the
two versions treat differently.
What is left is read by rapidyaml (``parse_in_arena``), written out as JSON
(``emit_json_malloc``) and read by the project's strict JSON reader
(:func:`generator.load.jsonlines.parse_json`, which refuses duplicate keys); a text that any
of the three refuses, or that has more values than the full path allows, is declined too,
so that the full path says what is wrong. The scan is exact in the direction of safety:
a declined text would often have given the same data, an accepted one always does (the
differential tests in ``tests/load/test_yamlrapid.py`` compare both paths).

Measured on the reference catalog (3.7 MB, ``bench/work/reference-v1``) on the shared
2-core machine under a load of about 10, medians of 5: ``catalog_s`` (read and validate,
timed as ``bench/run.py``'s breakdown does) 1.90 s and 2.08 s before (the home-made reader
this replaced) against 1.24 s and 1.02 s after, in two rounds; in CPU time 0.73-0.82 s
against 0.53 s. Reading alone: 0.42 s of CPU against 0.32 s, of which rapidyaml and the
JSON reader take 0.16 s and the decline scan 0.16-0.20 s; PyYAML's C loader takes 9.4 s.
"""

from __future__ import annotations

import os
import re
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import ryml  # type: ignore[import-untyped]
import yaml

from generator.errors import shown
from generator.load.jsonlines import parse_json


@dataclass(frozen=True)
class Declined:
    """The fast path cannot vouch for a text; the full path must read it."""

    reason: str


# Where a scalar may start: at a line's first non-space, after a block indicator ("- ",
# "? ", ": ") and anywhere in a flow collection ("[", "{", ",", and ":" also without a
# space, as after a quoted key). Being generous here only declines more texts. Each start
# is searched for on its own: a literal first character lets the regex engine skip ahead.
_STARTS = ("\n", ":", "- ", "? ", "[", "{", ",")
# Where a scalar may end: the line's end, a flow indicator, a key's ':', or a comment.
_END = r"[ ]*(?:\n|\Z|[,\]}:]|(?<=[ ])#)"
# The same, less the key's ':' (a value that is fine may not be a key).
_VALUE_END = r"[ ]*(?:\n|\Z|[,\]}]|(?<=[ ])#)"

#: Scalars both read alike: decimal integers and decimals, true, false, null.
SAME = r"(?:-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?|true|false|null)"

#: The loader whose reading the fast path must match (libyaml's, when PyYAML has it).
LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _pyyaml_forms(loader: type[yaml.SafeLoader]) -> str:
    """Every plain scalar PyYAML reads as something other than text: its own resolvers."""
    patterns: list[str] = []
    for resolvers in loader.yaml_implicit_resolvers.values():
        for _tag, regexp in resolvers:
            body = regexp.pattern
            assert body.startswith("^"), body
            assert body.endswith("$"), body
            form = f"(?x:{body[1:-1]})" if regexp.flags & re.VERBOSE else f"(?:{body[1:-1]})"
            if form not in patterns:
                patterns.append(form)
    return "|".join(patterns)


# rapidyaml writes a plain scalar without quotes when it reads as a number, and spells
# infinities and NaN its own way (``inf`` becomes ``.inf``).
_RYML_FORMS = (
    r"[-+]?(?:[0-9][0-9_]*\.?[0-9_]*|\.[0-9_]+)(?:[eE][-+]?[0-9_]+)?"
    r"|[-+]?\.?(?i:inf|infinity|nan)"
)
# The first characters of those forms: anything else starts a text in both.
_FIRST = "".join(sorted({*LOADER.yaml_implicit_resolvers, *"+-.0123456789iInN"} - {""}))

#: What sends a text to the full path, the form it takes, and whether the form counts
#: only where a scalar starts (``True``) or anywhere: the decline rule, in one place.
DECLINE: tuple[tuple[str, str, bool], ...] = (
    (
        # tab, carriage return, NEL, U+2028, U+2029, byte-order mark, control characters
        "a character YAML 1.1 and 1.2 read differently",
        r"[^\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]",
        False,
    ),
    ("a document marker or directive", r"\n(?:---|\.\.\.)(?=[ \n]|\Z)|\n%", False),
    # libyaml refuses a key over 1,024 characters, and a block scalar at the end of a text
    # without a final line break keeps a line break in rapidyaml
    ("a line over 1,024 characters", r"\n[^\n]{1024}", False),
    ("a last line without a line break", r"[^\n]\Z", False),
    # rapidyaml is more lenient inside and around flow collections (``[.:]``, ``}x``)
    ("a flow collection", r"[\[\]{}]", True),
    ("an anchor, alias or tag", r"[&*!]", True),
    ("a complex key", r"\?(?=[ \n]|\Z)", True),
    ("a key that is not text", rf"(?=[{re.escape(_FIRST)}:])(?:{SAME})?:(?=[ \n]|\Z)", True),
    (
        # yes/no/on/off, ~, 0x1F, 017, 1_000, 1:20, 1e5, .inf, .nan, dates, <<
        "a value YAML 1.1 and 1.2 read differently",
        rf"(?=[{re.escape(_FIRST)}])(?!-[ \n])(?!{SAME}{_VALUE_END})"
        rf"(?:{_pyyaml_forms(LOADER)}|{_RYML_FORMS}){_END}",
        True,
    ),
)

_ANYWHERE = [re.compile(f"(?P<d{i}>{form})") for i, (_, form, at) in enumerate(DECLINE) if not at]
_AT_START = "|".join(f"(?P<d{i}>{form})" for i, (_, form, at) in enumerate(DECLINE) if at)
_SCALAR_STARTS = [re.compile(f"{re.escape(start)}[ ]*(?:{_AT_START})") for start in _STARTS]


def decline(text: str) -> Declined | None:
    """Why ``text`` must go to the full path by :data:`DECLINE` (its first line), or None."""
    text = "\n" + text  # the first line starts like every other
    for regexp in [*_ANYWHERE, *_SCALAR_STARTS]:
        found = regexp.search(text)
        if found is not None:
            group = str(found.lastgroup)
            start, end = found.span(group)
            line = text.count("\n", 0, start + 1)
            what = DECLINE[int(group[1:])][0]
            return Declined(f"line {line} may hold {what}: {shown(text[start:end].strip())}")
    return None


def read(text: str, max_nodes: int) -> Any | Declined:
    """The data of ``text`` as PyYAML's safe loader gives it, or why it was declined."""
    declined = decline(text)
    if declined is not None:
        return declined
    with _stderr_silenced():
        try:
            tree = ryml.parse_in_arena(text.encode("utf-8"))
            if tree.size() > max_nodes:
                return Declined(f"it has more than {max_nodes:,} values")
            emitted = ryml.emit_json_malloc(tree, tree.root_id())
            if not isinstance(emitted, str):  # nothing to emit: no document
                return Declined("it is empty")
        except ryml.ExceptionParse:
            return Declined("rapidyaml cannot parse it")
        except ryml.ExceptionVisit:  # deeper than the emitter's limit (64 = MAX_DEPTH)
            return Declined("it is nested too deep for rapidyaml")
    try:
        data = parse_json(emitted)
    except ValueError:  # a duplicate key, a raw control character, a number out of range
        return Declined("its JSON form is not strict JSON (a duplicate key?)")
    if data is None:
        return Declined("it is empty")
    return data


_SILENCE = threading.Lock()


@contextmanager
def _stderr_silenced() -> Iterator[None]:
    """Keep rapidyaml's own error report (written to file descriptor 2) off the terminal.

    The full path reports the problem with its line; threads that write to standard error
    meanwhile wait for the lock or write nowhere, for the few milliseconds of one parse.
    """
    with _SILENCE:
        sys.stderr.flush()
        try:
            saved = os.dup(2)
        except OSError:  # no standard error to silence
            yield
            return
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 2)
            os.close(null)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
