"""Fault injection (issue 11): seeded SIGKILL and SIGINT at random moments of real ``python -m
ldiv_db.cli.main`` processes — anonymize (several algorithms, new outputs and ``--replace`` of a release),
``release append`` of a Decomposition+ stream and ``load --replace``.

After each kill: the file opens; every user table the command does not target is unchanged (content
hash); the target is either exactly as before or a complete new release (recorded, verified, its row
counts reconcile with the source) — never a partial one; a ``load --replace`` target is either the old
table or the whole file; a SIGINT prints no traceback; and the next command succeeds and leaves no run
``running``. The kill moment is drawn from a seeded RNG within the run time measured for that command.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

from ldiv_db.db import Database

from . import catalog_state as cs
from .cli_rules import call

REPO = Path(__file__).resolve().parents[2]
ROWS = 8000
STREAM_ROWS = 2000
KILLS = 24
SEED = 20261122
QI = "age,sex,race,education"


@dataclass(frozen=True)
class Scenario:
    name: str
    argv: tuple[str, ...]  # after the command word(s); @DB@ and @CSV@ are placeholders
    target: str  # the table (or stream) the command writes
    kind: str  # "new", "replace", "append" or "load"

    def command(self, retry: bool, db: Path, files: cs.BaseFiles, batch: str) -> list[str]:
        argv = [
            a.replace("@DB@", str(db)).replace("@CSV@", str(files.csv)).replace("@BATCH@", batch)
            for a in self.argv
        ]
        if retry and self.kind == "new":
            argv.append("--replace")  # the killed run may have committed its output
        return argv


def _anonymize(algorithm: str, output: str, *extra: str) -> tuple[str, ...]:
    return ("anonymize", "@DB@", "--table", cs.SOURCE, "--qi", QI, "--sa", "occupation", "--algorithm",
            algorithm, "--l", "3", "--output", output, "--quiet", *extra)  # fmt: skip


SCENARIOS = (
    Scenario("bsgi-new", _anonymize("bsgi", "out_bsgi"), "out_bsgi", "new"),
    Scenario("mondrian-replace", _anonymize("mondrian", cs.RELEASE, "--replace"), cs.RELEASE, "replace"),
    Scenario("tp-new", _anonymize("tp", "out_tp"), "out_tp", "new"),
    Scenario(
        "full-domain-replace",
        _anonymize("full-domain", cs.RELEASE, "--replace", "--levels", "age=2,education=1", "--suppression-limit", "0.1"),
        cs.RELEASE,
        "replace",
    ),
    Scenario("append", ("release", "append", "@DB@", "--release", cs.STREAM, "--from", "@BATCH@", "--quiet"), cs.STREAM, "append"),
    Scenario("load-replace", ("load", "@DB@", "@CSV@", "--table", cs.PLAIN, "--sep", ";", "--replace"), cs.PLAIN, "load"),
)  # fmt: skip


@dataclass
class Base:
    files: cs.BaseFiles
    before: cs.Snapshot
    seconds: dict[str, float]  # measured run time of each scenario (whole process)
    startup: float  # run time of a command that does almost nothing (interpreter and imports)
    loaded: cs.TableState  # payroll after a complete load --replace


def _spawn(argv: Sequence[str]) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "LDIV_DEBUG"}
    return subprocess.Popen(
        [sys.executable, "-m", "ldiv_db.cli.main", *argv],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a shell starts background jobs with SIGINT ignored, and Python then never raises
        # KeyboardInterrupt: give the child the default disposition, as in a terminal
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Base]:
    work = tmp_path_factory.mktemp("faults")
    files = cs.build_base(work, rows=ROWS, stream_rows=STREAM_ROWS)
    seconds: dict[str, float] = {}
    loaded = None
    for sc in SCENARIOS:
        db = cs.copy_db(files.db, work / f"measure_{sc.name}.duckdb")
        t0 = time.perf_counter()
        proc = _spawn(sc.command(False, db, files, cs.BATCHES[0]))
        _, err = proc.communicate(timeout=300)
        seconds[sc.name] = time.perf_counter() - t0
        assert proc.returncode == 0, f"{sc.name} fails without a kill: {err}"
        if sc.kind == "load":
            loaded = cs.snapshot(db).tables[("main", cs.PLAIN)]
        db.unlink()
    assert loaded is not None
    t0 = time.perf_counter()
    _spawn(["releases", str(cs.copy_db(files.db, work / "startup.duckdb"))]).communicate(timeout=300)
    startup = time.perf_counter() - t0
    yield Base(files, cs.snapshot(files.db), seconds, min(startup, min(seconds.values()) / 2), loaded)


def _release(con: duckdb.DuckDBPyConnection, name: str) -> tuple[int, int, int, bool, int | None] | None:
    row = con.execute(
        "SELECT release_id, rows_in, rows_published, verified, superseded_by FROM ldiv.release "
        "WHERE name = ? ORDER BY release_id DESC LIMIT 1",
        [f"main.{name}"],
    ).fetchone()
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]), bool(row[3]), row[4])


def _count(con: duckdb.DuckDBPyConnection, table: str, where: str = "", params: Sequence[object] = ()) -> int:
    row = con.execute(f"SELECT count(*) FROM {table} {where}", list(params)).fetchone()
    return int(row[0]) if row else -1


def complete_release(db: Path, sc: Scenario, base: Base) -> list[str]:
    """Why the target of an anonymize or append is not a complete, verified, reconciled release."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        rec = _release(con, sc.target)
        if rec is None:
            return [f"{sc.target}: no ldiv.release record"]
        rid, rows_in, published, verified, superseded = rec
        bad = (
            []
            if verified and superseded is None
            else [f"release {rid}: verified={verified}, superseded={superseded}"]
        )
        if sc.kind == "append":
            qid = _count(con, cs.quote(f"{sc.target}_qid"))
            waiting = _count(con, f"ldiv.{cs.quote(f'retained:main.{sc.target}')}")
            received = _count(con, "ldiv.stream_row", "WHERE name = ?", [f"main.{sc.target}"])
            if not (qid == published and published + waiting == rows_in == received):
                bad.append(f"stream does not reconcile: qid {qid}, published {published}, waiting {waiting}, "
                           f"in {rows_in}, received {received}")  # fmt: skip
            return bad
        out = _count(con, cs.quote(sc.target))
        source = _count(con, cs.quote(cs.SOURCE))
        linked = _count(con, "ldiv.release_row", "WHERE release_id = ?", [rid])
        grouped = _count(con, "ldiv.release_row", "WHERE release_id = ? AND group_id IS NOT NULL", [rid])
        if not (out == published == grouped and rows_in == source == linked):
            bad.append(f"release {rid} does not reconcile: table {out}, published {published}, grouped {grouped}, "
                       f"in {rows_in}, source {source}, linked {linked}")  # fmt: skip
        return bad
    finally:
        con.close()


