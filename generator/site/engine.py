"""The mkdocs build of a version on two cores: a forked child builds some of its pages.

mkdocs reads every page (Markdown to HTML), then renders every page into the theme, one page
at a time in one process. Here the build forks when it reaches its first page, after the
files and the navigation exist, so that both processes hold the same site. Each converts and
renders its own pages, and of the other's only reads the source (for titles in the
navigation). The child writes nothing else (no theme files, templates or search index): at
the last page it sends the parent its pages' search entries and what mkdocs said while it
built them, and the parent puts the entries in page order before mkdocs writes the index.
The site is the same as one process builds (tested byte for byte), and so is what mkdocs'
loggers (``mkdocs`` and below) say: while the build is split, each process keeps their
messages with the step and page they came from, and the parent hands both processes' to the
handlers in the order of a one-process build. (Other loggers, such as Python-Markdown's,
print from each process as they go.)

This reaches into mkdocs' build loop (``mkdocs.commands.build``: ``_populate_page``,
``_build_page``, the theme and extra templates, ``Files.copy_static_files``). Where those are
not as expected, or no process can be forked, mkdocs builds alone.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterator
from typing import Any, cast

from generator.site import forked

_HOOKED = ("_populate_page", "_build_page", "_build_theme_template", "_build_extra_template")
_SEARCH = "material/search"


def build(config: Any, theirs: frozenset[str]) -> None:
    """mkdocs' build of ``config``; the pages whose source paths are in ``theirs`` are built
    by a forked child when the platform can fork."""
    import mkdocs.commands.build as steps
    from mkdocs.structure.files import Files

    if not (forked.FORK and theirs and _splittable(config, steps)):
        steps.build(config)
        return
    split = _Split(theirs, config.plugins[_SEARCH])
    handlers = split.logger.handlers[:]
    originals = {name: getattr(steps, name) for name in _HOOKED}
    copy_static = Files.copy_static_files
    try:
        steps._populate_page = split.populate(originals["_populate_page"])
        steps._build_page = split.render(originals["_build_page"])
        for name in _HOOKED[2:]:
            setattr(steps, name, split.unless_child(originals[name]))
        Files.copy_static_files = split.unless_child(copy_static)  # type: ignore[method-assign]
        steps.build(config)
    except BaseException as exc:
        if split.branch is not None and split.branch.child:
            with contextlib.suppress(BaseException):
                split.branch.send(split.kept)  # what the failing pages said, for the parent
            split.branch.fail(exc)  # never back into the caller's code
        raise
    finally:
        for name, function in originals.items():
            setattr(steps, name, function)
        Files.copy_static_files = copy_static  # type: ignore[method-assign]
        split.replay([])  # a build that failed while split still says what the parent kept
        for handler in split.logger.handlers[:]:
            if handler not in handlers:  # mkdocs' strict-mode counter, when it failed split
                split.logger.removeHandler(handler)
        if split.branch is not None:
            if split.branch.child:
                os._exit(2)  # not reached (the child ends at its last page or fails above)
            split.branch.stop()


def _splittable(config: Any, steps: Any) -> bool:
    """Whether this build can be split: mkdocs' loop as expected, no plugin but the search
    and hooks (another plugin could keep per-page state the parent would miss), and anchors
    in links not validated as warnings (the child's pages are checked by neither process)."""
    hookable = all(callable(getattr(steps, name, None)) for name in _HOOKED)
    plugins = all(name == _SEARCH or name.endswith(".py") for name in config.plugins)
    anchors = config.validation.links.anchors
    return hookable and _SEARCH in config.plugins and plugins and anchors < logging.WARNING


# The steps of mkdocs' build, in order: reading every page, the theme's files and templates,
# rendering every page. A message is placed by its step and page number.
_READ, _THEME, _RENDER = range(3)
Kept = tuple[tuple[int, int], logging.LogRecord]


class _Split:
    """Which process builds which page; the search entries and the messages each keeps."""

    def __init__(self, theirs: frozenset[str], search: Any) -> None:
        self.theirs = theirs
        self.search = search
        self.branch: forked.Branch | None = None
        self.entries: dict[str, list[Any]] = {}  # by page source path, in build order
        self.logger = logging.getLogger("mkdocs")
        self.kept: list[Kept] = []
        self.at = (_READ, 0)
        self.pages = [0, 0]  # pages read, pages rendered
        self.total: int | None = None  # pages to read
        self.quiet = False  # what is said now is the other process's to keep
        self._forking = True
        self._saved: tuple[list[logging.Handler], bool] | None = None

    def mine(self, page: Any) -> bool:
        if self.branch is None:
            return True
        return (page.file.src_uri in self.theirs) == self.branch.child

    def _fork(self) -> None:
        if not self._forking:
            return
        self._forking = False
        try:
            self.branch = forked.Branch(nice=0)  # as urgent as the parent's half
        except OSError:
            return  # no process to spare: mkdocs builds every page here
        # From here until the processes meet, mkdocs' messages are kept, not handled; the
        # child keeps only what is said while it builds its own pages (the parent says the
        # rest too).
        self._saved = (self.logger.handlers[:], self.logger.propagate)
        self.logger.handlers = [_Keep(self)]
        self.logger.propagate = False
        self.quiet = self.branch.child

    def keep(self, record: logging.LogRecord) -> None:
        if self.quiet:
            return
        # As the handlers would format it, in a form that crosses the pipe.
        record.msg, record.args = record.getMessage(), None
        if record.exc_info:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
        self.kept.append((self.at, record))

    def replay(self, theirs: list[Kept]) -> None:
        """Hand the kept messages and the other process's to the handlers, in the order of a
        one-process build: by step and page (each page's messages come from one process,
        whose order a stable sort keeps)."""
        if self._saved is None:
            return
        self.logger.handlers, self.logger.propagate = self._saved
        self._saved = None
        for _, record in sorted([*self.kept, *theirs], key=lambda kept: kept[0]):
            self.logger.callHandlers(record)

    @contextlib.contextmanager
    def _voice(self, mine: bool) -> Iterator[None]:
        """Messages said meanwhile are kept if the page is this process's."""
        before, self.quiet = self.quiet, not mine
        try:
            yield
        finally:
            self.quiet = before

    def populate(self, original: Callable[..., None]) -> Callable[..., None]:
        def populate(page: Any, config: Any, files: Any, dirty: bool = False) -> None:
            self._fork()
            if self.total is None:
                # As mkdocs' build counts them (``mkdocs serve`` would count drafts too).
                self.total = len(files.documentation_pages())
            mine = self.mine(page)
            with self._voice(mine):
                if mine:
                    original(page, config, files, dirty)
                else:
                    page.read_source(config)  # its title, for the navigation
            # What is said before the next page (mkdocs' "Reading" line) belongs with it.
            self.pages[0] += 1
            self.at = (_READ, self.pages[0]) if self.pages[0] < self.total else (_THEME, 0)

        return populate

    def render(self, original: Callable[..., None]) -> Callable[..., None]:
        def render(page: Any, config: Any, doc_files: Any, *args: Any, **kwargs: Any) -> None:
            self.at = (_RENDER, self.pages[1])
            if self.mine(page):
                index = self.search.search_index
                before = len(index.entries)
                with self._voice(True):
                    original(page, config, doc_files, *args, **kwargs)
                self.entries[page.file.src_uri] = index.entries[before:]
            self.pages[1] += 1
            self.at = (_RENDER, self.pages[1])
            if page is doc_files[-1].page and self.branch is not None:
                self._meet(doc_files)

        return render

    def unless_child(self, original: Callable[..., Any]) -> Callable[..., Any]:
        def unless_child(*args: Any, **kwargs: Any) -> Any:
            if self.branch is not None and self.branch.child:
                return None
            return original(*args, **kwargs)

        return unless_child

    def _meet(self, doc_files: Any) -> None:
        """After the last page: the child sends what it kept and its search entries, and
        ends; the parent hands every message to the handlers in order (the child's failure,
        if any, is raised after), and puts every page's entries in page order."""
        assert self.branch is not None
        if self.branch.child:
            self.branch.send(self.kept)
            self.branch.finish(self.entries)
        theirs = cast(list[Kept], self.branch.receive())
        try:
            entries = cast(dict[str, list[Any]], self.branch.result())
        finally:
            self.replay(theirs)
        both = {**self.entries, **entries}
        self.search.search_index.entries = [
            entry for file in doc_files for entry in both.get(file.src_uri, [])
        ]


class _Keep(logging.Handler):
    """Hands every message to the split, which keeps it with its place."""

    def __init__(self, split: _Split) -> None:
        super().__init__(logging.NOTSET)
        self.split = split

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.split.keep(record)
        except Exception:
            self.handleError(record)
