"""PostgreSQL's dialect as ldiv_db writes it: :data:`POSTGRES`, the engine's
:class:`~ldiv_db.sqlgen.dialects.Target` (:func:`ldiv_db.sqlgen.dialects.translate` runs it).

sqlglot's own transpiler does most of the work; the rewrites below cover what it leaves in DuckDB's
terms (those of single nodes in :class:`LdivPostgres`'s generator TRANSFORMS where they are independent
of the statement's other rewrites, the rest in one pass over the statement, :func:`_postgres`,
because the statement-wide rewrites after them read their output: decision 0021):

* ``CREATE OR REPLACE TABLE t AS ...`` becomes ``DROP TABLE IF EXISTS t`` + ``CREATE TABLE t AS ...``;
* ``GROUP BY ALL`` becomes the positions of the non-aggregate select items;
* ``hash(a, b, ...)`` (a 64-bit id; templates shift it right once) becomes the XOR of a hash of each
  argument, each position with a seed of its own and a constant of its own for NULL (deterministic on
  every server; cheaper than ``hash_record_extended`` of the row: bench/results/history.md, "PostgreSQL's
  hash translation"). Each argument is hashed by its type, as DuckDB's ``hash`` does: ``pg_temp.ldiv_hash``
  (:data:`PG_HASH_FUNCTIONS`, made in each session as it connects) is overloaded by type and inlined by
  the planner — integers by ``hashint8extended`` and friends (equal across widths), text by
  ``hashtextextended``, any other type by that of its text (an integer hashed as text costs more); a
  single value keeps the
  ``hashtextextended`` of its length-prefixed text, so table digests recorded in ``ldiv.release`` still
  match. ``hash(..., 'ldiv')`` stays an independent
  second hash: the trailing literal picks other seeds (the templates spell it with salted keys,
  :func:`~ldiv_db.sqlgen.dialects.salted_keys`, which DuckDB needs and this reads back). The ids differ
  from DuckDB's, so a release must never depend on their order (the algorithms renumber groups by their content);
* ``rowid`` becomes a bigint from the row's physical address (``ctid``: page * 65536 + tuple - 1: on a
  one-page table the same 0-based numbers as DuckDB's, in insertion order on a freshly loaded one), stable
  while the table is not modified — ldiv_db never modifies a source; ``min(rowid)`` / ``max(rowid)``
  decode ``min(ctid)`` / ``max(ctid)``, once per group;
* list functions: ``list_extract`` → subscript, ``len`` of a list → ``cardinality``,
  ``list_sum(list_slice(...))`` → a sum over ``unnest`` of the slice (of a ``list_reverse_sort``ed list:
  the elements' ordered scan, offset and limited); ``list_sort`` / ``list_reverse_sort`` → ``array_agg``
  of the ordered elements; ``list_slice`` → an array slice; ``arg_max(a, b)`` → the first
  element of ``array_agg(a ORDER BY b DESC)``; ``any_value`` → the first non-NULL
  element of ``array_agg`` (both skip NULLs as DuckDB does);
* ``HUGEINT``/``UBIGINT`` → ``NUMERIC``; ``TRY_CAST`` keeps sqlglot's ``CAST``;
* ``IS NOT DISTINCT FROM`` joins → hash-joinable equalities (:func:`_hashable_joins`);
* bound parameters: ``$name`` → psycopg's ``%(name)s`` (literal ``%`` doubled).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import ClassVar, cast

from sqlglot import exp
from sqlglot.dialects.postgres import Postgres
from sqlglot.generators.postgres import PostgresGenerator

from ...sqlgen.dialects import Target, rewritten, salted_keys
from ...sqlgen.fragments import filled, fragment

_PG_HASH_AT = "coalesce(pg_temp.ldiv_hash(ldiv_value, ldiv_seed), ldiv_null)"
# the overloads of pg_temp.ldiv_hash(value, seed): SQL functions of one expression, which the planner
# inlines (a call costs nothing); PostgreSQL picks the overload by the argument's type when it plans
PG_HASH_FUNCTIONS = (
    "CREATE OR REPLACE FUNCTION pg_temp.ldiv_hash(smallint, bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE "
    "AS 'SELECT pg_catalog.hashint2extended($1, $2)'",
    "CREATE OR REPLACE FUNCTION pg_temp.ldiv_hash(integer, bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE "
    "AS 'SELECT pg_catalog.hashint4extended($1, $2)'",
    "CREATE OR REPLACE FUNCTION pg_temp.ldiv_hash(bigint, bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE "
    "AS 'SELECT pg_catalog.hashint8extended($1, $2)'",
    "CREATE OR REPLACE FUNCTION pg_temp.ldiv_hash(text, bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE "
    "AS 'SELECT pg_catalog.hashtextextended($1, $2)'",
    "CREATE OR REPLACE FUNCTION pg_temp.ldiv_hash(anyelement, bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE "
    "AS 'SELECT pg_catalog.hashtextextended(CAST($1 AS pg_catalog.text), $2)'",
)
_PG_HASH_ONE = "hashtextextended(ldiv_hash_input, 0) & 9223372036854775807"
# page * 65536 + tuple - 1, read from the tid's 6-byte binary form (4× cheaper than parsing its text)
_PG_ROWID = "(CAST(CAST('x' || encode(tidsend(ldiv_t.ctid), 'hex') AS BIT(48)) AS BIGINT) - 1)"


_PG_NULLSAFE_EQ = "(ldiv_a IS NULL) = (ldiv_b IS NULL) AND coalesce(CAST(ldiv_a AS TEXT), '') = coalesce(CAST(ldiv_b AS TEXT), '')"


def _pg_template(text: str) -> exp.Expression:
    return fragment(text, "postgres")


def _fill(text: str, **nodes: exp.Expression) -> exp.Expression:
    """Parse a fixed PostgreSQL fragment and put the given nodes where its columns ``ldiv_<key>`` are."""
    return filled(text, "postgres", _pg_place, **nodes)


def _pg_place(node: exp.Expression) -> exp.Expression:
    node = node.copy()
    return node if isinstance(node, (exp.Literal, exp.Column, exp.Paren)) else exp.Paren(this=node)


def _index(node: exp.Expression) -> exp.Expression:
    """A 1-based subscript for :func:`_fill`: sqlglot shifts integer literals (only) by the dialect's
    index offset when it writes a subscript it parsed, so a literal goes in 0-based."""
    if isinstance(node, exp.Literal) and node.is_int:
        return exp.Literal.number(int(node.this) - 1)
    return node


def _framed(arg: exp.Expression) -> exp.Expression:
    """``arg`` as length-prefixed text, ``'N'`` for NULL (the encoding of single-value hashes)."""
    as_text = exp.cast(arg.copy(), "TEXT")
    length = exp.cast(exp.Length(this=as_text.copy()), "TEXT")
    framed = exp.DPipe(this=exp.DPipe(this=length, expression=exp.Literal.string(":")), expression=as_text)
    return exp.Coalesce(this=framed, expressions=[exp.Literal.string("N")])


def _hash_seed(args: list[exp.Expression]) -> tuple[list[exp.Expression], int]:
    """The hashed arguments and the seed: a trailing string literal (``hash(..., 'ldiv')``) selects a
    seed of its own instead of being hashed as one more element — a constant element only XORs fixed
    bits into the position hashes, so that hash would collide wherever the first one does."""
    last = args[-1] if len(args) > 1 else None
    if isinstance(last, exp.Literal) and last.is_string:
        digest = hashlib.sha256(last.this.encode()).digest()
        return args[:-1], int.from_bytes(digest[:7], "big")
    return args, 0


def _position_seed(seed: int, position: int, what: str) -> int:
    digest = hashlib.sha256(f"ldiv-{what}-{seed}-{position}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def _rewrite_hash(node: exp.Expression) -> exp.Expression:
    if not (isinstance(node, exp.Anonymous) and str(node.this).lower() == "hash"):
        return node
    keys = salted_keys(list(node.expressions))
    if keys is not None:  # the second hash: the keys with the seeds of 'ldiv'
        node = exp.Anonymous(this="hash", expressions=[*keys, exp.Literal.string("ldiv")])
    args, seed = _hash_seed(list(node.expressions))
    if len(node.expressions) == 1:  # one value (a whole row: ownership digests kept in ldiv.release)
        return exp.Paren(this=_fill(_PG_HASH_ONE, hash_input=_framed(args[0])))
    combined: exp.Expression | None = None
    for i, arg in enumerate(args):  # each position its own seed, and its own mark for NULL
        term = _fill(
            _PG_HASH_AT,
            value=arg.copy(),
            seed=exp.Literal.number(_position_seed(seed, i, "seed")),
            null=exp.Literal.number(_position_seed(seed, i, "null")),
        )
        combined = term if combined is None else exp.BitwiseXor(this=combined, expression=term)
    assert combined is not None
    return exp.Paren(
        this=exp.BitwiseAnd(this=exp.Paren(this=combined), expression=exp.Literal.number(2**63 - 1))
    )


def _is_rowid(node: exp.Expression | None) -> bool:
    return isinstance(node, exp.Column) and node.name.lower() == "rowid" and not node.this.quoted


def _rewrite_rowid(node: exp.Expression) -> exp.Expression:
    """``rowid`` as the bigint of its ``ctid``; ``min(rowid)`` / ``max(rowid)`` as that of ``min(ctid)`` /
    ``max(ctid)`` (the bigint grows with the tid, so the extreme row is the same), decoded once per group
    instead of once per row (not as a window function, whose result is per row anyway)."""
    grouped = isinstance(node, (exp.Min, exp.Max)) and not isinstance(node.parent, exp.Window)
    agg = node if grouped and _is_rowid(node.this) else None
    column = node.this if agg is not None else node
    if not _is_rowid(column):
        return node
    tree = _pg_template(_PG_ROWID)
    for col in list(tree.find_all(exp.Column)):
        if col.table == "ldiv_t":
            table = column.args.get("table")
            col.set("table", table.copy() if table is not None else None)
            if agg is not None:
                col.replace(type(agg)(this=col.copy()))
    return tree


def _is_list(node: exp.Expression) -> bool:
    return isinstance(node, (exp.Array, exp.ArrayAgg)) or (
        isinstance(node, exp.Column) and node.name.lower() == "counts"  # the only list len() is taken of
    )


_PG_SORTED = {
    True: "(SELECT array_agg(v ORDER BY v ASC) FROM unnest(ldiv_a) AS u(v))",
    False: "(SELECT array_agg(v ORDER BY v DESC) FROM unnest(ldiv_a) AS u(v))",
}
_PG_SORTED_SLICE_SUM = {
    True: "(SELECT sum(v) FROM (SELECT v FROM unnest(ldiv_a) AS u(v) ORDER BY v ASC "
    "OFFSET ldiv_lo - 1 LIMIT greatest(ldiv_hi - ldiv_lo + 1, 0)) AS w)",
    False: "(SELECT sum(v) FROM (SELECT v FROM unnest(ldiv_a) AS u(v) ORDER BY v DESC "
    "OFFSET ldiv_lo - 1 LIMIT greatest(ldiv_hi - ldiv_lo + 1, 0)) AS w)",
}


def _ascending(node: exp.ArraySort) -> bool:
    asc = node.args.get("asc")
    return not (isinstance(asc, exp.Boolean) and asc.this is False)


def _rewrite_lists(node: exp.Expression) -> exp.Expression:
    name = node.name.lower() if isinstance(node, exp.Anonymous) else ""
    if name == "list_extract":
        arr, idx = node.expressions
        return _fill("(ldiv_a)[ldiv_i]", a=arr, i=_index(idx))
    if name == "list_sum":
        (inner,) = node.expressions
        if isinstance(inner, exp.Anonymous) and inner.name.lower() == "list_slice":
            arr, lo, hi = inner.expressions
            if isinstance(arr, exp.ArraySort):  # a slice of the sorted list: one ordered scan of its elements
                return _fill(_PG_SORTED_SLICE_SUM[_ascending(arr)], a=arr.this, lo=lo, hi=hi)
            return _fill(
                "(SELECT sum(v) FROM unnest((ldiv_a)[ldiv_lo:ldiv_hi]) AS u(v))", a=arr, lo=lo, hi=hi
            )
        return _fill("(SELECT sum(v) FROM unnest(ldiv_a) AS u(v))", a=inner)
    if isinstance(node, exp.ArraySort):  # list_sort / list_reverse_sort
        return _fill(_PG_SORTED[_ascending(node)], a=node.this)
    if name == "list_slice":
        arr, lo, hi = node.expressions
        return _fill("(ldiv_a)[ldiv_lo:ldiv_hi]", a=arr, lo=lo, hi=hi)
    if isinstance(node, exp.Length) and _is_list(node.this):
        return _fill("cardinality(ldiv_a)", a=node.this)
    if isinstance(node, exp.ArgMax):  # DuckDB's arg_max skips rows where either argument is NULL
        return _fill(
            "(array_agg(ldiv_a ORDER BY ldiv_b DESC) FILTER (WHERE ldiv_a IS NOT NULL AND ldiv_b IS NOT NULL))[1]",
            a=node.this,
            b=node.expression,
        )
    if isinstance(node, exp.RegexpExtract):
        group = node.args.get("group") or exp.Literal.number(0)
        if isinstance(group, exp.Literal) and group.this == "0":
            return _fill("coalesce(substring(ldiv_a from ldiv_p), '')", a=node.this, p=node.expression)
        return _fill(
            "coalesce((regexp_match(ldiv_a, ldiv_p))[ldiv_g], '')",
            a=node.this,
            p=node.expression,
            g=_index(group),
        )
    if isinstance(node, exp.IgnoreNulls) and isinstance(node.this, exp.AnyValue):
        # DuckDB's any_value is read as ANY_VALUE(x) IGNORE NULLS: a non-NULL value when there is one
        return _fill("(array_agg(ldiv_a) FILTER (WHERE ldiv_a IS NOT NULL))[1]", a=node.this.this)
    if isinstance(node, exp.AnyValue):
        return _fill("(array_agg(ldiv_a) FILTER (WHERE ldiv_a IS NOT NULL))[1]", a=node.this)
    return node


def _subscripted(node: exp.Expression) -> exp.Expression:
    if not isinstance(node.this, (exp.Column, exp.Paren)):
        node.set("this", exp.Paren(this=node.this))  # PostgreSQL subscripts only a name or (expr)
    return node


def _empty_list(node: exp.Expression) -> exp.Expression:
    # an empty list: typed by its context (coalesce, comparison)
    return exp.Literal.string("{}") if not node.expressions else node


def _numeric(node: exp.Expression) -> exp.Expression:
    wide = (exp.DataType.Type.INT128, exp.DataType.Type.UBIGINT, exp.DataType.Type.UINT128)
    return exp.DataType.build("NUMERIC") if node.this in wide else node


def _rewrite_bit_count(node: exp.Expression) -> exp.Expression:
    """``bit_count(x)`` of a BIGINT (a bit mask): PostgreSQL counts the bits of a bit string only
    (14 and later), so the integer goes in as its 64 bits."""
    if not (
        isinstance(node, exp.Anonymous)
        and str(node.this).lower() == "bit_count"
        and len(node.expressions) == 1
    ):
        return node
    if isinstance(node.expressions[0], exp.Anonymous):  # a bit string already (bitstring_agg)
        return node
    return _fill("bit_count(CAST(ldiv_x AS BIT(64)))", x=node.expressions[0])


def _rewrite_node(node: exp.Expression) -> exp.Expression:
    """One pass of every node rewrite (each returns the node itself when it does not apply)."""
    for rewrite in (_rewrite_hash, _rewrite_rowid, _rewrite_lists, _rewrite_bit_count):
        new = rewrite(node)
        if new is not node:
            return new
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


def _order_by_all(select: exp.Expression) -> None:
    order = select.args.get("order")
    if order is None or len(order.expressions) != 1:
        return
    item = order.expressions[0]
    col = item.this if isinstance(item, exp.Ordered) else item
    if not (isinstance(col, exp.Var) and col.name.upper() == "ALL"):
        return
    first = select
    while isinstance(first, exp.SetOperation):
        first = first.this
    width = len(first.expressions) if isinstance(first, exp.Select) else 0
    desc = bool(item.args.get("desc")) if isinstance(item, exp.Ordered) else False
    nulls_first = bool(item.args.get("nulls_first")) if isinstance(item, exp.Ordered) else False
    order.set(
        "expressions",
        [
            exp.Ordered(this=exp.Literal.number(i + 1), desc=desc, nulls_first=nulls_first)
            for i in range(width)
        ],
    )


def _alias_subqueries(stmt: exp.Expression) -> None:
    """PostgreSQL before 16 wants an alias on every subquery in FROM / JOIN."""
    for i, sub in enumerate(list(stmt.find_all(exp.Subquery))):
        if not sub.alias and isinstance(sub.parent, (exp.From, exp.Join)):
            sub.set("alias", exp.TableAlias(this=exp.to_identifier(f"ldiv_sq{i}")))


def _hashable_joins(stmt: exp.Expression) -> None:
    """``a IS NOT DISTINCT FROM b`` as a join condition leaves PostgreSQL only a nested loop (rows x rows).
    Each such conjunct becomes ``(a IS NULL) = (b IS NULL) AND coalesce(a::text, '') = coalesce(b::text, '')``:
    the same pairs for values of one type (text equality is value equality for text, integers and
    floats, whose text form is exact; not for -0.0), and both parts hash-join. The conditions rewritten:
    a join's ``ON``, and the ``WHERE`` of an ``EXISTS`` subquery, which PostgreSQL plans as a semi- or
    anti-join of the same pairs."""
    for join in list(stmt.find_all(exp.Join)):
        _hashable_conjuncts(join.args.get("on"), join)
    for exists in list(stmt.find_all(exp.Exists)):
        select = exists.this
        where = select.args.get("where") if isinstance(select, exp.Select) else None
        if where is not None:
            _hashable_conjuncts(where.this, where)


def _hashable_conjuncts(condition: exp.Expression | None, owner: exp.Expression) -> None:
    """Rewrite the null-safe equalities that are top-level conjuncts of ``condition`` (held by ``owner``);
    inside OR/NOT the plain form stays: no join key can come from there."""
    if condition is None:
        return
    for node in list(condition.find_all(exp.NullSafeEQ)):
        parent = node.parent
        while isinstance(parent, exp.Paren):
            parent = parent.parent
        if parent is owner or isinstance(parent, exp.And):
            node.replace(_fill(_PG_NULLSAFE_EQ, a=node.this, b=node.expression))


def _replace_table(stmt: exp.Create) -> list[exp.Expression]:
    """``CREATE OR REPLACE TABLE`` as DROP + CREATE; a table created from a query is analyzed right
    away (work tables are temporary, which autovacuum never analyzes: without statistics the planner
    may pick a nested loop over two large work tables)."""
    if str(stmt.args.get("kind", "")).upper() != "TABLE":
        return [stmt]
    target = stmt.this.this if isinstance(stmt.this, exp.Schema) else stmt.this
    out: list[exp.Expression] = [stmt]
    if stmt.args.get("replace"):
        stmt.set("replace", False)
        out.insert(0, exp.Drop(tables=[target.copy()], kind="TABLE", exists=True))
    if stmt.args.get("expression") is not None:
        out.append(exp.Command(this="ANALYZE", expression=exp.Literal.string(target.sql(dialect="postgres"))))
    return out


def _postgres(stmt: exp.Expression) -> list[exp.Expression]:
    # in place (the statement was parsed for this translation): the copies took a third of it, profiled
    stmt = stmt.transform(_rewrite_node, copy=False).transform(_rewrite_lists, copy=False)  # lists nest
    for select in stmt.find_all(exp.Select):
        _group_by_all(select)
    for node in [*stmt.find_all(exp.Select), *stmt.find_all(exp.SetOperation)]:
        _order_by_all(cast(exp.Expression, node))
    _alias_subqueries(stmt)
    _hashable_joins(stmt)
    if isinstance(stmt, exp.Create):
        return _replace_table(stmt)
    return [stmt]


_PG_TYPES = {
    "int": "BIGINT",
    "bigint": "NUMERIC",
    "float": "DOUBLE PRECISION",
    "str": "TEXT",
    "bool": "BOOLEAN",
    "int[]": "BIGINT[]",
    "float[]": "DOUBLE PRECISION[]",
    "str[]": "TEXT[]",
    "[]": "BIGINT[]",
}


def param_kind(value: object) -> str:
    """The kind of a bound value that decides its SQL type on an engine that needs one (PostgreSQL
    cannot infer the type of ``$x IS NULL`` or of a list): see :func:`translate`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int" if -(2**63) <= value < 2**63 else "bigint"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (list, tuple)):
        kinds = {param_kind(v) for v in value} - {"null"}
        if not kinds:
            return "[]"
        if kinds <= {"int", "bigint"}:
            return "int[]"
        if kinds <= {"int", "float"}:
            return "float[]"
        return "str[]" if kinds == {"str"} else "other"
    return "other"


