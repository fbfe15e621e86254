"""Serve a built site on 127.0.0.1 from a thread, for browser tests."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Request


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def end_headers(self) -> None:
        # linkchecker asks a host for at most 10 pages a second unless the host says it is
        # one of its own (its "LinkChecker" header): 55 s of waiting for this site's pages.
        self.send_header("LinkChecker", "local test server")
        super().end_headers()


def serve(folder: Path) -> Iterator[str]:
    """Yield the base URL of ``folder`` served over HTTP; stop serving afterwards."""
    handler = functools.partial(_Quiet, directory=str(folder))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def local_only(page: Page, server: str) -> list[str]:
    """The list of the requests ``page`` makes to another host, filled as it makes them.
    None of them reaches a host: the browser resolves no name but this machine's
    (:data:`NO_OTHER_HOST`). Listening costs nothing; routing every request through
    Playwright to abort the foreign ones made each page 0.13 s slower (0.45 s against 0.31 s
    a page of the hostile example), 40 s of the three examples' injection test."""
    foreign: list[str] = []

    def seen(request: Request) -> None:
        if not request.url.startswith(server):
            foreign.append(request.url)

    page.on("request", seen)
    return foreign


#: Chromium's flag that makes every host name but the loopback address fail to resolve.
NO_OTHER_HOST = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


#: A laptop's window, and the tallest a page may be in it: about four screens, the answer on
#: top and the detail one click away.
LAPTOP = {"width": 1280, "height": 800}
MOST_HEIGHT = 4 * LAPTOP["height"]
#: Material's script has sized every shown sidebar to the window: before it has, a long
#: navigation stretches the page (the method-effect view measured 3,740 px without the script,
#: 2,202 px with it, and 3,692 px once on a loaded CI machine that measured too early).
SIDEBARS_SIZED = """() => [...document.querySelectorAll('.md-sidebar__scrollwrap')]
    .every(e => e.offsetParent === null || e.style.height !== '')"""


def too_tall(
    page: Page, server: str, paths: list[str], check: Callable[[Page], None] | None = None
) -> dict[str, int]:
    """The pages of ``paths`` (site-relative) taller than :data:`MOST_HEIGHT` in a laptop's
    window, with their heights; ``check`` runs on each page once it has loaded."""
    page.set_viewport_size(LAPTOP)  # type: ignore[arg-type]
    tall = {}
    for rel in paths:
        page.goto(f"{server}/{rel}", wait_until="load")
        page.wait_for_function(SIDEBARS_SIZED, timeout=15_000)
        if check is not None:
            check(page)
        height: int = page.evaluate("document.documentElement.scrollHeight")
        if height > MOST_HEIGHT:
            tall[rel] = height
    return tall
