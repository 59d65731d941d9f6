"""numpy and pandas, loaded when a module first reads one of their names (issue 57 item 1, decision 0023,
Round 7).

Most modules use pandas or numpy on some paths only (a frame handed to a user, a hierarchy's arrays, a
distance between distributions), yet they are imported by every command: ``ldiv check`` on DuckDB makes no frame and no
array, and importing the two libraries (pandas brings pyarrow) was most of its start-up. Such a module
writes, at module level::

    if TYPE_CHECKING:
        import pandas as pd
    else:
        pd = library("pandas")

mypy and the readers see the plain import; at run time ``pd`` is a stand-in that imports pandas when one
of its attributes is first read (``pd.DataFrame``), and from then on holds pandas' names. A module that
uses a library only in annotations imports it under ``if TYPE_CHECKING:`` alone.

Only the third-party libraries named in ``LIBRARIES`` go through here, never a module of ldiv_db: the
package's own import graph stays written out in import statements, where the layer contract and the cycle
check read it. ``tests/unit/test_import_graph.py`` holds the form above (the stand-in at module level,
beside the same import for mypy) and that no other module calls ``import_module`` (but the package's
public names, ``ldiv_db/__init__.py``).
"""

from __future__ import annotations

import functools
import importlib
import sys
from types import ModuleType
from typing import Any

# the libraries that may load late (sqlglot: the translation to another engine's SQL, the check of a
# --from call and of a type name); numpy.typing is annotation-only and stays under TYPE_CHECKING
LIBRARIES = frozenset({"numpy", "pandas", "sqlglot", "sqlglot.expressions"})


class _Library(ModuleType):
    """A library's stand-in. The first read of a name imports the library, copies its names in and turns
    the stand-in into a plain module, so that later reads cost what a module's do; a name it lacks then (a
    submodule imported since) is read from the library (the module's ``__getattr__``, PEP 562)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__") and self.__name__ not in sys.modules:
            # copy, pickle and introspection probe objects for dunders: that alone loads nothing
            raise AttributeError(name)
        module = importlib.import_module(self.__name__)
        names = vars(self)
        names.update({k: v for k, v in vars(module).items() if not k.startswith("__")})
        names["__getattr__"] = functools.partial(getattr, module)
        object.__setattr__(self, "__class__", ModuleType)  # from now on a plain module
        return getattr(module, name)


def library(name: str) -> ModuleType:
    """The stand-in for ``name``, one of ``LIBRARIES``, imported on the first read of an attribute."""
    if name not in LIBRARIES:
        raise ValueError(f"{name!r} is not a library that loads late; known: {sorted(LIBRARIES)}")
    return _Library(name)
