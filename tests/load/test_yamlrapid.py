"""rapidyaml against the full path: the same data as PyYAML's safe loader, or it declines.

Every check here holds the fast path to one rule: when it returns a result, the full path
(libyaml's node tree, as the project loads it) returns the same data, with the same types
and key order; when the full path would report a problem, the fast path declines.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from budget import examples
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from synthetic import make_release

from generator.check import check_inputs
from generator.errors import Problem
from generator.load import load_inputs, yamlrapid
from generator.load.yamlfile import MAX_DEPTH, MAX_NODES, LinesOnDemand, read_text, read_yaml

REPO = Path(__file__).resolve().parents[2]

SETTINGS = settings(
    max_examples=examples(300),
    deadline=None,
    derandomize=True,  # the same examples on every run: failures reproduce
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _fast(text: str) -> Any | None:
    read = yamlrapid.read(text, MAX_NODES)
    return None if isinstance(read, yamlrapid.Declined) else read


def _agree(text: str) -> bool:
    """Assert the fast path declines or matches the full path; return whether it accepted."""
    fast = _fast(text)
    if fast is None:
        return False
    full = read_text(text, "f.yaml")
    assert not isinstance(full, Problem), (
        f"the fast path accepted what the full path refuses: {full}"
    )
    assert repr(fast) == repr(full[0])  # repr tells 1 from 1.0 from True from '1'
    return True


# Characters that mean something somewhere in YAML, and some that are merely unusual.
SPECIAL = list(" :#-?'\"\\{}[],&*!|>%@`~=<.+_0123456789\n\t\r\x00\x07\x1b\x7f\x85\xa0\u2028\ufeff")
TEXT = st.text(
    alphabet=st.sampled_from(SPECIAL) | st.characters(codec="utf-8"),
    max_size=24,
)
LOOKALIKES = st.sampled_from(
    [
        *("yes", "No", "ON", "off", "y", "n", "true", "False", "null", "Null", "~", ""),
        *("1_000", "0o17", "0x1F", "0b101", "1e3", "1.5e-3", ".nan", ".inf", "-.inf", "+1"),
        *("-0", "007", "1:30", "190:20:30", "2024-01-01", "2024-1-1", "2024-02-30"),
        *("2024-01-01 10:00:00", "2024-01-01T10:00:00Z", "<<", "=", "- a", "a: b", "#x"),
        *("a #b", "a#b", "a:b", "'q'", '"q"', "  lead", "trail  ", "multi\nline", "x\\y"),
        *("---", "...", "[a]", "{b}", "@x", "`x", "%x", "!x", "&x", "*x", "|", "> x", "? x"),
        *(": x", "-", "- ", "-x", "?x", ":x", "x:", "a\n\nb", "\n", " \n ", "é中😀", "\\n"),
    ]
)
WORDS = st.sampled_from(["alpha", "beta:", "#gamma", "delta,", "'eps'", "z", "über", "x" * 30])
LONG = st.lists(WORDS, min_size=8, max_size=40).map(" ".join)
MULTILINE = st.lists(LONG | TEXT, min_size=2, max_size=4).map("\n".join)
STRINGS = TEXT | LOOKALIKES | LONG | MULTILINE
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.dates()
    | st.datetimes(timezones=st.none() | st.just(dt.UTC))
    | STRINGS
)
# Keys on one line: safe_dump writes an empty or multi-line key as a '? ' key, which the
# fast path leaves to the full path (see the edge cases).
KEY_CHARS = (st.sampled_from(SPECIAL) | st.characters(codec="utf-8")).filter(
    lambda c: c not in "\n\r\x85\u2028\u2029"
)
KEYS = st.text(alphabet=KEY_CHARS, min_size=1, max_size=12) | st.sampled_from(
    ["id", "title", "value", "yes", "null", "1", "<<", "a b", "t", "x: y"]
)
DATA = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=30,
)
ROOTS = st.dictionaries(KEYS, DATA, min_size=1, max_size=5) | st.lists(DATA, min_size=1)


class _IndentedSequences(yaml.SafeDumper):
    """Writes a sequence under a key indented below it, as people often do."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _block_dumper(style: str, base: type[yaml.SafeDumper]) -> type[yaml.SafeDumper]:
    """A dumper that writes text with line breaks as block scalars where it can."""

    class Dumper(base):
        pass

    def text(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
        chosen = style if "\n" in data else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=chosen)

    Dumper.add_representer(str, text)
    return Dumper


