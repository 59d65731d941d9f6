"""The shape of the package, as issue 53 measures it (read from the source with ``ast``; nothing of
ldiv_db is imported):

* import cycles between modules, type-only imports (under ``if TYPE_CHECKING:``) included;
* functions that take 10 parameters or more (``self`` / ``cls`` not counted);
* modules at the top of ``ldiv_db/``;
* imports inside a function outside ``ldiv_db/cli/`` and the optional dependencies;
* engine tests (``dialect ==`` / ``dialect !=``) outside ``ldiv_db/db/``.

    python -m bench.house

The rules behind the figures: tests/unit/test_import_graph.py (cycles, deferred imports, sizes),
import-linter's contracts in pyproject.toml (the layers), docs/decisions/0013-layers.md.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from tests.unit.test_import_graph import GRAPH, ROOT, TREES, _cycles, deferred_offenders

PARAMETER_LIMIT = 10
_DIALECT_TEST = re.compile(r"dialect (==|!=)")


def wide_functions() -> list[tuple[str, int]]:
    """(module.qualified name, parameters) for every function with at least ``PARAMETER_LIMIT``."""
    out = []
    for module, tree in TREES.items():
        for name, node in _functions(tree):
            a = node.args
            params = [*a.posonlyargs, *a.args, *a.kwonlyargs]
            count = len([p for p in params if p.arg not in ("self", "cls")])
            count += (a.vararg is not None) + (a.kwarg is not None)
            if count >= PARAMETER_LIMIT:
                out.append((f"{module}.{name}", count))
    return sorted(out)


def _functions(
    tree: ast.AST, prefix: str = ""
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield f"{prefix}{node.name}", node
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def top_modules() -> list[str]:
    return sorted(p.name for p in ROOT.glob("*.py"))


def dialect_tests() -> list[str]:
    """``path:line`` of each ``dialect ==`` / ``dialect !=`` outside ``ldiv_db/db/``."""
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).as_posix()
        if rel.startswith("ldiv_db/db/"):
            continue
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _DIALECT_TEST.search(line):
                out.append(f"{rel}:{no}")
    return out


def main() -> None:
    cycles = _cycles(GRAPH)
    wide = wide_functions()
    tops = top_modules()
    deferred = sorted(deferred_offenders())
    dialect = dialect_tests()
    print(f"import cycles (type-only imports included): {len(cycles)}")
    for c in cycles:
        print("  " + " -> ".join(c))
    print(f"functions with >= {PARAMETER_LIMIT} parameters: {len(wide)}")
    for name, n in wide:
        print(f"  {n:2d}  {name}")
    print(f"modules at the top of ldiv_db/: {len(tops)} ({', '.join(tops)})")
    print(f"imports inside a function (outside cli/ and optional dependencies): {len(deferred)}")
    for d in deferred:
        print("  " + d)
    print(f"dialect ==/!= outside ldiv_db/db/: {len(dialect)}")
    for d in dialect:
        print("  " + d)


if __name__ == "__main__":
    main()
