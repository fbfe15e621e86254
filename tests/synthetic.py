"""Scripts of the repository that are not a package (bench/, results/), importable from tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "bench" / "make_release.py"


def script(path: Path, name: str) -> ModuleType:
    """The script at ``path`` as a module named ``name`` (loaded once)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def make_release() -> ModuleType:
    """bench/make_release.py as a module (bench/ is not a package)."""
    return script(SCRIPT, "bench_make_release")
