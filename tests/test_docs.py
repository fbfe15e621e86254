"""The README documents every command and option the command line offers."""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import click

from generator.cli import cli
from generator.disclosure import fingerprint
from generator.load import Inputs

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_every_command_and_option_is_documented() -> None:
    assert isinstance(cli, click.Group)
    for name, command in cli.commands.items():
        assert f"python -m generator {name}" in README, name
        for param in command.params:
            for opt in param.opts:
                if opt.startswith("--") and opt != "--help":
                    assert opt in README, f"{name} {opt}"


def test_readme_names_every_exit_code() -> None:
    for code in ("`0`", "`1`", "`2`", "`3`"):
        assert code in README


def _fingerprint_recipe() -> list[str]:
    """The README's one-line fingerprint recipe, as arguments (run with this Python)."""
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.DOTALL)
    (line,) = [b for b in blocks if "hashlib" in b]
    args = shlex.split(line)
    assert args[0] == "python3"
    return [sys.executable, *args[1:]]


def test_the_readme_fingerprint_recipe_gives_the_site_s_fingerprint(
    site: Path, inputs: Inputs, tmp_path: Path
) -> None:
    recipe = _fingerprint_recipe()
    record_name = recipe[-1]
    combo = record_name.removesuffix(".configuration-record.json")
    version = next(v for v in inputs.releases if any(b.folder == combo for b in v.bundles))
    exported = site / version.folder / "combinations" / record_name
    shutil.copy(exported, tmp_path / record_name)  # as a reader downloads it
    out = subprocess.run(recipe, cwd=tmp_path, capture_output=True, text=True, check=True)
    bundle = next(b for b in version.bundles if b.folder == combo).bundle.model
    card = inputs.cards[bundle.combination.harnesscard].model
    want = fingerprint(card, bundle)
    assert out.stdout == f"{want}\n"
    page = (site / version.folder / "combinations" / f"{combo}.html").read_text("utf-8")
    assert want in page
    # the record holds non-ASCII text, so the README's ensure_ascii=False is what makes it agree
    document = json.loads(exported.read_text("utf-8"))["fingerprinted"]
    escaped = json.dumps(document, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(escaped.encode()).hexdigest()[:12] != want
    for setting in ("sort_keys=True", 'separators=(",", ":")', "ensure_ascii=False", "UTF-8"):
        assert setting in README
