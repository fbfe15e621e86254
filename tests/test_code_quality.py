"""ruff and mypy (strict on generator/) are part of the test suite."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs ruff and mypy over the package

REPO = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, check=False
    )


def test_ruff_lint() -> None:
    result = _run("ruff", "check", "generator", "tests", "results", "--output-format", "concise")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = _run("ruff", "format", "--check", "generator", "tests")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict() -> None:
    result = _run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr


# ------------------------------------------------------------------ the test tree mirrors the code

GENERATOR = REPO / "generator"
TESTS = REPO / "tests"
# Modules of generator/ whose test module is still to be written. Keep this set empty or
# small; the test below fails when an entry is no longer needed.
WITHOUT_TEST_MODULE: frozenset[str] = frozenset()


def _test_module_for(module: Path) -> Path:
    """``generator/<pkg>/<mod>.py`` -> ``tests/<pkg>/test_<mod>.py``."""
    rel = module.relative_to(GENERATOR)
    return TESTS / rel.parent / f"test_{rel.name}"


def _modules() -> list[Path]:
    return sorted(
        p
        for p in GENERATOR.rglob("*.py")
        if p.name not in ("__init__.py", "__main__.py") and "__pycache__" not in p.parts
    )


def test_every_module_of_the_generator_has_its_test_module() -> None:
    missing = [
        f"{m.relative_to(REPO).as_posix()}: no {_test_module_for(m).relative_to(REPO).as_posix()}"
        for m in _modules()
        if not _test_module_for(m).is_file()
        and m.relative_to(REPO).as_posix() not in WITHOUT_TEST_MODULE
    ]
    assert missing == [], "\n".join(missing)


def test_the_list_of_modules_without_tests_is_current() -> None:
    modules = {m.relative_to(REPO).as_posix(): m for m in _modules()}
    stale = sorted(
        name
        for name in WITHOUT_TEST_MODULE
        if name not in modules or _test_module_for(modules[name]).is_file()
    )
    assert stale == [], f"remove from WITHOUT_TEST_MODULE: {stale}"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_uses(path: Path) -> list[str]:
    """Private names of generator/ that a test imports or reads off a generator module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    modules: set[str] = set()  # local names bound to generator modules
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "generator":
            for alias in node.names:
                if _private(alias.name):
                    found.append(
                        f"{path.name}:{node.lineno}: from {node.module} import {alias.name}"
                    )
                elif (
                    GENERATOR.parent / (node.module or "").replace(".", "/") / f"{alias.name}.py"
                ).is_file():
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "generator":
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            base = ast.unparse(node.value)
            if base in modules or (base.split(".")[0] == "generator" and "generator" in modules):
                found.append(f"{path.name}:{node.lineno}: {base}.{node.attr}")
    return found


# Test files that still read private names, because the modules they test are being replaced
# (load/yamlfast.py by a YAML library; site/build.py by mkdocs in one process). Keep it small;
# the test below fails when an entry is no longer needed.
PRIVATE_USES_ALLOWED = frozenset({"tests/site/test_build.py"})


def test_tests_use_public_names_only() -> None:
    found = [
        use
        for path in sorted(TESTS.rglob("*.py"))
        if path.relative_to(REPO).as_posix() not in PRIVATE_USES_ALLOWED
        for use in _private_uses(path)
    ]
    assert found == [], "\n".join(found)


def test_the_list_of_private_uses_is_current() -> None:
    stale = sorted(
        name
        for name in PRIVATE_USES_ALLOWED
        if not (REPO / name).is_file() or not _private_uses(REPO / name)
    )
    assert stale == [], f"remove from PRIVATE_USES_ALLOWED: {stale}"


def test_the_private_name_check_can_fail(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "import generator.load.runschema as rs\n"
        "from generator.load import jsonlines\n"
        "from generator.load.runschema import _general, unwrap\n"
        "rs._general(1)\njsonlines._header(b'', '', 1)\nunwrap(int)\njsonlines.read_runs\n"
        "import os\nos._exit\n",
        encoding="utf-8",
    )
    assert [use.split(": ", 1)[1] for use in _private_uses(sample)] == [
        "from generator.load.runschema import _general",
        "rs._general",
        "jsonlines._header",
    ]