# PyYAML's own emitter and libyaml's (which wraps and quotes a little differently).
SAFE_DUMPERS: list[type[yaml.SafeDumper]] = [yaml.SafeDumper, _IndentedSequences, yaml.CSafeDumper]
DUMPERS = [
    *SAFE_DUMPERS,
    *(_block_dumper(style, base) for style in "|>" for base in (yaml.SafeDumper, yaml.CSafeDumper)),
]


@st.composite
def dumped(draw: st.DrawFn, dumpers: list[type[yaml.SafeDumper]] = DUMPERS) -> str:
    """Block-style YAML as yaml.safe_dump and its relatives write it."""
    return yaml.dump(
        draw(ROOTS),
        Dumper=draw(st.sampled_from(dumpers)),
        default_flow_style=False,
        width=draw(st.sampled_from([20, 40, 80, 120, 10_000])),
        allow_unicode=draw(st.booleans()),
        sort_keys=False,
        indent=draw(st.sampled_from([2, 3, 4])),
    )


@SETTINGS
@given(dumped(SAFE_DUMPERS))
def test_safe_dump_output_is_declined_or_the_same(text: str) -> None:
    event("accepted" if _agree(text) else "declined")


@SETTINGS
@given(dumped())
def test_block_scalar_output_agrees(text: str) -> None:
    event("accepted" if _agree(text) else "declined")


@SETTINGS
@given(ROOTS, st.sampled_from([20, 80]), st.booleans())
def test_flow_style_output_agrees(data: Any, width: int, unicode: bool) -> None:
    text = yaml.safe_dump(data, default_flow_style=None, width=width, allow_unicode=unicode)
    event("accepted" if _agree(text) else "declined")


@st.composite
def hand_written(draw: st.DrawFn) -> str:
    """Dumped YAML edited the way people edit it: comments, blank lines, quoted keys."""
    lines = draw(dumped()).split("\n")
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(lines)))
        edit = draw(st.sampled_from(["comment", "blank", "spaces", "trailing", "quote-key"]))
        if edit == "comment":
            lines.insert(at, " " * draw(st.integers(0, 6)) + "# a comment: - x")
        elif edit == "blank":
            lines.insert(at, "")
        elif edit == "spaces":
            lines.insert(at, " " * draw(st.integers(1, 6)))
        elif at < len(lines) and edit == "trailing":
            lines[at] += draw(st.sampled_from([" # note", "  #", " ", "#not"]))
        elif at < len(lines):
            quote = draw(st.sampled_from(["'", '"']))
            lines[at] = re.sub(r"^( *(?:- +)?)([A-Za-z_]\w*):", rf"\1{quote}\2{quote}:", lines[at])
    return "\n".join(lines)


@SETTINGS
@given(hand_written())
def test_hand_written_variants_agree(text: str) -> None:
    event("accepted" if _agree(text) else "declined")


@SETTINGS
@given(dumped(), st.data())
def test_broken_input_is_declined_or_the_same(text: str, data: st.DataObject) -> None:
    """Random damage: whatever the fast path still accepts, the full path reads alike."""
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        damage = data.draw(
            st.sampled_from([":", " ", "  ", "#", "- ", "-", "'", '"', "\t", "\\", "[", "{"])
            | st.sampled_from(["}", ",", "&a ", "*a", "!", "|", ">", "\n", "\r", "? ", "\n- "])
            | st.sampled_from(["\n  ", "\n---\n", "<<: ", "1: ", "\n\n", "x: y\n", "yes"])
            | st.sampled_from(["delete", "cut-line", "repeat-line"])
        )
        if damage == "delete":
            text = text[:at] + text[at + 1 :]
        elif damage in ("cut-line", "repeat-line"):
            lines = text.split("\n")
            row = min(at, len(lines) - 1)
            lines[row:row] = [lines[row]] if damage == "repeat-line" else []
            if damage == "cut-line":
                del lines[row]
            text = "\n".join(lines)
        else:
            text = text[:at] + damage + text[at:]
    event("accepted" if _agree(text) else "declined")


