"""A public API name loads the module that defines it (``ldiv_db/__init__.py``, decision 0033): a release
made with ``ldiv_db.anonymize`` imports no report chart (matplotlib) and not the whole API, and every lazy
name is the object ``ldiv_db.api`` exports under it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import ldiv_db

ROOT = Path(__file__).resolve().parents[2]

# anonymizes a small table in a fresh interpreter and prints the modules it loaded
_PROBE = """
import json, sys
import duckdb
import ldiv_db
path = sys.argv[1]
with duckdb.connect(path) as con:
    con.execute("CREATE TABLE t AS SELECT i % 4 AS a, i % 3 AS b, i % 5 AS s FROM range(200) r(i)")
r = ldiv_db.anonymize(path, "t", ["a", "b"], "s", algorithm="mondrian", l=2, output="r", seed=1)
print(json.dumps({"verified": r.verified, "modules": sorted(sys.modules)}))
"""


def test_anonymize_imports_no_report_and_not_the_whole_api(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(tmp_path / "t.duckdb")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    out = json.loads(done.stdout.strip().splitlines()[-1])
    modules = set(out["modules"])
    assert out["verified"] is True
    assert "matplotlib" not in {m.split(".")[0] for m in modules}
    assert not [m for m in modules if m.startswith(("ldiv_db.reporting", "ldiv_db.api"))]


def test_every_lazy_name_is_the_api_s_object() -> None:
    import ldiv_db.api as api

    from_api = [n for n in ldiv_db.__all__ if hasattr(api, n)]
    assert {"anonymize", "check", "load", "releases", "AnonymizeResult", "CheckResult"} <= set(from_api)
    for name in from_api:
        assert getattr(ldiv_db, name) is getattr(api, name), name
