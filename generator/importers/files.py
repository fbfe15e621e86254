"""Write what an import read into a root: the bundles, their HarnessCards, and the release
and task catalog when the version has none.

Nothing is written unless everything can be: every file is made and checked against its
model first, and every conflict with the root is listed at once. Re-importing the same
source writes the same bytes ("unchanged"); a bundle that differs is replaced only when
asked (``replace``). An existing release, catalog or HarnessCard is never rewritten: the
import checks that it can hold the runs (runs per task, domains, causes, failure types,
tasks) and says what it lacks.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from generator.errors import InvalidInput, Problem
from generator.importers import documents
from generator.importers.source import Imported, ImportedBundle
from generator.load.source import Source
from generator.load.validate import validate_as
from generator.load.yamlfile import read_yaml
from generator.models import Bundle, Catalog, HarnessCard, Release
from generator.models.runs import RunRecord

HEADER = (
    "# Written by `python -m generator import {fmt}` from {tool} results: what the results "
    'record,\n# every other setting "not recorded" (never a made-up value). {hint}\n'
)
HINTS = {
    "release": "Describe the release (title, boundaries_of_use, components) here.",
    "catalog": "Add what you know of each task.",
    "card": "Disclose what you know of the harness, layer by layer.",
    "bundle": "Re-import with --replace to refresh.",
}


@dataclass(frozen=True)
class Options:
    """Where and how to import: the root, the version, and what the source cannot say."""

    root: Path
    version: str
    fmt: str
    combination: str | None = None
    replace: bool = False
    consent_by: str | None = None
    consent_date: dt.date | None = None
    freeze_date: dt.date | None = None
    code: str | None = None


@dataclass(frozen=True)
class Written:
    path: str
    state: str  # "written", "replaced", "unchanged" or "kept"


def code_of(name: str) -> str:
    """The benchmark's code from its name: lower-case letters and digits joined by '-'."""
    return "-".join(re.findall(r"[a-z0-9]+", name.lower()))[:64].strip("-") or "benchmark"


def _yaml(kind: str, options: Options, tool: str, data: dict[str, Any]) -> str:
    head = HEADER.format(fmt=options.fmt, tool=tool, hint=HINTS[kind])
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def _checked(model: type[BaseModel], data: dict[str, Any], rel: str) -> list[Problem]:
    """The problems the model finds in a document about to be written at ``rel``."""
    try:
        model.model_validate(data)
    except ValidationError as exc:
        return [
            Problem(rel, None, ".".join(str(p) for p in e["loc"]), f"{e['msg']} (from the source)")
            for e in exc.errors()
        ]
    return []


def _existing(model: type[Any], path: Path, root: Path) -> Any | list[Problem] | None:
    """The file at ``path`` as ``model``; its problems when it does not validate; ``None``
    when there is no file."""
    if not path.exists():
        return None
    rel = path.relative_to(root).as_posix()
    read = read_yaml(path, rel)
    if isinstance(read, Problem):
        return [read]
    data, source = read
    return validate_as(model, data, source)


def _release_fits(release: Release, imported: Imported, rel: str, src: Source) -> list[Problem]:
    """What an existing release lacks to hold the imported runs."""
    out = []
    for entry in imported.bundles:
        if entry.runs_per_task != release.runs_per_task:
            out.append(
                Problem(
                    rel,
                    src.line("runs_per_task"),
                    "runs_per_task",
                    f"{release.runs_per_task}, but {entry.combination} ran "
                    f"{entry.runs_per_task} per task; expected the same number",
                )
            )
    wanted: list[tuple[str, set[str], set[str]]] = [
        ("domains", set(imported.domains), {d.id for d in release.domains}),
        (
            "enumerations.incomplete_causes",
            set(imported.causes),
            {c.id for c in release.enumerations.incomplete_causes},
        ),
        (
            "enumerations.failure_types",
            set(imported.failures),
            {f.id for f in release.enumerations.failure_types},
        ),
    ]
    if imported.outcome.kind == "measure":
        wanted.append(("metrics", {imported.outcome.metric}, {m.id for m in release.metrics}))
    for field, needed, declared in wanted:
        lacking = sorted(needed - declared)
        if lacking:
            out.append(
                Problem(
                    rel,
                    src.line(*field.split(".")),
                    field,
                    f"lacks {lacking}, which the imported runs name; expected them declared",
                )
            )
    return out


def _consent(options: Options, previous: Path, last_day: dt.date) -> dict[str, Any]:
    """Publication consent: granted by ``--consent``, else not granted. Its date is the
    one given, else the one an earlier import of the same bundle recorded, else today."""
    granted = options.consent_by is not None
    by = options.consent_by or "not given at import (python -m generator import --consent)"
    day = options.consent_date
    if day is None and previous.is_file():
        try:
            old = yaml.safe_load(previous.read_text(encoding="utf-8")).get("consent", {})
            if old.get("granted") == granted and old.get("by") == by:
                day = dt.date.fromisoformat(str(old.get("date")))
        except (AttributeError, ValueError, yaml.YAMLError):
            day = None
    return {"granted": granted, "by": by, "date": (day or dt.date.today()).isoformat()}


