"""Memory helpers: one glibc arena unless the environment says otherwise."""

from __future__ import annotations

from typing import Any

import pytest

from generator import memory


class _Libc:
    def __init__(self, calls: list[tuple[int, int]]) -> None:
        self.calls = calls

    def mallopt(self, param: Any, value: Any) -> int:
        self.calls.append((param.value, value.value))
        return 1


@pytest.mark.parametrize("preset", [None, "4"])
def test_threads_share_one_malloc_arena_unless_the_environment_says(
    preset: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(memory.ctypes, "CDLL", lambda _: _Libc(calls))
    monkeypatch.setattr(memory.platform, "libc_ver", lambda: ("glibc", "2.36"))
    if preset is None:
        monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    else:
        monkeypatch.setenv("MALLOC_ARENA_MAX", preset)
    memory.use_system_allocator()
    assert calls == ([(-8, 1)] if preset is None else [])
