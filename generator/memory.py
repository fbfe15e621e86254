"""Memory the stages give back: Arrow on the C allocator, one glibc arena, freed memory
returned to the system after each stage (used by loading, checking, scoring and pages)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform

import pyarrow as pa


def use_system_allocator() -> None:
    """Let Arrow allocate with the C allocator, as numpy does, instead of its own pool.

    Arrow's default pool (mimalloc) keeps hundreds of megabytes it freed while parsing at a
    million runs, even when asked to release them; memory from the C allocator goes back to
    the system with :func:`release_unused_memory`. Reading is as fast either way.
    """
    pa.set_memory_pool(pa.system_memory_pool())
    _one_arena()


#: glibc's ``mallopt`` parameter for the most arenas (malloc.h: M_ARENA_MAX).
_M_ARENA_MAX = -8


def _one_arena() -> None:
    """Let every thread allocate from one glibc arena (unless ``MALLOC_ARENA_MAX`` says
    otherwise). By default each thread that allocates gets an arena of its own (up to 8 per
    core), and memory a thread frees stays in its arena: at 1.4 million runs the bootstrap's
    workers left about 330 MB more at the peak (1,913 MiB against 1,581 MiB with one arena).
    Elsewhere than glibc, nothing changes."""
    if "MALLOC_ARENA_MAX" in os.environ or platform.libc_ver()[0] != "glibc":
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).mallopt(ctypes.c_int(_M_ARENA_MAX), ctypes.c_int(1))


def release_unused_memory() -> None:
    """Return memory freed by a stage to the system, after the stage.

    The C allocator keeps freed blocks below its mmap threshold (which grows to 32 MB) for
    reuse, in the arena of the thread that freed them; another thread, such as a worker of
    the bootstrap, cannot reuse them. At a million runs the temporaries of checking or
    scoring one bundle leave a few hundred megabytes behind. Takes microseconds.
    """
    pa.default_memory_pool().release_unused()
    pa.system_memory_pool().release_unused()  # the C allocator's free memory (malloc_trim)
