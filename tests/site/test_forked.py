"""Work in a forked process: messages, results and failures come back as if run here."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from generator.errors import GeneratorError
from generator.site import forked
from generator.site.forked import Send, WorkerDied


@pytest.fixture(params=[True, False], ids=["forked", "inline"])
def fork(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    if request.param and not hasattr(os, "fork"):
        pytest.skip("this platform cannot fork")
    monkeypatch.setattr(forked, "FORK", request.param)
    return bool(request.param)


def test_messages_then_the_result(fork: bool, tmp_path: Path) -> None:
    def work(send: Send) -> dict[str, int]:
        (tmp_path / "written").write_text("by the work")
        send(("sources written", os.getpid()))
        send(2)
        return {"pages": 3}

    with forked.start(work) as worker:
        text, pid = worker.receive()  # type: ignore[misc]
        assert text == "sources written"
        assert (tmp_path / "written").read_text() == "by the work"
        assert (pid != os.getpid()) is fork
        assert worker.result() == {"pages": 3}  # the unread message 2 is skipped


def test_the_work_s_exception_is_raised_here(fork: bool) -> None:
    def work(send: Send) -> None:
        send("started")
        raise GeneratorError("disk full: simulated")

    with forked.start(work) as worker:
        assert worker.receive() == "started"
        with pytest.raises(GeneratorError, match="disk full: simulated"):
            worker.result()


def test_an_exception_before_the_message_is_raised_by_receive(fork: bool) -> None:
    def work(_: Send) -> None:
        raise OSError(28, "No space left on device")

    with forked.start(work) as worker, pytest.raises(OSError, match="No space left"):
        worker.receive()


def test_an_exception_that_cannot_be_pickled_arrives_as_its_traceback(fork: bool) -> None:
    class Local(Exception):  # a local class cannot be pickled
        pass

    def work(_: Send) -> None:
        raise Local("unpicklable detail")

    expected = RuntimeError if fork else Local
    with forked.start(work) as worker, pytest.raises(expected, match="unpicklable detail"):
        worker.result()


def test_a_work_that_returns_without_its_message_is_an_error(fork: bool) -> None:
    with forked.start(lambda _: 1) as worker, pytest.raises(WorkerDied, match="message"):
        worker.receive()


def test_a_child_that_dies_is_reported_with_its_exit_status() -> None:
    if not forked.FORK:
        pytest.skip("this platform cannot fork")

    def work(_: Send) -> None:
        os._exit(7)

    with forked.start(work) as worker, pytest.raises(WorkerDied, match="exit status 7"):
        worker.result()


def test_leaving_the_block_early_stops_the_child() -> None:
    if not forked.FORK:
        pytest.skip("this platform cannot fork")

    def work(send: Send) -> None:
        send(os.getpid())
        threading.Event().wait()  # until killed

    pids: list[object] = []

    def failing_build() -> None:
        with forked.start(work) as worker:
            pids.append(worker.receive())
            raise ValueError("the build failed")

    with pytest.raises(ValueError, match="the build failed"):
        failing_build()
    [pid] = pids
    assert isinstance(pid, int)
    with pytest.raises(ChildProcessError):  # killed and reaped: no such child any more
        os.waitpid(pid, os.WNOHANG)


def test_without_a_process_to_spare_the_work_runs_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> int:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    with forked.start(lambda send: send(os.getpid()) or "done") as worker:
        assert worker.receive() == os.getpid()
        assert worker.result() == "done"


def test_a_result_that_cannot_be_pickled_is_an_error_not_a_dead_worker() -> None:
    if not forked.FORK:
        pytest.skip("this platform cannot fork")
    with (
        forked.start(lambda _: lambda: "a function") as worker,
        pytest.raises(Exception, match="pickle") as raised,
    ):
        worker.result()
    assert not isinstance(raised.value, WorkerDied)
