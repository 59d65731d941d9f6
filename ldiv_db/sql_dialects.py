"""From the templates' DuckDB dialect to another engine's, on the parsed statement (sqlglot), never on text.

:func:`translate` is what :mod:`ldiv_db.render` exposes (cached per statement and dialect). sqlglot's
own transpiler does most of the work; the rewrites below cover what it leaves in DuckDB's terms:

* ``CREATE OR REPLACE TABLE t AS ...`` becomes ``DROP TABLE IF EXISTS t`` + ``CREATE TABLE t AS ...``;
* ``GROUP BY ALL`` becomes the positions of the non-aggregate select items;
* ``hash(a, b, ...)`` (a 64-bit id; templates shift it right once) becomes the first 64 bits of the md5
  of an injective text encoding of the arguments (length-prefixed, NULL marked): deterministic on every
  engine, and ``hash(..., 'ldiv')`` stays an independent second hash. The ids differ from DuckDB's, so
  a release must never depend on their order (the algorithms renumber groups by their content);
* ``rowid`` becomes a bigint from the row's physical address (``ctid``: page * 65536 + tuple), stable
  while the table is not modified — ldiv_db never modifies a source;
* list functions: ``list_extract`` → subscript, ``len`` of a list → ``cardinality``,
  ``list_sum(list_slice(...))`` → a sum over ``unnest`` of the slice; ``arg_max(a, b)`` → the first
  element of ``array_agg(a ORDER BY b DESC)``; ``any_value`` → the first element of ``array_agg``;
* ``HUGEINT``/``UBIGINT`` → ``NUMERIC``; ``TRY_CAST`` keeps sqlglot's ``CAST``;
* bound parameters: ``$name`` → psycopg's ``%(name)s`` (literal ``%`` doubled).
"""

from __future__ import annotations

import functools
import re
from typing import cast

import sqlglot
from sqlglot import exp

from .sql_spark import spark_statements

_PG_HASH = "('x' || substr(md5(ldiv_hash_input), 1, 16))::bit(64)::bigint & 9223372036854775807"
_PG_ROWID = "(((ldiv_t.ctid::text::point)[0])::bigint * 65536 + ((ldiv_t.ctid::text::point)[1])::bigint)"


def _parse(sql: str) -> list[exp.Expression]:
    return [cast(exp.Expression, s) for s in sqlglot.parse(sql, read="duckdb") if s is not None]


def _pg_template(text: str) -> exp.Expression:
    return cast(exp.Expression, sqlglot.parse_one(text, read="postgres"))


def _fill(text: str, **nodes: exp.Expression) -> exp.Expression:
    """Parse a fixed PostgreSQL fragment and put the given nodes where its columns ``ldiv_<key>`` are."""
    tree = _pg_template(text)
    for col in list(tree.find_all(exp.Column)):
        key = col.name.removeprefix("ldiv_")
        if col.name.startswith("ldiv_") and key in nodes:
            col.replace(exp.Paren(this=nodes[key].copy()))
    return tree


def _hash_input(args: list[exp.Expression]) -> exp.Expression:
    parts: list[exp.Expression] = []
    for a in args:
        as_text = exp.cast(a.copy(), "TEXT")
        framed = exp.DPipe(
            this=exp.DPipe(
                this=exp.cast(exp.Length(this=as_text.copy()), "TEXT"), expression=exp.Literal.string(":")
            ),
            expression=as_text,
        )
        parts.append(exp.Coalesce(this=framed, expressions=[exp.Literal.string("N")]))
    out = parts[0]
    for p in parts[1:]:
        out = exp.DPipe(this=exp.DPipe(this=out, expression=exp.Literal.string("|")), expression=p)
    return out


def _rewrite_hash(node: exp.Expression) -> exp.Expression:
    if not (isinstance(node, exp.Anonymous) and str(node.this).lower() == "hash"):
        return node
    return exp.Paren(this=_fill(_PG_HASH, hash_input=_hash_input(list(node.expressions))))


def _rewrite_rowid(node: exp.Expression) -> exp.Expression:
    if not (isinstance(node, exp.Column) and node.name.lower() == "rowid" and not node.this.quoted):
        return node
    tree = _pg_template(_PG_ROWID)
    for col in tree.find_all(exp.Column):
        if col.table == "ldiv_t":
            table = node.args.get("table")
            col.set("table", table.copy() if table is not None else None)
    return tree


def _is_list(node: exp.Expression) -> bool:
    return isinstance(node, (exp.Array, exp.ArrayAgg)) or (
        isinstance(node, exp.Column) and node.name.lower() == "counts"  # the only list len() is taken of
    )


def _rewrite_lists(node: exp.Expression) -> exp.Expression:
    name = node.name.lower() if isinstance(node, exp.Anonymous) else ""
    if name == "list_extract":
        arr, idx = node.expressions
        return _fill("(ldiv_a)[ldiv_i]", a=arr, i=idx)
    if name == "list_sum":
        (inner,) = node.expressions
        if isinstance(inner, exp.Anonymous) and inner.name.lower() == "list_slice":
            arr, lo, hi = inner.expressions
            return _fill(
                "(SELECT sum(v) FROM unnest((ldiv_a)[ldiv_lo:ldiv_hi]) AS u(v))", a=arr, lo=lo, hi=hi
            )
        return _fill("(SELECT sum(v) FROM unnest(ldiv_a) AS u(v))", a=inner)
    if isinstance(node, exp.Length) and _is_list(node.this):
        return _fill("cardinality(ldiv_a)", a=node.this)
    if isinstance(node, exp.ArgMax):
        return _fill("(array_agg(ldiv_a ORDER BY ldiv_b DESC))[1]", a=node.this, b=node.expression)
    if isinstance(node, exp.AnyValue):
        return _fill("(array_agg(ldiv_a))[1]", a=node.this)
    return node


