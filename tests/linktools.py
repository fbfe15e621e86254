"""Links of built HTML pages: every local link and anchor resolves, and which links leave
the site (for the example site and the documentation site alike; no browser needed)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

#: Elements whose href or src is a link or a load.
LINKING = frozenset({"a", "link", "script", "img"})
#: Elements whose href or src the browser loads with the page.
LOADING = frozenset({"link", "script", "img", "iframe", "source", "video", "audio", "embed"})


class Links(HTMLParser):
    """The ids of a page and the links of its elements."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.loads: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("name"):
            self.ids.add(str(values["name"]))
        for key in ("href", "src"):
            if values.get(key) and tag in LINKING:
                self.links.append(str(values[key]))
            if values.get(key) and tag in LOADING:
                self.loads.append(str(values[key]))


def parse(path: Path) -> Links:
    """The links and ids of the page at ``path``."""
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def leaves(link: str) -> bool:
    """Whether ``link`` goes to another host or scheme (not a file of the site)."""
    url = urlparse(link)
    return url.scheme in {"http", "https", "mailto", "data", "javascript"} or link.startswith("//")


def broken_links(site: Path) -> tuple[int, list[str]]:
    """How many local links the pages under ``site`` hold, and those that do not resolve (to
    a file, or to an anchor of the page they name)."""
    pages = {p: parse(p) for p in site.rglob("*.html")}
    broken: list[str] = []
    checked = 0
    for page, parsed in pages.items():
        for link in parsed.links:
            if leaves(link):
                continue
            target_part, fragment = urldefrag(link)
            target = (page.parent / unquote(target_part)).resolve() if target_part else page
            if target.is_dir():
                target = target / "index.html"
            checked += 1
            if not target.exists():
                broken.append(f"{page.relative_to(site)} -> {link}")
            elif fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target).ids
                if unquote(fragment) not in ids:
                    broken.append(f"{page.relative_to(site)} -> {link} (no anchor)")
    return checked, broken