# Lines built from the pieces YAML gives meaning to, so that odd but plausible input is tried.
ATOMS = st.sampled_from(
    [
        *("a", "b c", "x:y", "1", "0o7", "yes", "~", "null", "é", "😀", "2024-01-01", "<<", "="),
        *("1.5", "-1", ":x", "?x", "-x", "a#b", "a,b", "[a]", "{a: b}", "[a, 'b', \"c\"]", "{}"),
        *("[]", "'q''s'", '"e\\tx"', "'multi", "line'", '"multi', 'line"', "|", ">", "|-", ">-"),
        *("-", "?", ":", "...", "x  ", "  y", "\\", "\\ ", "'", '"', "#c", " #c", ""),
    ]
)
SOUP_KEYS = st.sampled_from(
    [
        *("a", "b", "k k", "'q'", '"d"', "1", "yes", "<<", "-", "?", ":x", "x:y", "a#b", "é"),
        *("", "'a: b'", "- a", "? a"),
    ]
)


@st.composite
def soup_line(draw: st.DrawFn) -> str:
    line = " " * draw(st.integers(0, 6)) + draw(st.sampled_from(["", "- ", "-  ", "- - ", "-"]))
    key = draw(st.none() | SOUP_KEYS)
    atoms = draw(st.lists(ATOMS, max_size=3))
    if key is not None:
        line += key + (": " if atoms else ":")
    return line + " ".join(atoms) + draw(st.sampled_from(["", " # c", "  #", "#x"]))


@SETTINGS
@given(st.lists(soup_line(), min_size=1, max_size=8), st.booleans())
def test_line_soup_agrees(lines: list[str], final_break: bool) -> None:
    text = "\n".join(lines) + ("\n" if final_break else "")
    event("accepted" if _agree(text) else "declined")


EDGE_CASES = [
    # (text, whether the fast path must accept it, or None when either is right)
    ("a: 1\nb:\n  - x: 2\n    y: 3\n  - x: 4\n", True),
    ("a:\nb: 2\n", True),
    ("a:\n- 1\n-\n- - 2\n  - 3\n-\n  x: 1\nb: null\n", True),
    ("- a\n-\n  - b\n- # comment\n  c: 1\n", True),
    ("a: one\n  two\n\n   three\nb: x\n", True),
    ("a: 'it''s\n\n  here '\nb: \"x\\ty\\u00e9\\\n  \\ z\"\n", True),
    ("a: |\n  one\n\n   two\n\nb: >-\n  one\n  two\n\n  three\n   four\n", True),
    ("a: {b: 1, 'c': [x, \"y\", []], d: {}}  # c\n", False),
    ("a: -1.5\nb: 0\nc: true\nd: false\ne: 'yes'\nf: \"0x1F\"\ng: version 1.2.3\n", True),
    ("a: on the way\nb: no doubt\nc: 12 apples\n", True),
    # YAML 1.1 and 1.2 read these differently: the full path reads them
    *((f"a: {v}\n", False) for v in ("yes", "No", "ON", "off", "~", "Null", "NULL", "True")),
    *((f"a: {v}\n", False) for v in ("0x1F", "0b101", "017", "00", "1_000", "+1")),
    *((f"a: {v}\n", False) for v in ("1:30", "1e5", "1.0e5", "1E+5", "-.5", ".5", "1.")),
    *((f"a: {v}\n", False) for v in (".nan", ".inf", "-.Inf", "inf", "nan", "infinity")),
    *((f"a: {v}\n", False) for v in ("2024-01-01", "2024-01-01 10:00:00", "<<", "=")),
    ("a: [1, yes]\n", False),
    ("a: {b: ~}\n", False),
    ("- on\n", False),
    ("a:\n  off\n", False),
    ("a: b: c\n", False),
    ("a: 1\na: 2\n", False),
    ("a: {b: 1, b: 2}\n", False),
    ("1: x\n", False),
    ("1.5: x\n", False),
    ("true: x\n", False),
    ("null: x\n", False),
    ("yes: x\n", False),
    ("<<: x\n", False),
    ("a: &x 1\nb: *x\n", False),
    ("a: !!str 1\n", False),
    ("a: !x 1\n", False),
    ("? a\n: b\n", False),
    ("---\na: 1\n", False),
    ("a: 1\n...\n", False),
    ("%YAML 1.1\n---\na: 1\n", False),
    ("a:\tb\n", False),
    ("a: 1\r\nb: 2\r\n", False),
    ("a: x\x85y\n", False),
    ("a: x\u2028y\n", False),
    ("\ufeffa: 1\n", False),
    ('a: "\x07"\n', False),
    ('a: "\\/"\n', None),
    ("a: 2024-02-30\n", False),
    ("a: " + "9" * 5000 + "\n", False),
    ("a: 1.0e+400\n", False),
    ("a: [1,\n  2]\n", None),
    ("a: |+\n  x\n\n", None),
    ("a: |2\n   x\n", None),
    ("a: |\n  x", None),
    ("k" * 1100 + ": 1\n", None),
    ("x\n", None),
    ("", False),
    ("# only a comment\n", False),
    ("- a\n- - b\n  - c\n", True),
]


