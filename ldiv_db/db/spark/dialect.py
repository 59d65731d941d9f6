"""Spark SQL as ldiv_db writes it: :data:`SPARK`, the engine's :class:`~ldiv_db.sqlgen.dialects.Target`
(:func:`ldiv_db.sqlgen.dialects.translate` runs it), and the two rewrites the engine applies to a
translated statement (:func:`spark_next_id`, :func:`emulate_dml`).

Rewrites of single nodes that nothing else reads are entries of :class:`LdivSpark`'s generator
TRANSFORMS (``COLLATE``, JSON casts and types, ``MATERIALIZED``, one-argument ``least``/``greatest``);
the others run in one pass over the statement, :func:`spark_statements`, since a rewrite there works on
the nodes below it (decision 0021). sqlglot's transpiler does most of the work (``$name`` becomes Spark's ``:name`` marker, ``arg_max`` ``max_by``,
``GROUP BY ALL`` stays); the rewrites below cover the rest:

* ``CREATE OR REPLACE TABLE t AS ...`` becomes ``DROP TABLE IF EXISTS t`` + ``CREATE TABLE t AS ...``
  (Spark replaces only v2 tables);
* ``hash(a, b, ...)`` becomes Spark's ``xxhash64`` of the values themselves, each followed by whether it
  is NULL (xxhash64 skips a NULL, so without the flag (NULL, x) and (x, NULL) would hash alike), masked
  to 63 bits. xxhash64 chains its arguments (each hashed with the previous one's hash as seed), so the
  constant arguments go first: ``hash(..., 'ldiv')`` then starts its chain from another seed and stays
  an independent second hash (with 'ldiv' last, two tuples whose chains met would collide in both
  hashes); the templates spell it with salted keys (:func:`~ldiv_db.sqlgen.dialects.salted_keys`). A
  text encoding of every value (as on PostgreSQL) cost more than the scan. The ids differ from DuckDB's; the algorithms renumber groups by content;
* ``rowid`` (Spark tables have none) is the column ``ldiv_rowid`` that ``ldiv load`` writes on Spark
  (0..n-1 in file order); the catalog hides it from the table's columns;
* list functions: ``list_extract`` and ``l[i]`` with a computed ``i`` → ``element_at`` (1-based, as in
  DuckDB), ``list_slice`` and ``l[lo:hi]`` → ``slice``, ``list(x ORDER BY ...)`` → a sorted ``collect_list`` (keys in
  mixed directions through a comparator; a ``FILTER`` stays on the aggregate), ``len`` of a list →
  ``size``, ``list_sum`` → ``aggregate``; ``x = ANY(l)`` → ``array_contains(l, x)`` (sqlglot's
  ``exists(l, e -> x = e)`` runs its lambda per row);
* ``x COLLATE "C"`` (the templates' bytes-order for character columns) → ``x``: Spark's strings compare
  by their bytes already;
* types: ``HUGEINT``/``UBIGINT`` → ``BIGINT``; ``JSON`` → ``STRING`` and ``CAST(x AS JSON)`` → ``x`` (the
  audit tables keep JSON as text);
* DDL of the ``ldiv`` schema: sequences are dropped (:data:`ldiv_db.db.spark.engine.SEQUENCES` says which table's
  largest id stands in for each), constraints (primary key, unique, not null) are dropped, defaults kept;
* ``nextval('ldiv.x_seq')`` is left for the engine: :func:`spark_next_id` turns it into the bound value
  ``:ldiv_next_id`` and drops the ``RETURNING`` clause Spark lacks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import ClassVar, cast

import sqlglot
from sqlglot import exp
from sqlglot.dialects.spark import Spark
from sqlglot.generators.spark import SparkGenerator

from ...sqlgen.dialects import Target, rewritten, salted_keys
from ...sqlgen.fragments import filled, fragment

_MASK = exp.Literal.number(9223372036854775807)


def _spark(text: str) -> exp.Expression:
    return fragment(text, "spark")


def _fill(text: str, **nodes: exp.Expression) -> exp.Expression:
    return filled(text, "spark", lambda node: exp.Paren(this=_sub(node)), **nodes)


def _sub(node: exp.Expression) -> exp.Expression:
    """A copy of a part of a rewritten node, itself rewritten (sqlglot's transform does not descend into a
    node it replaced)."""
    return node.copy().transform(_rewrite, copy=False)


def _func(name: str, *args: exp.Expression) -> exp.Expression:
    return cast(exp.Expression, exp.func(name, *args))


def _hash_args(args: list[exp.Expression]) -> list[exp.Expression]:
    """The arguments of ``xxhash64`` for ``hash(args)``: the constants first, then every other value with
    its NULL flag."""
    constant = [a for a in args if isinstance(a, exp.Literal)]
    out = [_sub(a) for a in constant]
    for a in args:
        if not isinstance(a, exp.Literal):
            out += [_sub(a), exp.Is(this=exp.Paren(this=_sub(a)), expression=exp.Null())]
    return out


def _ordered_list(node: exp.ArrayAgg, where: exp.Expression | None = None) -> exp.Expression | None:
    """``list(x ORDER BY k1, k2 [DESC])`` (one direction): Spark's ``collect_list`` has no order, so the
    values are collected with their keys, sorted, and taken back out."""
    order = node.this
    if not isinstance(order, exp.Order):
        return None
    keys = list(order.expressions)
    fields = [cast(exp.Expression, exp.alias_(_sub(k.this), f"k{i}")) for i, k in enumerate(keys)]
    fields.append(cast(exp.Expression, exp.alias_(_sub(order.this), "v")))
    packed = _func("collect_list", _func("struct", *fields))
    if where is not None:  # FILTER (WHERE ...) belongs to the aggregate, inside the sort
        packed = exp.Filter(this=packed, expression=_sub(where))
    if len({bool(k.args.get("desc")) for k in keys}) == 1:
        asc = exp.false() if keys[0].args.get("desc") else exp.true()
        return _fill("transform(sort_array(ldiv_p, ldiv_asc), e -> e.v)", p=packed, asc=asc)
    # keys in both directions: a comparator, key by key (NULLs last, as DuckDB orders them)
    arms = []
    for i, k in enumerate(keys):
        lo, hi = ("1", "-1") if k.args.get("desc") else ("-1", "1")
        arms.append(
            f"WHEN a.k{i} IS NULL AND b.k{i} IS NOT NULL THEN 1 "
            f"WHEN a.k{i} IS NOT NULL AND b.k{i} IS NULL THEN -1 "
            f"WHEN a.k{i} < b.k{i} THEN {lo} WHEN a.k{i} > b.k{i} THEN {hi}"
        )
    cmp = "CASE " + " ".join(arms) + " ELSE 0 END"
    return _fill(f"transform(array_sort(ldiv_p, (a, b) -> {cmp}), e -> e.v)", p=packed)


def _series_table(node: exp.Table) -> exp.Expression | None:
    """``range(a, b) AS t(c)`` in FROM (DuckDB) → ``(SELECT id AS c FROM range(a, b)) AS t``."""
    series = node.this
    if not isinstance(series, exp.GenerateSeries):
        return None
    alias = node.args.get("alias")
    name = alias.name if alias is not None else "range"
    cols = alias.columns if alias is not None and alias.columns else []
    col = cols[0].name if cols else "range"
    start = series.args.get("start") or exp.Literal.number(0)
    end = _sub(series.args["end"])
    if not series.args.get("is_end_exclusive"):
        end = exp.Add(this=exp.Paren(this=end), expression=exp.Literal.number(1))
    inner = _fill("SELECT id AS ldiv_c FROM range(ldiv_a, ldiv_b)", a=start, b=end)
    inner.expressions[0].set("alias", exp.to_identifier(col, quoted=True))
    return exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier(name, quoted=True)))


def _zipped_unnests(node: exp.Select) -> exp.Select:
    """``SELECT unnest(a) AS x, unnest(b) AS y``: DuckDB zips the lists (row i holds a[i], b[i]); Spark
    would give every combination (a·b rows), so they become one ``inline(arrays_zip(a, b)) AS (x, y)``."""
    found = [
        (i, p)
        for i, p in enumerate(node.expressions)
        if isinstance(p, exp.Alias) and isinstance(p.this, exp.Explode)
    ]
    if len(found) < 2:
        return node
    zipped = exp.Inline(this=exp.ArraysZip(expressions=[p.this.this for _, p in found]))
    names = [exp.to_identifier(p.alias) for _, p in found]
    merged = exp.Aliases(this=zipped, expressions=names)
    keep = [p for i, p in enumerate(node.expressions) if i not in {j for j, _ in found}]
    node.set("expressions", [*keep[: found[0][0]], merged, *keep[found[0][0] :]])
    return node


def _rewrite(node: exp.Expression) -> exp.Expression:
    if isinstance(node, exp.Select):
        return _zipped_unnests(node)
    if isinstance(node, exp.Filter) and isinstance(node.this, exp.ArrayAgg):
        return _ordered_list(node.this, node.expression) or node
    if isinstance(node, exp.ArrayAgg):
        return _ordered_list(node) or node
    if isinstance(node, exp.Table):
        return _series_table(node) or node
    name = node.name.lower() if isinstance(node, exp.Anonymous) else ""
    if name == "hash":
        keys = salted_keys(list(node.expressions))  # the second hash: its chain seeded by 'ldiv'
        args = list(node.expressions) if keys is None else [*keys, exp.Literal.string("ldiv")]
        xx = _func("xxhash64", *_hash_args(args))
        return exp.Paren(this=exp.BitwiseAnd(this=xx, expression=_MASK.copy()))
    if isinstance(node, exp.Column) and node.name.lower() == "rowid" and not node.this.quoted:
        col = exp.column("ldiv_rowid", table=node.table or None, quoted=True)
        return col
    if isinstance(node, exp.Bracket) and len(node.expressions) == 1:
        (idx,) = node.expressions  # DuckDB's list[i] is 1-based; sqlglot shifts only literal indices
        if isinstance(idx, exp.Slice):  # list[lo:hi]: from lo to hi, both included (1-based)
            lo = idx.this if idx.this is not None else exp.Literal.number(1)
            hi = idx.expression
            if hi is None:
                return _fill("slice(ldiv_a, ldiv_lo, size(ldiv_a))", a=_sub(node.this), lo=_sub(lo))
            return _fill(
                "slice(ldiv_a, ldiv_lo, ldiv_hi - ldiv_lo + 1)", a=_sub(node.this), lo=_sub(lo), hi=_sub(hi)
            )
        if not isinstance(idx, exp.Literal):
            return _func("element_at", _sub(node.this), _sub(idx))
    if name == "list_extract":
        arr, idx = node.expressions
        return _func("element_at", _sub(arr), _sub(idx))
    if name == "list_slice":  # DuckDB: from index lo to hi, both included (1-based)
        a, lo, hi = node.expressions
        return _fill("slice(ldiv_a, ldiv_lo, ldiv_hi - ldiv_lo + 1)", a=a, lo=lo, hi=hi)
    if name == "list_sum":
        (inner,) = node.expressions
        arr = inner
        if isinstance(inner, exp.Anonymous) and inner.name.lower() == "list_slice":
            a, lo, hi = inner.expressions
            arr = _fill("slice(ldiv_a, ldiv_lo, ldiv_hi - ldiv_lo + 1)", a=a, lo=lo, hi=hi)
        return _fill("aggregate(ldiv_a, CAST(0 AS BIGINT), (acc, x) -> acc + x)", a=arr)
    if isinstance(node, exp.EQ) and isinstance(node.expression, exp.Any):
        arr = node.expression.this  # x = ANY(list): Spark writes a lambda per row
        arr = arr.this if isinstance(arr, exp.Paren) else arr
        return _func("array_contains", _sub(arr), _sub(node.this))
    if isinstance(node, exp.Length) and _is_list(node.this):
        return _func("size", _sub(node.this))
    if isinstance(
        node, (exp.PrimaryKeyColumnConstraint, exp.NotNullColumnConstraint, exp.UniqueColumnConstraint)
    ):
        return exp.Null()  # dropped below (constraints Spark tables do not enforce)
    return node


def _unmaterialized(node: exp.Expression) -> exp.Expression:
    node.set("materialized", None)  # Spark's WITH has no MATERIALIZED; it plans the CTE as it will
    return node


def _one_argument(node: exp.Expression) -> exp.Expression:
    return node if node.expressions else node.this  # least(x) / greatest(x): x


def _json_cast(node: exp.Expression) -> exp.Expression:
    to = cast(exp.Cast, node).to
    return node.this if to.this == exp.DataType.Type.JSON else node  # JSON is kept as text


def _bytes_order(node: exp.Expression) -> exp.Expression:
    # Spark orders strings by their bytes already (UTF8_BINARY)
    return node.this if node.expression.name.upper() == "C" else node


def _spark_type(node: exp.Expression) -> exp.Expression:
    if node.this in (exp.DataType.Type.INT128, exp.DataType.Type.UBIGINT, exp.DataType.Type.UINT128):
        return exp.DataType.build("BIGINT")
    if node.this == exp.DataType.Type.JSON:
        return exp.DataType.build("STRING", dialect="spark")
    return node


def _is_list(node: exp.Expression) -> bool:
    return isinstance(node, (exp.Array, exp.ArrayAgg)) or (
        isinstance(node, exp.Column) and node.name.lower() == "counts"
    )


def _strip_constraints(stmt: exp.Expression) -> None:
    for cons in list(stmt.find_all(exp.ColumnConstraint)):
        if isinstance(cons.args.get("kind"), exp.Null):
            cons.pop()
    schema = stmt.this if isinstance(stmt, exp.Create) else None
    if isinstance(schema, exp.Schema):
        for item in list(schema.expressions):
            if isinstance(item, (exp.PrimaryKey, exp.UniqueColumnConstraint, exp.Constraint, exp.Null)):
                item.pop()


def spark_statements(stmt: exp.Expression) -> list[exp.Expression]:
    """The Spark statements for one parsed DuckDB statement (none for a sequence)."""
    if isinstance(stmt, exp.Create) and str(stmt.args.get("kind", "")).upper() == "SEQUENCE":
        return []
    stmt = stmt.transform(_rewrite, copy=False)  # in place: the statement was parsed for this translation
    _strip_constraints(stmt)
    if isinstance(stmt, exp.Create) and str(stmt.args.get("kind", "")).upper() == "TABLE":
        # work tables are tables of the connection's work schema on Spark (a TEMP table would become a
        # temporary view, which cannot live in a schema)
        for prop in list(stmt.find_all(exp.TemporaryProperty)):
            prop.pop()
    if (
        isinstance(stmt, exp.Create)
        and stmt.args.get("replace")
        and str(stmt.args.get("kind", "")).upper() == "TABLE"
    ):
        target = stmt.this.this if isinstance(stmt.this, exp.Schema) else stmt.this
        stmt.set("replace", False)
        return [exp.Drop(tables=[target.copy()], kind="TABLE", exists=True), stmt]
    return [stmt]


_NEXTVAL = re.compile(r"nextval\('(?:[A-Za-z_]\w*\.)?(\w+)'\)", re.IGNORECASE)


def spark_next_id(sql: str) -> tuple[str, str]:
    """``INSERT ... nextval('ldiv.x_seq') ... RETURNING c`` → (the INSERT with ``:ldiv_next_id``, ``x_seq``)."""
    m = _NEXTVAL.search(sql)
    if m is None:
        raise ValueError("no nextval in the statement")
    tree = _spark(_NEXTVAL.sub(":ldiv_next_id", sql, count=1))
    tree.set("returning", None)
    return tree.sql(dialect="spark"), m.group(1)


def _overwrite_from_itself(tree: exp.Insert, scratch: str) -> list[str] | None:
    """``INSERT OVERWRITE TABLE t SELECT ... FROM t ...``: Spark refuses to overwrite a table its query
    reads, so the query's rows go to ``scratch`` first (None when the query does not read ``t``)."""
    target = tree.this
    key = (target.db.lower(), target.name.lower())
    query = tree.expression
    if query is None or not any((t.db.lower(), t.name.lower()) == key for t in query.find_all(exp.Table)):
        return None
    return _through_scratch(target.sql(dialect="spark"), query.sql(dialect="spark"), scratch)


