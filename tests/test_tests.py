"""Tests that cannot fail are defects: a scan of tests/ for assertions that may never run.

An assertion inside a loop says nothing when the loop runs zero times, and ``all(...)`` and
``not any(...)`` are both True over nothing. So every loop that holds an assertion must be shown
to have run. The scan reads the ``test_*`` functions of every module under tests/ (their syntax
only: nothing is imported or run) and reports each loop holding an assertion that nothing in
the test shows ran.

What counts as an assertion: an ``assert`` statement, ``pytest.fail(...)``, a
``with pytest.raises(...)``/``pytest.warns(...)`` block, a call to an ``assert_*`` function
(``pd.testing.assert_frame_equal``, ``np.testing.assert_allclose``), and a call to a function of
the same module that holds one of these (a helper that checks, found through helpers too).

What counts as a loop: ``for`` and ``while`` statements, and in an ``assert``, the comprehension
(its first ``for``) passed to ``all(...)`` or ``not any(...)``; ``assert all(xs)`` over anything
but a comprehension is a loop over ``xs``.

A loop is shown to have run when one of these holds:

* it iterates over something written out that cannot be empty: a non-empty tuple, list, set,
  dict or string literal; ``range(k)`` with a constant ``k > 0``; a name bound to such a literal
  at module level, in a helper module of tests/ it is imported from, or once in the test;
  ``enumerate``/``zip``/``sorted``/``reversed``/``list``/``tuple``/``set`` of such, or
  ``.items()``/``.keys()``/``.values()`` of such a dict; ``zip(..., strict=True)`` with one such
  argument (strict, the others have its length or the test fails). A constant of generator/ is
  not such: a test looping over the code's own list checks nothing once the list is emptied;
* another assertion of the test, outside the loop (before or after it), mentions what the loop
  iterates over: the iterable, or what ``zip``/``enumerate``/``sorted``/... and
  ``.items()``/``.values()``/``.keys()``/``.itertuples()`` wrap, or what the bounds of a
  ``range(...)`` are made of (``assert len(rows) == 4`` before ``for row in rows``,
  ``assert n > 1`` before ``for i in range(1, n)``);
* another assertion after the loop mentions a name the loop binds: one it assigns or augments
  (``n += 1``), one it adds to (``seen.add(x)``, ``found.append(x)``, ``d[k] = v``), its loop
  variable, or a name bound after the loop from these (``roles = sorted(by_role)``); not a
  name that a loop beside it (neither holding it nor held by it) binds as well, and not a
  comprehension's own variable of the same name;
* for ``all(...)``/``not any(...)``, another operand of the same ``and`` does one of the above
  (``assert rows and all(r.ok for r in rows)``).

For a loop nested in another, an assertion in the outer loop's body outside the inner loop counts
as outside it; a counter in the innermost loop, checked after the outermost, shows them all.

Left to the reader of a test (the syntax cannot say): whether the outside assertion excludes zero
runs (``assert n >= 0`` does not; ``assert n > 0``, ``assert n == 12``, ``assert seen == {...}``
do), whether an assertion under an ``if`` inside a shown loop is ever reached, and tautologies.
Not scanned: fixtures and helpers that are not ``test_*`` functions (their loops are reached
through the tests that call them), and functions nested in a test (a call to one that asserts is
an assertion of the test).
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

# Calls that pass an iterable's emptiness through: a non-empty argument makes them non-empty.
WRAPPERS = frozenset({"enumerate", "zip", "sorted", "reversed", "list", "tuple", "set", "iter"})
VIEWS = frozenset({"items", "keys", "values", "itertuples", "iterrows"})
# Methods that add to a collection: ``seen.add(x)`` in a loop binds ``seen``.
ADDERS = frozenset({"add", "append", "extend", "update", "setdefault", "insert", "__setitem__"})
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


@dataclass(frozen=True)
class Unshown:
    """A loop holding assertions that nothing shows ran."""

    path: Path
    test: str
    line: int

    @property
    def module(self) -> str:
        return self.path.relative_to(TESTS.parent).as_posix()

    def __str__(self) -> str:
        return f"{self.module}:{self.line}: {self.test}"


def _key(node: ast.AST) -> str:
    return ast.dump(node, annotate_fields=False, include_attributes=False)


def _is_pytest_call(node: ast.AST, *names: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in names
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "pytest"
    )


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """``ast.walk`` that does not enter nested functions, lambdas or classes."""
    todo = [node]
    while todo:
        here = todo.pop()
        yield here
        todo += [c for c in ast.iter_child_nodes(here) if not isinstance(c, NESTED)]


def _checking(functions: dict[str, ast.AST]) -> set[str]:
    """Names of the module's functions that assert, directly or through each other."""
    checking: set[str] = set()
    grew = True
    while grew:
        grew = False
        for name, fn in functions.items():
            if name in checking:
                continue
            if any(_asserts(n, checking) for n in _walk(fn) if n is not fn):
                checking.add(name)
                grew = True
    return checking


