"""The Inspect AI logs the importer tests read: one offline evaluation per test session."""

from __future__ import annotations

import gc
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def inspect_logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    """The folder of the evaluation's logs, and the logs as Inspect returned them."""
    from inspect_eval import run_eval

    folder = tmp_path_factory.mktemp("inspect-logs")
    with warnings.catch_warnings():
        # pytest turns warnings into errors; inside Inspect they would fail its scoring
        # (its event loop also leaves anyio streams to the garbage collector, which warns)
        warnings.simplefilter("ignore")
        # In a thread of its own: Inspect runs its event loop with asyncio.run, which refuses
        # to start in a thread whose loop runs already (pytest-playwright's, when a browser
        # test ran before in this process)
        with ThreadPoolExecutor(1) as pool:
            logs = pool.submit(run_eval, folder).result()
        gc.collect()
    return folder, logs