def _rewrite_types(node: exp.Expression) -> exp.Expression:
    if isinstance(node, exp.DataType) and node.this in (
        exp.DataType.Type.INT128,
        exp.DataType.Type.UBIGINT,
        exp.DataType.Type.UINT128,
    ):
        return exp.DataType.build("NUMERIC")
    return node


def _group_by_all(select: exp.Select) -> None:
    group = select.args.get("group")
    if group is None or not group.args.get("all"):
        return
    positions = [
        exp.Literal.number(i + 1)
        for i, item in enumerate(select.expressions)
        if not item.find(exp.AggFunc) and not item.find(exp.Window)
    ]
    select.set("group", exp.Group(expressions=positions) if positions else None)


def _replace_table(stmt: exp.Create) -> list[exp.Expression]:
    if not stmt.args.get("replace") or str(stmt.args.get("kind", "")).upper() != "TABLE":
        return [stmt]
    target = stmt.this.this if isinstance(stmt.this, exp.Schema) else stmt.this
    stmt.set("replace", False)
    drop = exp.Drop(tables=[target.copy()], kind="TABLE", exists=True)
    return [drop, stmt]


def _map_ldiv(stmt: exp.Expression, schema: str) -> exp.Expression | None:
    """Read ``ldiv.x`` from ``schema`` instead (the session's stand-in for a missing ldiv schema)."""
    if isinstance(stmt, exp.Create) and str(stmt.args.get("kind", "")).upper() == "SCHEMA":
        return None
    for table in stmt.find_all(exp.Table):
        if table.db.lower() == "ldiv":
            table.set("db", exp.to_identifier(schema))
    for lit in stmt.find_all(exp.Literal):
        if lit.is_string and lit.this.lower().startswith("ldiv."):  # nextval('ldiv.run_seq')
            lit.set("this", schema + lit.this[4:])
    return stmt


def _postgres(stmt: exp.Expression) -> list[exp.Expression]:
    for rewrite in (_rewrite_hash, _rewrite_rowid, _rewrite_lists, _rewrite_lists, _rewrite_types):
        stmt = stmt.transform(rewrite)
    for select in stmt.find_all(exp.Select):
        _group_by_all(select)
    if isinstance(stmt, exp.Create):
        return _replace_table(stmt)
    return [stmt]


def _params_style(sql: str, params: frozenset[str], positional: bool) -> str:
    """psycopg reads ``%``: a literal one is doubled, except in the placeholders themselves."""
    if positional:
        return sql.replace("%", "%%").replace("?", "%s") if "?" in sql else sql
    if not params:
        return sql
    names = "|".join(re.escape(p) for p in sorted(params, key=len, reverse=True))
    return re.sub(r"%(?!\((?:" + names + r")\)s)", "%%", sql)


@functools.lru_cache(maxsize=8192)
def translate(
    sql: str,
    dialect: str,
    params: frozenset[str] = frozenset(),
    positional: bool = False,
    ldiv_schema: str = "ldiv",
) -> list[str]:
    """The statements that run ``sql`` (DuckDB dialect, possibly several statements) on ``dialect``;
    ``ldiv_schema`` other than ``ldiv`` reads and writes ldiv_db's tables there instead."""
    if dialect == "duckdb":
        return [sql]
    if dialect not in ("postgres", "spark"):
        raise ValueError(f"no translation to {dialect!r}")
    if positional:
        sql = sql.replace("?", "$ldiv_pos_")  # keep the positions through the parser
    out: list[str] = []
    for parsed in _parse(sql):
        stmt = parsed if ldiv_schema == "ldiv" else _map_ldiv(parsed, ldiv_schema)
        if stmt is None:
            continue
        for part in _postgres(stmt) if dialect == "postgres" else spark_statements(stmt):
            text = part.sql(dialect=dialect)
            if positional:
                text = text.replace("%(ldiv_pos_)s", "?").replace(":ldiv_pos_", "?")
            out.append(_params_style(text, params, positional) if dialect == "postgres" else text)
    return out


def written_tables(sql: str, reads: bool = False) -> list[str]:
    """``schema.table`` of every table ``sql`` writes (CREATE/INSERT/UPDATE/DELETE/DROP/ALTER targets),
    or with ``reads`` every table it names."""
    out: list[str] = []
    for stmt in _parse(sql):
        if reads:
            tables = list(stmt.find_all(exp.Table))
        elif isinstance(stmt, (exp.Create, exp.Insert, exp.Update, exp.Delete, exp.Drop, exp.Alter)):
            t = stmt.this
            t = t.this if isinstance(t, exp.Schema) else t
            tables = [t] if isinstance(t, exp.Table) else list(stmt.find_all(exp.Table))[:1]
        elif isinstance(stmt, (exp.Select, exp.Union)):
            tables = []
        else:
            tables = [exp.Table(this=exp.to_identifier("?"))]
        for t in tables:
            if t.name:
                out.append(".".join(p for p in (t.args.get("db") and t.db, t.name) if p))
    return out
