"""Fuzzing: hypothesis breaks a small valid release at random, and every command answers with
the project's own errors (exit 1 and a located problem list, or exit 3 for a refusal), never an
unhandled exception or a traceback.

Mutations work on parsed data (delete, replace with any JSON-like value, add a field, repeat a
list item) and on raw bytes (truncate, splice in random bytes), in every kind of input file.
Arbitrary text in every free-text field is refused with its place or published as text.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from budget import examples
from click.testing import CliRunner, Result
from hostile import PAYLOADS, REFUSED, Poisoner, poison, scan
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from synthetic import make_release

from generator.build import build_site
from generator.cli import cli
from generator.load import Inputs, load_inputs
from generator.models.freetext import REFUSED_CHARACTERS

pytestmark = pytest.mark.slow  # validates and builds damaged releases

SETTINGS = settings(
    max_examples=examples(100),
    deadline=None,
    derandomize=True,  # the same examples on every run: CI failures reproduce
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    | st.sampled_from(["", "v1.0", "general", "enterprise", "public", "held-out", "2026-13-45"])
    | st.dates().map(str)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small valid release: two domains, held-out tasks, two combinations, a deep dive."""
    root = tmp_path_factory.mktemp("fuzz-base")
    make_release().write_release(
        root, tasks_general=6, tasks_enterprise=8, combinations=2, runs=2, rules=6, judges=2,
        deep_dives=1,
    )  # fmt: skip
    assert _invoke("validate", "--root", str(root)).exit_code == 0
    return root


def _invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="python -m generator")


def _input_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.suffix in {".yaml", ".jsonl"})


@contextmanager
def _copy(base: Path) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        shutil.copytree(base, root)
        yield root


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every location in a parsed document."""
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _paths(value, (*prefix, i))
    return out


def _mutate(data: Any, draw: st.DrawFn) -> Any:
    paths = _paths(data)
    path = draw(st.sampled_from(paths))
    action = draw(st.sampled_from(["replace", "delete", "add", "repeat"]))
    if not path or action == "replace":
        if not path:
            return draw(VALUES)
        parent = _at(data, path[:-1])
        parent[path[-1]] = draw(VALUES)
        return data
    parent = _at(data, path[:-1])
    if action == "delete":
        del parent[path[-1]]
    elif action == "add" and isinstance(parent, dict):
        parent[draw(st.text(min_size=1, max_size=12))] = draw(VALUES)
    elif action == "repeat" and isinstance(parent, list):
        parent.append(parent[path[-1]])
    return data


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


@st.composite
def damage(draw: st.DrawFn) -> tuple[int, str, Any]:
    """(which file, how, what): a data mutation or a raw-byte one."""
    index = draw(st.integers(min_value=0, max_value=10_000))
    how = draw(st.sampled_from(["data", "data", "data", "bytes"]))
    seed = draw(st.randoms(use_true_random=False))
    return index, how, seed


def _apply(root: Path, index: int, how: str, rnd: Any, draw: st.DrawFn) -> str:
    files = _input_files(root)
    path = files[index % len(files)]
    raw = path.read_bytes()
    if how == "bytes":
        cut = rnd.randrange(len(raw) + 1)
        junk = bytes(rnd.randrange(256) for _ in range(rnd.randrange(8)))
        path.write_bytes(raw[:cut] + junk + raw[cut + rnd.randrange(4) :])
        return f"bytes of {path.name}"
    if path.suffix == ".jsonl":
        lines = raw.decode("utf-8").splitlines()
        line = rnd.randrange(len(lines))
        lines[line] = json.dumps(_mutate(json.loads(lines[line]), draw), default=str)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return f"line {line + 1} of {path.name}"
    data = _mutate(yaml.safe_load(raw), draw)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return f"data of {path.name}"


def _assert_typed(result: Result, allowed: set[int]) -> None:
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        assert result.exc_info is not None
        trace = "".join(traceback.format_exception(*result.exc_info))
        raise AssertionError(f"unhandled {result.exception!r}\n{result.output}\n{trace}")
    assert "Traceback" not in result.output
    assert result.exit_code in allowed, result.output
    if result.exit_code == 1:
        assert result.output.strip(), "a failure says why"


@SETTINGS
@given(damage(), st.data())
def test_validate_and_report_answer_any_damage_with_typed_errors(
    base: Path, hit: tuple[int, str, Any], data: st.DataObject
) -> None:
    with _copy(base) as root:
        where = _apply(root, hit[0], hit[1], hit[2], data.draw)
        checked = _invoke("validate", "--root", str(root))
        _assert_typed(checked, {0, 1})
        event(f"validate exit {checked.exit_code} after damage to the {where.split()[0]}")
        for domain in ("general", "enterprise"):
            report = _invoke("report", "--root", str(root), "--version", "v1.0", "--domain", domain)
            _assert_typed(report, {0, 1, 3} if checked.exit_code == 0 else {1})


@settings(SETTINGS, max_examples=examples(4))
@given(damage(), st.data())
def test_build_answers_any_damage_with_typed_errors(
    base: Path, hit: tuple[int, str, Any], data: st.DataObject
) -> None:
    with _copy(base) as root:
        _apply(root, hit[0], hit[1], hit[2], data.draw)
        out = root.parent / "site"
        built = _invoke("build", "--root", str(root), "--out", str(out))
        _assert_typed(built, {0, 1})
        event(f"build exit {built.exit_code}")
        assert (out / "index.html").is_file() == (built.exit_code == 0)


# ------------------------------------------------------------------ free text


#: Pieces that have broken pages or might: markup, a <title> closed early, front matter,
#: template syntax, Markdown links and images to another host or a script, control
#: characters, bidi overrides.
PIECES = st.sampled_from(
    [*PAYLOADS, *REFUSED, "</title>", "<script>", "\n---\n", "{{ x }}", "{% if x %}", "\a",
     "\u202e", "\u2066", '"', "'", "](", "![x](https://e.invalid/p.gif)", "javascript:"]
)  # fmt: skip
TEXTS = st.lists(st.text(max_size=8) | PIECES, min_size=1, max_size=4).map("".join)
_LOCATED = re.compile(r"^\S+\.(yaml|jsonl):\d+: [^\s:]+: \S")
_SHOWN = str.maketrans(dict.fromkeys(REFUSED_CHARACTERS, "\ufffd"))


@pytest.fixture(scope="module")
def clean_pages(base: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The pages of the small release, built as it is."""
    out = tmp_path_factory.mktemp("fuzz-clean") / "site"
    build_site(load_inputs(base)[0], out, strict=False, progress=lambda _: None)
    return _pages(out)


