"""The stand-in of a library that loads on first use (``ldiv_db/util/lazy.py``, decision 0023, Round 7):
nothing is imported until a name is read, then the stand-in is the library's names as a plain module."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ldiv_db.util.lazy import LIBRARIES, library

ROOT = Path(__file__).resolve().parents[2]

# in a fresh interpreter (numpy not yet loaded): what the stand-in does before and after its first read
_PROBE = """
import json, sys
from ldiv_db.util.lazy import library
np = library("numpy")
out = {"before": "numpy" in sys.modules}
try:
    np.__wrapped__
except AttributeError:
    out["dunder_loads"] = "numpy" in sys.modules
out["probed"] = hasattr(np, "__array_priority__") or "numpy" in sys.modules
total = int(np.arange(5).sum())
import numpy
import numpy.typing  # a submodule imported after the stand-in took numpy's names
out.update(
    total=total,
    after="numpy" in sys.modules,
    same=np.arange is numpy.arange and np.int64 is numpy.int64,
    plain=type(np).__name__,
    submodule=np.typing is numpy.typing,
    name=np.__name__,
)
try:
    np.no_such_name
except AttributeError as exc:
    out["missing"] = str(exc)
print(json.dumps(out))
"""


def test_a_library_loads_on_the_first_read_of_a_name() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, cwd=ROOT, check=True
    )
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["before"] is False
    assert out["dunder_loads"] is False  # introspection probing dunders loads nothing
    assert out["probed"] is False
    assert out["total"] == 10
    assert out["after"] is True
    assert out["same"] is True
    assert out["plain"] == "module"  # later reads are a module's plain reads
    assert out["submodule"] is True
    assert out["name"] == "numpy"
    assert "no_such_name" in out["missing"]


def test_only_the_named_libraries_load_late() -> None:
    assert {"numpy", "pandas", "sqlglot", "sqlglot.expressions"} == LIBRARIES
    for name in ("ldiv_db.db", "duckdb", "numpy.typing", "os"):
        with pytest.raises(ValueError, match="not a library that loads late"):
            library(name)
