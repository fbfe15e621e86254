"""Every local link and anchor of the built example site resolves (no browser needed)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("name"):
            self.ids.add(str(values["name"]))
        for key in ("href", "src"):
            if values.get(key) and tag in {"a", "link", "script", "img"}:
                self.links.append(str(values[key]))


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_local_link_and_anchor_resolves(site: Path) -> None:
    pages = {p: _parse(p) for p in site.rglob("*.html")}
    broken: list[str] = []
    checked = 0
    for page, parsed in pages.items():
        for link in parsed.links:
            url = urlparse(link)
            if url.scheme in {"http", "https", "mailto", "data", "javascript"} or link.startswith(
                "//"
            ):
                continue
            target_part, fragment = urldefrag(link)
            target = (page.parent / unquote(target_part)).resolve() if target_part else page
            if target.is_dir():
                target = target / "index.html"
            checked += 1
            if not target.exists():
                broken.append(f"{page.relative_to(site)} -> {link}")
            elif fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                if unquote(fragment) not in ids:
                    broken.append(f"{page.relative_to(site)} -> {link} (no anchor)")
    assert checked > 1000
    assert not broken, broken[:20]