def _asserts(node: ast.AST, checking: set[str]) -> bool:
    """Is this node an assertion (see the module's docstring)?"""
    if isinstance(node, ast.Assert):
        return True
    if isinstance(node, ast.With | ast.AsyncWith):
        return any(_is_pytest_call(i.context_expr, "raises", "warns") for i in node.items)
    if isinstance(node, ast.Call):
        if _is_pytest_call(node, "fail"):
            return True
        name = node.func.attr if isinstance(node.func, ast.Attribute) else None
        if isinstance(node.func, ast.Name):
            name = node.func.id
        return name is not None and (name.startswith("assert_") or name in checking)
    return False


def _literal_nonempty(node: ast.AST, constants: dict[str, ast.AST]) -> bool:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(not isinstance(e, ast.Starred) for e in node.elts)
    if isinstance(node, ast.Dict):
        return any(k is not None for k in node.keys)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str | bytes) and len(node.value) > 0
    if isinstance(node, ast.Name) and node.id in constants:
        return _literal_nonempty(constants[node.id], constants)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        args = node.args
        if node.func.id == "range" and args and not node.keywords:
            bounds = [a.value if isinstance(a, ast.Constant) else None for a in args[:2]]
            if all(isinstance(b, int) for b in bounds):
                low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
                return isinstance(low, int) and isinstance(high, int) and high > low
            return False
        if node.func.id == "zip" and any(
            k.arg == "strict" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in node.keywords
        ):  # strict: one argument's length is every argument's
            return any(_literal_nonempty(a, constants) for a in args)
        if node.func.id in WRAPPERS | {"frozenset"} and args and not node.keywords:
            return all(_literal_nonempty(a, constants) for a in args)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in VIEWS
        and not node.args
    ):
        return _literal_nonempty(node.func.value, constants)
    return False


def _sources(node: ast.AST) -> set[str]:
    """The expressions whose mention shows that iterating over ``node`` did something."""
    found = {_key(node)}
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id == "range":
            for arg in node.args:  # range(n), range(0, height + 40, 40): n, height
                found |= {_key(n) for n in ast.walk(arg) if isinstance(n, ast.expr)}
        elif isinstance(node.func, ast.Name) and node.func.id in WRAPPERS:
            for arg in node.args:
                found |= _sources(arg)
        elif isinstance(node.func, ast.Attribute) and node.func.attr in VIEWS and not node.args:
            found |= _sources(node.func.value)
    return found


def _targets(node: ast.AST) -> Iterator[str]:
    """The names an assignment target binds (``a``, ``a, b``, ``a[k]`` -> ``a``, ``a.x`` -> a)."""
    if isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Tuple | ast.List):
        for e in node.elts:
            yield from _targets(e)
    elif isinstance(node, ast.Starred | ast.Subscript | ast.Attribute):
        yield from _targets(node.value)


def _bound(loop: ast.AST) -> set[str]:
    """Names the loop binds: its variable, what it assigns or augments, what it adds to."""
    names: set[str] = set()
    if isinstance(loop, ast.For | ast.AsyncFor | ast.comprehension):
        names |= set(_targets(loop.target))
    for node in _walk(loop):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                names |= set(_targets(t))
        elif isinstance(
            node, ast.AugAssign | ast.AnnAssign | ast.NamedExpr | ast.For | ast.AsyncFor
        ):
            names |= set(_targets(node.target))
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                if item.optional_vars is not None:
                    names |= set(_targets(item.optional_vars))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ADDERS
        ):
            names |= set(_targets(node.func.value))
    return names


def _mentions(node: ast.AST, sources: set[str], names: set[str]) -> bool:
    """Does ``node`` mention one of the expressions or (free) names?"""
    local = {
        name
        for n in _walk(node)
        if isinstance(n, COMPREHENSIONS)
        for g in n.generators
        for name in _targets(g.target)
    }
    names = names - local  # a comprehension's own variable is another name
    for n in _walk(node):
        if isinstance(n, ast.Name) and n.id in names:
            return True
        if isinstance(n, ast.expr) and _key(n) in sources:
            return True
    return False