def _through_scratch(name: str, body: str, scratch: str) -> list[str]:
    """Table ``name`` rewritten with the rows of query ``body``, built in ``scratch`` first."""
    return [
        f"DROP TABLE IF EXISTS {scratch}",
        f"CREATE TABLE {scratch} AS {body}",
        f"INSERT OVERWRITE TABLE {name} SELECT * FROM {scratch}",  # noqa: S608
        f"DROP TABLE IF EXISTS {scratch}",
    ]


def dml_probe(sql: str) -> str | None:
    """For an ``UPDATE``/``DELETE`` of a table: a query that returns a row exactly when the statement
    would change one (``SELECT 1 FROM t WHERE <its condition> LIMIT 1``); None for any other statement.
    An emulated statement (:func:`emulate_dml`) rewrites the whole table even when it matches nothing, so
    the engine asks this first and skips the statement when it returns no row."""
    tree = sqlglot.parse_one(sql, read="spark")
    if not isinstance(tree, (exp.Update, exp.Delete)) or not isinstance(tree.this, exp.Table):
        return None
    if any(tree.args.get(k) for k in ("from", "using", "with", "joins")):
        return None  # a condition on other tables too: always run
    probe = exp.select("1").from_(tree.this.copy()).limit(1)
    where = tree.args.get("where")
    if where is not None:
        probe = probe.where(exp.Coalesce(this=where.this.copy(), expressions=[exp.false()]))
    return probe.sql(dialect="spark")


