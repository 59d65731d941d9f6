"""Plan audit of the Spark engine (issue 57, "no pathologies"): the joins Spark plans as nested loops.

Timing sweeps on Spark are slow and noisy; a join's plan is not. On Spark ``local[2]`` (a fresh warehouse
in a temporary directory), this makes a small table of each hostile shape of ``bench/shapes.py`` (the same
SELECT lists, with the row id ``ldiv_load`` adds), runs the main commands on it through the Python API
and asks Spark for the physical plan (``EXPLAIN``) of every query it is sent, just before it runs: a
``SELECT``, the query of a ``CREATE TABLE ... AS`` or ``INSERT ... SELECT`` (work tables held as views
included). It prints each ``BroadcastNestedLoopJoin`` and ``CartesianProduct`` (and each
equi-join whose condition keeps an inequality: a coarse key's pairs filtered) with the template that
sent it, the join's type and condition, and the first operators of its two sides, with the shapes and
commands that reached it. A nested loop costs the product of its sides' rows: fine where one side is
provably tiny (a one-row aggregate, marked ``one row`` where the plan shows it), a pathology where both
grow with the table. Which is which is read from the SQL (the report of the round that runs this).

    python -m bench.spark_plans [--rows 300] [--only SHAPE,...] [--commands NAME,...] [--out FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.shapes import SHAPES as SHAPES_NUMERIC
from bench.shapes import WIDTHS

# beside bench/shapes.py's (numeric QIs): a categorical QI with a value per row and an imported ARX
# hierarchy over it (c<i>; d<i // 10>; h<i // 100>; *), which the LCA labels of Mondrian, BSGI and TP+ read
SHAPES = {**SHAPES_NUMERIC, "cat_unique": "'c' || i AS q1, i % 7 AS q2, 'v' || (i % 11) AS s"}

NESTED = ("BroadcastNestedLoopJoin", "CartesianProduct")
EQUI = ("SortMergeJoin", "BroadcastHashJoin", "ShuffledHashJoin")
_RANGE = re.compile(r" (?:<|>|<=|>=) ")  # an inequality in a join's condition
# statements whose plan is a query's: a query, or a write of one
_QUERY_HEAD = re.compile(
    r"^\s*(?:\(?\s*(?:SELECT|WITH)\b|CREATE\b.*?\bAS\s+\(?\s*(?:SELECT|WITH)\b|INSERT\b)", re.I | re.S
)
_QUERY_START = re.compile(r"(?<![\w.`])(?:SELECT|WITH)\s", re.I)
_IDS = re.compile(r"#\d+L?")  # expression ids: the same join spelled alike across statements
# operators that pass their child's rows through: skipped when a join side's head is shown
_PASS = ("Exchange", "BroadcastExchange", "Project", "Filter", "Sort", "ColumnarToRow", "InputAdapter",
         "WholeStageCodegen", "AQEShuffleRead", "ShuffleQueryStage", "BroadcastQueryStage")  # fmt: skip


@dataclass
class Join:
    operator: str  # the plan's line, expression ids dropped
    sides: list[str]  # each side's first operators that are not pass-throughs
    one_row: bool  # a side is a global aggregate (one row)


@dataclass
class Audit:
    """The statements sent while installed, by template, and the nested-loop joins of their plans."""

    real: Callable[..., Any]
    where: str = ""  # the shape and command running
    template: list[str] = field(default_factory=lambda: ["(session)"])
    explained: set[str] = field(default_factory=set)
    statements: int = 0
    errors: list[dict[str, str]] = field(default_factory=list)
    found: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    def see(self, session: Any, sql: str, args: Any) -> None:
        self.statements += 1
        query = query_of(sql)
        if query is None or query in self.explained:
            return
        self.explained.add(query)
        try:
            plan = self.real(session, "EXPLAIN " + query, args).collect()[0][0]
        except Exception as exc:  # a statement Spark cannot explain alone: named, not fatal
            self.errors.append({"template": self.template[-1], "where": self.where, "error": str(exc)[:200]})
            return
        for join in nested_joins(plan):
            if (self.template[-1], join.operator) not in self.found:  # shown as found: a stopped run keeps it
                print(f"  found in {self.template[-1]} ({self.where}): {join.operator}", flush=True)
            entry = self.found.setdefault(
                (self.template[-1], join.operator),
                {"join": join, "where": set(), "sql": " ".join(query.split())[:400]},
            )
            entry["where"].add(self.where)


def query_of(sql: str) -> str | None:
    """The query whose plan ``sql`` runs (a ``SELECT``/``WITH``, the query of a ``CREATE ... AS`` or of an
    ``INSERT``), or None for a statement without one."""
    text = re.sub(r"^(\s*--[^\n]*\n)+", "", sql).strip()
    if not _QUERY_HEAD.match(text):
        return None
    if re.match(r"\(?\s*(?:SELECT|WITH)\b", text, re.I):
        return text
    m = _QUERY_START.search(text)
    if m is None:  # INSERT ... VALUES
        return None
    query = text[m.start() :]
    if text[: m.start()].rstrip().endswith("("):  # AS (SELECT ...)
        query = query.rstrip().removesuffix(")")
    return query


def nested_joins(plan: str) -> list[Join]:
    """The nested-loop joins of a physical plan's text, and the equi-joins that filter their pairs by an
    inequality (a coarse key, the range left to a filter), each with its two sides' heads."""
    lines = plan.splitlines()
    out = []
    for i, line in enumerate(lines):
        residual = any(n in line for n in EQUI) and _RANGE.search(line.split("], [", 1)[-1]) is not None
        if not residual and not any(n in line for n in NESTED):
            continue
        col, sides = _column(line), []
        for j in range(i + 1, len(lines)):
            if _column(lines[j]) <= col:
                break
            if _column(lines[j]) == col + 3 and lines[j][col : col + 3] in (":- ", "+- "):
                sides.append(" > ".join(_side(lines, j, col + 3)))
        one = any(h.startswith("HashAggregate(keys=[]") for h in sides)
        out.append(Join(_IDS.sub("", _body(line)), sides, one))
    return out


