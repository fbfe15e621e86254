"""mkdocs hook: put finished HTML blocks (tables, charts) into each page after rendering.

The generator writes such blocks into the Markdown as ``<!--lg-html:BASE64-->``: an HTML
comment that Python-Markdown and the search plugin pass over in one step, instead of parsing
every cell of a large table twice. Here, in the final page, each comment becomes its HTML.
"""

from __future__ import annotations

import base64
import re
from typing import Any

_BLOCK = re.compile(r"<!--lg-html:([A-Za-z0-9+/=]+)-->")


def _expand(match: re.Match[str]) -> str:
    return base64.b64decode(match.group(1)).decode("utf-8")


def on_post_page(output: str, page: Any, config: Any) -> str:
    return _BLOCK.sub(_expand, output)
