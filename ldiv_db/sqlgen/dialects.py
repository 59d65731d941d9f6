"""From the templates' DuckDB dialect to an engine's, on the parsed statement (sqlglot), never on text.

An engine brings its :class:`Target` (``ldiv_db/db/<engine>/dialect.py``): a sqlglot dialect of its own
whose generator's ``TRANSFORMS`` table holds the rewrites of single nodes (:func:`rewritten`), the
rewrites of whole statements (one statement may become several), and, where its driver needs them, the
typing of bound parameters and their spelling. :func:`translate` runs a text through it (cached per
statement and target); nothing here names an engine.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias, cast

from ..util.lazy import library

if TYPE_CHECKING:
    import sqlglot
    import sqlglot.expressions as exp
    from sqlglot.dialects.dialect import Dialect
    from sqlglot.generator import Generator
else:  # loaded when a statement is translated, not on DuckDB (decision 0023, Round 7)
    sqlglot = library("sqlglot")
    exp = library("sqlglot.expressions")

Rewrite: TypeAlias = "Callable[[exp.Expression], exp.Expression]"


def _parse(sql: str) -> list[exp.Expression]:
    return [cast(exp.Expression, s) for s in sqlglot.parse(sql, read="duckdb") if s is not None]


def _as_generated(base: type[Generator], kind: type[exp.Expr]) -> Callable[..., str]:
    """How ``base`` writes a node of type ``kind``: its TRANSFORMS entry, its ``<key>_sql`` method, or
    (a function) its generic call."""
    entry = base.TRANSFORMS.get(kind)
    if entry is not None:
        return entry
    method = getattr(base, f"{kind.key}_sql", None)
    if method is not None:
        return cast(Callable[..., str], method)
    if issubclass(kind, exp.Func):
        return cast(Callable[..., str], base.function_fallback_sql)
    raise TypeError(f"{base.__name__} cannot write a {kind.__name__}")


def rewritten(
    base: type[Generator], rules: Mapping[type[exp.Expr], Rewrite]
) -> dict[type[exp.Expr], Callable[..., str]]:
    """``TRANSFORMS`` entries for a generator derived from ``base``: a node of a type in ``rules`` is
    written as the node its rule returns (which may be rewritten in turn); a node the rule returns as it
    is, ``base`` writes as always."""

    def entry(kind: type[exp.Expr], rule: Rewrite) -> Callable[..., str]:
        as_base = _as_generated(base, kind)

        def write(gen: Generator, node: exp.Expression) -> str:
            new = rule(node)
            return as_base(gen, node) if new is node else gen.sql(new)

        return write

    return {kind: entry(kind, rule) for kind, rule in rules.items()}


# the salt before each key of the templates' second hash (render's ``salted`` filter)
SECOND_HASH_SALT = "ldiv:"


def salted_keys(args: list[exp.Expression]) -> list[exp.Expression] | None:
    """The keys of the templates' second hash, ``hash('ldiv:' || CAST(k AS VARCHAR), ...)``, or None for
    any other hash. DuckDB's hash has no seed, so its second hash reads each key in another encoding;
    an engine whose hash takes a seed hashes the keys themselves with seeds of their own instead
    (``hash(k1, ..., 'ldiv')`` in its translation), as cheap as the first hash."""
    keys: list[exp.Expression] = []
    for arg in args:
        salt, key = (arg.this, arg.expression) if isinstance(arg, exp.DPipe) else (None, None)
        if not (isinstance(salt, exp.Literal) and salt.is_string and salt.this == SECOND_HASH_SALT):
            return None
        if not isinstance(key, exp.Cast):
            return None
        keys.append(key.this)
    return keys or None


def _one_statement(stmt: exp.Expression) -> list[exp.Expression]:
    return [stmt]


def _no_binding(stmt: exp.Expression, kinds: dict[str, str]) -> exp.Expression:
    return stmt


def _no_params_style(sql: str, params: frozenset[str], positional: bool) -> str:
    return sql


@dataclass(frozen=True)
class Target:
    """How the templates' DuckDB dialect becomes one engine's: the engine's sqlglot ``dialect`` (its
    generator's TRANSFORMS rewrite single nodes), the ``statements`` rewrites run on each parsed
    statement before it is written (one statement may become several), the typing of bound parameters
    (``kinds``: :func:`translate`), and the spelling of placeholders its driver reads."""

    dialect: type[Dialect]
    statements: Callable[[exp.Expression], list[exp.Expression]] = _one_statement
    bind_types: Callable[[exp.Expression, dict[str, str]], exp.Expression] = _no_binding
    params_style: Callable[[str, frozenset[str], bool], str] = _no_params_style


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


@functools.lru_cache(maxsize=8192)
def translate(
    sql: str,
    target: Target | None,
    params: frozenset[str] = frozenset(),
    positional: bool = False,
    ldiv_schema: str = "ldiv",
    kinds: tuple[tuple[str, str], ...] = (),
) -> list[str]:
    """The statements that run ``sql`` (DuckDB dialect, possibly several statements) on the engine of
    ``target`` (None: DuckDB's own, as written); ``ldiv_schema`` other than ``ldiv`` reads and writes
    ldiv_db's tables there instead; ``kinds`` gives each named parameter's kind (the engine's
    ``param_kind``; part of the cache key, as the SQL depends on it)."""
    if target is None:
        return [sql]
    if positional:
        sql = sql.replace("?", "$ldiv_pos_")  # keep the positions through the parser
    out: list[str] = []
    for parsed in _parse(sql):
        stmt = parsed if ldiv_schema == "ldiv" else _map_ldiv(parsed, ldiv_schema)
        if stmt is None:
            continue
        if kinds:
            stmt = target.bind_types(stmt, dict(kinds))
        for part in target.statements(stmt):
            # RAISE: a construct the target cannot express is an error here, never a silently different query
            text = part.sql(dialect=target.dialect, unsupported_level=sqlglot.ErrorLevel.RAISE)
            if positional:
                for spelled in ("%(ldiv_pos_)s", ":ldiv_pos_", "$ldiv_pos_"):  # the generators' spellings
                    text = text.replace(spelled, "?")
            out.append(target.params_style(text, params, positional))
    return out


def written_tables(sql: str, reads: bool = False) -> list[str]:
    """``schema.table`` of every table ``sql`` writes (CREATE/INSERT/UPDATE/DELETE/DROP/ALTER targets),
    or with ``reads`` every table it names (remembered per text: a read-only run asks before every
    statement, and parsing costs about a millisecond)."""
    return list(_tables_of(sql, reads))


@functools.lru_cache(maxsize=4096)
def _tables_of(sql: str, reads: bool) -> tuple[str, ...]:
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
    return tuple(out)


__all__ = ["Target", "rewritten", "translate", "written_tables"]
