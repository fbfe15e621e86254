"""bench/run.py: the functions its breakdown times are the ones scoring calls."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from synthetic import script

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "run.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return script(SCRIPT, "bench_run")


def test_every_timed_function_is_one_scoring_calls_by_that_name(bench: ModuleType) -> None:
    timed = (*bench.PER_RUN, *bench.INTERVALS)
    assert len(timed) == 5  # three per-run steps, two interval steps
    for where in timed:
        module, name = bench.resolve(where)
        assert callable(getattr(module, name))


def test_a_name_scoring_no_longer_has_is_refused(bench: ModuleType) -> None:
    with pytest.raises(LookupError, match=r"update bench/run\.py"):
        bench.resolve(("generator.score.report", "replicates"))
