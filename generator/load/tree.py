"""Find and parse every input under a root folder.

Layout::

    results/<version>/release.yaml
    results/<version>/tasks.yaml
    results/<version>/deepdives/<task>.yaml
    results/<version>/bundles/<combination>/bundle.yaml  (+ its runs file)
    harnesscards/<card>.yaml

Each file is parsed and validated on its own here; rules that span files live in
:mod:`generator.check`.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel

from generator.errors import Problem
from generator.load.jsonlines import Runs, read_runs
from generator.load.raters import LoadedRater, read_verdicts
from generator.load.runcolumns import empty_columns
from generator.load.source import Source
from generator.load.validate import validate_as
from generator.load.yamlfile import read_yaml
from generator.memory import release_unused_memory, use_system_allocator
from generator.models import Bundle, Catalog, DeepDive, HarnessCard, Release

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")

#: Runs files read side by side. Arrow parses each file on all cores already; a second file
#: overlaps the Python part of the checks. Each file read holds its bytes, its Arrow table
#: and the temporary columns of its checks, so more at once only adds memory (at 10x a
#: bundle is 70 MB of JSON).
READERS = min(2, os.cpu_count() or 1)


@dataclass(frozen=True)
class Loaded(Generic[T]):
    """A model and the file it came from."""

    model: T
    source: Source


@dataclass(frozen=True)
class LoadedBundle:
    folder: str
    bundle: Loaded[Bundle]
    runs: Runs
    runs_path: str
    runs_clean: bool = True  # False when some lines of the runs file were rejected
    raters: tuple[LoadedRater, ...] = ()  # second raters' verdicts, as bundle.yaml lists them


@dataclass(frozen=True)
class LoadedRelease:
    """One version folder; parts that failed to load are None."""

    folder: str
    release: Loaded[Release] | None
    catalog: Loaded[Catalog] | None
    bundles: tuple[LoadedBundle, ...]
    deep_dives: tuple[Loaded[DeepDive], ...]
    cached: bool = False  # unchanged since the previous build: only release.yaml was read


@dataclass(frozen=True)
class Inputs:
    root: Path
    releases: tuple[LoadedRelease, ...]
    cards: Mapping[str, Loaded[HarnessCard]]
    broken_cards: frozenset[str] = frozenset()  # card files present but invalid


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def _load(model: type[M], root: Path, path: Path, problems: list[Problem]) -> Loaded[M] | None:
    rel = _rel(root, path)
    escape = _escapes(root, path)
    if escape is not None:
        problems.append(escape)
        return None
    if not path.is_file():
        problems.append(Problem(rel, None, "", "file not found"))
        return None
    parsed = read_yaml(path, rel)
    if isinstance(parsed, Problem):
        problems.append(parsed)
        return None
    data, source = parsed
    result = validate_as(model, data, source)
    if isinstance(result, list):
        problems.extend(result)
        return None
    return Loaded(result, source)


def _escapes(root: Path, path: Path) -> Problem | None:
    """A problem when ``path`` leads outside ``root`` through a symbolic link."""
    try:
        inside = path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        inside = False
    if inside:
        return None
    return Problem(
        _rel(root, path),
        None,
        "",
        "is a symbolic link that leads outside the input root; refused "
        "(every input file must lie inside the root)",
    )


def _visible(root: Path, folder: Path, problems: list[Problem]) -> list[Path]:
    """The folder's entries, less hidden names and links that escape the root."""
    out = []
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        escape = _escapes(root, path)
        if escape is not None:
            problems.append(escape)
            continue
        out.append(path)
    return out


def _stray(root: Path, path: Path, expected: str) -> Problem:
    return Problem(
        _rel(root, path), None, "", f"not part of the input format; ignored ({expected})", "warning"
    )


def _load_bundle(root: Path, folder: Path, problems: list[Problem]) -> LoadedBundle | None:
    loaded = _load(Bundle, root, folder / "bundle.yaml", problems)
    if loaded is None:
        return None
    runs_file = folder / loaded.model.runs
    runs_rel = _rel(root, runs_file)
    entries = _visible(root, folder, problems)
    named = {"bundle.yaml", loaded.model.runs.split("/")[0]}
    named |= {r.verdicts.split("/")[0] for r in loaded.model.raters}
    for extra in entries:
        if extra.name not in named:
            problems.append(
                _stray(root, extra, "a bundle folder holds bundle.yaml, its runs and its raters")
            )
    raters = _load_raters(root, folder, loaded.model, {e.name for e in entries}, problems)
    escape = _escapes(root, runs_file)
    if escape is not None:
        if loaded.model.runs.split("/")[0] in {e.name for e in entries}:  # else reported above
            problems.append(escape)
        return LoadedBundle(folder.name, loaded, empty_columns(), runs_rel, False, raters)
    if not runs_file.is_file():
        problems.append(
            Problem(runs_rel, None, "", "runs file not found (named by bundle.yaml: runs)")
        )
        return LoadedBundle(folder.name, loaded, empty_columns(), runs_rel, True, raters)
    runs, run_problems = read_runs(runs_file, runs_rel)
    problems.extend(run_problems)
    return LoadedBundle(folder.name, loaded, runs, runs_rel, not run_problems, raters)


