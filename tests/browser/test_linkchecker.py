"""linkchecker crawls the served site and finds no broken link. Anchors are checked by our
own parser over every page (tests/site/test_links.py): linkchecker's AnchorCheck fetched
and parsed a page again for each anchor (42 s of the 55 s this test took)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CONFIG = """[checking]
# the test server says it is linkchecker's own (tests/serve.py): no wait between pages
maxrequestspersecond=1000
[filtering]
checkextern=0
# downloads are fetched and compared byte for byte by test_interaction; latest/ only redirects
ignore=
  \\.csv$
  \\.json$
  /latest/
"""


def test_linkchecker_finds_nothing_broken(server: str, tmp_path: Path) -> None:
    config = tmp_path / "linkcheckerrc"
    config.write_text(CONFIG, encoding="utf-8")
    tool = Path(sys.executable).parent / "linkchecker"
    result = subprocess.run(
        [
            str(tool),
            "--config",
            str(config),
            "--no-status",
            "--no-robots",
            "-t",
            "2",  # the GIL: 16 threads took twice as long as 2 here
            f"{server}/index.html",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert " 0 errors found" in output
    assert "links in" in output
