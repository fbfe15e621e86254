"""The README fits a screen or two, gives the two set-up commands and links only to what
exists; the documentation's fingerprint recipe gives the site's fingerprint. (That every
command and option is documented holds by construction, in the generated command reference:
tests/docsite/test_commands.py.)"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from generator.disclosure import fingerprint
from generator.docsite.commands import EXIT_CODES
from generator.load import Inputs

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
TEXT = README.read_text(encoding="utf-8")
#: The docs page that gives the fingerprint recipe a customer runs.
DISCLOSURE = REPO / "docs" / "disclosure.md"

#: The two commands that, on a fresh machine with only python3, do all set-up.
BUILD = (
    "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/python -m generator build"
)
TEST = "bash .ci/run"


def test_the_readme_fits_a_screen_or_two() -> None:
    assert README.stat().st_size <= 10 * 1024


def test_the_readme_and_getting_started_give_the_two_commands() -> None:
    for text in (TEXT, (REPO / "docs" / "getting-started.md").read_text(encoding="utf-8")):
        blocks = re.findall(r"```sh\n(.*?)\n```", text, re.DOTALL)
        assert BUILD in blocks
        assert TEST in blocks
    assert (REPO / ".ci" / "run").is_file()


def test_every_link_of_the_readme_resolves() -> None:
    links = re.findall(r"\]\(([^)]+)\)", TEXT)
    assert links
    for link in links:
        assert not re.match(r"[a-z]+:", link), link  # nothing outside the repository
        assert (REPO / link.split("#")[0]).exists(), link


def test_the_readme_names_every_exit_code() -> None:
    assert [code for code, _ in EXIT_CODES] == [0, 1, 2, 3]
    for code, _ in EXIT_CODES:
        assert f"`{code}`" in TEXT


def _fingerprint_recipe() -> list[str]:
    """The documentation's one-line fingerprint recipe, as arguments (run with this Python)."""
    text = DISCLOSURE.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", text, re.DOTALL)
    (line,) = [b for b in blocks if "hashlib" in b]
    args = shlex.split(line)
    assert args[0] == "python3"
    return [sys.executable, *args[1:]]


def test_the_documented_fingerprint_recipe_gives_the_site_s_fingerprint(
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
    # the record holds non-ASCII text, so the recipe's ensure_ascii=False is what makes it agree
    document = json.loads(exported.read_text("utf-8"))["fingerprinted"]
    escaped = json.dumps(document, sort_keys=True, separators=(",", ":"))
    assert hashlib.sha256(escaped.encode()).hexdigest()[:12] != want
    text = DISCLOSURE.read_text(encoding="utf-8")
    for setting in ("sort_keys=True", 'separators=(",", ":")', "ensure_ascii=False", "UTF-8"):
        assert setting in text