def _load_raters(
    root: Path, folder: Path, bundle: Bundle, entries: set[str], problems: list[Problem]
) -> tuple[LoadedRater, ...]:
    """Each second rater's verdicts file, read; one that escapes the root is refused
    (``entries``: the folder's visible names; a link among them is reported already)."""
    raters = []
    for rater in bundle.raters:
        path = folder / rater.verdicts
        escape = _escapes(root, path)
        if escape is not None:
            if rater.verdicts.split("/")[0] in entries:
                problems.append(escape)
            raters.append(LoadedRater(rater, _rel(root, path), clean=False))
            continue
        loaded, found = read_verdicts(rater, path, _rel(root, path))
        problems.extend(found)
        raters.append(loaded)
    return tuple(raters)


def _bundle_alone(root: Path, folder: Path) -> tuple[LoadedBundle | None, list[Problem]]:
    found: list[Problem] = []
    return _load_bundle(root, folder, found), found


def _load_release(root: Path, folder: Path, problems: list[Problem]) -> LoadedRelease:
    """One version folder: its manifest, catalog, bundles and deep dives."""
    release = _load(Release, root, folder / "release.yaml", problems)
    catalog = _load(Catalog, root, folder / "tasks.yaml", problems)
    bundles: tuple[LoadedBundle, ...] = ()
    deep_dives: tuple[Loaded[DeepDive], ...] = ()
    for entry in _visible(root, folder, problems):
        if entry.name in {"release.yaml", "tasks.yaml"}:
            continue
        if entry.name == "bundles" and entry.is_dir():
            bundles = _load_bundles(root, entry, problems)
        elif entry.name == "deepdives" and entry.is_dir():
            deep_dives = _load_deep_dives(root, entry, problems)
        else:
            problems.append(
                _stray(root, entry, "expected release.yaml, tasks.yaml, bundles/, deepdives/")
            )
    return LoadedRelease(folder.name, release, catalog, bundles, deep_dives)


def _load_bundles(root: Path, entry: Path, problems: list[Problem]) -> tuple[LoadedBundle, ...]:
    """Every bundle folder under ``bundles/``."""
    folders = []
    for bundle_dir in _visible(root, entry, problems):
        if not bundle_dir.is_dir():
            problems.append(_stray(root, bundle_dir, "bundles/ holds one folder a bundle"))
            continue
        folders.append(bundle_dir)
    bundles = []
    # Runs files are parsed by Arrow, which releases the GIL: read bundles side by side.
    with ThreadPoolExecutor(max_workers=READERS) as pool:
        for loaded, found in pool.map(lambda d: _bundle_alone(root, d), folders):
            problems.extend(found)
            if loaded is not None:
                bundles.append(loaded)
    release_unused_memory()
    return tuple(bundles)


def _load_deep_dives(
    root: Path, entry: Path, problems: list[Problem]
) -> tuple[Loaded[DeepDive], ...]:
    """Every narrative file under ``deepdives/``."""
    deep_dives = []
    for path in _visible(root, entry, problems):
        if path.suffix != ".yaml" or not path.is_file():
            problems.append(_stray(root, path, "deepdives/ holds <task>.yaml files"))
            continue
        dive = _load(DeepDive, root, path, problems)
        if dive is not None:
            deep_dives.append(dive)
    return tuple(deep_dives)


def load_inputs(root: Path, cached: Collection[str] = ()) -> tuple[Inputs, list[Problem]]:
    """Parse every input file under ``root``; return what loaded and every problem.

    Of the version folders named in ``cached`` (unchanged since a build that checked them),
    only release.yaml is read.
    """
    use_system_allocator()
    problems: list[Problem] = []
    results, card_dir = root / "results", root / "harnesscards"
    for top in (results, card_dir):
        escape = _escapes(root, top) if top.is_symlink() else None
        if escape is not None:
            problems.append(escape)
            return Inputs(root, (), {}, frozenset()), problems
    releases = _load_releases(root, results, cached, problems)
    cards, broken = _load_cards(root, card_dir, problems)
    return Inputs(root, releases, cards, broken), problems


def _load_releases(
    root: Path, results: Path, cached: Collection[str], problems: list[Problem]
) -> tuple[LoadedRelease, ...]:
    """Every version folder under ``results/``; of those in ``cached``, the manifest only."""
    if not results.is_dir():
        problems.append(
            Problem(
                "results",
                None,
                "",
                "folder not found; expected results/<version>/release.yaml under the root",
            )
        )
        return ()
    releases: list[LoadedRelease] = []
    for folder in _visible(root, results, problems):
        if folder.is_dir():
            if folder.name in cached:
                release = _load(Release, root, folder / "release.yaml", problems)
                releases.append(LoadedRelease(folder.name, release, None, (), (), True))
            else:
                releases.append(_load_release(root, folder, problems))
    if not releases:
        problems.append(
            Problem(
                "results", None, "", "no release folders; expected results/<version>/release.yaml"
            )
        )
    return tuple(releases)


def _load_cards(
    root: Path, card_dir: Path, problems: list[Problem]
) -> tuple[dict[str, Loaded[HarnessCard]], frozenset[str]]:
    """The HarnessCards by id, and the ids of card files present but invalid."""
    cards: dict[str, Loaded[HarnessCard]] = {}
    broken: set[str] = set()
    if not card_dir.is_dir():
        return cards, frozenset()
    for path in _visible(root, card_dir, problems):
        if path.suffix != ".yaml" or not path.is_file():
            if path.suffix in {".yml", ".json"}:
                problems.append(_stray(root, path, "HarnessCards are <id>.yaml files"))
            continue
        card = _load(HarnessCard, root, path, problems)
        if card is not None:
            cards[path.stem] = card
        else:
            broken.add(path.stem)
    return cards, frozenset(broken)