def _body(line: str) -> str:
    return re.sub(r"^\*\(\d+\)\s*", "", line.lstrip(" :+-"))


def _column(line: str) -> int:
    """Where a plan line's operator starts (after the tree's drawing)."""
    return len(line) - len(line.lstrip(" :+-"))


def _side(lines: list[str], start: int, col: int, depth: int = 3) -> list[str]:
    """The first ``depth`` operators down a join side's first path, pass-throughs skipped."""
    out: list[str] = []
    want = col
    for k in range(start, len(lines)):
        at = _column(lines[k])
        if len(out) >= depth or at < col or (k > start and at == col):
            break
        if at != want:
            continue
        want += 3
        body = _body(lines[k])
        if body.split("(")[0].split(" ")[0] not in _PASS:
            out.append(_IDS.sub("", body)[:90])
    return out


@contextlib.contextmanager
def installed(session: Any) -> Iterator[Audit]:
    """Every ``session.sql`` call explained first; the template sending it known from the engine."""
    from ldiv_db.db.spark import engine

    cls = type(session)
    audit = Audit(real=cls.sql)

    def sql(self: Any, query: str, args: Any = None, **kw: Any) -> Any:
        audit.see(self, query, args)
        return audit.real(self, query, args, **kw)

    saved = {m: getattr(engine.SparkDatabase, m) for m in ("_send", "raw_rows", "execute_script")}

    def named(method: str, label: Callable[..., str]) -> Callable[..., Any]:
        def call(self: Any, *a: Any, **k: Any) -> Any:
            audit.template.append(label(*a))
            try:
                return saved[method](self, *a, **k)
            finally:
                audit.template.pop()

        return call

    cls.sql = sql
    engine.SparkDatabase._send = named("_send", lambda q, *a: q.name)  # type: ignore[method-assign]
    engine.SparkDatabase.raw_rows = named("raw_rows", lambda s, *a: "raw: " + " ".join(s.split())[:40])  # type: ignore[method-assign]
    engine.SparkDatabase.execute_script = named("execute_script", lambda n, *a: f"script: {n}")  # type: ignore[method-assign]
    try:
        yield audit
    finally:
        cls.sql = audit.real
        for m, f in saved.items():
            setattr(engine.SparkDatabase, m, f)


