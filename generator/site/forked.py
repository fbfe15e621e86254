"""Work in a forked process: the build's second core.

Rendering the pages and writing the downloads are single-threaded Python, and mkdocs is
too; a version's build runs part of that work in a forked child meanwhile. The child shares
the parent's memory as it was at the fork (copy on write), so the version's scores are not
pickled: only what the child sends back (small messages, its result, or its exception)
crosses the pipe.

Where ``os.fork`` is missing (Windows), fails (no process to spare) or :data:`FORK` is off,
the work runs at once in this process: the same files, written later.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import traceback
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from typing import IO, Any, NoReturn, Protocol

from generator.errors import GeneratorError

#: Fork when the platform can; tests turn it off to compare both ways.
FORK = hasattr(os, "fork")
#: A child's priority below the parent's: the parent runs the build's longest chain (the
#: mkdocs build), which would otherwise share its core with the writing children.
NICE = 10

Send = Callable[[object], None]
Work = Callable[[Send], object]


class Worker(Protocol):
    def receive(self) -> object:
        """The next object the work sent; raises the work's exception if it failed first."""

    def result(self) -> object:
        """What the work returned (after the messages not yet received); raises its
        exception if it failed."""


class WorkerDied(GeneratorError):
    """The child ended without a result (killed, or out of memory)."""


@contextlib.contextmanager
def start(work: Work) -> Iterator[Worker]:
    """Run ``work(send)`` in a forked child (or at once, see :data:`FORK`); leaving the
    block stops a child whose result was not taken (the block failed first)."""
    if not FORK:
        yield _Inline(work)
        return
    try:
        child = _child(work)
    except OSError:  # no process to spare (EAGAIN, ENOMEM): do the work here
        yield _Inline(work)
        return
    try:
        yield child
    finally:
        child.stop()


class _Inline:
    """The work done at once, its messages and outcome kept for the caller."""

    def __init__(self, work: Work) -> None:
        self._messages: deque[object] = deque()
        self._error: BaseException | None = None
        self._value: object = None
        try:
            self._value = work(self._messages.append)
        except Exception as exc:  # handed over like a child's: at receive() or result()
            self._error = exc

    def receive(self) -> object:
        if self._messages:
            return self._messages.popleft()
        if self._error is not None:
            raise self._error
        raise WorkerDied("the work returned without sending the message expected")

    def result(self) -> object:
        self._messages.clear()
        if self._error is not None:
            raise self._error
        return self._value


class Branch:
    """A fork in the shape of ``os.fork``: both processes go on from here. The child (``child``
    is true) sends messages to the parent through a pipe and ends with :meth:`finish` or
    :meth:`fail`, never returning; the parent takes them with :meth:`receive` and
    :meth:`result`, or stops the child (:meth:`stop`). Raises ``OSError`` if no process can be
    made."""

    def __init__(self) -> None:
        read, write = os.pipe()
        with warnings.catch_warnings():
            # Python 3.12+ warns that a fork beside running threads may deadlock the child;
            # the child only renders and writes files (no lock another thread may hold).
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                pid = os.fork()
            except OSError:
                os.close(read)
                os.close(write)
                raise
        self.child = pid == 0
        self._pid = pid
        self._done = False
        self._value: object = None
        if self.child:
            try:
                os.close(read)
                self._pipe: IO[bytes] = os.fdopen(write, "wb")
                with contextlib.suppress(OSError):
                    os.nice(NICE)
            except BaseException:  # never back into the caller's code as a second parent
                os._exit(2)
        else:
            os.close(write)
            self._pipe = os.fdopen(read, "rb")

    # --- in the child

    def send(self, value: object) -> None:
        """Send ``value`` to the parent (pickled whole first: a value that cannot be pickled
        raises here and leaves nothing half-written in the pipe)."""
        data = pickle.dumps(("message", value))
        self._pipe.write(data)
        self._pipe.flush()

    def finish(self, value: object) -> NoReturn:
        """End the child with ``value`` as its result (or with the error of pickling it)."""
        self._end(lambda: ("result", value), 0)

    def fail(self, exc: BaseException) -> NoReturn:
        """End the child with ``exc``, raised in the parent."""
        self._end(lambda: ("error", _portable(exc)), 1)

    def _end(self, outcome: Callable[[], tuple[str, object]], code: int) -> NoReturn:
        """Send the outcome and leave without running any of the parent's exit handlers
        (``os._exit``), whatever happens on the way."""
        try:
            try:
                kind, value = outcome()
                data = pickle.dumps((kind, value))
            except BaseException as exc:  # the outcome itself failed: send that instead
                code = 1
                data = pickle.dumps(("error", _portable(exc)))
            self._pipe.write(data)
            self._pipe.flush()
        except BaseException:  # the parent reports a worker without result
            code = 2
        finally:
            os._exit(code)

    # --- in the parent

    def _next(self) -> tuple[str, Any]:
        try:
            kind, value = pickle.load(self._pipe)
        except (EOFError, pickle.UnpicklingError) as exc:
            status = self._reap()
            raise WorkerDied(f"a build worker process ended without a result ({status})") from exc
        if kind == "error":
            self._reap()
            raise value
        return str(kind), value

    def receive(self) -> object:
        kind, value = self._next()
        if kind != "message":
            self._reap()
            raise WorkerDied("a build worker process returned before sending its message")
        return value

    def result(self) -> object:
        while not self._done:
            kind, value = self._next()
            if kind == "result":
                self._reap()
                self._value = value
        return self._value

    def _reap(self) -> str:
        """Wait for the child; describe how it ended."""
        if self._done:
            return "already ended"
        self._done = True
        self._pipe.close()
        _, status = os.waitpid(self._pid, 0)
        if os.WIFSIGNALED(status):
            return f"killed by signal {os.WTERMSIG(status)}"
        return f"exit status {os.WEXITSTATUS(status)}"

    def stop(self) -> None:
        if not self._done:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            self._reap()


def _child(work: Work) -> Branch:
    """A forked child running ``work(send)``; in the parent, its :class:`Branch`."""
    branch = Branch()
    if branch.child:
        try:
            value = work(branch.send)
        except BaseException as exc:  # every failure goes back to the parent
            branch.fail(exc)
        branch.finish(value)
    return branch


def _portable(exc: BaseException) -> BaseException:
    """The exception itself if it survives pickling, else its traceback as a RuntimeError."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        text = "".join(traceback.format_exception(exc))
        return RuntimeError(f"a build worker process failed:\n{text}")
    return exc
