"""The classifier of engine errors (ldiv_db/db/engine_errors.py) on the messages DuckDB, PostgreSQL and
Python give for a full disk, an unwritable directory or file and a read-only file system; and the bound
on l+-Optimize's exact LM unit."""

from __future__ import annotations

import errno
from pathlib import Path
from types import SimpleNamespace

import duckdb
import numpy as np
import pytest

from ldiv_db.algorithms.lplus.index import cost_units
from ldiv_db.db.engine_errors import engine_error, environment_error
from ldiv_db.errors import BadInput, LdivError, StorageError, WriteConflict

WAL = "/data/w.duckdb.wal"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (f'TransactionContext Error: Failed to commit: Could not write file "{WAL}": No space left on device',
         f"no space left on the device holding {WAL}"),
        ("IO Error: Could not write file \"/tmp/x.duckdb.tmp/spill_1.block\": Disk quota exceeded",
         "no space left on the device holding /tmp/x.duckdb.tmp/spill_1.block"),
        ("[Errno 28] No space left on device: '/out/page.html'", "no space left on the device holding /out/page.html"),
        (f'TransactionContext Error: Failed to commit: Cannot open file "{WAL}": Permission denied',
         f"cannot create {WAL}: the directory /data is not writable for this user"),
        ('IO Error: Cannot open file "/data/w.duckdb": Permission denied', "cannot write /data/w.duckdb: permission denied"),
        ('IO Error: Cannot open file "/ro/w.duckdb": Read-only file system',
         "cannot write /ro/w.duckdb: its file system is mounted read-only"),
    ],
)  # fmt: skip
def test_the_environment_is_named(text: str, says: str) -> None:
    err = environment_error(text, "/data/w.duckdb")
    assert isinstance(err, StorageError) and err.exit_code == 2
    assert err.message == says


def test_a_postgres_disk_names_the_server() -> None:
    err = environment_error('could not extend file "base/16384/2619": No space left on device', "data directory",
                            owner="the PostgreSQL server's ")  # fmt: skip
    assert (
        err is not None
        and err.message == "no space left on the device holding the PostgreSQL server's base/16384/2619"
    )


def test_anything_else_is_not_the_environment() -> None:
    assert environment_error('Catalog Error: Table with name "x" does not exist!', "/d.duckdb") is None
    bug = engine_error(
        duckdb.CatalogException('Catalog Error: Table "x" does not exist'), "query a.sql", None
    )
    assert type(bug) is LdivError and "query a.sql failed" in bug.message and "bug" in str(bug.hint)
    busy = engine_error(duckdb.InvalidInputException("Resource In Use Error: connection is busy"), "q", None)
    assert isinstance(busy, BadInput) and "thread" in busy.message
    assert isinstance(
        engine_error(duckdb.InterruptException("INTERRUPT Error"), "q", None), KeyboardInterrupt
    )
    text = 'TransactionContext Error: Catalog write-write conflict on create with "Schema\\0main\\0Table\\0main\\0t"'
    conflict = engine_error(duckdb.TransactionException(text), "q", None)
    assert isinstance(conflict, WriteConflict) and conflict.exit_code == 2
    assert conflict.message.startswith("another connection is writing table t at the same time")
    plain = RuntimeError("something else")
    assert engine_error(plain, "q", None) is plain


def _trees(*leaves: int) -> list[SimpleNamespace]:
    return [SimpleNamespace(n=k + 1, n_leaves=np.array([k] + [1] * k, dtype=np.int64)) for k in leaves]


def test_lm_units_stay_exact_or_are_refused() -> None:
    unit, lmu, cs = cost_units(_trees(20_000), "lm", "viorec", 1_000)  # type: ignore[arg-type]
    assert (unit, cs, int(lmu[0][0])) == (19_999, 2 * 19_999, 19_999)
    # L = lcm(10006, 20011, 30031, 40009) ~ 2.4e17, and 2 * 4 * L * 10^6 > 2^62
    with pytest.raises(BadInput, match="2\\^62"):
        cost_units(_trees(10_007, 20_012, 30_032, 40_010), "lm", "viorec", 1_000_000)  # type: ignore[arg-type]
    assert cost_units(_trees(10_007, 20_012, 30_032, 40_010), "dm", "viorec", 1_000_000)[0] == 1  # type: ignore[arg-type]


def test_a_page_on_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ldiv_db.reporting.output import write_page

    def full(self: Path, *args: object, **kwargs: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(StorageError, match=f"no space left on the device holding {tmp_path}/"):
        write_page(tmp_path / "page.html", "<!doctype html>")
    assert list(tmp_path.iterdir()) == []