@dataclass
class _Loop:
    node: ast.AST  # the For/While statement, or the all()/not any() call
    iterable: ast.AST | None  # None for a while loop
    binder: ast.AST  # what binds names: the statement, or the comprehension
    owner: ast.AST | None = None  # the assert holding an all()/not any() loop


def _vacuous_call(test: ast.AST) -> Iterator[ast.Call]:
    """The ``all(...)`` and ``not any(...)`` calls an assert's test rests on (through ``and``)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        for value in test.values:
            yield from _vacuous_call(value)
    elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = test.operand
        if _named_call(inner, "any"):
            assert isinstance(inner, ast.Call)
            yield inner
    elif _named_call(test, "all"):
        assert isinstance(test, ast.Call)
        yield test


def _named_call(node: ast.AST, name: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == name
        and len(node.args) == 1
        and not node.keywords
    )


def _parents(fn: ast.AST) -> dict[ast.AST, ast.AST]:
    parents: dict[ast.AST, ast.AST] = {}
    for node in _walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return parents


def _scan_test(
    fn: ast.FunctionDef | ast.AsyncFunctionDef,
    constants: dict[str, ast.AST],
    checking: set[str],
) -> Iterator[int]:
    """Lines of the loops in ``fn`` that hold assertions nothing shows ran."""
    parents = _parents(fn)
    constants = {**constants, **_assigned_once(fn)}
    assertions = [n for n in _walk(fn) if n is not fn and _asserts(n, checking)]
    loops: list[_Loop] = []
    for node in _walk(fn):
        if isinstance(node, ast.For | ast.AsyncFor):
            loops.append(_Loop(node, node.iter, node))
        elif isinstance(node, ast.While):
            loops.append(_Loop(node, None, node))
        elif isinstance(node, ast.Assert):
            for call in _vacuous_call(node.test):
                arg = call.args[0]
                if isinstance(arg, COMPREHENSIONS):
                    gen = arg.generators[0]
                    loops.append(_Loop(call, gen.iter, arg, owner=node))
                else:
                    loops.append(_Loop(call, arg, call, owner=node))

    def inside(node: ast.AST, loop: ast.AST) -> bool:
        while node in parents:
            node = parents[node]
            if node is loop:
                return True
        return False

    for loop in loops:
        if loop.owner is None:
            held = [a for a in assertions if inside(a, loop.node)]
        else:
            held = [loop.owner]
        if not held:
            continue
        if loop.iterable is not None and _literal_nonempty(loop.iterable, constants):
            continue
        sources = _sources(loop.iterable) if loop.iterable is not None else set()
        if isinstance(loop.node, ast.While):
            sources = {_key(n) for n in _walk(loop.node.test) if isinstance(n, ast.expr)}
        names = _bound(loop.binder)
        for other in loops:  # a name a loop beside this one binds too says nothing of this one
            if (
                other.owner is None
                and other is not loop
                and not inside(other.node, loop.node)
                and not inside(loop.node, other.node)
            ):
                names -= _bound(other.binder)
        end = loop.node.end_lineno or loop.node.lineno
        names |= _derived(fn, names, end)
        outside = [a for a in assertions if a is not loop.owner and not inside(a, loop.node)]
        after = [a for a in outside if a.lineno > end]
        if any(_mentions(a, sources, set()) for a in outside):
            continue
        if any(_mentions(a, set(), names) for a in after):
            continue
        if loop.owner is not None:
            assert isinstance(loop.owner, ast.Assert)
            others = _and_operands_besides(loop.owner.test, loop.node)
            if any(_mentions(o, sources, names) for o in others):
                continue
        yield loop.node.lineno


def _derived(fn: ast.AST, names: set[str], end: int) -> set[str]:
    """Names the test binds after line ``end`` from ``names`` (``roles = sorted(by_role)``),
    and from those in turn."""
    found: set[str] = set()
    grew = True
    while grew:
        grew = False
        for node in _walk(fn):
            if not isinstance(node, ast.Assign) or node.lineno <= end:
                continue
            if _mentions(node.value, set(), names | found):
                new = {t for target in node.targets for t in _targets(target)} - found - names
                found |= new
                grew = grew or bool(new)
    return found


def _and_operands_besides(test: ast.AST, call: ast.AST) -> list[ast.AST]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return [
            v
            for v in test.values
            if v is not call and not (isinstance(v, ast.UnaryOp) and v.operand is call)
        ]
    return []


def _assigned_once(fn: ast.AST) -> dict[str, ast.AST]:
    """The test's names bound once, each by a plain ``name = value``, to their values."""
    values: dict[str, ast.AST] = {}
    bound: dict[str, int] = {}
    for node in _walk(fn):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.NamedExpr):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for name in _targets(t):
                    bound[name] = bound.get(name, 0) + 1
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                values[node.targets[0].id] = node.value
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            for name in _targets(node.target):
                bound[name] = bound.get(name, 0) + 1
    return {name: v for name, v in values.items() if bound[name] == 1}


