"""No import climbs the pipeline: load → check → score → pages → site, over the rules.

Each package of ``generator`` sits on one layer; a module imports only from its own layer and
those below. ``protocol/`` (the whitepaper's rules, written once) imports only ``models/``,
so the checks, the scoring engine and the pages all read one copy of each rule. Imports
inside functions count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "generator"

#: Bottom to top. ``errors`` and ``memory`` are leaves every stage may use; the modules at
#: the top (``build``, ``cli``) run the stages.
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"errors", "memory"}),
    frozenset({"models"}),
    frozenset({"protocol"}),
    frozenset({"disclosure"}),
    frozenset({"load"}),
    frozenset({"check"}),
    frozenset({"importers"}),  # other tools' result files → input files: models and load only
    frozenset({"score"}),
    frozenset({"pages"}),
    frozenset({"site"}),
    frozenset({"build", "skeleton"}),
    frozenset({"cli", "__main__"}),
    frozenset({"docsite"}),  # the generator's own documentation, read from its command line
)
#: What ``protocol/`` may import besides itself.
PROTOCOL_READS = frozenset({"models"})


def _layer(part: str) -> int:
    return next(i for i, names in enumerate(LAYERS) if part in names)


def _part(path: Path) -> str:
    """The top-level part of ``generator`` a module belongs to."""
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _is_part(name: str) -> bool:
    return (PACKAGE / name).is_dir() or (PACKAGE / f"{name}.py").is_file()


def _imported(path: Path) -> set[str]:
    """The parts of ``generator`` a module imports (absolute imports; the package uses no
    relative ones, checked here too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: a relative import"
            names = [node.module or ""]
            if node.module == "generator":  # from generator import errors (or __version__)
                names = [f"generator.{a.name}" for a in node.names if _is_part(a.name)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == "generator" and len(parts) > 1:
                out.add(parts[1])
    return out


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if _part(p) != "__init__")


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {_part(p) for p in MODULES}
    assert len(parts) > len(LAYERS)  # the layers hold the package's parts, not one each
    for part in parts:
        _layer(part)  # raises StopIteration for a part with no layer


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_import_climbs_the_pipeline(path: Path) -> None:
    mine = _part(path)
    climbs = {p for p in _imported(path) - {mine} if _layer(p) > _layer(mine)}
    assert not climbs, f"{path.relative_to(PACKAGE)} imports {sorted(climbs)} from above"
    if mine == "protocol":
        assert _imported(path) <= PROTOCOL_READS | {"protocol"}


def test_the_check_finds_a_climbing_import(tmp_path: Path) -> None:
    """The test itself can fail: a loader importing the scoring engine is caught."""
    module = tmp_path / "generator" / "load" / "bad.py"
    module.parent.mkdir(parents=True)
    module.write_text("from generator.score.results import Report\n", encoding="utf-8")
    assert _imported(module) == {"score"}
    assert _layer("score") > _layer("load")


# ------------------------------------------------------------------ decisions in the report

#: What decides (ranks, rank ranges, letters, frontiers, the order best first, the scope a
#: view shows, whether a scope can be ordered): made by the engine and carried by its report,
#: never by a page (:mod:`generator.score.declared`). Module → the names a page may not import
#: from it ("*": none at all).
DECIDERS: dict[str, frozenset[str]] = {
    "generator.score.ranking": frozenset({"*"}),
    "generator.score.declared": frozenset(
        {
            "decided",
            "best_first",
            "unordered",
            "view_scopes",
            "board_ranks",
            "board_tables",
            "scatter_frontier",
            "effect_leaders",
            "frontier_names",
        }
    ),
    "generator.score.aggregate": frozenset({"*"}),
    "generator.score.gating": frozenset({"gate_domain", "gate_figures", "shapes"}),
}

PAGES = sorted((PACKAGE / "pages").rglob("*.py"))


def _deciders_imported(path: Path) -> set[str]:
    """The deciding names a module imports, as ``module.name`` (``module`` for an import of
    the module itself, ``import generator.score.ranking``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module in DECIDERS:
            banned = DECIDERS[node.module]
            out |= {
                f"{node.module}.{a.name}" for a in node.names if "*" in banned or a.name in banned
            }
        elif isinstance(node, ast.ImportFrom) and node.module == "generator.score":
            out |= {f"{node.module}.{a.name}" for a in node.names} & set(DECIDERS)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in DECIDERS}
    return out


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pages_rank_nothing_themselves(path: Path) -> None:
    """Pages lay out what the report decides: no page imports the engine's ranking, frontier
    or ordering functions (they read the report's ranks, letters, frontiers and orders)."""
    found = _deciders_imported(path)
    assert not found, f"{path.relative_to(PACKAGE)} imports {sorted(found)}"


def test_the_check_finds_a_page_that_ranks(tmp_path: Path) -> None:
    """The test itself can fail: each way of reaching a ranking function is caught."""
    module = tmp_path / "bad.py"
    module.write_text(
        "import generator.score.ranking\n"
        "from generator.score.ranking import rank_ranges\n"
        "from generator.score.declared import board_ranks, metric_figure\n",
        encoding="utf-8",
    )
    assert _deciders_imported(module) == {
        "generator.score.ranking",
        "generator.score.ranking.rank_ranges",
        "generator.score.declared.board_ranks",
    }
    other = tmp_path / "other.py"
    other.write_text("from generator.score import aggregate, results\n", encoding="utf-8")
    assert _deciders_imported(other) == {"generator.score.aggregate"}


# ------------------------------------------------------------------ pages as a reader navigates

#: The parts of ``pages/`` every page part may use: the version's context and the building
#: blocks (text, cells, tables, charts, downloads). A part of the site (home, domain,
#: efficiency, views, combination, task, methodology) uses no other part's modules, so
#: what a page shows is found in its own folder.
SHARED_PAGE_PARTS = frozenset({"context", "blocks"})


def _page_parts(path: Path) -> set[str]:
    """The parts of ``generator.pages`` a module imports (``context``, ``blocks``, ...)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["generator", "pages"] and len(parts) > 2:
                out.add(parts[2])
    return out


PAGE_PART_MODULES = [p for p in PAGES if len(p.relative_to(PACKAGE / "pages").parts) > 1]


@pytest.mark.parametrize("path", PAGE_PART_MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_page_part_uses_only_its_own_modules_and_the_blocks(path: Path) -> None:
    mine = path.relative_to(PACKAGE / "pages").parts[0]
    allowed = SHARED_PAGE_PARTS | {mine}
    assert _page_parts(path) <= allowed, f"{path.relative_to(PACKAGE)}: {_page_parts(path)}"


def test_the_page_parts_check_can_fail(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text("from generator.pages.efficiency.charts import domain_charts\n")
    assert _page_parts(module) == {"efficiency"}
    assert len(PAGE_PART_MODULES) > 40
