"""Run one ``ldiv`` command in-process on a private copy of the base database and list every rule it
broke (an empty list: it behaved).

Rules (issue 11): the exit code is 0, 1 or 2; exit 2 prints ``error:``; nothing prints a traceback,
``internal error`` or "this is a bug"; a refused command (exit != 0) leaves the catalog as it was (tables,
row counts, content hashes; the run log may grow); a read leaves the file byte-identical; a user table
is never dropped or changed except by a successful ``load`` that names it; a release table changes only
with a new ``ldiv.release`` record; nothing writes the ``ldiv`` schema through ``load``; a refused
command creates no database file.
"""

from __future__ import annotations

import contextlib
import gc
import io
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ldiv_db.cli.main import main

from . import catalog_state as cs
from .hostile_inputs import WRITERS

FORBIDDEN = ("Traceback", "internal error", "this is a bug")
PROTECTED = (cs.SOURCE, cs.PLAIN, cs.HOSTILE, cs.STREAM_SOURCE, *cs.BATCHES)
RELEASE_TABLES = {
    cs.RELEASE: f"main.{cs.RELEASE}",
    **{f"{cs.STREAM}_{part}": f"main.{cs.STREAM}" for part in ("qid", "sa", "marginals")},
}


@dataclass(frozen=True)
class Fixture:
    """The base database (built once), its snapshot and sha256, and the input files of the pools."""

    files: cs.BaseFiles
    before: cs.Snapshot
    sha: str
    paths: dict[str, Path]
    plain: Path  # a plain DuckDB file (no ldiv schema) holding a copy of the census table
    plain_before: cs.Snapshot
    plain_sha: str

    @classmethod
    def build(cls, workdir: Path, rows: int = 400) -> Fixture:
        files = cs.build_base(workdir, rows=rows)
        inputs = workdir / "inputs"
        inputs.mkdir()
        bad = inputs / "bad.csv"
        bad.write_text('a;"b\n1,"2;3\n"x\'\t;y\n', encoding="utf-8")
        empty = inputs / "empty.csv"
        empty.write_text("")
        binary = inputs / "binary.csv"
        binary.write_bytes(bytes(range(256)) * 8)
        paths = {
            "@CSV@": files.csv,
            "@BADCSV@": bad,
            "@EMPTY@": empty,
            "@BINARY@": binary,
            "@HIER@": files.hierarchies["age"],
            "@CATS@": files.categories,
        }
        plain = workdir / "plain.duckdb"
        con = duckdb.connect(str(plain))
        con.execute(
            f"CREATE TABLE {cs.SOURCE} AS SELECT * FROM read_csv($p, delim = ';', header = true)",
            {"p": str(files.csv)},
        )
        con.close()
        return cls(
            files,
            cs.snapshot(files.db),
            cs.sha256_file(files.db),
            paths,
            plain,
            cs.snapshot(plain),
            cs.sha256_file(plain),
        )


@dataclass
class Outcome:
    argv: list[str]
    code: int | str
    out: str
    err: str
    broken: list[str]

    def describe(self) -> str:
        text = (self.err or self.out).strip().splitlines()
        return f"ldiv {' '.join(map(repr, self.argv))} -> {self.code}: {' | '.join(text[:3])[:300]}"


def call(argv: Sequence[str]) -> tuple[int | str, str, str]:
    out, err = io.StringIO(), io.StringIO()
    # The objects alive before the command are set aside (gc.freeze), so that the collection below
    # walks only what the command allocated, where any connection it left lies, not the whole heap of
    # the test process (its modules, hypothesis' state), which made up about half of each example's time.
    gc.freeze()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code: int | str = main(list(argv))
            except SystemExit as exc:  # argparse: exit 2 with "error:" on stderr (or 0 for --help)
                code = exc.code if isinstance(exc.code, int) else 2 if exc.code else 0
            except BaseException as exc:  # escaped main: the rules below report it
                code = f"raised {type(exc).__name__}: {exc}"[:200]
        gc.collect()  # close connections the command left to the garbage collector
    finally:
        gc.unfreeze()
    return code, out.getvalue(), err.getvalue()


def _load_target(argv: Sequence[str]) -> set[str]:
    if argv[:1] != ["load"] or "--table" not in argv[:-1]:
        return set()
    raw = argv[argv.index("--table") + 1]
    last = raw.split(".")[-1]
    return {
        x.lower() for x in (raw, last, raw.strip('"').replace('""', '"'), last.strip('"').replace('""', '"'))
    }


