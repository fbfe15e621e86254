#!/usr/bin/env python3
"""What validate accepts, build publishes: over whole releases drawn by hypothesis
(``bench/valid_releases.py``), each one ``validate`` accepts must build with no traceback,
and each one it refuses must be refused with located problems, by ``build`` too.

The test suite runs this property over a few releases (``tests/test_valid_builds.py``);
this script runs it over many, and prints what it found (every finding, not only the first):

    python bench/valid_builds.py [--examples 200] [--seed 0]

Exit 1 when anything was found.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as seeded

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from valid_releases import MANY_RUNS, Choices, releases, write  # noqa: E402

from generator.cli import cli  # noqa: E402

#: A problem line as validate prints it: the file (and line), then what is wrong.
LOCATED = re.compile(r"^(results|harnesscards)(/[^:\s]+)*(:\d+)?: ")


@dataclass(frozen=True)
class Finding:
    """A release that broke the property: what was drawn, which command, what it said."""

    choices: Choices
    command: str
    said: str


@dataclass(frozen=True)
class Outcome:
    """What one release did: validate's exit code, and a finding if the property broke."""

    accepted: bool
    finding: Finding | None = None


def _invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), prog_name="python -m generator")


def _crash(result: Result) -> str | None:
    """What went wrong outside the project's own errors: an exception or a traceback."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        assert result.exc_info is not None
        return "".join(traceback.format_exception(*result.exc_info))
    return "a traceback in the output" if "Traceback" in result.output else None


def outcome(choices: Choices) -> Outcome:
    """Write the drawn release, validate it and build it; say how the property fared."""
    with tempfile.TemporaryDirectory() as tmp:
        root, site = Path(tmp) / "root", Path(tmp) / "site"
        write(choices, root)
        checked = _invoke("validate", "--root", str(root))
        crash = _crash(checked)
        if crash or checked.exit_code not in (0, 1):
            said = crash or f"exit {checked.exit_code}: {checked.output[-2000:]}"
            return Outcome(False, Finding(choices, "validate", said))
        built = _invoke("build", "--root", str(root), "--out", str(site))
        crash = _crash(built)
        if checked.exit_code == 0:
            if crash or built.exit_code != 0 or not (site / "index.html").is_file():
                said = crash or f"exit {built.exit_code}: {built.output[-2000:]}"
                return Outcome(True, Finding(choices, "build of a valid release", said))
            return Outcome(True)
        lines = checked.output.splitlines()
        unlocated = [s for s in lines if not LOCATED.match(s) and not _aside(s)]
        if crash or built.exit_code != 1 or unlocated or not any(map(LOCATED.match, lines)):
            said = crash or f"build exit {built.exit_code}; not located: {unlocated[:5]}"
            return Outcome(False, Finding(choices, "refusal", said))
        return Outcome(False)


def _aside(line: str) -> bool:
    """A line of validate's output that is no problem of a file: its notices, its tally."""
    return line.startswith(("notice: ", "Error: input is invalid", "valid: ")) or not line


def refused_why(choices: Choices) -> list[str]:
    """The problems validate prints for a release it refuses (empty when it accepts it)."""
    with tempfile.TemporaryDirectory() as tmp:
        write(choices, Path(tmp) / "root")
        checked = _invoke("validate", "--root", str(Path(tmp) / "root"))
    return [s for s in checked.output.splitlines() if LOCATED.match(s)]


def run(examples: int, seed: int) -> tuple[list[Outcome], list[Choices], float]:
    """The property over ``examples`` drawn releases; every outcome, in order."""
    outcomes: list[Outcome] = []
    drawn: list[Choices] = []
    began = time.perf_counter()

    @seeded(seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(releases())
    def each(choices: Choices) -> None:
        drawn.append(choices)
        outcomes.append(outcome(choices))

    each()
    return outcomes, drawn, time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--examples", type=int, default=200, help="releases to draw")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis' seed")
    args = parser.parse_args(argv)
    outcomes, drawn, seconds = run(args.examples, args.seed)
    accepted = Counter(c.base for c, o in zip(drawn, outcomes, strict=True) if o.accepted)
    every = Counter(c.base for c in drawn)
    findings = [o.finding for o in outcomes if o.finding is not None]
    print(f"{len(drawn)} releases in {seconds:.0f} s; validate accepted, by base:")
    for base in sorted(every):
        print(f"  {base}: {accepted[base]} of {every[base]}")
    drawn_as = Counter(
        tag
        for c in drawn
        for tag in (
            f"dates {c.dates}" if c.dates else "",
            f"values {c.values}" if c.values else "",
            "no token metric" if c.undeclare_tokens else "",
            "free text" if c.strings else "",
            "many runs" if c.size.get("runs") == MANY_RUNS else "",
            *(f"{count} {mode}" for count, mode in c.counts.items() if mode != "keep"),
        )
        if tag
    )
    print("drawn: " + ", ".join(f"{tag} {n}" for tag, n in sorted(drawn_as.items())))
    refusals = Counter(
        re.sub(r"^\S+ ", "", line)[:100]
        for c, o in zip(drawn, outcomes, strict=True)
        if not o.accepted and o.finding is None
        for line in refused_why(c)
    )
    for why, n in refusals.most_common(10):
        print(f"  refused ({n}x): {why}")
    print(f"findings: {len(findings)}")
    for f in findings:
        print(f"- {f.command}: {asdict(f.choices)}\n  {f.said.strip()[-1500:]}")
    return 1 if findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