def _bind_types(stmt: exp.Expression, kinds: dict[str, str]) -> exp.Expression:
    """``NULL`` for a parameter bound to None (it carries no value), a cast to the value's type for
    the others."""

    def visit(node: exp.Expression) -> exp.Expression:
        if not isinstance(node, exp.Placeholder) or not node.name:
            return node
        kind = kinds.get(node.name, "other")
        if kind == "null":
            return exp.Null()
        if kind in _PG_TYPES:
            to = exp.DataType.build(_PG_TYPES[kind], dialect="postgres")
            return exp.Paren(this=exp.Cast(this=node.copy(), to=to))
        return node

    return stmt.transform(visit, copy=False)


def _params_style(sql: str, params: frozenset[str], positional: bool) -> str:
    """psycopg reads ``%``: a literal one is doubled, except in the placeholders themselves."""
    if positional:
        return sql.replace("%", "%%").replace("?", "%s") if "?" in sql else sql
    if not params:
        return sql
    names = "|".join(re.escape(p) for p in sorted(params, key=len, reverse=True))
    return re.sub(r"%(?!\((?:" + names + r")\)s)", "%%", sql)


class LdivPostgres(Postgres):
    """sqlglot's PostgreSQL, writing the nodes it would leave in DuckDB's terms (``HUGEINT``, an empty
    list, a subscript of an expression) as PostgreSQL reads them."""

    class Generator(PostgresGenerator):
        TRANSFORMS: ClassVar[dict[type[exp.Expr], Callable[..., str]]] = {
            **PostgresGenerator.TRANSFORMS,
            **rewritten(
                PostgresGenerator,
                {exp.Bracket: _subscripted, exp.Array: _empty_list, exp.DataType: _numeric},
            ),
        }


POSTGRES = Target(LdivPostgres, _postgres, _bind_types, _params_style)
