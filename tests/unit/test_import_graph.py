"""The architecture rules of ``ldiv_db/``, read from the source with ``ast`` (nothing is imported):

* the module import graph has no cycle, type-only imports (under ``if TYPE_CHECKING:``) included: a
  layer that a lower one must call back into declares what it needs as a ``Protocol`` of its own (the
  schema layer's :class:`ldiv_db.schema.database.SchemaDatabase`, which every engine provides);
* no import stands inside a function, except in ``ldiv_db/cli/`` (the command line loads the layers
  below only once its parser and its Ctrl-C handler are in place) and of an optional dependency (the
  PostgreSQL and Spark engines, which import psycopg and pyspark);
* an algorithm package (``ldiv_db/algorithms/<name>/``) imports neither ``ldiv_db.commands``,
  ``ldiv_db.cli``, ``ldiv_db.pipeline`` nor another algorithm package (``algorithms/shared/`` and
  ``algorithms/base.py`` are what they share; ``BUILDS_ON`` names the two that build on another's code);
* no module is over 600 lines, no function over 80.

The layers themselves (which folder may import which) are import-linter's ``layers`` contract in
``pyproject.toml``, run by ``make lint``; docs/decisions/0013-layers.md says what goes where.

Every import statement is read wherever it stands: at module level, inside a function, and under
``if TYPE_CHECKING:``. An edge goes to the module named (``from a.b import c`` goes to ``a.b.c`` when
that is a module, else to ``a.b``); the parent packages Python initializes on the way are not edges
(they are already loading when a child imports them).

``KNOWN`` lists the offenders other work owns, each with its owner; it must match exactly (an entry that
no longer offends fails too), so removing an entry is the whole job once its owner's change is in.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "ldiv_db"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
FORBIDDEN_FOR_ALGORITHMS = ("ldiv_db.commands", "ldiv_db.cli", "ldiv_db.pipeline")
# where an import may stand inside a function: the command line (start-up), and optional dependencies
DEFERRING = ("ldiv_db.cli",)
OPTIONAL = ("psycopg", "pyspark", "polars", "pyarrow", "ldiv_db.db.postgres", "ldiv_db.db.spark")
SHARED = {"shared", "base"}
# an algorithm that builds on another's code (the independence contract in pyproject.toml names them too)
BUILDS_ON = {
    ("ldiv_db.algorithms.tp", "ldiv_db.algorithms.hilbert.curve"),
    ("ldiv_db.algorithms.optimal", "ldiv_db.algorithms.full_domain.levels"),
}

# offender -> owner. Offenders: "cycle: <modules, sorted>", "import: <module> -> <module>",
# "module: <module>", "function: <module>.<qualified name>".
KNOWN: dict[str, str] = {}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not _is_package(module):
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _type_only(tree: ast.AST) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for inner in node.body:
                out |= {id(n) for n in ast.walk(inner) if isinstance(n, ast.Import | ast.ImportFrom)}
    return out


def _targets(module: str, tree: ast.AST, *, type_only: bool = True) -> Iterator[str]:
    """The ldiv_db modules ``module`` imports (with ``type_only=False``: those that execute)."""
    skip = set() if type_only else _type_only(tree)
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in MODULES and name.startswith("ldiv_db"):
                name = name.rpartition(".")[0]
            if name in MODULES and name != module:
                yield name


def _parse(module: str) -> ast.Module:
    return ast.parse(MODULES[module].read_text(encoding="utf-8"), filename=str(MODULES[module]))


TREES = {m: _parse(m) for m in MODULES}
GRAPH = {m: sorted(set(_targets(m, TREES[m]))) for m in MODULES}  # every import


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(graph[w])))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def _algorithm(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "algorithms" and parts[2] not in SHARED:
        return parts[2]
    return None


def cycle_offenders() -> set[str]:
    return {"cycle: " + ", ".join(c) for c in _cycles(GRAPH)}


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def deferred_offenders() -> set[str]:
    """``deferred: <module>:<line> <imported>`` for each import inside a function that may not be there."""
    out = set()
    for module, tree in TREES.items():
        if _under(module, DEFERRING):
            continue
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    base = _resolve(module, node)
                    names = [f"{base}.{a.name}" for a in node.names]
                else:
                    continue
                for name in names:
                    if not _under(name, OPTIONAL):
                        out.add(f"deferred: {module}:{node.lineno} {name}")
    return out


def layer_offenders() -> set[str]:
    out = set()
    for module, targets in GRAPH.items():
        own = _algorithm(module)
        if own is None:
            continue
        for t in targets:
            other = _algorithm(t)
            forbidden = any(t == f or t.startswith(f + ".") for f in FORBIDDEN_FOR_ALGORITHMS)
            across = other is not None and other != own and (module, t) not in BUILDS_ON
            if forbidden or t == "ldiv_db.algorithms" or across:
                out.add(f"import: {module} -> {t}")
    return out


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}{node.name}"
            yield name, (node.end_lineno or node.lineno) - node.lineno + 1
            yield from _functions(node, name + ".")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def size_offenders() -> set[str]:
    out = set()
    for module, path in MODULES.items():
        if len(path.read_text(encoding="utf-8").splitlines()) > MAX_MODULE_LINES:
            out.add(f"module: {module}")
        for name, lines in _functions(TREES[module]):
            if lines > MAX_FUNCTION_LINES:
                out.add(f"function: {module}.{name}")
    return out


def _check(found: set[str], kind: str) -> None:
    known = {k for k in KNOWN if k.startswith(kind)}
    new = sorted(found - known)
    stale = sorted(known - found)
    assert not new, "new offenders (fix them; KNOWN is for other work in flight):\n" + "\n".join(new)
    assert not stale, "no longer offending, remove from KNOWN:\n" + "\n".join(stale)


def test_no_import_cycle() -> None:
    _check(cycle_offenders(), "cycle: ")


def test_no_import_inside_a_function() -> None:
    _check(deferred_offenders(), "deferred: ")


def test_algorithms_import_only_shared_code() -> None:
    _check(layer_offenders(), "import: ")


def test_module_and_function_sizes() -> None:
    found = size_offenders()
    _check({o for o in found if o.startswith("module: ")}, "module: ")
    _check({o for o in found if o.startswith("function: ")}, "function: ")


def test_the_graph_sees_every_kind_of_import() -> None:
    """The walker itself: relative, function-level and TYPE_CHECKING imports are edges."""
    src = (
        "from typing import TYPE_CHECKING\n"
        "from ..sqlgen.render import render\n"
        "if TYPE_CHECKING:\n    from ..db import Database\n"
        "def f():\n    from .. import errors\n    import ldiv_db.core.catalog\n"
    )
    edges = set(_targets("ldiv_db.core.inputs", ast.parse(src)))
    assert edges == {"ldiv_db.sqlgen.render", "ldiv_db.db", "ldiv_db.errors", "ldiv_db.core.catalog"}
    assert set(_targets("ldiv_db.core.inputs", ast.parse(src), type_only=False)) == edges - {"ldiv_db.db"}
    assert set(_targets("ldiv_db.algorithms.tp.core", ast.parse("from ...commands.anonymize import x"))) == {
        "ldiv_db.commands.anonymize"
    }
    assert _cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert _cycles({"a": ["b"], "b": []}) == []


def test_no_module_is_named_like_an_api_function() -> None:
    """``ldiv_db.risk`` is a function: a submodule of that name would replace it as soon as it is
    imported (``import ldiv_db.risk.command`` sets the package's attribute)."""
    init = TREES["ldiv_db"]
    exported = next(
        {ast.literal_eval(e) for e in node.value.elts}
        for node in init.body
        if isinstance(node, ast.Assign)
        and ast.unparse(node.targets[0]) == "__all__"
        and isinstance(node.value, ast.List)
    )
    tops = {m.split(".")[1] for m in MODULES if m.count(".") >= 1}
    assert not tops & exported, sorted(tops & exported)


def test_few_modules_at_the_top() -> None:
    """The top of ldiv_db/ holds the package's face (``__init__``, ``api``, ``errors``, ``version``);
    everything else lives in a layer's folder (docs/decisions/0013-layers.md)."""
    tops = sorted(p.name for p in ROOT.glob("*.py"))
    assert len(tops) <= 8, tops


def late_library_offenders() -> set[str]:
    """``late: <module>:<line>`` for each use of ``ldiv_db.util.lazy.library`` that is not the one allowed
    form: at module level, ``NAME = library("LIB")`` in the ``else:`` of an ``if TYPE_CHECKING:`` whose body
    has ``import LIB as NAME`` (mypy reads that import, the run time the stand-in: the two must agree), and
    for a library, never a module of ldiv_db (decision 0023, Round 7)."""
    out = set()
    for module, tree in TREES.items():
        if module == "ldiv_db.util.lazy":
            continue
        allowed: set[int] = set()
        for node in tree.body:
            if not (isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"):
                continue
            typed = {
                (a.asname or a.name, a.name) for n in node.body if isinstance(n, ast.Import) for a in n.names
            }
            for stmt in node.orelse:
                if (
                    isinstance(stmt, ast.Assign)
                    and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)
                    and isinstance(stmt.value, ast.Call)
                    and ast.unparse(stmt.value.func) == "library"
                    and len(stmt.value.args) == 1
                    and isinstance(stmt.value.args[0], ast.Constant)
                    and (stmt.targets[0].id, stmt.value.args[0].value) in typed
                    and not str(stmt.value.args[0].value).startswith("ldiv_db")
                ):
                    allowed.add(id(stmt.value))
        lazy = _is_lazy(module, tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            if lazy and id(node) not in allowed and ast.unparse(node.func).split(".")[-1] == "library":
                out.add(f"late: {module}:{node.lineno}")
            # the package's own public names load late too (PEP 562, decision 0033)
            if ast.unparse(node.func).endswith("import_module") and module != "ldiv_db":
                out.add(f"late: {module}:{node.lineno} import_module")
    return out


def _is_lazy(module: str, tree: ast.AST) -> bool:
    """Whether ``module`` imports ``library`` from ``ldiv_db.util.lazy``."""
    return any(
        isinstance(n, ast.ImportFrom) and _resolve(module, n) == "ldiv_db.util.lazy" for n in ast.walk(tree)
    )


def test_libraries_load_late_only_in_the_one_form() -> None:
    _check(late_library_offenders(), "late: ")


def test_the_late_library_rule_sees_a_wrong_form() -> None:
    """The walker of ``late_library_offenders`` itself, on a module it is handed."""
    good = (
        "from typing import TYPE_CHECKING\nfrom ..util.lazy import library\n"
        'if TYPE_CHECKING:\n    import numpy as np\nelse:\n    np = library("numpy")\n'
    )
    bad = [
        good.replace('np = library("numpy")', 'np = library("pandas")'),  # mypy would read another library
        good + 'def f():\n    return library("numpy")\n',  # not at module level
        good.replace('library("numpy")', 'library("ldiv_db.db")'),  # a module of ldiv_db
        good + "import importlib\nx = importlib.import_module('ldiv_db.db')\n",
    ]
    saved = dict(TREES)
    try:
        TREES.clear()
        TREES["ldiv_db.core.inputs"] = ast.parse(good)
        assert late_library_offenders() == set()
        for src in bad:
            TREES["ldiv_db.core.inputs"] = ast.parse(src)
            assert late_library_offenders(), src
    finally:
        TREES.clear()
        TREES.update(saved)