@pytest.mark.parametrize(("text", "accepted"), EDGE_CASES)
def test_edge_cases(text: str, accepted: bool | None) -> None:
    got = _agree(text)
    if accepted is not None:
        assert got is accepted


# Every short scalar over the characters that make YAML numbers, dates and the like, as a
# value and as a key: the decline rule must catch each one the two versions read apart.
NUMBERISH = "0179.+-_:eExXoObB"


@pytest.mark.parametrize("length", [1, 2, 3])
def test_every_short_numberish_scalar_agrees(length: int) -> None:
    accepted = 0
    for chars in itertools.product(NUMBERISH, repeat=length):
        word = "".join(chars)
        for text in (f"k: {word}\n", f"- {word}\n", f"{word}: v\n", f"k: [{word}]\n"):
            accepted += _agree(text)
    assert accepted  # plain decimals are read fast


def _cases(word: str) -> set[str]:
    return {"".join(c) for c in itertools.product(*[(x.lower(), x.upper()) for x in word])}


WORDS_1_1 = ["yes", "no", "on", "off", "y", "n", "true", "false", "null", "inf", "nan"]
SPELLINGS = sorted(
    {
        pre + v
        for word in [*WORDS_1_1, "infinity"]
        for v in _cases(word)
        for pre in ("", ".", "-", "+", "-.", "+.")
    }
)


def test_every_spelling_of_booleans_nulls_and_infinities_agrees() -> None:
    # every case of every letter, each with six prefixes (no two words spell alike)
    assert len(SPELLINGS) == 6 * sum(2 ** len(w) for w in [*WORDS_1_1, "infinity"])
    for word in SPELLINGS:
        for text in (f"k: {word}\n", f"{word}: v\n", f"k: {{a: {word}}}\n"):
            _agree(text)


def test_decline_names_the_line_and_the_form() -> None:
    declined = yamlrapid.decline("a: 1\nb:\n  c: yes\n")
    assert declined is not None
    assert declined.reason.startswith("line 3 may hold a value YAML 1.1 and 1.2 read")
    assert declined.reason.endswith("'yes'")
    assert yamlrapid.decline("a: 1\nb: x, y\n") is None


def test_every_decline_row_declines_something() -> None:
    """Each row of the rule earns its place: a text only it declines."""
    samples = ["a: x\ty\n", "---\na: 1\n", "k" * 1030 + ": 1\n", "a: 1", "a: [1]\n"]
    samples += ["a: &x 1\n", "? a\n: b\n", "1: x\n", "a: yes\n"]
    assert len(samples) == len(yamlrapid.DECLINE)
    for (what, _, _), sample in zip(yamlrapid.DECLINE, samples, strict=True):
        declined = yamlrapid.decline(sample)
        assert declined is not None, sample
        assert what in declined.reason, (what, declined.reason)