def make_tables(session: Any, shape: str, rows: int) -> list[str]:
    """The shape's table ``t_SHAPE`` (with the row id ``ldiv load`` adds), its stream's tables
    ``t_SHAPE_first`` and ``t_SHAPE_next`` (a key ``id``; the next a quarter as many new rows), and an
    interval hierarchy of each QI (built through the API, so audited as ``hierarchy build``)."""
    session.sql("CREATE SCHEMA IF NOT EXISTS main")
    made = {
        f"t_{shape}": (0, rows, ""),
        f"t_{shape}_first": (0, rows, "i AS id, "),
        f"t_{shape}_next": (rows, rows + rows // 4, "i AS id, "),
    }
    for name, (lo, hi, key) in made.items():
        session.sql(f"DROP TABLE IF EXISTS main.{name}")
        session.sql(
            f"CREATE TABLE main.{name} USING parquet AS SELECT {key}{SHAPES[shape]}, "
            f"monotonically_increasing_id() AS ldiv_rowid FROM range({lo}, {hi}) AS r(i)"
        )
    return sorted({c.split(" AS ")[-1].strip() for c in SHAPES[shape].split(", ") if " AS q" in c})


def commands(shape: str, qis: list[str]) -> dict[str, Callable[[str], Any]]:
    """The commands audited on a shape's table, in order (later ones read the releases earlier ones
    wrote), each a call of the API on a database URL."""
    import ldiv_db
    from ldiv_db import api

    t = f"t_{shape}"
    nulls: dict[str, Any] = {"null_as_value": True} if shape == "nulls" else {}
    widths = [int(w) for w in WIDTHS.split(",")]
    out: dict[str, Callable[[str], Any]] = {
        "hierarchy build": lambda db: _hierarchies(db, t, qis, widths, shape == "cat_unique"),
    }
    for model, extra in (("distinct", {}), ("entropy", {}), ("recursive", {"c": 3})):
        out[f"check {model}"] = lambda db, m=model, e=extra: ldiv_db.check(
            db, t, qis, "s", model=m, l=2, **e, **nulls
        )

    def anonymize(algo: str, out_name: str, **kw: Any) -> Callable[[str], Any]:
        return lambda db: ldiv_db.anonymize(db, t, qis, "s", algorithm=algo, output=f"{out_name}_{shape}",
                                            replace=True, **nulls, **kw)  # fmt: skip

    for algo in ("mondrian", "bsgi", "tp+", "decomposition", "topdown", "optimal"):
        out[f"anonymize {algo}"] = anonymize(algo, f"r_{algo.replace('+', 'p')}", model="distinct", l=2)
    out["anonymize lplus"] = anonymize("lplus", "r_lplus", model="lplus", l=2)
    for algo in ("hilbert", "tp"):
        out[f"anonymize {algo}"] = anonymize(algo, f"r_{algo}", model="frequency", l=2)
    fd = {"model": "distinct", "l": 2, "suppression_limit": "1", "allow_empty": True}
    out["anonymize full-domain"] = anonymize("full-domain", "r_fd", levels={q: 2 for q in qis}, **fd)
    top = {q: (5 if i == 0 else 0) for i, q in enumerate(qis)}
    out["anonymize full-domain top"] = anonymize("full-domain", "r_fdtop", levels=top, **fd)
    out["metrics"] = lambda db: ldiv_db.metrics(db, t, f"r_mondrian_{shape}", qis, "s", l=2)
    out["risk"] = lambda db: ldiv_db.risk(db, t, qi=qis, **nulls)
    out["risk release"] = lambda db: ldiv_db.risk(db, release=f"r_bsgi_{shape}")
    out["risk rows-out"] = lambda db: ldiv_db.risk(db, t, qi=qis, rows_out=f"risk_rows_{shape}", **nulls)
    out["compose"] = lambda db: ldiv_db.compose(db, [f"r_mondrian_{shape}", f"r_bsgi_{shape}"])
    out["compose covering"] = lambda db: ldiv_db.compose(
        db, [f"r_hilbert_{shape}", f"r_tp_{shape}", f"r_fdtop_{shape}"]
    )
    out["report"] = lambda db: ldiv_db.report(db, f"r_tp_{shape}")
    out["release publish"] = lambda db: api.publish(db, f"r_mondrian_{shape}")
    out["release publish beside"] = lambda db: api.publish(db, f"r_bsgi_{shape}", accept_composition=True)
    stream = f"r_stream_{shape}"
    out["stream first"] = lambda db: ldiv_db.anonymize(
        db,
        f"{t}_first",
        qis,
        "s",
        algorithm="decomposition",
        l=2,
        key="id",
        output=stream,
        replace=True,
        **nulls,
    )
    out["release append"] = lambda db: api.release_append(db, stream, f"{t}_next", key="id")
    return out


def _hierarchies(url: str, table: str, qis: list[str], widths: list[int], categorical: bool) -> None:
    """Each QI's interval hierarchy; the categorical shape's ``q1`` an ARX file's (every value of the
    shape's tables: its first rows and the stream's next)."""
    import ldiv_db
    from ldiv_db import taxonomy

    with ldiv_db.Database.open(url) as db, tempfile.TemporaryDirectory() as tmp:
        for q in qis:
            if categorical and q == "q1":
                n = int(
                    db.raw_rows(
                        f"SELECT max(i) + 1 FROM (SELECT CAST(substr(q1, 2) AS INT) AS i FROM main.{table}_next)"
                    )[0][0]
                )
                path = Path(tmp) / "q1.csv"
                path.write_text("".join(f"c{i};d{i // 10};h{i // 100};*\n" for i in range(n)))
                taxonomy.import_hierarchy(db, table, q, path)
            else:
                taxonomy.build_hierarchy(db, table, q, widths)


def run(
    url: str, shapes: list[str], rows: int, names: list[str] | None
) -> tuple[Audit, list[dict[str, Any]]]:
    """Each shape's tables made, then its commands run under the audit: the audit and each call's outcome."""
    from ldiv_db.db.spark.session import session_for

    session = session_for(url)
    calls: list[dict[str, Any]] = []
    with installed(session) as audit:
        for shape in shapes:
            with _unaudited(audit, session):
                qis = make_tables(session, shape, rows)
            made = commands(shape, qis)
            for name in ["hierarchy build", *(n for n in names or made if n != "hierarchy build")]:
                call = made[name]
                audit.where = f"{shape}: {name}"
                n0, t0 = audit.statements, time.perf_counter()
                try:
                    call(url)
                    outcome = "ok"
                except Exception as exc:  # a shape the command refuses: shown, the audit goes on
                    outcome = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
                calls.append({"shape": shape, "command": name, "outcome": outcome,
                              "statements": audit.statements - n0, "seconds": round(time.perf_counter() - t0, 1)})  # fmt: skip
                print(f"{shape:12} {name:28} {calls[-1]['statements']:5} statements {calls[-1]['seconds']:7.1f} s  "
                      f"{outcome}", flush=True)  # fmt: skip
    return audit, calls


@contextlib.contextmanager
def _unaudited(audit: Audit, session: Any) -> Iterator[None]:
    cls, spy = type(session), type(session).sql
    cls.sql = audit.real
    try:
        yield
    finally:
        cls.sql = spy


def report(audit: Audit) -> list[dict[str, Any]]:
    """The nested-loop joins found, by template and operator, printed; returned for --out."""
    rows = []
    for (template, operator), e in sorted(audit.found.items()):
        join: Join = e["join"]
        where = sorted(e["where"])
        shapes = sorted({w.split(": ")[0] for w in where})
        cmds = sorted({w.split(": ", 1)[1] for w in where})
        rows.append({"template": template, "operator": operator, "sides": join.sides, "one_row_side": join.one_row,
                     "shapes": shapes, "commands": cmds, "sql": e["sql"]})  # fmt: skip
    print(f"\n{len(rows)} nested-loop joins ({audit.statements} statements sent, {len(audit.explained)} queries "
          f"explained, {len(audit.errors)} not explainable)\n")  # fmt: skip
    for r in rows:
        print(f"{r['template']}\n  {r['operator']}")
        for side in r["sides"]:
            print(f"    side: {side}")
        print(f"  {'one row on a side' if r['one_row_side'] else 'both sides: read the SQL'}; "
              f"commands: {', '.join(r['commands'])}; shapes: {', '.join(r['shapes'])}\n")  # fmt: skip
    for err in audit.errors:
        print(f"not explained: {err['template']} ({err['where']}): {err['error']}")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=300)
    ap.add_argument("--only", help="comma-separated shapes (default: all of bench/shapes.py's)")
    ap.add_argument(
        "--commands", help="comma-separated commands, as printed, run in that order (default: all)"
    )
    ap.add_argument("--out", type=Path, help="write the joins found and the calls as JSON")
    ap.add_argument(
        "--broadcast",
        default="-1",
        help="spark.sql.autoBroadcastJoinThreshold; -1 (default): no table broadcast, the plans of tables too "
        "large for it, which a few hundred rows would not show (a NOT IN falls back to a nested loop there)",
    )
    a = ap.parse_args(argv)
    shapes = a.only.split(",") if a.only else list(SHAPES)
    with tempfile.TemporaryDirectory() as tmp:
        url = (
            f"spark://local[2]?warehouse={tmp}/warehouse&spark.sql.shuffle.partitions=2"
            f"&spark.sql.autoBroadcastJoinThreshold={a.broadcast}"
        )
        audit, calls = run(url, shapes, a.rows, a.commands.split(",") if a.commands else None)
        rows = report(audit)
        from ldiv_db.db.spark.session import stop_sessions

        stop_sessions()
    if a.out:
        a.out.write_text(json.dumps({"rows": a.rows, "joins": rows, "calls": calls, "errors": audit.errors},
                                    indent=1) + "\n")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