def emulate_dml(sql: str, columns: Callable[[str], list[str]], scratch: str) -> list[str] | None:
    """``UPDATE``/``DELETE`` on a Spark table without row-level operations (plain Parquet tables, such as
    the ``ldiv`` audit tables): the table's new content is built in ``scratch`` (a ``schema.table`` name
    of the work schema) and written back with ``INSERT OVERWRITE``. ``columns(table)`` gives the table's
    columns in order. An ``INSERT OVERWRITE`` that reads its own target goes through ``scratch`` the same
    way. None when ``sql`` is none of these. The rewrite is not atomic: the audit tables are
    small, and an interrupted rewrite of one leaves ``scratch`` holding the new content."""
    tree = sqlglot.parse_one(sql, read="spark")
    if isinstance(tree, exp.Insert) and tree.args.get("overwrite") and isinstance(tree.this, exp.Table):
        return _overwrite_from_itself(tree, scratch)
    if not isinstance(tree, (exp.Update, exp.Delete)):
        return None
    table = tree.this
    if not isinstance(table, exp.Table):
        return None
    where = tree.args.get("where")
    hit = exp.Coalesce(this=where.this.copy(), expressions=[exp.false()]) if where is not None else exp.true()
    name = table.sql(dialect="spark")
    select = exp.select("*").from_(table.copy())
    if isinstance(tree, exp.Delete):
        select = select.where(exp.not_(hit))
    else:
        sets = {eq.this.name.lower(): eq.expression for eq in tree.expressions}
        items: list[exp.Expression] = []
        for col in columns(name):
            ident = exp.column(col, quoted=True)
            value = sets.get(col.lower())
            if value is None:
                items.append(ident)
                continue
            new = exp.Case(ifs=[exp.If(this=hit.copy(), true=value.copy())], default=ident.copy())
            items.append(cast(exp.Expression, exp.alias_(new, col, quoted=True)))
        select = exp.select(*items).from_(table.copy())
    return _through_scratch(name, select.sql(dialect="spark"), scratch)


class LdivSpark(Spark):
    """sqlglot's Spark, writing the single nodes it would leave in DuckDB's terms as Spark reads them."""

    class Generator(SparkGenerator):
        TRANSFORMS: ClassVar[dict[type[exp.Expr], Callable[..., str]]] = {
            **SparkGenerator.TRANSFORMS,
            **rewritten(
                SparkGenerator,
                {
                    exp.CTE: _unmaterialized,
                    exp.Least: _one_argument,
                    exp.Greatest: _one_argument,
                    exp.Cast: _json_cast,
                    exp.Collate: _bytes_order,
                    exp.DataType: _spark_type,
                },
            ),
        }


SPARK = Target(LdivSpark, spark_statements)