def test_nesting_limit_is_left_to_the_full_path() -> None:
    """rapidyaml's emitter refuses what is nested deeper than MAX_DEPTH, as the full path."""
    for depth in (MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1):
        block = "".join("  " * i + "k:\n" for i in range(depth)) + "  " * depth + "k: x\n"
        dashes = "- " * depth + "x\n"
        for text in (block, dashes):
            full = read_text(text, "f.yaml")
            assert _agree(text) is (not isinstance(full, Problem)), depth


def test_too_many_values_are_left_to_the_full_path() -> None:
    text = "".join(f"- {i}\n" for i in range(50))
    assert isinstance(yamlrapid.read(text, 40), yamlrapid.Declined)
    assert yamlrapid.read(text, 100) == list(range(50))


def test_rapidyaml_errors_stay_off_the_terminal(capfd: pytest.CaptureFixture[str]) -> None:
    assert isinstance(yamlrapid.read("a: [1, 2\nb: -\n", MAX_NODES), yamlrapid.Declined)
    assert capfd.readouterr().err == ""


def test_synthetic_release_agrees(tmp_path: Path) -> None:
    """What bench/make_release.py writes: the catalog is read fast, every file alike."""
    make_release().write_release(
        tmp_path, tasks_general=4, tasks_enterprise=4, combinations=2, runs=1, deep_dives=2
    )
    files = sorted(tmp_path.rglob("*.yaml"))
    assert len(files) > 5
    for path in files:
        accepted = _agree(path.read_text(encoding="utf-8"))
        assert accepted or path.name != "tasks.yaml", path


def _input_files() -> list[Path]:
    folders = ["results", "harnesscards", "tests/fixtures", "bench/work/reference-v1"]
    return sorted(p for f in folders for p in (REPO / f).rglob("*.yaml"))


@pytest.mark.parametrize("path", _input_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_input_files_agree(path: Path) -> None:
    accepted = _agree(path.read_text(encoding="utf-8"))
    if path.name == "tasks.yaml" and path.relative_to(REPO).parts[0] == "results":
        assert accepted, "the fast path declined a task catalog"


def test_lines_come_from_the_full_path_when_asked(tmp_path: Path) -> None:
    text = "a: 1\nb:\n  - x: 2\n    y: 3\n"
    path = tmp_path / "f.yaml"
    path.write_text(text, encoding="utf-8")
    got = read_yaml(path, "f.yaml")
    assert not isinstance(got, Problem)
    data, source = got
    assert isinstance(source.lines, LinesOnDemand)
    assert source.full_reader is None
    full = read_text(text, "f.yaml")
    assert not isinstance(full, Problem)
    assert data == full[0]
    assert dict(source.lines) == dict(full[1].lines)
    assert source.line("b", 0, "y") == 4


def test_a_declined_file_says_why(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_text("a: 1\nd: 2026-01-02\n", encoding="utf-8")
    got = read_yaml(path, "f.yaml")
    assert not isinstance(got, Problem)
    data, source = got
    assert data == {"a": 1, "d": dt.date(2026, 1, 2)}
    assert source.full_reader is not None
    assert source.full_reader.startswith("line 2 may hold a value")
    assert source.line("d") == 2


def test_read_yaml_reports_the_full_paths_problem(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    for text in ["a: 1\na: 2\n", "1: x\n", "a: 2024-02-30\n", "a: [1,\n", "a: {b: 1, b: 2}\n"]:
        path.write_text(text, encoding="utf-8")
        got = read_yaml(path, "f.yaml")
        assert isinstance(got, Problem)
        assert got == read_text(text, "f.yaml")


def test_valid_inputs_are_never_read_twice(tmp_path: Path) -> None:
    """Loading and checking valid inputs asks no line of a file read fast."""
    make_release().write_release(
        tmp_path, tasks_general=4, tasks_enterprise=4, combinations=2, runs=1, deep_dives=2
    )
    loaded, problems = load_inputs(tmp_path)
    problems += check_inputs(loaded)
    assert not [p for p in problems if p.severity == "error"]
    catalogs = [r.catalog for r in loaded.releases if r.catalog is not None]
    assert catalogs
    for catalog in catalogs:
        assert isinstance(catalog.source.lines, LinesOnDemand)
        assert not catalog.source.lines.made