def _targets(sc: Scenario) -> set[tuple[str, str]]:
    if sc.kind == "append":
        return {("main", f"{sc.target}_{p}") for p in ("qid", "sa", "marginals")}
    return {("main", sc.target)}


def after_kill(db: Path, sc: Scenario, base: Base) -> tuple[list[str], bool]:
    """The broken rules after a kill, and whether the command's effect was committed."""
    try:
        Database.open(db).close()  # opens, migrations verified
        now = cs.snapshot(db)
    except Exception as exc:
        return [f"the file does not open: {type(exc).__name__}: {exc}"], False
    broken = [f"{c}" for c in cs.diff(base.before, now) if not c.startswith("table ldiv.")]
    targets = _targets(sc)
    broken = [c for c in broken if not any(f"table {'.'.join(t)} " in c for t in targets)]
    states = {t: now.tables.get(t) for t in targets}
    old = {t: base.before.tables.get(t) for t in targets}
    if states == old:
        if now.releases.get(f"main.{sc.target}") != base.before.releases.get(f"main.{sc.target}"):
            broken.append("a new release was recorded but its tables are the old ones")
        return broken, False
    if sc.kind == "load":
        if states[("main", cs.PLAIN)] != base.loaded:
            broken.append(f"{cs.PLAIN} is neither the old table nor the whole file: {states}")
        return broken, True
    if None in states.values():
        broken.append(f"partial release: {sorted(t for t, s in states.items() if s is None)} missing")
        return broken, True
    if sc.kind == "append" and any(states[t] == old[t] for t in targets):
        broken.append("partial append: some stream tables changed, others did not")
    return broken + complete_release(db, sc, base), True


def _sigint_rules(err: str, returncode: int) -> list[str]:
    broken = []
    if "Traceback" in err:
        tail = [x for x in err.strip().splitlines() if x.strip()][-14:]  # the whole traceback, to tell where
        broken.append(f"Ctrl-C printed a traceback ending {tail}")
    if "internal error" in err:
        broken.append(f"Ctrl-C gave an internal error: {err.strip()[-300:]}")
    # 130: interrupted cleanly; -SIGINT: died of the signal before Python took it over (no output)
    if returncode not in (0, 130, -signal.SIGINT):
        broken.append(f"exit {returncode} after Ctrl-C")
    return broken


@pytest.mark.parametrize("i", range(KILLS))
def test_kill(base: Base, tmp_path: Path, i: int) -> None:
    sc = SCENARIOS[i % len(SCENARIOS)]
    sig = (signal.SIGKILL, signal.SIGINT)[(i // len(SCENARIOS)) % 2]
    rng = random.Random(SEED * 1000 + i)
    # every other kill lands after start-up (imports), where the work and the commit happen
    start = 0.0 if (i // (2 * len(SCENARIOS))) % 2 == 0 else base.startup
    delay = rng.uniform(start, base.seconds[sc.name] * 1.05)
    db = cs.copy_db(base.files.db, tmp_path / "db.duckdb")
    proc = _spawn(sc.command(False, db, base.files, cs.BATCHES[0]))
    time.sleep(delay)
    killed = proc.poll() is None
    if killed:
        proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    where = f"{sc.name}, {sig.name} after {delay:.2f} s of {base.seconds[sc.name]:.2f} s (killed={killed})"
    broken = _sigint_rules(err, proc.returncode) if sig == signal.SIGINT else []
    after, committed = after_kill(db, sc, base)
    broken += after
    if not any(b.startswith("the file does not open") for b in after):
        batch = cs.BATCHES[1] if committed and sc.kind == "append" else cs.BATCHES[0]
        code, _, err = call(sc.command(True, db, base.files, batch))
        if code != 0:
            broken.append(f"the next run failed ({code}): {err.strip()[:300]}")
        if cs.snapshot(db).running:
            broken.append("a run is left 'running' after the next command")
        if code == 0 and sc.kind != "load":
            broken += [f"the next release: {x}" for x in complete_release(db, sc, base)]
    assert not broken, f"{where}: {broken}"