def _module_constants(tree: ast.Module) -> dict[str, ast.AST]:
    constants: dict[str, ast.AST] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                constants[target.id] = stmt.value
        elif (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and stmt.value is not None
        ):
            constants[stmt.target.id] = stmt.value
    return constants


def _imported_constants(tree: ast.Module) -> dict[str, ast.AST]:
    """The constants a module imports by name from the helper modules of tests/."""
    constants: dict[str, ast.AST] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
            helper = TESTS / f"{stmt.module.replace('.', '/')}.py"
            if not helper.is_file():
                continue
            theirs = _module_constants(ast.parse(helper.read_text(encoding="utf-8")))
            for alias in stmt.names:
                if alias.name in theirs:
                    constants[alias.asname or alias.name] = theirs[alias.name]
    return constants


def scan(path: Path) -> list[Unshown]:
    """The loops of ``path``'s tests that hold assertions nothing shows ran."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    constants = _imported_constants(tree) | _module_constants(tree)
    functions: dict[str, ast.AST] = {}
    tests: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    for stmt in tree.body:
        members = stmt.body if isinstance(stmt, ast.ClassDef) else [stmt]
        for member in members:
            if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef):
                if member.name.startswith("test"):
                    tests.append(member)
                else:
                    functions[member.name] = member
    checking = _checking(functions)
    found: list[Unshown] = []
    for fn in tests:
        nested = {
            n.name: n
            for n in ast.walk(fn)
            if n is not fn and isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        local = checking | _checking({**functions, **nested})
        found += [Unshown(path, fn.name, line) for line in _scan_test(fn, constants, local)]
    return found


def unshown_loops(root: Path = TESTS) -> list[Unshown]:
    """Every loop of tests/ that holds assertions nothing shows ran."""
    return [u for path in sorted(root.rglob("test_*.py")) for u in scan(path)]


#: (module, test) whose loops are still to be shown to run, each fixed elsewhere: keep this
#: empty. tests/test_docs.py is being rewritten beside this change (the docs work owns it).
PENDING: frozenset[tuple[str, str]] = frozenset()


# ------------------------------------------------------------------------------- the scan itself


def test_every_loop_that_asserts_is_shown_to_run() -> None:
    found = [u for u in unshown_loops() if (u.module, u.test) not in PENDING]
    assert found == [], "loops whose assertions may never run:\n" + "\n".join(map(str, found))


def test_the_pending_list_is_current() -> None:
    found = {(u.module, u.test) for u in unshown_loops()}
    assert sorted(PENDING - found) == [], "shown to run now: remove from PENDING"


def test_the_scan_reads_every_test_module() -> None:
    modules = sorted(TESTS.rglob("test_*.py"))
    assert len(modules) > 100
    assert Path(__file__).resolve() in modules


FLAGGED = {
    "a loop alone": """
        def test_x(rows):
            for row in rows:
                assert row.ok
    """,
    "all() over a comprehension": """
        def test_x(rows):
            assert all(row.ok for row in rows)
    """,
    "not any() over a comprehension": """
        def test_x(rows):
            assert not any(row.bad for row in rows)
    """,
    "all() over a name": """
        def test_x(flags):
            assert all(flags)
    """,
    "an unrelated assertion outside": """
        def test_x(report):
            assert report.title
            for row in report.rows:
                assert row.ok
    """,
    "a name the loop binds, bound again in a comprehension": """
        def test_x(table, rows):
            assert [r.id for r in table.rows] == [1, 2]
            for row in rows:
                for r in row.reliability:
                    assert r.ok
    """,
    "a counter two loops share": """
        def test_x(rows, cols):
            n = 0
            for row in rows:
                assert row.ok
                n += 1
            for col in cols:
                assert col.ok
                n += 1
            assert n > 0
    """,
    "a counter checked before the loop": """
        def test_x(rows):
            n = 0
            assert n == 0
            for row in rows:
                assert row.ok
                n += 1
    """,
    "an inner loop not shown": """
        def test_x(reports):
            assert len(reports) == 2
            for report in reports:
                for row in report.rows:
                    assert row.ok
    """,
    "a helper that asserts": """
        def _check(row):
            assert row.ok

        def test_x(rows):
            for row in rows:
                _check(row)
    """,
    "an assert_* call in a loop": """
        def test_x(frames, expected):
            for name, frame in frames.items():
                pd.testing.assert_frame_equal(frame, expected[name])
    """,
    "pytest.raises in a loop": """
        def test_x(bad):
            for b in bad:
                with pytest.raises(ValueError):
                    parse(b)
    """,
    "a while loop": """
        def test_x(queue):
            while queue:
                assert queue.pop()
    """,
    "an empty literal": """
        def test_x():
            for row in ():
                assert row
    """,
    "zip, not strict, beside a literal": """
        def test_x(cells, a, b):
            for cell, f in zip(cells, (a, b)):
                assert cell == f
    """,
    "a local bound twice": """
        def test_x(more):
            rows = [1, 2]
            rows = more
            for row in rows:
                assert row
    """,
}

NOT_FLAGGED = {
    "a count after": """
        def test_x(rows):
            n = 0
            for row in rows:
                assert row.ok
                n += 1
            assert n == 3
    """,
    "the iterable checked before": """
        def test_x(rows):
            assert len(rows) == 3
            for row in rows:
                assert row.ok
    """,
    "a wrapped iterable checked": """
        def test_x(a, b):
            assert a
            for x, y in zip(a, b, strict=True):
                assert x == y
    """,
    "a dict's items, the dict checked": """
        def test_x(d):
            assert set(d) == {"a"}
            for k, v in d.items():
                assert v
    """,
    "what the loop adds to": """
        def test_x(rows):
            seen = set()
            for row in rows:
                assert row.ok
                seen.add(row.id)
            assert seen == {1, 2}
    """,
    "a literal tuple": """
        def test_x():
            for n in (1, 2):
                assert n
    """,
    "a module constant": """
        NAMES = ("a", "b")

        def test_x():
            for name in NAMES:
                assert name
            assert all(n for n in NAMES)
    """,
    "a local literal": """
        def test_x():
            kinds = ["a", "b"]
            for kind in kinds:
                assert kind
    """,
    "zip, strict, beside a literal": """
        def test_x(cells, a, b):
            for cell, f in zip(cells, (a, b), strict=True):
                assert cell == f
    """,
    "range of a constant": """
        def test_x():
            for i in range(3):
                assert i >= 0
    """,
    "all() beside a check of its iterable": """
        def test_x(rows):
            assert rows and all(r.ok for r in rows)
    """,
    "an inner loop shown through the outer": """
        def test_x(reports):
            n = 0
            for report in reports:
                for row in report.rows:
                    assert row.ok
                    n += 1
            assert n == 5
    """,
    "a name derived from what the loop adds to": """
        def test_x(rows):
            seen = []
            for row in rows:
                assert row.ok
                seen.append(row.id)
            ordered = sorted(seen)
            assert ordered[0] == 1
    """,
    "the bound of a range checked": """
        def test_x(headers):
            assert headers.count() > 1
            for i in range(1, headers.count()):
                assert headers.nth(i).text
    """,
    "no assertion in the loop": """
        def test_x(rows):
            total = sum(r for r in rows)
            for row in rows:
                print(row)
            assert total == 3
    """,
}


def _scan_text(tmp_path: Path, text: str) -> list[Unshown]:
    path = tmp_path / "test_snippet.py"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return scan(path)


@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_the_scan_flags_a_loop_nothing_shows_ran(tmp_path: Path, name: str) -> None:
    assert _scan_text(tmp_path, FLAGGED[name]) != []


@pytest.mark.parametrize("name", sorted(NOT_FLAGGED))
def test_the_scan_passes_a_loop_shown_to_run(tmp_path: Path, name: str) -> None:
    assert _scan_text(tmp_path, NOT_FLAGGED[name]) == []


def test_the_modules_run_first_exist() -> None:
    """conftest.FIRST names modules by path: a renamed one would silently run last again."""
    from conftest import FIRST

    assert FIRST
    assert [name for name in FIRST if not (TESTS / name).is_file()] == []