def check(fx: Fixture, argv: Sequence[str], *, job: str | None = None, loaded: str | None = None) -> Outcome:
    """Run ``argv`` (placeholders replaced) on a fresh copy of the base database; the broken rules."""
    root = fx.files.workdir / "examples"
    root.mkdir(exist_ok=True)
    exdir = Path(tempfile.mkdtemp(dir=root))
    try:
        db = cs.copy_db(fx.files.db, exdir / "db.duckdb")
        plain = cs.copy_db(fx.plain, exdir / "plain.duckdb")
        subst = {**{k: str(v) for k, v in fx.paths.items()}, "@DB@": str(db), "@DIR@": str(exdir)}
        subst["@PLAINDB@"] = str(plain)
        subst["@MISSING@"] = str(exdir / "missing.duckdb")
        subst["@JOB@"] = str(exdir / "job.toml")
        if job is not None:
            text = job
            for k, v in subst.items():
                text = text.replace(k, v.replace("\\", "\\\\"))
            (exdir / "job.toml").write_text(text, encoding="utf-8")
        real = [_subst(a, subst) for a in argv]
        with contextlib.chdir(exdir):  # a relative output path (--html ==) lands here, not in the checkout
            code, out, err = call(real)
        after = cs.snapshot(db)
        broken = _rules(fx, list(argv), code, out, err, after, db, exdir, loaded)
        if cs.sha256_file(plain) != fx.plain_sha:
            broken += _plain_rules(fx, list(argv), code, plain)
        return Outcome(list(argv), code, out, err, broken)
    finally:
        shutil.rmtree(exdir, ignore_errors=True)


def _is_writer(argv: list[str]) -> bool:
    path = tuple(a for a in argv[:2] if not a.startswith("@") and not a.startswith("-"))
    return path in WRITERS or path[:1] in WRITERS


def _plain_rules(fx: Fixture, argv: list[str], code: int | str, plain: Path) -> list[str]:
    """A plain DuckDB file (no ldiv schema): a read leaves it byte-identical; a refused write may add
    the ldiv schema but changes no user table."""
    if not _is_writer(argv):
        return ["a read changed a plain DuckDB file (sha256)"]
    after = cs.snapshot(plain)
    lost = [c for c in cs.diff(fx.plain_before, after) if not c.startswith("table ldiv")]
    return (
        [f"refused (exit {code}) but changed user tables of a plain file: {lost[:3]}"]
        if code and lost
        else []
    )


def _subst(arg: str, subst: dict[str, str]) -> str:
    for k, v in subst.items():
        arg = arg.replace(k, v)
    return arg


def _rules(
    fx: Fixture,
    argv: list[str],
    code: int | str,
    out: str,
    err: str,
    after: cs.Snapshot,
    db: Path,
    exdir: Path,
    loaded: str | None,
) -> list[str]:
    broken: list[str] = []
    writer = _is_writer(argv)
    if code not in (0, 1, 2):
        broken.append(f"exit code {code} (expected 0, 1 or 2)")
    if code == 2 and "error:" not in err:
        broken.append("exit 2 without 'error:' on stderr")
    for word in FORBIDDEN:
        if word in out or word in err:
            broken.append(f"prints {word!r}")
    changes = cs.diff(fx.before, after)
    if code != 0 and changes:
        broken.append(f"refused (exit {code}) but changed the catalog: {changes[:3]}")
    if not writer and (changes or cs.sha256_file(db) != fx.sha):
        broken.append(f"a read changed the database file: {changes[:3] or 'same tables, other bytes'}")
    allowed = _load_target(argv) if code == 0 else set()
    if loaded and code == 0:
        allowed |= {loaded.lower()}
    for name in PROTECTED:
        key = ("main", name)
        if fx.before.tables[key] != after.tables.get(key) and name.lower() not in allowed:
            broken.append(f"user table {name!r} was dropped or changed")
    for table, release in RELEASE_TABLES.items():
        key = ("main", table)
        new_record = after.releases.get(release, 0) > fx.before.releases.get(release, 0)
        if fx.before.tables[key] != after.tables.get(key) and not new_record:
            broken.append(f"release table {table!r} changed without a new release record")
    if argv[:1] == ["load"] and {k: v for k, v in after.ldiv().items()} != fx.before.ldiv():
        broken.append("load wrote into the ldiv schema")
    if code != 0 and (exdir / "missing.duckdb").exists():
        broken.append("refused but created a database file")
    if not writer and (exdir / "missing.duckdb").exists():
        broken.append("a read created a database file")
    return broken