def _runs_agree(bundles: list[ImportedBundle]) -> list[Problem]:
    """A new release prescribes one number of runs per task: the bundles must agree on it."""
    if len({b.runs_per_task for b in bundles}) < 2:
        return []
    ran = ", ".join(f"{b.combination}: {b.runs_per_task}" for b in bundles)
    return [
        Problem(
            "SOURCE",
            None,
            "",
            f"the combinations ran different numbers of runs per task ({ran}); a release "
            "prescribes one: import those of each number into a version of its own",
        )
    ]


def plan(imported: Imported, options: Options) -> list[tuple[str, str | None]]:
    """Every file of the import by its path under the root, with its text (``None``: an
    existing file that is kept); :class:`InvalidInput` with every problem found."""
    root, version = options.root, options.version
    problems: list[Problem] = []
    bundles = list(imported.bundles)
    if options.combination is not None:
        if len(bundles) != 1:
            names = sorted(b.combination for b in bundles)
            raise InvalidInput(
                [
                    Problem(
                        "--combination",
                        None,
                        "",
                        f"the source holds {len(bundles)} "
                        f"combinations {names}; --combination names one, so import them one by one",
                    )
                ]
            )
        bundles = [replace(bundles[0], combination=options.combination)]
    ids = [b.combination for b in bundles]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        problems.append(
            Problem(
                "SOURCE",
                None,
                "",
                f"combinations {twice} appear twice: "
                "import each source of them into its own version",
            )
        )
    imported = replace(imported, bundles=tuple(bundles))
    base = f"results/{version}"
    files: list[tuple[str, str | None]] = []
    release_rel, catalog_rel = f"{base}/release.yaml", f"{base}/tasks.yaml"
    found = _existing(Release, root / release_rel, root)
    if isinstance(found, list):
        problems += found
    elif found is not None:
        problems += _release_fits(found, imported, release_rel, _source(root, release_rel))
        files.append((release_rel, None))
    else:
        problems += _runs_agree(bundles)
        freeze = options.freeze_date or min(b.first_day for b in bundles)
        code = options.code or code_of(imported.benchmark)
        data = documents.release(imported, version, code, freeze)
        problems += _checked(Release, data, release_rel)
        files.append((release_rel, _yaml("release", options, imported.tool, data)))
    found = _existing(Catalog, root / catalog_rel, root)
    if isinstance(found, list):
        problems += found
    elif found is not None:
        known = {t.id for t in found.tasks}
        lacking = sorted(t.id for t in imported.tasks if t.id not in known)
        if lacking:
            problems.append(
                Problem(
                    catalog_rel,
                    None,
                    "tasks",
                    f"lacks the imported tasks {lacking[:10]}{' …' if len(lacking) > 10 else ''}",
                )
            )
        files.append((catalog_rel, None))
    else:
        data = documents.catalog(imported, version)
        problems += _checked(Catalog, data, catalog_rel)
        files.append((catalog_rel, _yaml("catalog", options, imported.tool, data)))
    for entry in bundles:
        for rel, text in _bundle_files(imported, entry, options, problems):
            if all(rel != seen for seen, _ in files):  # a card two bundles share, once
                files.append((rel, text))
    if problems:
        raise InvalidInput(problems)
    return files


def _bundle_files(
    imported: Imported, entry: ImportedBundle, options: Options, problems: list[Problem]
) -> Iterator[tuple[str, str | None]]:
    root, version = options.root, options.version
    card_rel = f"harnesscards/{documents.card_id(entry)}.yaml"
    if (root / card_rel).exists():
        yield card_rel, None
    else:
        data = documents.card(entry)
        problems.extend(_checked(HarnessCard, data, card_rel))
        yield card_rel, _yaml("card", options, imported.tool, data)
    folder = f"results/{version}/bundles/{entry.combination}"
    consent = _consent(options, root / folder / "bundle.yaml", entry.last_day)
    data = documents.bundle(imported, entry, version, consent)
    problems.extend(_checked(Bundle, data, f"{folder}/bundle.yaml"))
    yield f"{folder}/bundle.yaml", _yaml("bundle", options, imported.tool, data)
    for run in entry.runs:
        record = documents.run_record(run, imported.outcome.kind, imported.outcome.metric)
        found = _checked(RunRecord, record, run.source or f"{folder}/runs.jsonl")
        problems.extend(replace(p, field=f"{run.task} run {run.run}: {p.field}") for p in found)
    yield f"{folder}/runs.jsonl", documents.runs_lines(imported, entry)


def _source(root: Path, rel: str) -> Source:
    read = read_yaml(root / rel, rel)
    assert not isinstance(read, Problem)
    return read[1]


def write(files: list[tuple[str, str | None]], options: Options) -> list[Written]:
    """Write the planned files; a bundle whose files differ from what is there only with
    ``replace`` (else :class:`InvalidInput`, and nothing is written)."""
    root = options.root
    states: list[Written] = []
    conflicts = []
    for rel, text in files:
        path = root / rel
        if text is None:
            states.append(Written(rel, "kept"))
        elif not path.exists():
            states.append(Written(rel, "written"))
        elif path.read_bytes() == text.encode("utf-8"):
            states.append(Written(rel, "unchanged"))
        elif options.replace:
            states.append(Written(rel, "replaced"))
        else:
            conflicts.append(
                Problem(
                    rel,
                    None,
                    "",
                    "exists and differs from what this import writes; "
                    "expected --replace to replace it (nothing was written)",
                )
            )
    if conflicts:
        raise InvalidInput(conflicts)
    for (rel, text), state in zip(files, states, strict=True):
        if text is None or state.state == "unchanged":
            continue
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.importing")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    return states