def _pages(site: Path) -> dict[str, str]:
    return {
        p.relative_to(site).as_posix(): p.read_text("utf-8")
        for p in sorted(site.rglob("*.html"))
        if p.relative_to(site).parts[0] != "latest"
    }


def _problems(output: str) -> list[str]:
    skip = ("notice: ", "Error: ", "valid: ")
    return [line for line in output.splitlines() if line and not line.startswith(skip)]


def _as_read(text: str) -> str:
    """Text as a browser (and a file read as text) reads it: line breaks as LF, a character
    validation refuses as U+FFFD (as the pages show it)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").translate(_SHOWN)


def _expected_titles(inputs: Inputs) -> dict[str, str]:
    """The <title> of each combination's page: its title and the site's name, as text."""
    (version,) = inputs.releases
    assert version.release is not None
    release = version.release.model
    site = f"{release.benchmark.name} {release.version}"
    return {
        f"{version.folder}/combinations/{b.bundle.model.combination.id}.html": (
            _as_read(f"{b.bundle.model.combination.title} - {site}")
        )
        for b in version.bundles
    }


@settings(SETTINGS, max_examples=examples(6))
@given(TEXTS)
@example("OpenCode\a </title><script>alert(document.domain)</script>")  # the one that ran
def test_any_free_text_is_refused_at_its_place_or_published_as_text(
    base: Path, clean_pages: dict[str, str], text: str
) -> None:
    """The same drawn text in every free-text field. validate accepts it, and the build
    publishes it; or refuses it, each problem at its file, line and field, and the text,
    put into the loaded models past validation, is published all the same. Either way no
    page gains an element or a handler, references another host, or has another title."""
    with _copy(base) as root:
        poison(root, Poisoner([text], fit=False))
        checked = _invoke("validate", "--root", str(root))
        _assert_typed(checked, {0, 1})
        event(f"validate exit {checked.exit_code}")
        if checked.exit_code == 0:
            inputs = load_inputs(root)[0]
        else:
            unlocated = [p for p in _problems(checked.output) if not _LOCATED.match(p)]
            assert unlocated == [], checked.output[:3000]
            inputs = Poisoner([text], fit=False).walk_inputs(load_inputs(base)[0])
        out = root.parent / "site"
        build_site(inputs, out, strict=False, progress=lambda _: None)
        pages = _pages(out)
        assert pages.keys() == clean_pages.keys()
        titles = _expected_titles(inputs)
        for rel, page in pages.items():
            found, clean = scan(page), scan(clean_pages[rel])
            assert found.active == clean.active, (rel, found.active - clean.active)
            handlers = {a: n for a, n in found.attributes.items() if a[1].startswith("on")}
            assert handlers == {a: n for a, n in clean.attributes.items() if a[1].startswith("on")}
            assert found.bad == found.remote == [], (rel, found.bad, found.remote)
            assert len(found.titles) == 1, rel
            if rel in titles:
                assert found.titles[0] == titles[rel]
