"""The build, stage by stage: load → check → score → pages → site.

:func:`build` is the whole of ``python -m generator build``; :func:`build_site` its last
three stages over inputs already loaded and checked. Each stage is a package of its own:
:mod:`generator.load`, :mod:`generator.check`, :mod:`generator.score`,
:mod:`generator.pages`, :mod:`generator.site`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from generator.check import check_inputs
from generator.errors import InvalidInput, Problem, sort_problems
from generator.load import Inputs, load_inputs
from generator.pages import cited_evidence, version_context
from generator.score.version import score_version
from generator.site import cache
from generator.site.build import Staging
from generator.site.engines import ENGINES

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Built:
    inputs: Inputs
    problems: list[Problem]  # the inputs' warnings and notices (errors stop the build)
    warnings: list[str]  # what the engine warned of
    reused: dict[str, str]  # versions unchanged since the last build, taken over from it


def build(
    root: Path,
    out: Path,
    strict: bool = False,
    engine: str = ENGINES[0],
    progress: Progress = print,
) -> Built:
    """Build the site of the releases under ``root`` into ``out``; raise InvalidInput (every
    problem listed) or BuildFailed, leaving ``out`` as it was."""
    reused = cache.reusable(root, out, strict, engine)
    inputs, problems = load_checked(root, strict, reused)  # load, check
    return Built(inputs, problems, build_site(inputs, out, strict, progress, engine), reused)


def load_checked(
    root: Path, strict: bool, cached: Collection[str] = ()
) -> tuple[Inputs, list[Problem]]:
    """Load and check every input; raise InvalidInput on errors (or warnings when strict).
    Versions named in ``cached`` are unchanged since the build that checked them."""
    inputs, problems = load_inputs(root, cached)
    problems += check_inputs(inputs)
    failing = [p for p in problems if p.severity == "error" or (strict and p.severity == "warning")]
    if failing:
        raise InvalidInput(problems)
    return inputs, sort_problems(problems)


def build_site(
    inputs: Inputs, out: Path, strict: bool, progress: Progress, engine: str = ENGINES[0]
) -> list[str]:
    """Score → pages → site for checked inputs, one version at a time, newest first; return
    the engine's warnings."""
    with Staging(inputs, out, strict, engine, progress) as site:
        for version in site.order:
            if version.cached:
                site.reuse(version)
                continue
            with site.version(version):
                # The pages' evidence index beside the scoring's numpy: the score stage took
                # 3.07 s with it, 3.22 s without (bench/tricks.py, 2026-12-01).
                with ThreadPoolExecutor(1) as side:
                    cited = side.submit(cited_evidence, version)
                    scored = score_version(version)  # score
                context = version_context(scored, inputs.cards, cited.result())  # pages
                site.add(context)  # site
    return site.warnings
