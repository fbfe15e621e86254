"""mkdocs hook: put finished HTML blocks (tables, charts) into each page after rendering.

The generator writes such blocks into the Markdown as ``<!--lg-html:BASE64-->``: an HTML
comment that Python-Markdown and the search plugin pass over in one step, instead of parsing
every cell of a large table twice. The build then lifts them out of the page into a side file
(``<page>.json`` under the folder named by ``extra.lg_blocks``), leaving ``<!--lg-block:N-->``.
Here, in the final page, each comment becomes its HTML again.

It also gives the theme a store for the one navigation that pages outside the nav share
(see ``overrides/main.html``).
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

_INLINE = re.compile(r"<!--lg-html:([A-Za-z0-9+/=]+)-->")
_LIFTED = re.compile(r"<!--lg-block:(\d+)-->")


def _decode(encoded: str) -> str:
    return base64.b64decode(encoded).decode("utf-8")


def on_env(env: Any, config: Any, files: Any) -> Any:
    """A fresh store for the navigation that pages outside it share (overrides/main.html)."""
    env.globals["lg_shared_nav"] = {}
    return env


def on_post_page(output: str, page: Any, config: Any) -> str:
    output = _INLINE.sub(lambda m: _decode(m.group(1)), output)
    folder = config.extra.get("lg_blocks")
    side = Path(folder) / f"{page.file.src_uri}.json" if folder else None
    if side is None or not side.is_file():
        return output
    blocks = json.loads(side.read_text(encoding="utf-8"))
    return _LIFTED.sub(lambda m: _decode(blocks[int(m.group(1))]), output)
