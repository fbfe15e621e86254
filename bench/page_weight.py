#!/usr/bin/env python3
"""Measure page weight of a built site in Debian's Chromium (not a timed test).

For every page: the bytes of its first load in an empty cache (the page, shared assets,
scripts and data it fetches), and the new bytes when it is reached after the release home
(what a reader pays per further page). Budgets: first load at most 1.5 MB, a later page at
most 200 KB of new bytes, counted as transferred by a static host that gzips text (as every
common one does); the uncompressed bytes are reported beside them.

Usage: python bench/page_weight.py [--site DIR] [--json FILE] [--heaviest N]
       (builds the example into a temporary folder when --site is not given)

``--heaviest N`` measures, in each folder, only its N largest pages: pages of one folder
share every asset and differ in their own HTML, so the lighter ones cannot weigh more. It
keeps a site of 1,400 task pages measurable in minutes.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

FIRST_LOAD_BUDGET = 1_500_000
NEXT_PAGE_BUDGET = 200_000
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


class _Gzip(SimpleHTTPRequestHandler):
    """A static host: text files go out gzip-compressed when the browser accepts it."""

    TEXT = (".html", ".js", ".css", ".json", ".xml", ".csv", ".svg")

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        gzip_ok = "gzip" in self.headers.get("Accept-Encoding", "")
        if not path.is_file() or not gzip_ok or path.suffix not in self.TEXT:
            super().do_GET()
            return
        body = gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _fetched(page: Page, url: str) -> dict[str, tuple[int, int]]:
    """URL → (bytes transferred, bytes decoded) of every response while loading ``url``."""
    sizes: dict[str, tuple[int, int]] = {}

    def record(response: Any) -> None:
        try:
            decoded = len(response.body())
            sent = response.request.sizes()["responseBodySize"]
        except Exception:  # redirects and aborted requests carry no body
            decoded = sent = 0
        sizes[response.url] = (sent, decoded)

    page.on("response", record)
    page.goto(url, wait_until="load")
    page.wait_for_timeout(300)
    page.remove_listener("response", record)
    return sizes


def _pages(site: Path, heaviest: int | None) -> list[str]:
    """The pages to measure: every page, or the ``heaviest`` largest of each folder."""
    by_folder: dict[Path, list[Path]] = {}
    for p in site.rglob("*.html"):
        if "latest" not in p.relative_to(site).parts:
            by_folder.setdefault(p.parent, []).append(p)
    chosen = []
    for pages in by_folder.values():
        pages.sort(key=lambda p: (-p.stat().st_size, p.name))
        chosen += pages if heaviest is None else pages[:heaviest]
    return sorted(p.relative_to(site).as_posix() for p in chosen)


def measure(site: Path, per_folder: int | None = None) -> dict[str, Any]:
    handler = functools.partial(_Gzip, directory=str(site))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    pages = _pages(site, per_folder)
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for rel in pages:
            context = browser.new_context()
            page = context.new_page()
            first = _fetched(page, f"{base}/{rel}")
            context.close()
            version = rel.split("/")[0]
            home = f"{base}/{version}/index.html" if version.startswith("v") else f"{base}/"
            context = browser.new_context()
            page = context.new_page()
            seen = _fetched(page, home)
            after = _fetched(page, f"{base}/{rel}")
            context.close()
            new = [size for url, size in after.items() if url not in seen]
            rows.append(
                {
                    "page": rel,
                    "first_load_bytes": sum(s for s, _ in first.values()),
                    "next_page_bytes": sum(s for s, _ in new),
                    "first_load_uncompressed": sum(d for _, d in first.values()),
                    "next_page_uncompressed": sum(d for _, d in new),
                }
            )
        browser.close()
    httpd.shutdown()
    heaviest = max(rows, key=lambda r: r["first_load_bytes"])
    heaviest_next = max(rows, key=lambda r: r["next_page_bytes"])
    return {
        "pages": len(rows),
        "measured": "every page" if per_folder is None else f"the {per_folder} largest per folder",
        "heaviest_first_load": heaviest,
        "heaviest_next_page": heaviest_next,
        "heaviest_first_load_uncompressed": max(r["first_load_uncompressed"] for r in rows),
        "heaviest_next_page_uncompressed": max(r["next_page_uncompressed"] for r in rows),
        "first_load_budget": FIRST_LOAD_BUDGET,
        "next_page_budget": NEXT_PAGE_BUDGET,
        "within_budget": heaviest["first_load_bytes"] <= FIRST_LOAD_BUDGET
        and heaviest_next["next_page_bytes"] <= NEXT_PAGE_BUDGET,
        "rows": rows,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build the example)")
    parser.add_argument("--json", type=Path, help="write the full measurement here")
    parser.add_argument("--heaviest", type=int, help="measure the N largest pages per folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
            from generator.build import build_site
            from generator.load import load_inputs

            inputs, _ = load_inputs(Path(__file__).resolve().parents[1])
            site = Path(tmp) / "site"
            build_site(inputs, site, strict=True, progress=lambda _: None)
        result = measure(site, args.heaviest)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    summary = {k: v for k, v in result.items() if k != "rows"}
    print(json.dumps(summary, indent=2))
    return 0 if result["within_budget"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
